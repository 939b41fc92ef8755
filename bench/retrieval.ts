// Retrieval bench: our lexical index beside raw flexsearch on the same synthetic chunks
// (~200 words, Zipf-distributed vocabulary with English stop words), in the same run.
//
//   node --import tsx bench/retrieval.ts [--sizes 10000,100000]
//
// Each measurement runs in its own child process so RSS is not shared between them:
//   raw     flexsearch 0.8 `Index`, tokenize strict, default encoder: add, then 200 queries
//   layer   our LexicalIndex (strict + stop-word filter) on the same in-memory chunks
//   store   our IndexStore.build end to end from Markdown files of 10 chunks each (walk,
//           hash, parse, chunk, shard + manifest writes, lexical snapshot), 200 store.search
//           queries (lexical mode, gate included), then one changed file re-indexed by update()
// `runRetrievalBench()` returns the Markdown table (for `npm run bench`).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const STOP = 'the of and to in is for that with as by on this are be it from at which an or can we its not'.split(' ');
const CHUNKS_PER_FILE = 10;
const QUERIES = 200;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function vocabulary(n: number): string[] {
  const r = rng(1);
  const syll = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'qua', 'tri', 'pol', 'gen', 'dor', 'lex', 'bi', 'on', 'ar', 'el', 'is'];
  const out = new Set<string>();
  while (out.size < n) {
    let w = '';
    const k = 2 + Math.floor(r() * 3);
    for (let i = 0; i < k; i++) w += syll[Math.floor(r() * syll.length)];
    out.add(w);
  }
  return [...out];
}

/** the i-th synthetic chunk: ~200 words, Zipf-like content words, 35% stop words */
function makeChunks(n: number): string[] {
  const V = vocabulary(30000);
  const r = rng(42);
  const word = () => (r() < 0.35 ? STOP[Math.floor(r() * STOP.length)] : V[Math.floor(Math.pow(r(), 2.5) * V.length)]);
  return Array.from({ length: n }, () => Array.from({ length: 190 + Math.floor(r() * 30) }, word).join(' '));
}

