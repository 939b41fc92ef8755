// The lexical build thread (src/core/retrieval/lexicalWorker.ts via lexicalBuilder.ts): a build
// on it gives the same index as one on the calling thread, 'auto' picks it by size, searches
// during a build are answered from it, a failed thread leaves a whole index built on the
// calling thread (with a warning), and files re-added at open (a crash) go through it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IndexStore, WORKER_MIN_BYTES, WORKER_MIN_CHUNKS } from '../../src/core/retrieval/store.js';
import { mulberry32 } from '../fixtures/rng.js';

const idx = () => mkdtempSync(join(tmpdir(), 'control-idx-'));

/** a deterministic word list: subject words per file, so queries have a known answer */
const SUBJECTS = [
  'riccati',
  'kalman',
  'nyquist',
  'lyapunov',
  'saturation',
  'bandwidth',
  'observer',
  'integrator',
  'deadbeat',
  'sensitivity',
  'loopshaping',
  'discretisation',
];
const FILLER = 'state input output gain pole zero plant model loop feedback design response frequency time system matrix vector signal noise'.split(' ');

/**
 * `files` Markdown files of `sections` sections of ~`words` words; file i is about
 * SUBJECTS[i % 12] and carries a unique word `tagI` in its first section.
 */
function workspace(files: number, sections = 4, words = 60): string {
  const dir = mkdtempSync(join(tmpdir(), 'control-ws-'));
  const r = mulberry32(files * 31 + sections);
  for (let i = 0; i < files; i++) {
    const subject = SUBJECTS[i % SUBJECTS.length];
    const parts: string[] = [];
    for (let s = 0; s < sections; s++) {
      const w = Array.from({ length: words }, (_, k) => (k % 7 === 0 ? subject : FILLER[Math.floor(r() * FILLER.length)]));
      if (s === 0) w.push(`tag${i}`);
      parts.push(`## Section ${s}\n\n${w.join(' ')}.\n`);
    }
    mkdirSync(join(dir, `d${i % 5}`), { recursive: true });
    writeFileSync(join(dir, `d${i % 5}`, `note${i}.md`), `# Note ${i} on ${subject}\n\n${parts.join('\n')}`);
  }
  return dir;
}

const QUERIES = ['riccati gain', 'kalman noise', 'nyquist frequency plant', 'tag7', 'tag33 observer', 'saturation integrator', 'nothingmatchesthis'];

async function rankings(s: IndexStore): Promise<string[][]> {
  const out: string[][] = [];
  for (const q of QUERIES) out.push((await s.search(q, { k: 8 })).hits.map((h) => h.chunkId));
  return out;
}

test('a build on the thread gives the same chunks, rankings and snapshot as one on the calling thread', async () => {
  const ws = workspace(40);
  const a = await IndexStore.open(idx());
  const b = await IndexStore.open(idx());
  const ra = await a.build(ws, { lexicalThread: 'worker' });
  const rb = await b.build(ws, { lexicalThread: 'main' });
  assert.equal(ra.lexicalThread, 'worker');
  assert.equal(rb.lexicalThread, 'main');
  assert.equal(ra.warnings, undefined);
  assert.equal(ra.chunks, 40 * 4);
  assert.deepEqual(
    a.allChunks().map((c) => c.id),
    b.allChunks().map((c) => c.id),
  );
  const ka = await rankings(a);
  assert.deepEqual(ka, await rankings(b));
  assert.ok(ka[3].length >= 1 && ka[3][0].startsWith('d2/note7.md'), `tag7 finds note7 first: ${ka[3]}`);
  assert.equal(ka[6].length, 0, 'an unknown word finds nothing');
  // the snapshot the thread wrote is what a reopen loads
  const again = await IndexStore.open(a.dir);
  assert.deepEqual(await rankings(again), ka);
  for (const s of [a, b, again]) await s.close();
  rmSync(ws, { recursive: true, force: true });
});

test("'auto' uses the thread for many new bytes and the calling thread for a small change", async () => {
  // just over WORKER_MIN_BYTES of Markdown (~6 KB a file)
  const files = Math.ceil((WORKER_MIN_BYTES * 1.25) / 5000);
  const ws = workspace(files, 8, 125);
  const s = await IndexStore.open(idx());
  const first = await s.build(ws);
  assert.equal(first.lexicalThread, 'worker', JSON.stringify(first.timings));
  assert.equal(first.filesIndexed, files);
  const p = join(ws, 'd3', 'note3.md');
  writeFileSync(p, `${readFileSync(p, 'utf8')}\n## Added\n\nzebrafinch appears only here.\n`);
  utimesSync(p, new Date(), new Date(Date.now() + 5000));
  const second = await s.build(ws);
  assert.equal(second.lexicalThread, 'main');
  assert.equal(second.filesChanged, 1);
  const h = (await s.search('zebrafinch', { k: 3 })).hits;
  assert.equal(h.length, 1);
  assert.equal(h[0].path, 'd3/note3.md');
  assert.equal((await s.search('tag5', { k: 3 })).hits[0]?.path, 'd0/note5.md', 'files indexed by the thread are still found');
  await s.close();
  rmSync(ws, { recursive: true, force: true });
});

