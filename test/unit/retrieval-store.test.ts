// The retrieval index: RRF, the gate and its calibration, incremental updates, .gitignore and
// binary files, and the real transformers.js path on a generated tiny ONNX embedder. Offline;
// fixtures are written to temp folders. Crash-resume (a build process killed mid-way):
// test/slow/retrieval-store.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IndexStore } from '../../src/core/retrieval/store.js';
import { calibrateThreshold, rrf } from '../../src/core/retrieval/fusion.js';
import { passagesForPrompt } from '../../src/core/retrieval/present.js';
import { fenceData } from '../../src/core/agent/fence.js';
import { writeTinyEmbedder } from '../fixtures/onnx.js';
import { makePdf } from '../fixtures/pdf.js';
import { idx, workspace } from './retrieval-notes.js';

test('RRF: 1/(60 + rank) summed over rankings, missing ranks contribute nothing', () => {
  const f = rrf([
    ['a', 'b', 'c'],
    ['c', 'a'],
  ]);
  assert.deepEqual(
    f.map((x) => x.key),
    ['a', 'c', 'b'],
  );
  assert.ok(Math.abs(f[0].score - (1 / 61 + 1 / 62)) < 1e-12);
  assert.ok(Math.abs(f[2].score - 1 / 62) < 1e-12);
  assert.deepEqual(rrf([]), []);
});

test('gate calibration: midpoint of the gap when separable, best split otherwise', () => {
  const a = calibrateThreshold([0.7, 0.68, 0.8], [0.5, 0.57], 100);
  assert.ok(a.separable);
  assert.ok(Math.abs(a.threshold - (0.68 + 0.57) / 2) < 1e-12);
  assert.equal(a.accuracy, 1);
  const b = calibrateThreshold([0.6, 0.4, 0.7], [0.45, 0.3], 100);
  assert.ok(!b.separable);
  assert.equal(b.accuracy, 0.8);
  assert.ok(b.threshold >= 0.4 && b.threshold <= 0.6);
  assert.throws(() => calibrateThreshold([], [0.1], 1));
});

test('lexical index: build, search with citations, nothing for an off-topic query, fenced passages', async () => {
  const ws = workspace();
  const store = await IndexStore.open(idx());
  const s = await store.build(ws);
  assert.deepEqual([s.files, s.filesIndexed, s.filesSkipped, s.filesChanged], [6, 6, 0, 6]);
  const r = await store.search('how does the kalman filter use noise covariance', { k: 3 });
  assert.equal(r.mode, 'lexical');
  assert.equal(r.gate.kind, 'lexical-coverage');
  assert.ok(r.hits.length >= 1);
  assert.equal(r.hits[0].path, 'notes/kalman-2.md');
  assert.equal(r.hits[0].source, 'kalman note 2');
  assert.equal(r.hits[0].rank, 1);
  assert.ok('startLine' in r.hits[0].range);
  const none = await store.search('sourdough bread recipe with rye flour');
  assert.equal(none.hits.length, 0);
  assert.equal((await store.search('the of and')).hits.length, 0);
  const fenced = passagesForPrompt(r.hits.slice(0, 1), fenceData);
  assert.match(fenced, /^<data id="1" source="kalman note 2, lines? [\d–]+ \(notes\/kalman-2.md\)">/);
  await store.close();
});