function makeQueries(): string[] {
  const V = vocabulary(30000);
  const r = rng(7);
  return Array.from({ length: QUERIES }, () => {
    const k = 2 + Math.floor(r() * 3);
    const words = Array.from({ length: k }, () => V[Math.floor(Math.pow(r(), 2.5) * V.length)]);
    return `how does the ${words.join(' ')} work`;
  });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const rssMB = () => Math.round(process.memoryUsage().rss / 1048576);

interface WorkerResult {
  buildMs: number;
  perS: number;
  p50: number;
  p95: number;
  rss: number;
  updateMs?: number;
  hitsPerQuery?: number;
}

async function worker(kind: string, n: number): Promise<WorkerResult> {
  const texts = makeChunks(n);
  const queries = makeQueries();
  const lat: number[] = [];
  if (kind === 'raw') {
    const FlexSearch = (await import('flexsearch')).default;
    const index = new FlexSearch.Index({ tokenize: 'strict' });
    const t0 = performance.now();
    texts.forEach((t, i) => index.add(i, t));
    const buildMs = performance.now() - t0;
    for (const q of queries) {
      const t = performance.now();
      index.search(q, { limit: 50, suggest: true });
      lat.push(performance.now() - t);
    }
    return { buildMs, perS: n / (buildMs / 1000), p50: pct(lat, 50), p95: pct(lat, 95), rss: rssMB() };
  }
  if (kind === 'layer') {
    const { LexicalIndex } = await import('../src/core/retrieval/lexical.js');
    const index = new LexicalIndex();
    const t0 = performance.now();
    texts.forEach((t, i) => index.add(i + 1, t));
    const buildMs = performance.now() - t0;
    for (const q of queries) {
      const t = performance.now();
      index.search(q, 50);
      lat.push(performance.now() - t);
    }
    return { buildMs, perS: n / (buildMs / 1000), p50: pct(lat, 50), p95: pct(lat, 95), rss: rssMB() };
  }
  // store: end to end from files
  const { IndexStore } = await import('../src/core/retrieval/store.js');
  const ws = mkdtempSync(join(tmpdir(), 'control-bench-ws-'));
  const files = Math.ceil(n / CHUNKS_PER_FILE);
  for (let f = 0; f < files; f++) {
    const dir = join(ws, `d${Math.floor(f / 500)}`);
    mkdirSync(dir, { recursive: true });
    const parts = texts.slice(f * CHUNKS_PER_FILE, (f + 1) * CHUNKS_PER_FILE).map((t, i) => `## Part ${i}\n\n${t}\n`);
    writeFileSync(join(dir, `note${f}.md`), `# Note ${f}\n\n${parts.join('\n')}`);
  }
  texts.length = 0; // the store reads its own copy from the files
  const indexDir = mkdtempSync(join(tmpdir(), 'control-bench-idx-'));
  try {
    const store = await IndexStore.open(indexDir);
    const t0 = performance.now();
    const s = await store.build(ws);
    const buildMs = performance.now() - t0;
    if (s.chunks !== n) throw new Error(`expected ${n} chunks, built ${s.chunks}`);
    let hits = 0;
    for (const q of queries) {
      const t = performance.now();
      hits += (await store.search(q, { k: 5 })).hits.length;
      lat.push(performance.now() - t);
    }
    const rss = rssMB();
    // one changed file: re-chunked, re-indexed, shard and manifest written
    const changed = join(ws, 'd0', 'note0.md');
    writeFileSync(changed, `# Note 0 changed\n\n${makeChunks(CHUNKS_PER_FILE).map((t, i) => `## Part ${i}\n\n${t} edited\n`).join('\n')}`);
    const tu = performance.now();
    const u = await store.update([changed]);
    const updateMs = performance.now() - tu;
    if (u.indexed !== 1) throw new Error('update did not re-index the changed file');
    return { buildMs, perS: n / (buildMs / 1000), p50: pct(lat, 50), p95: pct(lat, 95), rss, updateMs, hitsPerQuery: hits / queries.length };
  } finally {
    rmSync(ws, { recursive: true, force: true });
    rmSync(indexDir, { recursive: true, force: true });
  }
}

function runWorker(kind: string, n: number): WorkerResult {
  const r = spawnSync(process.execPath, ['--import', 'tsx', __filename, '--worker', kind, String(n)], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || !line.startsWith('{')) throw new Error(`bench worker ${kind} ${n} failed: ${r.stderr.slice(-2000)}`);
  return JSON.parse(line);
}

export async function runRetrievalBench(sizes = [10000, 100000]): Promise<string> {
  const f1 = (x: number) => x.toFixed(1);
  const f2 = (x: number) => x.toFixed(2);
  const rows = [
    '| chunks | index | build [s] | chunks/s | build vs raw | query p50 / p95 [ms] | p95 vs raw | RSS after build [MB] | one changed file re-indexed [ms] |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const n of sizes) {
    const raw = runWorker('raw', n);
    const layer = runWorker('layer', n);
    const store = runWorker('store', n);
    rows.push(`| ${n} | raw flexsearch Index, strict | ${f1(raw.buildMs / 1000)} | ${Math.round(raw.perS)} | 1.00 | ${f2(raw.p50)} / ${f2(raw.p95)} | 1.00 | ${raw.rss} | – |`);
    rows.push(`| ${n} | ours: LexicalIndex (strict, stop words out) | ${f1(layer.buildMs / 1000)} | ${Math.round(layer.perS)} | ${f2(layer.buildMs / raw.buildMs)} | ${f2(layer.p50)} / ${f2(layer.p95)} | ${f2(layer.p95 / raw.p95)} | ${layer.rss} | – |`);
    rows.push(
      `| ${n} | ours: IndexStore.build from ${n / CHUNKS_PER_FILE} files, search() | ${f1(store.buildMs / 1000)} | ${Math.round(store.perS)} | ${f2(store.buildMs / raw.buildMs)} | ${f2(store.p50)} / ${f2(store.p95)} | ${f2(store.p95 / raw.p95)} | ${store.rss} | ${f1(store.updateMs ?? NaN)} |`,
    );
  }
  return [
    `Retrieval, lexical (${QUERIES} queries of 2-4 content words plus stop words; raw queries flexsearch with limit 50, suggest; ours returns k = 5 gated hits). Node ${process.version}.`,
    '',
    ...rows,
    '',
  ].join('\n');
}

if (process.argv[2] === '--worker') {
  worker(process.argv[3], Number(process.argv[4])).then(
    (r) => console.log(JSON.stringify(r)),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
} else if (require.main === module) {
  const i = process.argv.indexOf('--sizes');
  const sizes = i > 0 ? process.argv[i + 1].split(',').map(Number) : undefined;
  runRetrievalBench(sizes).then((md) => console.log(md));
}
