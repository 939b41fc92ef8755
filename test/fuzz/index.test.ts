// Fuzz: the retrieval index damaged at random (issue 11, item 7; ARCHITECTURE.md invariant 11).
// A small index is built from a generated folder of Markdown files; copies of it are damaged
// by seeded random combinations of: a lexical.ndjson line dropped or repeated, the snapshot or
// the manifest cut at a random byte, manifest fields removed, nulled or given values of the
// wrong type ("files": null among them), random bytes flipped in a shard, the manifest or the
// snapshot, shards cut, deleted or grown, files deleted, and temp files of killed writers
// left behind. Then `control index search`, `stats`, `build` and `search` again run on it.
//
// Asserted: no command fails or says TypeError / "Cannot read" / "internal error"; a search
// before the rebuild serves only passages a clean build has, each with its own text (nothing
// damaged is ever served), and, when no shard was damaged, exactly the clean build's answers;
// after `build` the answers and stats equal a clean build's; temp files of dead writers are
// gone after the first open. Most cases run the CLI's code in this process (fast); a few run
// the bundled CLI as a separate process.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main as indexCli } from '../../src/cliIndex.js';
import { IndexStore } from '../../src/core/retrieval/store.js';
import { buildCli, fuzzSeed, Rng, runCli, type Cli, removeTemps, tempDir } from './_fuzz.js';

const SEED = fuzzSeed('index.test.ts');
const CASES_IN_PROCESS = 40;
const CASES_SPAWNED = 2;

let cli: Cli;
before(async () => {
  cli = await buildCli();
});
after(removeTemps);

// ------------------------------------------------------------------ the workspace

const WORDS = [
  'kalman',
  'riccati',
  'nyquist',
  'bode',
  'margin',
  'crossover',
  'observer',
  'estimator',
  'covariance',
  'actuator',
  'saturation',
  'integrator',
  'windup',
  'notch',
  'resonance',
  'bandwidth',
  'damping',
  'overshoot',
  'settling',
  'hazard',
  'integrity',
  'diagnostic',
  'coverage',
  'sensor',
  'noise',
  'filter',
  'gain',
  'phase',
  'pole',
  'zero',
];
const NUMBERS = ['IEC 61508', 'ISO 26262', 'rev2024', '60 dB', 'DO-178C', '1e-3', '400 Hz', 'ASIL D', 'SIL 3', 'v2.1.7'];

function sentence(r: Rng): string {
  const n = r.int(6, 14);
  const w = Array.from({ length: n }, () => (r.chance(0.15) ? r.pick(NUMBERS) : r.pick(WORDS)));
  return `The ${w.join(' ')}.`;
}

function workspace(r: Rng): string {
  const ws = tempDir('control-fuzz-ws-');
  const files = r.int(6, 10);
  for (let f = 0; f < files; f++) {
    const rel = r.chance(0.3) ? join(`part${r.int(1, 3)}`, `note${f}.md`) : `note${f}.md`;
    mkdirSync(join(ws, rel, '..'), { recursive: true });
    let text = `# ${r.pick(WORDS)} ${r.pick(NUMBERS)} note ${f}\n\n${sentence(r)} ${sentence(r)}\n`;
    for (let s = 0; s < r.int(1, 4); s++) text += `\n## ${r.pick(WORDS)} ${s}\n\n${sentence(r)} ${sentence(r)} ${sentence(r)}\n`;
    writeFileSync(join(ws, rel), text);
  }
  return ws;
}

// ------------------------------------------------------------------ running the CLI

interface Out {
  code: number | null;
  out: string;
  err: string;
}

/** `control index ...` in this process: the CLI's own code, its output captured */
async function inProcess(args: string[]): Promise<Out> {
  const out: string[] = [];
  const err: string[] = [];
  const [log, error, warn] = [console.log, console.error, console.warn];
  console.log = (...a: unknown[]) => out.push(a.join(' '));
  console.error = (...a: unknown[]) => err.push(a.join(' '));
  console.warn = (...a: unknown[]) => err.push(a.join(' '));
  try {
    return { code: await indexCli(args), out: out.join('\n'), err: err.join('\n') };
  } catch (e) {
    return { code: null, out: out.join('\n'), err: `${err.join('\n')}\nTHROWN: ${(e as Error)?.stack ?? String(e)}` };
  } finally {
    [console.log, console.error, console.warn] = [log, error, warn];
  }
}

