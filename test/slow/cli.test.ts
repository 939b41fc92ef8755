// The CLI end to end, through a real process (as a user runs it): bundled by esbuild as
// `npm run build` does, into a temporary folder, then run with node.
import { before, test } from 'node:test';
import { buildCliBundle } from '../unit/_cliBundle.js';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { WORKER_MIN_BYTES } from '../../src/core/retrieval/store.js';

const s5 = Math.sqrt(5);
const K_REF = [s5 - 2, s5 - 2]; // closed form, derived in turn.test.ts

// laid out as installed: dist/cli.js, the bundled notes (corpus/) beside dist/; its cache
// (the notes' index) in a temporary XDG_CACHE_HOME, never the user's
const pkg = mkdtempSync(join(tmpdir(), 'control-cli-'));
const cli = join(pkg, 'dist', 'cli.js');
const cache = join(pkg, 'cache');
before(async () => {
  await buildCliBundle(cli);
  writeFileSync(join(pkg, 'package.json'), '{}\n');
  symlinkSync(resolve('corpus'), join(pkg, 'corpus'), 'dir');
});

function control(args: string[], input?: string, cwd?: string) {
  const r = spawnSync(process.execPath, [cli, ...args], { input, encoding: 'utf8', cwd, env: { ...process.env, XDG_CACHE_HOME: cache } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('solve lqr --json gives K to 1e-9', () => {
  const r = control(['solve', 'lqr', '{"A":[[0,1],[-2,-3]],"B":[[0],[1]],"Q":[[1,0],[0,1]],"R":[[1]]}', '--json']);
  assert.equal(r.code, 0, r.err);
  const K = JSON.parse(r.out).result.K[0];
  assert.ok(Math.abs(K[0] - K_REF[0]) < 1e-9 && Math.abs(K[1] - K_REF[1]) < 1e-9, String(K));
});

test('ask /lqr --json gives the answer and the call with K to 1e-9', () => {
  const r = control(['ask', '/lqr A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1', '--json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.calls.length, 1);
  assert.equal(j.calls[0].tool, 'lqr');
  const K = j.calls[0].result.K[0];
  assert.ok(Math.abs(K[0] - K_REF[0]) < 1e-9 && Math.abs(K[1] - K_REF[1]) < 1e-9, String(K));
  assert.match(j.answer, /0\.236068/);
});

test('solve: errors are clear, as JSON with --json, non-zero exit', () => {
  const bad = control(['solve', 'lqr', '{"A":[[0,1],[-2,-3]],"B":[[0],[1],[2]],"Q":[[1,0],[0,1]],"R":[[1]]}', '--json']);
  assert.equal(bad.code, 1);
  assert.match(JSON.parse(bad.out).error, /B has 3 rows/);
  const unstab = control(['solve', 'lqr', '{"A":[[1,0],[0,-1]],"B":[[0],[1]],"Q":[[1,0],[0,1]],"R":[[1]]}', '--json']);
  assert.match(JSON.parse(unstab.out).error, /stabili[sz]able/);
  const notjson = control(['solve', 'lqr', '{A: 1}', '--json']);
  assert.match(JSON.parse(notjson.out).error, /not valid JSON/);
  const usage = control(['frobnicate']);
  assert.equal(usage.code, 2);
  assert.match(usage.err, /unknown command/);
});

test('batch: one line per problem, never stopping at a bad one; non-finite as strings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'control-batch-'));
  const inp = join(dir, 'p.jsonl');
  const out = join(dir, 'r.jsonl');
  writeFileSync(
    inp,
    [
      '{"id":"ok","tool":"eig","args":{"A":[[0,1],[-2,-3]]}}',
      'this is not json',
      '{"id":"bad-shape","tool":"lyap","args":{"A":[[1,2]],"Q":[[1]]}}',
      '{"id":"no-tool","tool":"nope","args":{}}',
      '{"id":"unsolvable","tool":"lyap","args":{"A":[[0,1],[-1,0]],"Q":[[1,0],[0,1]]}}',
      '',
    ].join('\n'),
  );
  const r = control(['batch', '--in', inp, '--out', out]);
  assert.equal(r.code, 0, r.err);
  const lines = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(lines.length, 5);
  // eig([0 1; -2 -3]) = {-2, -1}: s² + 3s + 2 = (s + 1)(s + 2)
  const ev = lines[0].result.eigenvalues as [number, number][];
  assert.equal(ev.length, 2);
  [-2, -1].forEach((x, i) => assert.ok(Math.abs(ev[i][0] - x) < 1e-12 && ev[i][1] === 0, JSON.stringify(ev)));
  for (const l of lines.slice(1)) assert.equal(typeof l.error, 'string', JSON.stringify(l));
  assert.match(lines[1].error, /not JSON/);
  assert.match(lines[2].error, /square/);
});

test('control batch over all 512 oracle problems: scored by the checker, all pass', async () => {
  const { byId, parseJsonl, scoreAll } = await import('../oracle/check.js');
  const dir = mkdtempSync(join(tmpdir(), 'control-oracle-'));
  const out = join(dir, 'results.jsonl');
  const r = control(['batch', '--in', 'test/fixtures/oracle/problems.jsonl', '--out', out]);
  assert.equal(r.code, 0, r.err);
  const problems = parseJsonl<{ id: string; tool: string; args: Record<string, unknown> }>(readFileSync('test/fixtures/oracle/problems.jsonl', 'utf8'));
  const expected = byId(parseJsonl(readFileSync('test/fixtures/oracle/expected.jsonl', 'utf8')));
  const text = readFileSync(out, 'utf8');
  assert.ok(!/\bNaN\b|\bInfinity\b/.test(text.replace(/"(-?Infinity|NaN)"/g, '')), 'non-finite numbers only as strings');
  const results = byId(parseJsonl(text));
  assert.equal(results.size, problems.length);
  const score = scoreAll(problems, expected, results);
  const failed = score.rows.flatMap((row) => row.failed.map((f) => `${f.id}: ${f.note}`));
  assert.deepEqual(failed, []);
  assert.equal(score.passed, 512);
});

test('index build and search: a workspace over WORKER_MIN_BYTES is indexed on the build thread of the bundle', () => {
  const ws = mkdtempSync(join(tmpdir(), 'control-ws-'));
  const filler = 'state input output gain pole zero plant model loop feedback design response frequency time system matrix'.split(' ');
  // a word unique to each file, letters only (the index splits letters from digits)
  const tag = (i: number) => `mk${[...String(i)].map((d) => 'abcdefghij'[Number(d)]).join('')}`;
  let bytes = 0;
  for (let i = 0; bytes < WORKER_MIN_BYTES * 1.1; i++) {
    const words = Array.from({ length: 900 }, (_, k) => filler[(i * 7 + k * 13) % filler.length]);
    const text = `# Note ${i}\n\n## Part one\n\n${words.slice(0, 450).join(' ')} ${tag(i)}.\n\n## Part two\n\n${words.slice(450).join(' ')}.\n`;
    mkdirSync(join(ws, `d${i % 10}`), { recursive: true });
    writeFileSync(join(ws, `d${i % 10}`, `note${i}.md`), text);
    bytes += text.length;
  }
  writeFileSync(join(ws, 'sensitivity.md'), '# Sensitivity\n\nThe waterbed effect: Bode sensitivity integral.\n');
  const index = join(ws, '.control-index');
  const b = control(['index', 'build', ws, '--json']);
  assert.equal(b.code, 0, b.err);
  const j = JSON.parse(b.out);
  assert.equal(j.lexicalThread, 'worker', b.out.slice(0, 400));
  assert.equal(j.warnings, undefined);
  assert.ok(j.filesIndexed > 500 && j.filesIndexed === j.files, b.out.slice(0, 200));
  for (const k of ['files', 'chunks', 'filesIndexed', 'filesSkipped', 'ms']) assert.equal(typeof j[k], 'number', k);
  // (--no-notes: this index alone; the bundled notes have a Bode sensitivity note too)
  const q = control(['index', 'search', 'bode waterbed', '--index', index, '--no-notes', '--json']);
  assert.equal(q.code, 0, q.err);
  const hits = JSON.parse(q.out).hits;
  assert.equal(hits[0].path, 'sensitivity.md');
  assert.equal(hits[0].rank, 1);
  assert.deepEqual(hits[0].range, { startLine: 3, endLine: 3 }); // the passage's line (the heading is its path)
  const m = JSON.parse(control(['index', 'search', tag(417), '--index', index, '--no-notes', '--json']).out).hits;
  assert.equal(m.length, 1);
  assert.equal(m[0].path, 'd7/note417.md');
});

test('/search agrees with the chat: the bundled notes are searched with no index anywhere; a workspace index joins them once built; the Doctor reports both', () => {
  const ws = mkdtempSync(join(tmpdir(), 'control-search-'));
  // a folder with no index: the CLI used to answer "no index" here while the chat searched the notes
  const ask = control(['ask', '/search Bode sensitivity integral waterbed', '--json'], undefined, ws);
  assert.equal(ask.code, 0, ask.err + ask.out);
  const answer = JSON.parse(ask.out).answer as string;
  assert.doesNotMatch(answer, /no index/i);
  assert.match(answer, /passages\*\* for “Bode sensitivity integral waterbed”/);
  assert.match(answer, /`bode-sensitivity-integral\.md`/);
  // built once into the cache folder, as the extension builds its copy in global storage
  const notesIndex = join(cache, 'control', 'notes-index');
  const manifest = JSON.parse(readFileSync(join(notesIndex, 'manifest.json'), 'utf8'));
  assert.equal(manifest.root, join(pkg, 'corpus'));
  assert.ok(Object.keys(manifest.files).length >= 60, `notes indexed: ${Object.keys(manifest.files).length}`);
  // index search says the same, with where each hit comes from
  const s1 = control(['index', 'search', 'Bode sensitivity integral', '--json'], undefined, ws);
  assert.equal(s1.code, 0, s1.err);
  const j1 = JSON.parse(s1.out);
  assert.deepEqual(
    j1.sources.map((x: { name: string }) => x.name),
    ['notes'],
  );
  assert.equal(j1.hits[0].origin, 'notes');
  assert.equal(j1.hits[0].path, 'bode-sensitivity-integral.md');
  // the Doctor in that folder: notes searchable (indexed), no workspace index yet
  const d1 = control(['doctor', '--model', 'none', '--json'], undefined, ws);
  assert.equal(d1.code, 0, d1.out + d1.err);
  const by = (checks: { capability: string; status: string; detail: string }[], name: string) => checks.find((c) => c.capability === name)!;
  const c1 = JSON.parse(d1.out).checks;
  assert.equal(by(c1, 'Retrieval: bundled notes').status, 'ok');
  assert.match(by(c1, 'Retrieval: bundled notes').detail, new RegExp(`indexed in ${notesIndex.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  assert.equal(by(c1, 'Retrieval: workspace index').status, 'info');
  assert.match(by(c1, 'Retrieval: workspace index').detail, /covers the bundled notes only/);
  // a workspace index: built in the folder, then searched with the notes
  writeFileSync(join(ws, 'loop.md'), '# Our loop\n\nThe quokkafilter shapes the sensitivity of our pitch loop.\n');
  assert.equal(control(['index', 'build', '.', '--json'], undefined, ws).code, 0);
  const a2 = JSON.parse(control(['ask', '/search quokkafilter sensitivity', '--json'], undefined, ws).out).answer as string;
  assert.match(a2, /`loop\.md`/);
  const j2 = JSON.parse(control(['index', 'search', 'quokkafilter sensitivity', '--json'], undefined, ws).out);
  assert.deepEqual(
    j2.sources.map((x: { name: string }) => x.name),
    ['notes', 'workspace'],
  );
  const origins = j2.hits.map((h: { origin: string; path: string }) => `${h.origin}:${h.path}`);
  assert.ok(origins.includes('workspace:loop.md'), origins.join(', '));
  assert.ok(
    origins.some((o: string) => o.startsWith('notes:')),
    `the notes are still searched beside the workspace: ${origins.join(', ')}`,
  );
  const c2 = JSON.parse(control(['doctor', '--model', 'none', '--json'], undefined, ws).out).checks;
  assert.equal(by(c2, 'Retrieval: workspace index').status, 'ok');
  assert.equal(by(c2, 'Retrieval: bundled notes').status, 'ok');
  // --notes-index puts the notes' index elsewhere; --no-notes with no workspace index has nothing to search
  const elsewhere = join(pkg, 'elsewhere');
  assert.equal(control(['ask', '/search waterbed', '--notes-index', elsewhere], undefined, ws).code, 0);
  assert.ok(existsSync(join(elsewhere, 'manifest.json')));
  const none = control(['index', 'search', 'waterbed', '--no-notes', '--index', join(pkg, 'no-such-index')]);
  assert.equal(none.code, 1);
  assert.match(none.err, /Nothing to search: no index in .*no-such-index/);
  // a solver request never opens an index
  const lqr = control(['ask', '/lqr A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1', '--notes-index', join(pkg, 'untouched')]);
  assert.equal(lqr.code, 0, lqr.err);
  assert.ok(!existsSync(join(pkg, 'untouched')));
});

test('batch into a pipe that is read slowly: every line arrives, exit 0 (writeSync on a full pipe failed with EAGAIN)', async () => {
  // 200 step responses of 5,000 samples: megabytes of output, far more than a pipe holds
  const t = Array.from({ length: 5000 }, (_, k) => k * 0.002);
  const lines = Array.from({ length: 200 }, (_, i) => JSON.stringify({ id: `s${i}`, tool: 'step', args: { A: [[-1 - i / 100]], B: [[1]], C: [[1]], t } }));
  const input = join(pkg, 'slow-batch.jsonl');
  writeFileSync(input, lines.join('\n') + '\n');
  const child = spawn(process.execPath, [cli, 'batch', '--in', input], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, XDG_CACHE_HOME: cache } });
  // nothing is read for 3 s: the pipe fills and the writer must wait
  child.stdout.pause();
  await new Promise((r) => setTimeout(r, 3000));
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stdout.resume();
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const code = await new Promise<number | null>((r) => child.on('close', r));
  assert.equal(code, 0, err);
  const got = out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    got.map((l) => l.id),
    lines.map((_, i) => `s${i}`),
  );
  // y(t) = (1 - e^{-a t}) / a for 1/(s + a): the last sample of the first problem (a = 1)
  const y = got[0].result.y as number[];
  assert.ok(Math.abs(y[y.length - 1] - (1 - Math.exp(-t[t.length - 1]))) < 1e-9);
});

test('bad command lines get one clear line, never a stack trace: solve without a tool, batch with an unreadable --in or --out', () => {
  const noTool = control(['solve']);
  assert.equal(noTool.code, 2);
  assert.match(noTool.err, /solve needs a tool name/);
  assert.doesNotMatch(noTool.err, /\n\s+at /);
  const noIn = control(['batch', '--in', join(pkg, 'no-such-file.jsonl')]);
  assert.equal(noIn.code, 1);
  assert.match(noIn.err, /batch: cannot read --in .*no-such-file\.jsonl: no such file or folder/);
  assert.doesNotMatch(noIn.err, /internal error|\n\s+at /);
  const noOut = control(['batch', '--out', join(pkg, 'no', 'such', 'dir', 'out.jsonl')], '{"id":1,"tool":"eig","args":{"A":[[1]]}}\n');
  assert.equal(noOut.code, 1);
  assert.match(noOut.err, /batch: cannot write --out .*out\.jsonl: no such file or folder/);
});

test('control prompt: the exact prefix a model is sent; without the dev-dependency tokenizer its count is null, never estimated', () => {
  // the bundle in a folder with no node_modules: as installed without dev dependencies
  const r = control(['prompt', '--engine', 'vscode', '--json']);
  assert.equal(r.code, 0, r.err);
  const p = JSON.parse(r.out) as { engine: string; text: string; tokens: number | null };
  assert.equal(p.engine, 'vscode');
  assert.ok(p.text.startsWith('You are @control'), p.text.slice(0, 80));
  assert.ok(p.text.includes('"name":"more_tools"') && p.text.includes('"name":"use_tool"'));
  assert.equal(p.tokens, null);
  const bad = control(['prompt', '--engine', 'gpt']);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--engine takes llama, llama3, openai, vscode, not "gpt"/);
});
