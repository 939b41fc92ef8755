// Crash-resume of the retrieval index: a build in another process (test/fixtures/
// retrievalBuildChild.ts) is killed mid-way (SIGKILL); the next build resumes from its
// checkpoint and equals a clean build. The rest of the index: test/unit/retrieval-store.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IndexStore } from '../../src/core/retrieval/store.js';
import { idx, workspace } from '../unit/retrieval-notes.js';

test('crash-resume: a build killed mid-way resumes and equals a clean build', async () => {
  const ws = workspace(60);
  const dir = idx();
  const child = spawn(process.execPath, ['--import', 'tsx', join('test', 'fixtures', 'retrievalBuildChild.ts'), ws, dir, '25'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  await new Promise<void>((resolveP, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const done = Number(out.trim().split('\n').pop());
      if (done >= 40 && !child.killed) child.kill('SIGKILL');
    });
    child.on('exit', () => resolveP());
    child.on('error', reject);
  });
  assert.ok(!out.includes('finished'), 'the child was killed before finishing');
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  const checkpointed = Object.keys(manifest.files).length;
  assert.ok(checkpointed > 0 && checkpointed < 60, `checkpoint holds ${checkpointed} files`);
  const resumed = await IndexStore.open(dir);
  const r = await resumed.build(ws);
  assert.equal(r.filesIndexed, 60);
  assert.ok(r.filesChanged <= 60 - checkpointed, `resumed: re-read ${r.filesChanged}, checkpoint had ${checkpointed}`);
  const clean = await IndexStore.open(idx());
  await clean.build(ws);
  const strip = (s: IndexStore) =>
    s
      .allChunks()
      .map((c) => JSON.stringify(c))
      .sort();
  assert.deepEqual(strip(resumed), strip(clean));
  for (const q of ['kalman noise covariance', 'riccati gain', 'waterbed']) {
    const a = (await resumed.search(q, { k: 10 })).hits.map((h) => h.chunkId);
    const b = (await clean.search(q, { k: 10 })).hits.map((h) => h.chunkId);
    assert.deepEqual(a, b, q);
  }
  await resumed.close();
  await clean.close();
});