test('searches during a thread build are answered from the index being built', async () => {
  const ws = workspace(60);
  const s = await IndexStore.open(idx());
  const ingested = new Set<string>();
  const pending: Promise<{ seen: Set<string>; paths: string[] }>[] = [];
  await s.build(ws, {
    lexicalThread: 'worker',
    onProgress: (p) => {
      if (p.phase === 'ingest' && p.path) ingested.add(p.path);
      if (p.phase === 'ingest' && p.done === 30) {
        const seen = new Set(ingested);
        pending.push(s.search('riccati', { k: 50 }).then((r) => ({ seen, paths: r.hits.map((h) => h.path) })));
      }
    },
  });
  assert.equal(pending.length, 1);
  const mid = await pending[0];
  assert.ok(mid.paths.length >= 1, `the thread answered with files indexed so far: ${[...mid.seen]}`);
  for (const path of mid.paths) assert.ok(mid.seen.has(path), `${path} was ingested before the search`);
  const end = new Set((await s.search('riccati', { k: 50 })).hits.map((h) => h.path));
  assert.equal(end.size, 5, 'riccati is the subject of 5 of the 60 files');
  assert.ok(new Set(mid.paths).size < end.size, 'files ingested after the search were not in its answer');
  await s.close();
  rmSync(ws, { recursive: true, force: true });
});

test('a thread that fails leaves a whole index built on the calling thread, with a warning', async () => {
  const ws = workspace(30);
  const dir = idx();
  const clean = await IndexStore.open(idx());
  await clean.build(ws, { lexicalThread: 'main' });
  const first = await IndexStore.open(dir);
  await first.build(ws, { lexicalThread: 'main' });
  await first.close();
  // the thread starts from the snapshot on disk: torn here after the store loaded it
  const s = await IndexStore.open(dir);
  writeFileSync(join(dir, 'lexical.ndjson'), '{"config":{"tokenize":"strict"},"size":3,"ranges":{}}\nbroken line without a tab\n');
  const p = join(ws, 'd1', 'note1.md');
  writeFileSync(p, `${readFileSync(p, 'utf8')} `);
  utimesSync(p, new Date(), new Date(Date.now() + 5000));
  await clean.update([p]);
  const r = await s.build(ws, { lexicalThread: 'worker' });
  assert.equal(r.lexicalThread, 'main');
  assert.ok(
    r.warnings?.some((w) => /lexical build thread failed.*snapshot/.test(w)),
    String(r.warnings),
  );
  assert.deepEqual(s.stats().warnings, r.warnings);
  assert.deepEqual(await rankings(s), await rankings(clean));
  // and the snapshot written after it is whole again
  await s.close();
  const reopened = await IndexStore.open(dir);
  assert.deepEqual(await rankings(reopened), await rankings(clean));
  for (const x of [clean, reopened]) await x.close();
  rmSync(ws, { recursive: true, force: true });
});

test('after a crash, many files missing from the snapshot are re-added at open through the thread', async () => {
  const files = Math.ceil(WORKER_MIN_CHUNKS / 4) + 20;
  const ws = workspace(files);
  const dir = idx();
  const built = await IndexStore.open(dir);
  await built.build(ws, { lexicalThread: 'main' });
  const want = await rankings(built);
  await built.close();
  // a build killed before its snapshot: the manifest and shards are there, the snapshot is not
  rmSync(join(dir, 'lexical.ndjson'));
  const s = await IndexStore.open(dir);
  assert.equal(s.stats().lexicalThread, 'worker');
  assert.equal(s.stats().warnings, undefined);
  assert.deepEqual(await rankings(s), want);
  await s.close();
  rmSync(ws, { recursive: true, force: true });
});

test('after a crash with many updates not yet in the snapshot, open extends the snapshot on disk through the thread', async () => {
  const ws = workspace(30);
  const dir = idx();
  const a = await IndexStore.open(dir);
  await a.build(ws, { lexicalThread: 'main' });
  a.flush();
  // many new files indexed by update(): in the manifest and shards, not yet in the snapshot
  // (its write is debounced); the index folder is copied as a crash would leave it
  const extra = workspace(Math.ceil(WORKER_MIN_CHUNKS / 4) + 10);
  const moved: string[] = [];
  for (const d of readdirSync(extra)) {
    renameSync(join(extra, d), join(ws, `x${d}`));
    for (const f of readdirSync(join(ws, `x${d}`))) moved.push(join(ws, `x${d}`, f));
  }
  const u = await a.update(moved);
  assert.equal(u.indexed, moved.length);
  const crashed = idx();
  cpSync(dir, crashed, { recursive: true });
  const b = await IndexStore.open(crashed);
  assert.equal(b.stats().lexicalThread, 'worker');
  assert.equal(b.stats().warnings, undefined);
  assert.deepEqual(await rankings(b), await rankings(a));
  // a file only the update brought (note600 of the extra files, moved to xd0/)
  assert.equal((await b.search('tag600', { k: 3 })).hits[0]?.path, 'xd0/note600.md');
  await a.close();
  await b.close();
  rmSync(ws, { recursive: true, force: true });
});

test('close() during a thread build stops it at the next file and waits for it; a new build resumes and equals a clean one', async () => {
  const ws = workspace(80);
  const dir = idx();
  const s = await IndexStore.open(dir);
  let closed: Promise<void> | undefined;
  const r = await s.build(ws, {
    lexicalThread: 'worker',
    onProgress: (p) => {
      if (p.phase === 'ingest' && p.done === 20) closed = s.close();
    },
  });
  assert.ok(closed, 'close() was called mid-build');
  await closed;
  assert.equal(r.cancelled, true);
  assert.ok(r.filesIndexed >= 20 && r.filesIndexed < 80, `stopped after ${r.filesIndexed} files`);
  const again = await IndexStore.open(dir);
  const resumed = await again.build(ws);
  assert.equal(resumed.filesIndexed, 80);
  assert.ok(resumed.filesChanged <= 80 - r.filesIndexed, `re-read ${resumed.filesChanged}`);
  const clean = await IndexStore.open(idx());
  await clean.build(ws);
  assert.deepEqual(await rankings(again), await rankings(clean));
  for (const x of [again, clean]) await x.close();
  rmSync(ws, { recursive: true, force: true });
});
