// The Doctor: every capability checked, every failure with its fix. `control doctor` through
// the bundled CLI, exit 1 exactly when a check fails: test/slow/doctor.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  doctorMarkdown,
  doctorPassed,
  embedderCheck,
  formatDoctorTable,
  indexCheck,
  llamaRuntimeCheck,
  modelCheck,
  nodeCheck,
  notesCheck,
  runDoctor,
  runSelfTest,
  solverChecks,
} from '../../src/core/doctor.js';

const tmp = mkdtempSync(join(tmpdir(), 'control-doctor-'));

function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; server: Server }> {
  return new Promise((resolve) => {
    const server = createServer(handler);
    server.listen(0, '127.0.0.1', () => {
      const a = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${a.port}/v1`, server });
    });
  });
}

test('solver self-tests: LQR, Lyapunov and margins closed forms pass, verified', async () => {
  const checks = await solverChecks();
  assert.deepEqual(
    checks.map((c) => c.capability),
    ['Solvers: LQR', 'Solvers: Lyapunov', 'Solvers: margins'],
  );
  for (const c of checks) {
    assert.equal(c.status, 'ok', c.detail);
    assert.match(c.detail, /verified/);
  }
  assert.equal((await runSelfTest()).ok, true);
});

test('model: none is a note (slash commands still work), a missing or non-GGUF file fails with the fix', async () => {
  const none = (await modelCheck({ provider: 'none' }))!;
  assert.equal(none.status, 'info');
  assert.match(none.detail, /slash commands/);
  const missing = (await modelCheck({ provider: 'local', modelPath: join(tmp, 'nope.gguf') }))!;
  assert.equal(missing.status, 'fail');
  assert.match(missing.fix!, /--model/);
  const inVsCode = (await modelCheck({ provider: 'local', modelPath: join(tmp, 'nope.gguf') }, { surface: 'vscode' }))!;
  assert.match(inVsCode.fix!, /control\.model\.path|Select Model/);
  const fake = join(tmp, 'fake.gguf');
  writeFileSync(fake, 'not a model');
  const notGguf = (await modelCheck({ provider: 'local', modelPath: fake }))!;
  assert.equal(notGguf.status, 'fail');
  assert.match(notGguf.detail, /not a GGUF/);
  const real = join(tmp, 'tiny.gguf');
  writeFileSync(real, Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(60)]));
  const ok = (await modelCheck({ provider: 'local', modelPath: real }))!;
  assert.equal(ok.status, 'ok', ok.detail);
});

test('model: an OpenAI-compatible server must answer /models within the time limit', async () => {
  const { url, server } = await serve((req, res) => {
    if (req.url === '/v1/models') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'qwen3-4b' }] }));
    } else if (req.url === '/slow/models') {
      setTimeout(() => res.end('{}'), 1500);
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  try {
    const ok = (await modelCheck({ provider: 'openai', baseUrl: url, model: 'default' }))!;
    assert.equal(ok.status, 'ok', ok.detail);
    assert.match(ok.detail, /qwen3-4b/);
    const wrong = (await modelCheck({ provider: 'openai', baseUrl: url.replace('/v1', ''), model: 'default' }))!;
    assert.equal(wrong.status, 'fail');
    assert.match(wrong.detail, /HTTP 404/);
    assert.match(wrong.fix!, /\/v1/);
    const slow = (await modelCheck({ provider: 'openai', baseUrl: url.replace('/v1', '/slow'), model: 'default' }, { timeoutMs: 200 }))!;
    assert.equal(slow.status, 'fail');
    assert.match(slow.detail, /no answer within 0\.2 s/);
    const unset = (await modelCheck({ provider: 'openai', baseUrl: '', model: 'default' }))!;
    assert.equal(unset.status, 'fail');
    assert.match(unset.fix!, /--url/);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test('node-llama-cpp: found on disk without loading it; missing is a failure only when a local model is configured', () => {
  const here = llamaRuntimeCheck({});
  assert.equal(here.status, 'ok', here.detail); // installed in this checkout (package.json dependency)
  assert.match(here.detail, /llama-addon\.node/);
  const nowhere = llamaRuntimeCheck({ packageRoot: tmp });
  assert.equal(nowhere.status, 'info');
  assert.equal(llamaRuntimeCheck({ packageRoot: tmp }, true).status, 'fail');
  // a package with no binary for this platform
  const root = join(tmp, 'nobin');
  mkdirSync(join(root, 'node_modules', 'node-llama-cpp'), { recursive: true });
  writeFileSync(join(root, 'node_modules', 'node-llama-cpp', 'package.json'), '{"version":"3.21.1"}');
  const noBin = llamaRuntimeCheck({ packageRoot: root }, true);
  assert.equal(noBin.status, 'fail');
  assert.match(noBin.detail, /no native binary/);
  assert.match(noBin.fix!, /source download/);
});

test('embedder: absent is a note; a configured folder needs config.json, tokenizer.json, onnx/model.onnx', () => {
  assert.equal(embedderCheck(undefined).status, 'info');
  const dir = join(tmp, 'embedder');
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'config.json'), '{}');
  const partial = embedderCheck(dir);
  assert.equal(partial.status, 'fail');
  assert.match(partial.detail, /tokenizer\.json/);
  assert.doesNotMatch(partial.detail, /config\.json/);
  assert.match(partial.fix!, /tokenizer\.json/);
  writeFileSync(join(dir, 'tokenizer.json'), '{}');
  assert.match(embedderCheck(dir).detail, /onnx\/model\.onnx/);
  // the int8 export the download fetches counts as the model
  writeFileSync(join(dir, 'onnx', 'model_quantized.onnx'), 'x');
  assert.equal(embedderCheck(dir).status, 'ok');
  assert.match(embedderCheck(dir).detail, /model_quantized\.onnx/);
  writeFileSync(join(dir, 'onnx', 'model.onnx'), 'x');
  assert.equal(embedderCheck(dir).status, 'ok');
  assert.match(embedderCheck(undefined, { surface: 'vscode' }).fix!, /Download Embedding Model/);
  assert.equal(embedderCheck(join(tmp, 'missing')).status, 'fail');
});

test('index: tolerant of the format; "no index yet" says to rebuild', () => {
  const none = indexCheck(join(tmp, 'idx-none'), { surface: 'vscode' });
  assert.equal(none.status, 'info');
  assert.match(none.detail, /no index yet/);
  assert.equal(none.fix, 'Run Control: Rebuild Index.');
  const dir = join(tmp, 'idx');
  mkdirSync(dir);
  assert.match(indexCheck(dir).detail, /no index yet/);
  writeFileSync(join(dir, 'chunks.bin'), Buffer.alloc(2048));
  const noStats = indexCheck(dir);
  assert.equal(noStats.status, 'info');
  assert.match(noStats.detail, /no stats or manifest file/);
  writeFileSync(join(dir, 'stats.json'), JSON.stringify({ chunks: 42, files: 7, model: 'bge-small', nested: { x: 1 } }));
  const ok = indexCheck(dir);
  assert.equal(ok.status, 'ok');
  assert.match(ok.detail, /chunks 42, files 7, model bge-small/);
  // the retrieval store's own layout: manifest.json with a per-file map
  const store = join(tmp, 'idx-store');
  mkdirSync(join(store, 'shards'), { recursive: true });
  writeFileSync(join(store, 'shards', 'a.json'), '[]');
  writeFileSync(join(store, 'manifest.json'), JSON.stringify({ format: 1, files: { 'a.md': {}, 'b.md': {} }, builtAt: '2026-11-30T10:00:00Z' }));
  const m = indexCheck(store, {}, 'Retrieval index (X)', 'Reload the window.');
  assert.equal(m.status, 'ok', m.detail);
  assert.equal(m.capability, 'Retrieval index (X)');
  assert.match(m.detail, /format 1, files 2, builtAt 2026-11-30T10:00:00Z/);
  assert.equal(indexCheck(join(tmp, 'nothing'), {}, 'X', 'Reload the window.').fix, 'Reload the window.');
  const file = join(tmp, 'idx-file');
  writeFileSync(file, '');
  assert.equal(indexCheck(file).status, 'fail');
});

test('Node.js: 20 or newer', () => {
  assert.equal(nodeCheck().status, 'ok');
  const old = nodeCheck({ nodeVersion: '18.19.0' });
  assert.equal(old.status, 'fail');
  assert.match(old.fix!, /Node\.js 20/);
});

test('the report: every failure carries a fix; table and Markdown', async () => {
  const checks = await runDoctor({
    model: { provider: 'local', modelPath: join(tmp, 'nope.gguf') },
    embedder: join(tmp, 'missing'),
    index: join(tmp, 'idx-none'),
  });
  assert.equal(doctorPassed(checks), false);
  for (const c of checks.filter((x) => x.status === 'fail')) assert.ok(c.fix, `${c.capability} fails without a fix`);
  const table = formatDoctorTable(checks);
  assert.match(table, /^✔ Solvers: LQR/m);
  assert.match(table, /^✘ Language model/m);
  assert.match(table, /^• Retrieval: workspace index/m);
  assert.match(table, /fix: /);
  assert.match(table, /2 checks failed\./);
  const md = doctorMarkdown(checks, undefined, new Date('2026-12-01T15:00:00Z'));
  assert.match(md, /^# @control Doctor/);
  assert.match(md, /Checked 2026-12-01 15:00:00 UTC/);
  // no table: a fix sits on its own line under its check, so nothing is cut off in a narrow preview
  assert.doesNotMatch(md, /^\|/m);
  const failure = /^### ✘ Language model\n\n(.+)\n\n\*\*Fix:\*\* (.+)$/m.exec(md);
  assert.ok(failure, md);
  assert.equal(failure[2], checks.find((c) => c.capability === 'Language model')!.fix);
  // failures first, then notes, then what works
  const at = (re: RegExp) => md.search(re);
  assert.ok(at(/^## Needs fixing/m) < at(/^## Notes/m) && at(/^## Notes/m) < at(/^## Working/m), md);
  assert.match(md, /^- ✔ \*\*Solvers: LQR\*\*: /m);
  assert.match(md, /^\*\*Hint:\*\* /m);
});

test('retrieval: the bundled notes are always searchable (fail only when missing); no workspace index says so', () => {
  const notes = notesCheck(resolve('corpus'), join(tmp, 'notes-none'));
  assert.equal(notes.status, 'ok', notes.detail);
  assert.match(notes.detail, /^\d{2,} notes in .*corpus, always searched/);
  assert.match(notes.detail, /indexed into .*notes-none at the first search/);
  assert.match(notesCheck(resolve('corpus'), join(tmp, 'notes-none'), { surface: 'vscode' }).detail, /being indexed/);
  const gone = notesCheck(undefined, join(tmp, 'notes-none'));
  assert.equal(gone.status, 'fail');
  assert.match(gone.fix!, /npm ci && npm run build/);
  const empty = join(tmp, 'no-notes');
  mkdirSync(empty);
  assert.equal(notesCheck(empty, join(tmp, 'notes-none')).status, 'fail');
  const ws = indexCheck(join(tmp, 'ws-none'), { notes: { root: resolve('corpus'), index: join(tmp, 'notes-none') } });
  assert.equal(ws.capability, 'Retrieval: workspace index');
  assert.equal(ws.status, 'info');
  assert.match(ws.detail, /no index yet .*; \/search covers the bundled notes only/);
  assert.match(ws.fix!, /control index build \./);
});