test('incremental update: only the changed file is re-chunked; deleted files leave; reopen keeps it', async () => {
  const ws = workspace();
  const dir = idx();
  let store = await IndexStore.open(dir);
  await store.build(ws);
  const before = store.allChunks();
  writeFileSync(join(ws, 'notes', 'pid-3.md'), '# pid note 3\n\nDerivative kick appears on setpoint steps; filter the derivative term.\n');
  const again = await store.build(ws);
  assert.equal(again.filesChanged, 1, 'a rebuild re-reads only the changed file');
  const after = store.allChunks();
  const changed = after.filter((c) => !before.some((b) => b.id === c.id && b.text === c.text));
  assert.ok(changed.length >= 1 && changed.every((c) => c.path === 'notes/pid-3.md'));
  assert.equal((await store.search('derivative kick setpoint')).hits[0]?.path, 'notes/pid-3.md');
  // update() with one path: re-indexed at once, searchable at once
  writeFileSync(join(ws, 'notes', 'bode-1.md'), '# bode note 1\n\nNichols charts plot gain against phase.\n');
  const u = await store.update([join(ws, 'notes', 'bode-1.md')]);
  assert.equal(u.indexed, 1);
  assert.equal((await store.search('nichols charts')).hits[0]?.chunkId, 'notes/bode-1.md#c0');
  assert.equal(
    (await store.search('crossover gain margin')).hits.some((h) => h.path === 'notes/bode-1.md'),
    false,
    'old text is gone',
  );
  // unchanged content: nothing re-read
  assert.equal((await store.update(['notes/bode-1.md'])).indexed, 0);
  // deletion
  const { unlinkSync } = await import('node:fs');
  unlinkSync(join(ws, 'notes', 'lyapunov-5.md'));
  assert.equal((await store.update(['notes/lyapunov-5.md'])).removed, 1);
  assert.equal((await store.search('lyapunov energy decreases')).hits.length, 0);
  await store.close();
  // a reopened index (lexical snapshot + shards) answers the same
  store = await IndexStore.open(dir);
  assert.equal((await store.search('nichols charts')).hits[0]?.chunkId, 'notes/bode-1.md#c0');
  assert.equal(store.stats().filesIndexed, 5);
  assert.equal((await store.build(ws)).filesChanged, 0);
  await store.close();
});

test('.gitignore, binary, unsupported and include/exclude globs', async () => {
  const ws = workspace(2);
  writeFileSync(join(ws, '.gitignore'), 'private/\n*.log.txt\n');
  mkdirSync(join(ws, 'private'));
  writeFileSync(join(ws, 'private', 'secret.md'), '# secret\n\nlqr weights secret\n');
  writeFileSync(join(ws, 'run.log.txt'), 'lqr log');
  writeFileSync(join(ws, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]));
  writeFileSync(join(ws, 'data.txt'), Buffer.from([0x41, 0, 0, 0x42]));
  writeFileSync(join(ws, 'broken.pdf'), 'not a pdf at all');
  mkdirSync(join(ws, 'drafts'));
  writeFileSync(join(ws, 'drafts', 'x.md'), '# draft\n\nlqr draft text\n');
  const store = await IndexStore.open(idx());
  const s = await store.build(ws, { exclude: ['drafts/**'] });
  const paths = store.allChunks().map((c) => c.path);
  assert.ok(!paths.some((p) => p.startsWith('private/') || p.startsWith('drafts/') || p.endsWith('.log.txt')));
  assert.deepEqual(s.skipped.map((x) => x.path).sort(), ['broken.pdf', 'data.txt']);
  assert.match(s.skipped.find((x) => x.path === 'data.txt')!.reason, /binary/);
  assert.equal(s.files, 4);
  assert.equal(s.filesIndexed, 2);
  await store.close();
});