async function spawned(args: string[]): Promise<Out> {
  const r = await runCli(cli, ['index', ...args], { deadlineMs: 60_000 });
  return { code: r.killed ? null : r.code, out: r.stdout, err: r.stderr };
}

type Runner = (args: string[]) => Promise<Out>;

const CRASH = /TypeError|RangeError|ReferenceError|Cannot read|Cannot convert|is not a function|is not iterable|of undefined|of null|internal error|THROWN/;

function ok(o: Out, what: string): void {
  assert.equal(o.code, 0, `${what}: exit ${o.code}\n${o.out.slice(0, 800)}\n${o.err.slice(0, 1500)}`);
  assert.doesNotMatch(`${o.out}\n${o.err}`, CRASH, what);
}

interface Hit {
  chunkId: string;
  path: string;
  range: unknown;
  text: string;
  heading?: string;
  source: string;
}

async function search(run: Runner, dir: string, q: string, what: string): Promise<Hit[]> {
  // k above the passage count: every passage that matches, so a cut-off never hides a difference
  const o = await run(['search', q, '--index', dir, '--no-notes', '--json', '--k', '200']);
  ok(o, `${what}: search ${JSON.stringify(q)}`);
  return (JSON.parse(o.out.trim().split('\n').pop()!) as { hits: Hit[] }).hits;
}

const shown = (h: Hit) => JSON.stringify([h.chunkId, h.path, h.range, h.text, h.heading, h.source]);

// ------------------------------------------------------------------ damages

const TMP = /\.tmp-\d+-\d+$/;

function listShards(dir: string): string[] {
  const s = join(dir, 'shards');
  return existsSync(s)
    ? readdirSync(s)
        .filter((n) => n.endsWith('.shard'))
        .map((n) => join(s, n))
    : [];
}

function wrongValue(r: Rng): unknown {
  return r.pick<unknown>([null, [], {}, 'x', '', 0, -1, 1.5, 1e308, true, [null], { x: 1 }, '../../etc/passwd']);
}

