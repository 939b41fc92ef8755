// Turns grounded in retrieved passages: references for citations, passages fenced into the
// model's user turn, /search without a model, and nothing retrieved as a normal outcome.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IndexStore } from '../../src/core/retrieval/store.js';
import { MultiRetriever } from '../../src/core/agent/grounding.js';
import { collectTurn } from '../../src/core/agent/turn.js';
import { ScriptedEngine } from '../../src/core/engines/scripted.js';
import type { TurnEvent } from '../../src/core/agent/events.js';

let dir: string;
let store: IndexStore;
let retriever: MultiRetriever;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'control-ground-'));
  const ws = join(dir, 'ws');
  mkdirSync(ws);
  writeFileSync(
    join(ws, 'waterbed.md'),
    '---\ntitle: Bode sensitivity integral\n---\n# Bode sensitivity integral\n\nThe Bode sensitivity integral says the area under log |S(jw)| is zero for a stable open loop: pushing sensitivity down at some frequencies pushes it up elsewhere, the waterbed effect.\n',
  );
  writeFileSync(join(ws, 'routh.md'), '# Routh tables\n\nThe Routh-Hurwitz criterion counts right half plane roots of a polynomial from its coefficients.\n');
  store = await IndexStore.open(join(dir, 'index'));
  await store.build(ws);
  retriever = new MultiRetriever([{ name: 'workspace', root: ws, store }]);
});

after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const refs = (ev: TurnEvent[]) => ev.filter((e): e is Extract<TurnEvent, { type: 'reference' }> => e.type === 'reference');

test('a model turn gets the matching passage fenced in its user message, and the answer cites it', async () => {
  const engine = new ScriptedEngine(['The waterbed effect [1].']);
  const ev = await collectTurn({ prompt: 'what does the Bode sensitivity integral say about the waterbed effect?' }, { engine, retriever });
  const r = refs(ev);
  assert.ok(r.length >= 1);
  assert.match(r[0].uri, /^file:.*waterbed\.md$/);
  assert.match(r[0].title, /Bode sensitivity integral, lines? \d+/);
  assert.ok(r[0].range && r[0].range.startLine >= 1);
  const user = engine.seen[0].at(-1)!.content;
  assert.match(user, /<data id="1" source="Bode sensitivity integral, lines? \d/);
  assert.match(user, /waterbed effect/);
  assert.equal(engine.seen[0][0].role, 'system');
  assert.ok(!engine.seen[0][0].content.includes('waterbed'), 'passages never enter the cached system prefix');
});

test('/search lists the hits with their sources and ranges, without a model', async () => {
  const ev = await collectTurn({ command: 'search', prompt: 'Routh Hurwitz right half plane roots' }, { retriever });
  const text = ev
    .filter((e) => e.type === 'text')
    .map((e) => (e as { text: string }).text)
    .join('');
  assert.match(text, /\*\*\[1\] Routh tables\*\*/);
  assert.match(text, /routh\.md/);
  assert.ok(refs(ev).length >= 1);
});

test('nothing matching is a normal outcome, said plainly', async () => {
  const ev = await collectTurn({ command: 'search', prompt: 'quaternion attitude kinematics spacecraft' }, { retriever });
  const text = ev
    .filter((e) => e.type === 'text')
    .map((e) => (e as { text: string }).text)
    .join('');
  assert.match(text, /Nothing in your files/);
  assert.equal(refs(ev).length, 0);
});

test('/search without an index says how to build one', async () => {
  const ev = await collectTurn({ command: 'search', prompt: 'anything' });
  assert.match((ev.find((e) => e.type === 'error') as { message: string }).message, /Rebuild Index/);
});

test('without a model, a conceptual question gets the honest answer plus the passages that match', async () => {
  const ev = await collectTurn({ prompt: 'explain the waterbed effect and the Bode sensitivity integral' }, { retriever });
  const text = ev
    .filter((e) => e.type === 'text')
    .map((e) => (e as { text: string }).text)
    .join('');
  assert.match(text, /needs a language model/);
  assert.match(text, /Passages that may help/);
  assert.ok(refs(ev).length >= 1);
});
