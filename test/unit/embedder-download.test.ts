// Downloading the embedding model (src/core/retrieval/embedderDownload.ts) from a local hub
// stand-in (test/fixtures/hubServer.ts): LFS redirects with SHA-256, git-blob ETags, resume
// with Range after a dropped connection, a corrupt file refused, a missing file named, cancel.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { downloadEmbedder, isDownloaded, type EmbedderSpec } from '../../src/core/retrieval/embedderDownload.js';
import { loadEmbedder } from '../../src/core/retrieval/embedder.js';
import { ControlError } from '../../src/core/errors.js';
import { writeTinyEmbedder } from '../fixtures/onnx.js';
import { startHub, type HubServer } from '../fixtures/hubServer.js';

const FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx'];
const SPEC: EmbedderSpec = { name: 'tiny-minilm', repo: 'test-org/tiny-minilm', revision: 'main', files: FILES, approxMB: 1 };
let source: string;
let hub: HubServer;

before(async () => {
  source = writeTinyEmbedder();
  hub = await startHub(SPEC.repo, source, FILES);
});
after(() => hub.close());

const dest = () => join(mkdtempSync(join(tmpdir(), 'control-dl-')), 'tiny-minilm');

test('downloads every file, verified, and the folder loads and embeds as the original does', async () => {
  const d = dest();
  const seen: number[] = [];
  const out = await downloadEmbedder(SPEC, { dest: d, mirror: hub.url, onProgress: (p) => seen.push(p.done) });
  assert.deepEqual(out, { path: d, dim: 128 }, 'the folder, and the dimension of the model it loaded');
  assert.ok(isDownloaded(d, SPEC));
  for (const f of FILES) assert.deepEqual(readFileSync(join(d, f)), readFileSync(join(source, f)), f);
  assert.ok(!existsSync(join(d, 'onnx', 'model.onnx.part')));
  const total = FILES.reduce((n, f) => n + statSync(join(source, f)).size, 0);
  assert.equal(seen.at(-1), total, 'progress ends at the total size');
  assert.ok(
    seen.every((x, i) => i === 0 || x >= seen[i - 1]),
    'progress never goes back',
  );
  // the LFS file came through the redirect
  assert.ok(hub.log.some((r) => r.path === '/cdn/onnx/model.onnx'));
  const [a, b] = await Promise.all([loadEmbedder(d), loadEmbedder(source)]);
  const [va] = await a.embed(['the riccati equation'], 'passage');
  const [vb] = await b.embed(['the riccati equation'], 'passage');
  assert.deepEqual([...va], [...vb]);
  await a.dispose();
  await b.dispose();
});

test('a dropped connection is resumed with a Range request and the file is still verified', async () => {
  const d = dest();
  hub.faults.cutAfter = 1000;
  await assert.rejects(
    downloadEmbedder(SPEC, { dest: d, mirror: hub.url }),
    (e: ControlError) => /broke off after 1000 bytes/.test(e.message) && /download again to resume/.test(e.message),
  );
  assert.equal(statSync(join(d, 'onnx', 'model.onnx.part')).size, 1000);
  assert.ok(!isDownloaded(d, SPEC), 'no usable folder after a broken download');
  hub.log.length = 0;
  await downloadEmbedder(SPEC, { dest: d, mirror: hub.url });
  assert.ok(
    hub.log.some((r) => r.path === '/cdn/onnx/model.onnx' && r.range === 'bytes=1000-'),
    JSON.stringify(hub.log),
  );
  assert.ok(!hub.log.some((r) => r.path.endsWith('/config.json')), 'files already in place are not fetched again');
  assert.deepEqual(readFileSync(join(d, 'onnx', 'model.onnx')), readFileSync(join(source, 'onnx', 'model.onnx')));
});

test('a file that does not match the announced hash is refused and deleted', async () => {
  const d = dest();
  hub.faults.corrupt = 'onnx/model.onnx';
  try {
    await assert.rejects(downloadEmbedder(SPEC, { dest: d, mirror: hub.url }), /does not match the hash the server announced \(SHA-256/);
  } finally {
    hub.faults.corrupt = undefined;
  }
  assert.ok(!existsSync(join(d, 'onnx', 'model.onnx')));
  assert.ok(!existsSync(join(d, 'onnx', 'model.onnx.part')));
});

test('a file missing on the hub is named with the way out; a cancel keeps what was downloaded', async () => {
  const d = dest();
  await assert.rejects(downloadEmbedder({ ...SPEC, files: [...FILES, 'onnx/absent.onnx'] }, { dest: d, mirror: hub.url }), (e: ControlError) => {
    return (
      e.code === 'unsupported' && /HTTP 404 \(no such file in that repository or revision\)/.test(e.message) && e.message.includes('control.embedder.path')
    );
  });
  const ac = new AbortController();
  const d2 = dest();
  await assert.rejects(
    downloadEmbedder(SPEC, { dest: d2, mirror: hub.url, signal: ac.signal, onProgress: (p) => p.file === 'tokenizer.json' && ac.abort() }),
    (e: ControlError) => e.code === 'cancelled',
  );
  assert.ok(existsSync(join(d2, 'config.json')), 'the file finished before the cancel is kept');
  assert.ok(!isDownloaded(d2, SPEC));
});