/** one random damage to the index folder; says what it did and whether a shard (a file's passages) was hit */
function damage(r: Rng, dir: string, deadPid: number): { what: string; shard: boolean; tmp?: string[] } {
  const manifest = join(dir, 'manifest.json');
  const snapshot = join(dir, 'lexical.ndjson');
  const kind = r.int(0, 18);
  const flip = (file: string, count: number) => {
    if (!existsSync(file)) return;
    const b = readFileSync(file);
    if (!b.length) return;
    for (let i = 0; i < count; i++) {
      const at = r.int(0, b.length - 1);
      b[at] = (b[at] ^ r.int(1, 255)) & 255;
    }
    writeFileSync(file, b);
  };
  const cut = (file: string) => {
    if (!existsSync(file)) return;
    const b = readFileSync(file);
    writeFileSync(file, b.subarray(0, r.int(0, Math.max(0, b.length - 1))));
  };
  const editManifest = (f: (m: any) => unknown) => {
    let m: any;
    try {
      m = JSON.parse(readFileSync(manifest, 'utf8'));
    } catch {
      return;
    }
    if (!m || typeof m !== 'object') return;
    writeFileSync(manifest, JSON.stringify(f(m) ?? m));
  };
  switch (kind) {
    case 0:
    case 1: {
      if (!existsSync(snapshot)) return { what: 'snapshot gone already', shard: false };
      const lines = readFileSync(snapshot, 'utf8').split('\n').filter(Boolean);
      const i = r.int(0, lines.length - 1);
      const out = kind === 0 ? lines.filter((_, j) => j !== i) : [...lines.slice(0, i + 1), lines[i], ...lines.slice(i + 1)];
      writeFileSync(snapshot, out.join('\n') + '\n');
      return { what: `lexical.ndjson line ${i + 1} of ${lines.length} ${kind === 0 ? 'dropped' : 'repeated'}`, shard: false };
    }
    case 2:
      cut(manifest);
      return { what: 'manifest cut', shard: false };
    case 3:
      cut(snapshot);
      return { what: 'snapshot cut', shard: false };
    case 4:
      editManifest((m) => ({ ...m, files: null }));
      return { what: 'manifest "files": null', shard: false };
    case 5: {
      let key = '';
      editManifest((m) => {
        key = r.pick(Object.keys(m));
        delete m[key];
      });
      return { what: `manifest "${key}" removed`, shard: false };
    }
    case 6: {
      let key = '';
      const v = wrongValue(r);
      editManifest((m) => {
        key = r.pick(Object.keys(m));
        m[key] = v;
      });
      return { what: `manifest "${key}" = ${JSON.stringify(v)}`, shard: false };
    }
    case 7: {
      let where = '';
      const v = wrongValue(r);
      editManifest((m) => {
        if (!m.files || typeof m.files !== 'object') return;
        const f = r.pick(Object.keys(m.files));
        if (!f || !m.files[f] || typeof m.files[f] !== 'object') return;
        const k = r.pick(Object.keys(m.files[f]));
        where = `files["${f}"].${k}`;
        m.files[f][k] = v;
      });
      return { what: `manifest ${where} = ${JSON.stringify(v)}`, shard: false };
    }
    case 8: {
      const hashes = (text: string): Record<string, unknown> | undefined => {
        try {
          const m = JSON.parse(text);
          return m && typeof m.files === 'object' && m.files
            ? Object.fromEntries(Object.entries(m.files).map(([k, f]) => [k, (f as { hash?: unknown })?.hash]))
            : undefined;
        } catch {
          return undefined;
        }
      };
      const before = existsSync(manifest) ? hashes(readFileSync(manifest, 'utf8')) : undefined;
      flip(manifest, r.int(1, 3));
      const after = existsSync(manifest) ? hashes(readFileSync(manifest, 'utf8')) : undefined;
      // a flip that leaves valid JSON and turns a file's content hash into another valid hash
      // reads as a build killed between a shard and its manifest (the file is behind its shard):
      // by design that file leaves the index silently until the next build, so the answers
      // before the build may lack it (store/state.ts loadChunks); after the build they are a
      // clean build's, as for every other damage
      const behind =
        !!before &&
        !!after &&
        Object.entries(after).some(([k, h]) => typeof h === 'string' && /^[0-9a-f]{64}$/.test(h) && before[k] !== undefined && h !== before[k]);
      return { what: behind ? 'manifest bytes flipped (a file hash now another valid hash)' : 'manifest bytes flipped', shard: behind };
    }
    case 9:
    case 10: {
      const s = r.pick(listShards(dir));
      if (!s) return { what: 'no shard to flip', shard: false };
      flip(s, r.int(1, 4));
      return { what: `bytes flipped in a shard`, shard: true };
    }
    case 11: {
      const s = r.pick(listShards(dir));
      if (!s) return { what: 'no shard to cut', shard: false };
      cut(s);
      return { what: 'a shard cut', shard: true };
    }
    case 12: {
      const s = r.pick(listShards(dir));
      if (!s) return { what: 'no shard to delete', shard: false };
      rmSync(s);
      return { what: 'a shard deleted', shard: true };
    }
    case 13: {
      const s = r.pick(listShards(dir));
      if (!s) return { what: 'no shard to grow', shard: false };
      appendFileSync(s, Buffer.from(Array.from({ length: r.int(1, 64) }, () => r.int(0, 255))));
      return { what: 'bytes appended to a shard', shard: true };
    }
    case 14: {
      const old = new Date(Date.now() - 120_000);
      const tmp = [join(dir, `manifest.json.tmp-${deadPid}-${r.int(1, 99)}`), join(dir, `lexical.ndjson.tmp-${deadPid}-${r.int(1, 99)}`)];
      if (existsSync(join(dir, 'shards'))) tmp.push(join(dir, 'shards', `0123456789abcdef0123456${r.int(0, 9)}.shard.tmp-${deadPid}-${r.int(1, 99)}`));
      for (const p of tmp) {
        // (the manifest may be gone already, deleted by an earlier damage of this case)
        writeFileSync(p, r.pick(['', 'partial', '{"format":', existsSync(manifest) ? readFileSync(manifest).subarray(0, 40) : '{"format":2,"lexical":{']));
        utimesSync(p, old, old);
      }
      return { what: 'temp files of a killed writer left', shard: false, tmp };
    }
    case 15:
      flip(snapshot, r.int(1, 3));
      return { what: 'snapshot bytes flipped', shard: false };
    case 16:
      rmSync(snapshot, { force: true });
      return { what: 'lexical.ndjson deleted', shard: false };
    case 17:
      rmSync(manifest, { force: true });
      return { what: 'manifest.json deleted', shard: false };
    default:
      writeFileSync(manifest, r.pick(['', 'null', '[]', '42', '"manifest"', '{}', '{"format":2}']));
      return { what: 'manifest replaced', shard: false };
  }
}