test('hybrid: the real transformers.js path on a tiny ONNX embedder, gate, calibration, resumable vectors', async () => {
  const model = writeTinyEmbedder();
  const ws = workspace();
  writeFileSync(
    join(ws, 'book.pdf'),
    makePdf([['Front matter.'], ['The kalman filter estimate of the state uses the noise covariance and the model.']], 'Estimation'),
  );
  const dir = idx();
  let store = await IndexStore.open(dir, { embedder: model });
  assert.equal(store.stats().embedderError, undefined);
  await store.build(ws);
  await store.whenEmbedded();
  const st = store.stats();
  assert.equal(st.mode, 'hybrid');
  assert.equal(st.embedded, st.chunks);
  assert.equal(st.gate.calibrated, false);
  const r = await store.search('how does the kalman filter use noise covariance', { k: 3 });
  assert.equal(r.mode, 'hybrid');
  assert.ok(r.hits[0].path.includes('kalman') || r.hits[0].path === 'book.pdf', r.hits[0].path);
  assert.ok(r.hits.every((h) => h.cosine !== undefined && h.cosine >= r.gate.threshold));
  const pdfHit = (await store.search('kalman filter estimate state noise covariance model', { k: 10 })).hits.find((h) => h.path === 'book.pdf');
  assert.deepEqual(pdfHit?.range, { page: 2 });
  // a gate above every cosine returns nothing; lexical top hits do not pass on rank alone
  assert.equal((await store.search('kalman filter', { threshold: 0.99 })).hits.length, 0);
  // calibration from probes, stored with the index
  const cal = await store.calibrate(
    ['kalman filter noise covariance', 'lqr weight riccati', 'bode gain phase margin', 'pid integral windup saturation'],
    ['bread recipe flour yeast oven', 'football goal match team', 'orchid plant water garden soil'],
  );
  assert.ok(cal.separable, JSON.stringify(cal));
  assert.equal(store.stats().gate.calibrated, true);
  assert.equal((await store.search('bread recipe flour yeast oven')).hits.length, 0);
  assert.ok((await store.search('lqr weight riccati')).hits.length > 0);
  // an update is embedded at once
  writeFileSync(join(ws, 'notes', 'new.md'), '# new\n\nThe nyquist plot and the bode plot show the same frequency response.\n');
  await store.update(['notes/new.md']);
  assert.equal(store.stats().embedded, store.stats().chunks);
  await store.close();
  // vectors are stored: a reopened index does not re-embed, and keeps its calibration
  store = await IndexStore.open(dir, { embedder: model });
  assert.equal(store.stats().embedded, store.stats().chunks);
  assert.equal(store.stats().gate.calibrated, true);
  await store.close();
  // a folder without a model: lexical mode, and the stats say why
  const bad = await IndexStore.open(dir, { embedder: join(tmpdir(), 'no-such-model') });
  assert.equal(bad.stats().mode, 'lexical');
  assert.match(bad.stats().embedderError ?? '', /config\.json is missing/);
  await bad.close();
});

test('an index of the older format (JSON shards, lexical.json) is cleared and rebuilt, not misread; texts come from the shards', async () => {
  const ws = workspace();
  const dir = idx();
  mkdirSync(join(dir, 'shards'), { recursive: true });
  const key = 'aaaaaaaaaaaaaaaaaaaaaaaa';
  writeFileSync(
    join(dir, 'shards', `${key}.json`),
    JSON.stringify({ path: 'notes/kalman-2.md', hash: 'x', chunks: [{ id: 'notes/kalman-2.md#c0', text: 'stale text' }] }),
  );
  writeFileSync(join(dir, 'lexical.json'), JSON.stringify({ config: { tokenize: 'strict' }, size: 1, ranges: {}, parts: {} }));
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({
      format: 1,
      lexical: { tokenize: 'strict' },
      nextId: 2,
      files: { 'notes/kalman-2.md': { hash: 'x', size: 1, mtimeMs: 1, key, firstId: 1, count: 1, source: 'old' } },
      skipped: {},
    }),
  );
  let store = await IndexStore.open(dir);
  assert.equal(store.stats().chunks, 0, 'the old index is not read');
  assert.equal(existsSync(join(dir, 'shards', `${key}.json`)), false);
  assert.equal(existsSync(join(dir, 'lexical.json')), false);
  const s = await store.build(ws);
  assert.equal(s.filesChanged, 6);
  assert.equal(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).format, 2);
  const r = await store.search('kalman filter noise covariance', { k: 1 });
  assert.equal(r.hits[0].path, 'notes/kalman-2.md');
  assert.match(r.hits[0].text, /noisy measurements/);
  assert.ok(s.timings && s.timings.indexMs >= 0 && s.timings.writeMs >= 0);
  await store.close();
  // reopened: the NDJSON snapshot and the shard headers, texts read on demand
  store = await IndexStore.open(dir);
  const again = await store.search('kalman filter noise covariance', { k: 1 });
  assert.deepEqual(
    again.hits,
    r.hits.map((h) => ({ ...h })),
  );
  assert.ok(existsSync(join(dir, 'lexical.ndjson')));
  // a shard that went missing: its file leaves the index on open, the next build restores it
  const { unlinkSync, readdirSync } = await import('node:fs');
  await store.close();
  for (const f of readdirSync(join(dir, 'shards'))) unlinkSync(join(dir, 'shards', f));
  store = await IndexStore.open(dir);
  assert.equal(store.stats().chunks, 0);
  assert.equal((await store.build(ws)).filesChanged, 6);
  assert.equal((await store.search('kalman filter noise covariance', { k: 1 })).hits[0]?.path, 'notes/kalman-2.md');
  await store.close();
});