// ------------------------------------------------------------------ the cases

interface Reference {
  ws: string;
  dir: string;
  queries: string[];
  answers: string[][];
  texts: Map<string, string>;
  stats: { filesIndexed: number; chunks: number };
}

async function reference(r: Rng, run: Runner): Promise<Reference> {
  const ws = workspace(r);
  const dir = tempDir('control-fuzz-idx-');
  ok(await run(['build', ws, '--index', dir, '--json']), 'clean build');
  const queries = [...new Set(Array.from({ length: 4 }, () => (r.chance(0.4) ? r.pick(NUMBERS) : `${r.pick(WORDS)} ${r.pick(WORDS)}`)))];
  const texts = new Map<string, string>();
  const answers: string[][] = [];
  for (const q of queries) {
    const hits = await search(run, dir, q, 'clean');
    answers.push(hits.map(shown));
    for (const h of hits) texts.set(h.chunkId, h.text);
  }
  // every passage of the clean build, by id
  const store = await IndexStore.open(dir);
  for (const c of store.allChunks()) texts.set(c.id, c.text);
  await store.close();
  const st = await run(['stats', '--index', dir, '--json']);
  ok(st, 'clean stats');
  const s = JSON.parse(st.out.trim().split('\n').pop()!);
  return { ws, dir, queries, answers, texts, stats: { filesIndexed: s.filesIndexed, chunks: s.chunks } };
}

async function oneCase(r: Rng, ref: Reference, run: Runner, k: number, deadPid: number, queries = ref.queries.length): Promise<string> {
  const dir = tempDir('control-fuzz-dmg-');
  cpSync(ref.dir, dir, { recursive: true });
  const done = Array.from({ length: r.int(1, 3) }, () => damage(r, dir, deadPid));
  const what = `case ${k} (${done.map((d) => d.what).join('; ')}; FUZZ_SEED=${SEED}; FUZZ_KEEP=1 keeps the damaged copy, ${dir})`;
  const shardHit = done.some((d) => d.shard);
  // search first: the open repairs what it can; nothing damaged is served
  for (const [i, q] of ref.queries.slice(0, queries).entries()) {
    const hits = await search(run, dir, q, what);
    for (const h of hits) assert.equal(h.text, ref.texts.get(h.chunkId), `${what}: ${q}: ${h.chunkId} served with a text the clean build does not have`);
    if (!shardHit) assert.deepEqual(hits.map(shown), ref.answers[i], `${what}: ${q}: the answers differ from a clean build's after the repair`);
    else
      assert.ok(
        hits.every((h) => ref.answers[i].includes(shown(h))),
        `${what}: ${q}: a hit a clean build does not give`,
      );
    if (i === 0) {
      const left = done.flatMap((d) => d.tmp ?? []).filter((p) => existsSync(p));
      assert.deepEqual(left, [], `${what}: temp files of a dead writer still there after the open`);
    }
  }
  ok(await run(['stats', '--index', dir]), `${what}: stats`);
  const b = await run(['build', ref.ws, '--index', dir, '--json']);
  ok(b, `${what}: build`);
  // after the build: the clean build's answers; a file re-read after its shard was dropped is
  // indexed after the others, so passages of equal score may come in another order (sorted then)
  for (const [i, q] of ref.queries.slice(0, queries).entries()) {
    const hits = (await search(run, dir, q, what)).map(shown);
    if (shardHit) assert.deepEqual([...hits].sort(), [...ref.answers[i]].sort(), `${what}: ${q}: after build`);
    else assert.deepEqual(hits, ref.answers[i], `${what}: ${q}: after build`);
  }
  const st = await run(['stats', '--index', dir, '--json']);
  ok(st, `${what}: stats after build`);
  const s = JSON.parse(st.out.trim().split('\n').pop()!);
  assert.deepEqual({ filesIndexed: s.filesIndexed, chunks: s.chunks }, ref.stats, `${what}: stats after build`);
  const temps = [dir, join(dir, 'shards')].filter(existsSync).flatMap((x) => readdirSync(x).filter((n) => TMP.test(n)));
  assert.deepEqual(temps, [], `${what}: temp files after build`);
  rmSync(dir, { recursive: true, force: true });
  return done.map((d) => d.what).join('; ');
}

/** runs the cases, all of them, and fails at the end listing every case that failed (first failure of each) */
async function cases(r: Rng, run: Runner, count: number, queries?: number): Promise<void> {
  const ref = await reference(r, inProcess);
  const deadPid = spawnSync(process.execPath, ['-e', '']).pid!;
  const seen: string[] = [];
  const failed: string[] = [];
  for (let k = 1; k <= count; k++) {
    try {
      seen.push(await oneCase(r, ref, run, k, deadPid, queries));
    } catch (e) {
      failed.push((e as Error).message.split('\n').slice(0, 3).join(' / '));
    }
  }
  console.log(
    `# index: ${count} damaged copies of an index of ${ref.stats.filesIndexed} files (${ref.stats.chunks} chunks); ${count - failed.length} passed: ${seen.join(' | ')}`,
  );
  if (failed.length) console.log(`# index: ${failed.length} failed:\n#   ${failed.join('\n#   ')}`);
  assert.deepEqual(failed, [], `${failed.length} of ${count} damaged indexes mishandled (FUZZ_SEED=${SEED})`);
}

test(`index fuzz: ${CASES_IN_PROCESS} random damages, searched, built and searched again: never a crash, never a damaged text, then a clean build's answers`, async () => {
  await cases(new Rng(SEED, 3), inProcess, CASES_IN_PROCESS);
});

test(`index fuzz through the bundled CLI: ${CASES_SPAWNED} random damages, each command a separate process`, async () => {
  await cases(new Rng(SEED, 4), spawned, CASES_SPAWNED, 2);
});

// ------------------------------------------------------------------ reproductions of what the fuzz found

for (const [what, damageIt] of [
  [
    'the manifest without "root"',
    (d: string) =>
      writeFileSync(join(d, 'manifest.json'), JSON.stringify((({ root: _, ...m }) => m)(JSON.parse(readFileSync(join(d, 'manifest.json'), 'utf8'))))),
  ],
  ['the manifest replaced by {}', (d: string) => writeFileSync(join(d, 'manifest.json'), '{}')],
  ['the manifest deleted (shards intact)', (d: string) => rmSync(join(d, 'manifest.json'))],
] as const) {
  test(`found by the fuzz: ${what}: stats says the index is repaired from its shards, so search answers as a clean build (it said "Nothing to search: ... not built yet")`, async () => {
    const r = new Rng(SEED, 6);
    const ref = await reference(r, inProcess);
    const d = tempDir('control-fuzz-dmg-');
    cpSync(ref.dir, d, { recursive: true });
    damageIt(d);
    const st = await inProcess(['stats', '--index', d, '--json']);
    ok(st, 'stats');
    assert.equal(JSON.parse(st.out.trim().split('\n').pop()!).chunks, ref.stats.chunks, 'the repair from the shards keeps every passage');
    const hits = await search(inProcess, d, ref.queries[0], what);
    assert.deepEqual(hits.map(shown), ref.answers[0]);
  });
}