test('pauseEmbedding stops background embedding without losing what was embedded; startEmbedding resumes', async () => {
  const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { IndexStore } = await import('../../src/core/retrieval/store.js');
  const dir = mkdtempSync(join(tmpdir(), 'control-pause-'));
  const ws = join(dir, 'ws');
  mkdirSync(ws);
  for (let i = 0; i < 3; i++) writeFileSync(join(ws, `n${i}.md`), `# Note ${i}\n\nPole placement and observers, note ${i}.\n`);
  // an "embedder" that is slow, so embedding is still running when we pause
  let calls = 0;
  const embedder = {
    id: 'slow-test',
    name: 'slow-test',
    dim: 4,
    conventions: { pooling: 'mean', queryPrefix: '', passagePrefix: '', maxTokens: 256, defaultThreshold: 0.3 },
    async embed(texts: string[]) {
      calls++;
      await new Promise((r) => setTimeout(r, 30));
      return texts.map(() => new Float32Array([1, 0, 0, 0]));
    },
    async dispose() {},
  };
  const store = await IndexStore.open(join(dir, 'index'), { embedder: embedder as never });
  try {
    await store.build(ws);
    const running = store.startEmbedding();
    assert.equal(await store.pauseEmbedding(), true, 'it was running');
    await running;
    const before = calls;
    assert.equal(await store.pauseEmbedding(), false, 'nothing left running');
    await store.startEmbedding();
    assert.ok(calls >= before);
    assert.equal(store.stats().embedded, store.stats().chunks, 'resumed to completion');
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the lexical gate sees words as the index does: doubled letters, case and accents', async () => {
  // the encoder indexes "riccati" as "ricati" and "loop" as "lop": a gate comparing the
  // encoded query terms with the raw text gated out every passage for such words
  const ws = mkdtempSync(join(tmpdir(), 'control-ws-'));
  writeFileSync(join(ws, 'loop.md'), '# Loops\n\nClosing the feedback loop moves the poles.\n');
  writeFileSync(join(ws, 'care.md'), '# Riccati\n\nThe Riccati equation of Lyapunov and Schön.\n');
  writeFileSync(join(ws, 'other.md'), '# Other\n\nThe lop sided fedback of a ricati note.\n');
  const s = await IndexStore.open(idx());
  await s.build(ws);
  const paths = async (q: string) => (await s.search(q, { k: 5 })).hits.map((h) => h.path).sort();
  assert.deepEqual(await paths('feedback loop'), ['loop.md', 'other.md']);
  assert.deepEqual(await paths('RICCATI equation'), ['care.md', 'other.md']);
  assert.deepEqual(await paths('schon lyapunov'), ['care.md']);
  assert.deepEqual(await paths('feedback poles closing'), ['loop.md']);
  await s.close();
});
