// Index self-repair (issue 11, part 6; ARCHITECTURE.md invariant 11) and numeric terms (part 7):
// a small index is built from Markdown files in a temp folder, damaged the ways the probe
// damaged it (a lost snapshot line, an ill-typed manifest, flipped shard bytes, temp files
// of killed writers), reopened, searched and rebuilt; the results must equal a clean build's,
// with the repair said, never a TypeError and never a damaged text served.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IndexStore } from '../../src/core/retrieval/store.js';
import { LexicalIndex, splitDigitRuns } from '../../src/core/retrieval/lexical.js';
import { crc32, crc32Table } from '../../src/core/retrieval/checksum.js';
import { main as indexCli } from '../../src/cliIndex.js';

const NOTES: Record<string, string> = {
  'safety.md':
    '# Functional safety\n\nThe controller is developed to IEC 61508 and ISO 26262; the safety integrity level sets the diagnostic coverage.\n\n## Hazards\n\nHazard analysis and risk assessment come first; each hazard gets an integrity target.\n',
  'filters.md':
    '# Filters\n\nThe rev2024 loop filter attenuates sensor noise by 60 dB above crossover.\n\n## Notch\n\nA notch filter at the resonance keeps the gain margin; the zeta_damping field stays as designed.\n',
  'kalman.md':
    '# Kalman\n\nThe kalman filter weighs the model against noisy measurements using the noise covariance.\n\n## Tuning\n\nProcess noise covariance trades tracking against smoothing in the kalman estimate.\n',
  'notes/lqr.md':
    '# LQR\n\nThe lqr regulator chooses the weights of a quadratic cost; the riccati equation gives the gain.\n\n## Weights\n\nBryson rule: weights from the largest acceptable state and input excursions.\n',
  'notes/bode.md':
    '# Bode\n\nThe bode plot shows gain and phase against frequency; margins are read at crossover.\n\n## Nyquist\n\nThe nyquist plot encircles minus one once per unstable closed-loop pole.\n',
};

const QUERIES = [
  'IEC 61508',
  'ISO 26262',
  'rev2024',
  '60 dB',
  'kalman noise covariance',
  'riccati gain',
  'gain margin crossover',
  'nyquist unstable pole',
  'hazard integrity',
];

function workspace(): string {
  const ws = mkdtempSync(join(tmpdir(), 'control-ws-'));
  for (const [rel, text] of Object.entries(NOTES)) {
    mkdirSync(join(ws, rel, '..'), { recursive: true });
    writeFileSync(join(ws, rel), text);
  }
  return ws;
}

const idx = () => mkdtempSync(join(tmpdir(), 'control-idx-'));

/** every query's hits as they would be shown: chunk, file, range and text, in order */
async function answers(s: IndexStore): Promise<string[][]> {
  const out: string[][] = [];
  for (const q of QUERIES) out.push((await s.search(q, { k: 5 })).hits.map((h) => JSON.stringify([h.chunkId, h.path, h.range, h.text, h.heading, h.source])));
  return out;
}

const chunksOf = (s: IndexStore) =>
  s
    .allChunks()
    .map((c) => JSON.stringify(c))
    .sort();

/** a clean build of the workspace: its answers, chunks and stats, and a copy of its folder to damage */
async function reference(): Promise<{ ws: string; dir: string; answers: string[][]; chunks: string[]; stats: { files: number; chunks: number } }> {
  const ws = workspace();
  const dir = idx();
  const s = await IndexStore.open(dir);
  await s.build(ws);
  const r = { ws, dir, answers: await answers(s), chunks: chunksOf(s), stats: { files: s.stats().filesIndexed, chunks: s.stats().chunks } };
  await s.close();
  return r;
}

/** a copy of the built index folder, to damage */
function copyOf(dir: string): string {
  const d = idx();
  cpSync(dir, d, { recursive: true });
  return d;
}

async function open(dir: string): Promise<{ s: IndexStore; said: string[] }> {
  const said: string[] = [];
  const s = await IndexStore.open(dir, { onWarning: (m) => said.push(m) });
  return { s, said };
}

/** a shard's bytes and where its texts start (u32 header length, u32 header CRC, header, texts) */
function shardOf(dir: string, rel: string): { file: string; buf: Buffer; dataStart: number } {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  const file = join(dir, 'shards', `${manifest.files[rel].key}.shard`);
  const buf = readFileSync(file);
  return { file, buf, dataStart: 8 + buf.readUInt32LE(0) };
}

test('numeric terms: digit runs are whole terms, split from letters they touch, on both the index and the gate side', async () => {
  const li = new LexicalIndex();
  assert.deepEqual(li.terms('IEC 61508'), ['iec', '61508']);
  assert.deepEqual(li.terms('rev2024'), ['rev', '2024']);
  assert.deepEqual(li.terms('ISO 26262'), ['iso', '26262']);
  assert.deepEqual(li.terms('60 dB'), ['60', 'db']);
  assert.deepEqual(li.terms('IEC61508-3'), ['iec', '61508', '3']);
  assert.deepEqual(li.terms('r2d2 h2'), ['r2d2', 'h2'], 'short runs stay with their letters, as before');
  assert.equal(splitDigitRuns('rev2024b and iec61508'), 'rev 2024 b and iec 61508');
  const { ws, dir } = await reference();
  const { s } = await open(dir);
  const top = async (q: string) => (await s.search(q, { k: 3 })).hits.map((h) => h.path);
  assert.deepEqual(await top('IEC 61508'), ['safety.md']);
  assert.deepEqual(await top('ISO 26262'), ['safety.md']);
  assert.deepEqual(await top('61508'), ['safety.md']);
  assert.deepEqual(await top('rev2024'), ['filters.md']);
  assert.deepEqual(await top('rev 2024'), ['filters.md'], 'the query split as the text is');
  assert.deepEqual(await top('60 dB'), ['filters.md']);
  assert.deepEqual(await top('IEC61508'), ['safety.md']);
  assert.deepEqual(await top('zeta_damping'), ['filters.md'], 'an underscore separates words on both sides');
  assert.deepEqual(await top('damping zeta'), ['filters.md']);
  assert.deepEqual(await top('615'), [], 'a part of a number is not the number');
  assert.deepEqual(await top('2024'), ['filters.md']);
  await s.close();
  rmSync(ws, { recursive: true, force: true });
});

test('an index of the earlier encoder (digit triplets) is re-indexed from its shards at open, silently, and then finds numbers', async () => {
  const { ws, dir, answers: want } = await reference();
  const d = copyOf(dir);
  // what the previous version wrote: the config without an encoder version, a snapshot without an end line
  const m = JSON.parse(readFileSync(join(d, 'manifest.json'), 'utf8'));
  m.lexical = { tokenize: 'strict' };
  writeFileSync(join(d, 'manifest.json'), JSON.stringify(m));
  const lines = readFileSync(join(d, 'lexical.ndjson'), 'utf8').split('\n');
  const head = JSON.parse(lines[0]);
  delete head.v;
  head.config = { tokenize: 'strict' };
  writeFileSync(join(d, 'lexical.ndjson'), [JSON.stringify(head), ...lines.slice(1, -2)].join('\n') + '\n');
  const { s, said } = await open(d);
  assert.deepEqual(said, []);
  assert.deepEqual(await answers(s), want);
  await s.close();
  assert.equal(JSON.parse(readFileSync(join(d, 'manifest.json'), 'utf8')).lexical.encoder, 2);
  rmSync(ws, { recursive: true, force: true });
});

test('lexical.ndjson: any one line dropped, a byte changed, cut short: rebuilt from the shards with a warning, answers equal a clean build', async () => {
  const ref = await reference();
  const lines = readFileSync(join(ref.dir, 'lexical.ndjson'), 'utf8')
    .split('\n')
    .filter((l) => l);
  assert.ok(lines.length >= 4, `header, parts and end line: ${lines.length}`);
  const damages: [string, (d: string) => void, RegExp][] = lines.map((_, i) => [
    `line ${i + 1} of ${lines.length} dropped`,
    (d: string) => writeFileSync(join(d, 'lexical.ndjson'), lines.filter((_, j) => j !== i).join('\n') + '\n'),
    /^the lexical index \(lexical\.ndjson\) is damaged \((its first line is not the header|\d+ parts? where its end line says \d+|it has no end line: cut short)\): rebuilt from the shards of the 5 indexed files$/,
  ]);
  damages.push([
    'a digit changed in a part',
    (d) => {
      // an id in the term map: 1 becomes 2 (still valid JSON, a wrong posting)
      const text = readFileSync(join(d, 'lexical.ndjson'), 'utf8');
      const at = text.indexOf('[[1', text.indexOf('.map\t'));
      assert.ok(at > 0);
      writeFileSync(join(d, 'lexical.ndjson'), `${text.slice(0, at)}[[2${text.slice(at + 3)}`);
    },
    /is damaged \(its checksum does not match its content\)/,
  ]);
  damages.push(['cut in the middle', (d) => writeFileSync(join(d, 'lexical.ndjson'), readFileSync(join(d, 'lexical.ndjson')).subarray(0, 300)), /is damaged/]);
  damages.push(['emptied', (d) => writeFileSync(join(d, 'lexical.ndjson'), ''), /is damaged \(it is empty\)/]);
  for (const [what, damage, said] of damages) {
    const d = copyOf(ref.dir);
    damage(d);
    const a = await open(d);
    assert.equal(a.said.length, 1, `${what}: ${a.said}`);
    assert.match(a.said[0], said, what);
    assert.deepEqual(a.s.stats().warnings, a.said, what);
    assert.deepEqual(await answers(a.s), ref.answers, what);
    const b = await a.s.build(ref.ws);
    assert.equal(b.filesChanged, 0, what);
    assert.deepEqual(b.warnings, a.said, `${what}: the build after the open reports the repair`);
    assert.deepEqual(await answers(a.s), ref.answers, what);
    await a.s.close();
    // the snapshot written after the repair is whole: nothing to say at the next open
    const again = await open(d);
    assert.deepEqual(again.said, [], what);
    assert.deepEqual(await answers(again.s), ref.answers, what);
    await again.s.close();
  }
});

test('a snapshot that disagrees with the manifest (ids it does not list, ids not given out) is rebuilt with a warning', async () => {
  const ref = await reference();
  // the manifest's files moved to new ids (as after a damaged manifest written back): the snapshot's ids are another file's
  const d = copyOf(ref.dir);
  const m = JSON.parse(readFileSync(join(d, 'manifest.json'), 'utf8'));
  const rels = Object.keys(m.files).sort((x, y) => m.files[x].firstId - m.files[y].firstId);
  const [a, b] = [m.files[rels[0]], m.files[rels[1]]];
  [a.firstId, b.firstId] = [b.firstId, a.firstId];
  if (a.count !== b.count) {
    // keep the ranges apart: the later one moves past the end
    const later = a.firstId > b.firstId ? a : b;
    later.firstId = m.nextId;
    m.nextId += later.count;
  }
  writeFileSync(join(d, 'manifest.json'), JSON.stringify(m));
  const { s, said } = await open(d);
  assert.equal(said.length, 1, String(said));
  assert.match(
    said[0],
    /lexical index \(lexical\.ndjson\) is damaged \((it holds chunks of .* its header does not list|its header lists chunk ids the manifest has not given out)\): rebuilt/,
  );
  // same texts and ranks; the chunk ids (strings) are the files' own, so the answers are a clean build's
  assert.deepEqual(await answers(s), ref.answers);
  await s.close();
  // nextId turned back below the snapshot's ids: the manifest says so first (ids already given out)
  const e = copyOf(ref.dir);
  const m2 = JSON.parse(readFileSync(join(e, 'manifest.json'), 'utf8'));
  m2.nextId = 2;
  writeFileSync(join(e, 'manifest.json'), JSON.stringify(m2));
  const o = await open(e);
  assert.match(o.said[0], /index manifest was damaged \("nextId" is below the chunk ids already given out\)/);
  assert.deepEqual(await answers(o.s), ref.answers);
  await o.s.close();
});

test('an ill-typed manifest (files null, skipped missing, wrong types, not JSON) is rebuilt from the shards with a warning, never a TypeError', async () => {
  const ref = await reference();
  const good = JSON.parse(readFileSync(join(ref.dir, 'manifest.json'), 'utf8'));
  const first = Object.keys(good.files)[0];
  const withFile = (patch: Record<string, unknown>) => ({ ...good, files: { ...good.files, [first]: { ...good.files[first], ...patch } } });
  const cases: [string, unknown, RegExp][] = [
    ['files null', { ...good, files: null }, /\("files" is null where an object is expected\)/],
    ['skipped missing', (({ skipped: _, ...rest }) => rest)(good), /\("skipped" is missing\)/],
    ['files missing', (({ files: _, ...rest }) => rest)(good), /\("files" is missing\)/],
    ['files a list', { ...good, files: [] }, /\("files" is a list where an object is expected\)/],
    ['skipped a string', { ...good, skipped: 'none' }, /\("skipped" is a string where an object is expected\)/],
    ['nextId a string', { ...good, nextId: '99' }, /\("nextId" is a string where a whole number >= 1 is expected\)/],
    ['format missing', (({ format: _, ...rest }) => rest)(good), /\("format" is missing\)/],
    // not an older layout (those start afresh): found by the fuzz, the index was wiped and search said "no index"
    ['format 0', { ...good, format: 0 }, /\("format" is 0, not a layout this version knows\)/],
    ['format -1', { ...good, format: -1 }, /\("format" is -1, not a layout this version knows\)/],
    ['format 1.5', { ...good, format: 1.5 }, /\("format" is 1\.5, not a layout this version knows\)/],
    ['format 1e308', { ...good, format: 1e308 }, /\("format" is 1e\+308, not a layout this version knows\)/],
    ['lexical null', { ...good, lexical: null }, /\("lexical" is not a tokenizer config\)/],
    ['firstId a string', withFile({ firstId: '1' }), /\.firstId is not a whole number >= 1\)/],
    ['count negative', withFile({ count: -3 }), /\.count is not a whole number >= 1\)/],
    ['a key that leaves the folder', withFile({ key: '../../../../tmp/x' }), /\.key is not the file's shard key\)/],
    ['an entry null', { ...good, files: { ...good.files, [first]: null } }, /is null where an object is expected\)/],
    ['a path with ..', { ...good, files: { ...good.files, '../outside.md': good.files[first] } }, /is not a relative path\)/],
    ['calibration junk', { ...good, calibration: { x: 1 } }, /calibration\["x"\] is not a calibration\)/],
    ['not an object', [1, 2], /\(it is a list, not a manifest\)/],
    ['null', null, /\(it is null, not a manifest\)/],
    ['not JSON', '{"format": 2, "files": {', /\(it is not valid JSON\)/],
  ];
  for (const [what, manifest, problem] of cases) {
    const d = copyOf(ref.dir);
    writeFileSync(join(d, 'manifest.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
    const { s, said } = await open(d);
    assert.equal(said.length, 1, `${what}: ${said}`);
    assert.match(said[0], /^the index manifest was damaged \(/, what);
    assert.match(said[0], problem, `${what}: ${said[0]}`);
    assert.match(said[0], /rebuilt from the shards on disk \(5 files\)/, what);
    const st = s.stats();
    assert.deepEqual([st.filesIndexed, st.chunks], [ref.stats.files, ref.stats.chunks], what);
    assert.deepEqual(await answers(s), ref.answers, what);
    assert.deepEqual(chunksOf(s), ref.chunks, what);
    const b = await s.build(ref.ws);
    assert.deepEqual([b.filesChanged, b.filesIndexed, b.chunks], [0, 5, ref.stats.chunks], `${what}: unchanged files are re-hashed, not re-read`);
    assert.deepEqual(await answers(s), ref.answers, what);
    await s.close();
    const again = await open(d);
    assert.deepEqual(again.said, [], `${what}: repaired once`);
    assert.deepEqual(await answers(again.s), ref.answers, what);
    assert.equal((await again.s.build(ref.ws)).filesChanged, 0, what);
    await again.s.close();
  }
  // a manifest lost (a build killed before its first checkpoint leaves shards, no manifest): recovered, nothing to say
  const lost = copyOf(ref.dir);
  rmSync(join(lost, 'manifest.json'));
  const l = await open(lost);
  assert.deepEqual(l.said, []);
  assert.deepEqual(await answers(l.s), ref.answers);
  await l.s.close();
});

test('control index search / stats / build on a manifest with "files": null answer, and say the repair', async () => {
  const ref = await reference();
  const d = copyOf(ref.dir);
  const good = JSON.parse(readFileSync(join(d, 'manifest.json'), 'utf8'));
  writeFileSync(join(d, 'manifest.json'), JSON.stringify({ ...good, files: null }));
  const run = indexCommand;
  const s = await run(['search', 'IEC 61508', '--index', d, '--no-notes', '--json']);
  assert.equal(s.code, 0, s.err);
  const r = JSON.parse(s.out);
  assert.equal(r.hits[0]?.path, 'safety.md');
  assert.ok(
    r.notes.some((n: string) => /index manifest was damaged \("files" is null/.test(n)),
    JSON.stringify(r.notes),
  );
  // the repair was written: stats and build have nothing more to say, and build re-reads nothing
  const st = await run(['stats', '--index', d]);
  assert.equal(st.code, 0, st.err);
  assert.match(st.out, /^5 files indexed of 5/);
  assert.doesNotMatch(st.out, /Warning/);
  const e = copyOf(ref.dir);
  writeFileSync(join(e, 'manifest.json'), JSON.stringify((({ skipped: _, ...rest }) => rest)(good)));
  const b = await run(['build', ref.ws, '--index', e]);
  assert.equal(b.code, 0, b.err);
  assert.match(b.out, /Indexed 5 of 5 files \(\d+ chunks; 0 re-read, 0 removed\)/);
  assert.match(b.out, /Warning: the index manifest was damaged \("skipped" is missing\)/);
  // a passage that fails its checksum: the search says so and does not serve it; stats then says what to do
  const f = copyOf(ref.dir);
  const { file, buf, dataStart } = shardOf(f, 'kalman.md');
  buf[buf.indexOf('covariance', dataStart)] = 'k'.charCodeAt(0);
  writeFileSync(file, buf);
  const k = await run(['search', 'kalman noise covariance', '--index', f, '--no-notes', '--json']);
  assert.equal(k.code, 0, k.err);
  const kr = JSON.parse(k.out);
  // (a passage of the file read before the damaged one checked out, and may be served: it is what was indexed)
  assert.ok(!kr.hits.some((h: { text: string }) => h.text.includes('kovariance')), 'never served');
  assert.ok(
    kr.notes.some(
      (n: string) =>
        n === 'the workspace index: kalman.md left the index: a passage in its shard failed its checksum; its text is never served, the next build re-reads it',
    ),
    k.out,
  );
  const ks = await run(['stats', '--index', f]);
  assert.match(ks.out, /^4 files indexed of 4 .*\n1 file to re-read: run `control index build <folder>`\.$/);
  const kb = await run(['build', ref.ws, '--index', f]);
  assert.match(kb.out, /Indexed 5 of 5 files \(\d+ chunks; 1 re-read, 0 removed\)/);
});

test('flipped bytes in a shard text are never served: the file leaves the index with a warning, the next build re-reads it', async () => {
  const ref = await reference();
  const d = copyOf(ref.dir);
  const { file, buf, dataStart } = shardOf(d, 'safety.md');
  const at = buf.indexOf('61508', dataStart);
  assert.ok(at > dataStart);
  buf[at] = '9'.charCodeAt(0); // "91508": valid text, wrong
  writeFileSync(file, buf);
  const { s, said } = await open(d);
  assert.deepEqual(said, [], 'the header checks out: found when the text is read');
  const r = await s.search('IEC 61508', { k: 5 });
  assert.ok(!r.hits.some((h) => h.text.includes('91508')), 'never served');
  assert.ok(!r.hits.some((h) => h.path === 'safety.md'));
  assert.deepEqual(said, ['safety.md left the index: a passage in its shard failed its checksum; its text is never served, the next build re-reads it']);
  assert.equal(s.stats().reindexPending, 1);
  assert.equal(existsSync(file), false, 'the damaged shard is removed');
  assert.ok(!s.allChunks().some((c) => c.path === 'safety.md' || c.text.includes('91508')));
  await s.close();
  // the drop was written: a reopen does not serve it either, says nothing more, and knows what to re-read
  const o = await open(d);
  assert.deepEqual(o.said, []);
  assert.equal(o.s.stats().reindexPending, 1);
  assert.ok(!(await o.s.search('IEC 61508')).hits.some((h) => h.path === 'safety.md'));
  const b = await o.s.build(ref.ws);
  assert.equal(b.filesChanged, 1);
  assert.equal(o.s.stats().reindexPending, undefined);
  assert.deepEqual(chunksOf(o.s), ref.chunks);
  assert.equal((await o.s.search('IEC 61508', { k: 1 })).hits[0]?.path, 'safety.md');
  assert.match((await o.s.search('IEC 61508', { k: 1 })).hits[0].text, /IEC 61508 and ISO 26262/);
  await o.s.close();
  assert.equal(JSON.parse(readFileSync(join(d, 'manifest.json'), 'utf8')).reindex, undefined);
});

test('a damaged shard header, a cut shard and an old shard without checksums leave the index at open (said), and the next build re-reads them', async () => {
  const ref = await reference();
  const d = copyOf(ref.dir);
  // a flipped byte in the header (a heading: still valid JSON, wrong)
  const k = shardOf(d, 'kalman.md');
  const h = k.buf.indexOf('Tuning', 8);
  assert.ok(h > 8 && h < k.dataStart);
  k.buf[h] = 'R'.charCodeAt(0);
  writeFileSync(k.file, k.buf);
  // cut short
  const f = shardOf(d, 'filters.md');
  writeFileSync(f.file, f.buf.subarray(0, f.buf.length - 7));
  // the previous layout (version 3: no checksums), as the previous version wrote it
  const l = shardOf(d, 'notes/lqr.md');
  const header = JSON.parse(l.buf.toString('utf8', 8, l.dataStart));
  header.v = 3;
  for (const c of header.chunks) delete c.c;
  const hb = Buffer.from(JSON.stringify(header));
  const len = Buffer.alloc(4);
  len.writeUInt32LE(hb.length);
  writeFileSync(l.file, Buffer.concat([len, hb, l.buf.subarray(l.dataStart)]));
  const { s, said } = await open(d);
  assert.equal(said.length, 2, String(said));
  assert.match(said[0], /^2 files left the index, their stored text damaged: /);
  assert.match(said[0], /kalman\.md \(its shard header failed its checksum\)/);
  assert.match(said[0], /filters\.md \(its shard holds \d+ bytes of text where its header says \d+\)/);
  assert.equal(said[1], '1 file was indexed in an older layout without checksums and left the index; the next build re-reads it');
  assert.equal(s.stats().filesIndexed, 2);
  assert.equal(s.stats().reindexPending, 3);
  assert.ok(!(await s.search('kalman tuning')).hits.length);
  const b = await s.build(ref.ws);
  assert.equal(b.filesChanged, 3);
  assert.deepEqual(b.warnings, said);
  assert.deepEqual(chunksOf(s), ref.chunks);
  await s.close();
  const again = await open(d);
  assert.deepEqual(again.said, []);
  assert.deepEqual(chunksOf(again.s), ref.chunks);
  await again.s.close();
});

test("temp files of killed writers are removed at open; a running writer's recent ones and newer ones stay", async () => {
  const ref = await reference();
  const d = copyOf(ref.dir);
  const dead = spawnSync(process.execPath, ['-e', '']).pid!;
  const old = new Date(Date.now() - 60_000);
  mkdirSync(join(d, 'vectors', 'some-model'), { recursive: true });
  const stale = [
    join(d, 'shards', `0123456789abcdef01234567.shard.tmp-${dead}-4`),
    join(d, `manifest.json.tmp-${dead}-17`),
    join(d, `lexical.ndjson.tmp-${dead}-2`),
    join(d, 'vectors', 'some-model', `0123456789abcdef01234567.bin.tmp-${dead}-0`),
    join(d, 'shards', `abababababababababababab.shard.tmp-${process.pid}-999999`), // ours, but abandoned long ago
  ];
  const kept = [join(d, 'shards', `cdcdcdcdcdcdcdcdcdcdcdcd.shard.tmp-${process.pid}-999998`), join(d, `manifest.json.tmp-${dead}-99`), join(d, 'notes.tmp')];
  for (const p of [...stale, ...kept]) writeFileSync(p, 'partial');
  for (const p of stale.slice(0, 4)) utimesSync(p, old, old);
  utimesSync(stale[4], new Date(Date.now() - 3600_000), new Date(Date.now() - 3600_000));
  utimesSync(kept[0], old, old); // a running writer's (this process), a minute old
  utimesSync(kept[1], new Date(Date.now() + 60_000), new Date(Date.now() + 60_000)); // written after the open began
  const { s, said } = await open(d);
  assert.deepEqual(said, []);
  for (const p of stale) assert.equal(existsSync(p), false, p);
  for (const p of kept) assert.equal(existsSync(p), true, p);
  assert.deepEqual(await answers(s), ref.answers);
  await s.close();
  // a real build killed mid-way (SIGKILL): whatever temp files it left, none is left after the next open
  const k = idx();
  const child = spawn(process.execPath, ['--import', 'tsx', join('test', 'fixtures', 'retrievalBuildChild.ts'), ref.ws, k, '40'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolveP, reject) => {
    child.stdout.on('data', () => {
      if (!child.killed) child.kill('SIGKILL');
    });
    child.on('exit', () => resolveP());
    child.on('error', reject);
  });
  // and one it would have left had it been killed between a temp write and its rename
  writeFileSync(join(k, 'shards', `0123456789abcdef01234567.shard.tmp-${child.pid}-3`), 'partial');
  utimesSync(join(k, 'shards', `0123456789abcdef01234567.shard.tmp-${child.pid}-3`), old, old);
  const temps = (dir: string) => [dir, join(dir, 'shards')].flatMap((x) => readdirSync(x).filter((n) => /\.tmp-\d+-\d+$/.test(n)));
  assert.ok(temps(k).length >= 1);
  const resumed = await open(k);
  assert.deepEqual(temps(k), []);
  await resumed.s.build(ref.ws);
  assert.deepEqual(chunksOf(resumed.s), ref.chunks);
  await resumed.s.close();
});

test('CRC-32: the table version agrees with zlib', () => {
  for (const s of ['', 'a', 'IEC 61508', 'x'.repeat(1000), 'é∑😀']) {
    const b = Buffer.from(s);
    assert.equal(crc32Table(b), crc32(b), s);
    assert.equal(crc32Table(b.subarray(3), crc32Table(b.subarray(0, 3))), crc32(b), `${s} in two pieces`);
  }
  assert.equal(crc32('123456789'), 0xcbf43926);
});

/** `control index ...` in this process (the CLI's own code path: CliRetriever), its output captured */
async function indexCommand(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const [log, error] = [console.log, console.error];
  console.log = (...a: unknown[]) => out.push(a.join(' '));
  console.error = (...a: unknown[]) => err.push(a.join(' '));
  try {
    return { code: await indexCli(args), out: out.join('\n'), err: err.join('\n') };
  } finally {
    [console.log, console.error] = [log, error];
  }
}

interface CliSearch {
  hits: { chunkId: string; path: string; range: unknown; text: string; heading?: string; source: string; uri: string }[];
  notes: string[];
  sources: { name: string; root: string; chunks: number }[];
}

/** `control index search q --index dir --no-notes --json`: its JSON, exit 0 asserted */
async function cliSearch(dir: string, q: string, what: string): Promise<CliSearch> {
  const r = await indexCommand(['search', q, '--index', dir, '--no-notes', '--json', '--k', '50']);
  assert.equal(r.code, 0, `${what}: ${q}: exit ${r.code}: ${r.err}`);
  return JSON.parse(r.out) as CliSearch;
}

/** hits as shown, as a set: passages with equal scores may come back in another order */
const hitSet = (r: CliSearch) => r.hits.map((h) => JSON.stringify([h.chunkId, h.path, h.range, h.text, h.heading, h.source])).sort();

test('control index search on an index repaired from its shards (manifest cut, garbage, without root/builtAt, deleted) answers as a clean build, the repair said once (it said "Nothing to search: ... not built yet" / "no index in")', async () => {
  const ref = await reference();
  const clean: string[][] = [];
  for (const q of QUERIES) clean.push(hitSet(await cliSearch(ref.dir, q, 'clean build')));
  assert.ok(
    clean.every((h) => h.length > 0),
    'every query finds something in the clean build',
  );
  const manifest = readFileSync(join(ref.dir, 'manifest.json'), 'utf8');
  const good = JSON.parse(manifest);
  const damages: [string, (d: string) => void, RegExp | undefined][] = [
    [
      'manifest cut in half',
      (d) => writeFileSync(join(d, 'manifest.json'), manifest.slice(0, manifest.length >> 1)),
      /^the workspace index: the index manifest was damaged \(it is not valid JSON\): rebuilt from the shards on disk \(5 files\)/,
    ],
    [
      'manifest cut to one byte',
      (d) => writeFileSync(join(d, 'manifest.json'), manifest.slice(0, 1)),
      /^the workspace index: the index manifest was damaged \(it is not valid JSON\)/,
    ],
    [
      'manifest garbage',
      (d) => writeFileSync(join(d, 'manifest.json'), '\u0000\u0007garbage\u00ff{{'),
      /^the workspace index: the index manifest was damaged \(it is not valid JSON\)/,
    ],
    ['manifest {}', (d) => writeFileSync(join(d, 'manifest.json'), '{}'), /^the workspace index: the index manifest was damaged \("format" is missing\)/],
    [
      'manifest null',
      (d) => writeFileSync(join(d, 'manifest.json'), 'null'),
      /^the workspace index: the index manifest was damaged \(it is null, not a manifest\)/,
    ],
    [
      'manifest without root and builtAt',
      (d) => writeFileSync(join(d, 'manifest.json'), JSON.stringify((({ root: _r, builtAt: _b, ...m }) => m)(good))),
      undefined,
    ],
    [
      'manifest root and builtAt ill-typed',
      (d) => writeFileSync(join(d, 'manifest.json'), JSON.stringify({ ...good, root: 42, builtAt: null })),
      /^the workspace index: the index manifest was damaged \("root" is a number where a string is expected\)/,
    ],
    // a build killed before its first checkpoint leaves the same: recovered, not damage, so not said
    ['manifest deleted (shards intact)', (d) => rmSync(join(d, 'manifest.json')), undefined],
  ];
  for (const [what, damageIt, warning] of damages) {
    const d = copyOf(ref.dir);
    damageIt(d);
    const first = await cliSearch(d, QUERIES[0], what);
    assert.deepEqual(hitSet(first), clean[0], `${what}: the clean build's hits`);
    const repairs = first.notes.filter((n) => /manifest was damaged/.test(n));
    if (warning) {
      assert.equal(repairs.length, 1, `${what}: the repair said once: ${JSON.stringify(first.notes)}`);
      assert.match(repairs[0], warning, what);
    } else assert.deepEqual(repairs, [], what);
    // the folder the paths are relative to is lost with the manifest: said, links under the folder the index sits in
    assert.ok(
      first.notes.some((n) => n.includes('does not record the folder it indexes')),
      `${what}: ${JSON.stringify(first.notes)}`,
    );
    assert.deepEqual(
      first.sources.map((s) => [s.name, s.root, s.chunks]),
      [['workspace', join(d, '..'), ref.stats.chunks]],
      what,
    );
    assert.ok(
      first.hits.every((h) => h.uri.startsWith('file://') && h.uri.endsWith(h.path)),
      what,
    );
    // the repair was written: the next search (another process, as from the terminal) does not say it again
    for (const [i, q] of QUERIES.entries()) {
      const r = await cliSearch(d, q, what);
      assert.deepEqual(hitSet(r), clean[i], `${what}: ${q}`);
      assert.deepEqual(
        r.notes.filter((n) => /manifest was damaged/.test(n)),
        [],
        `${what}: ${q}: said again`,
      );
    }
    // the next build records the folder again, re-reading nothing
    const b = await indexCommand(['build', ref.ws, '--index', d, '--json']);
    assert.equal(b.code, 0, b.err);
    assert.equal(JSON.parse(b.out).filesChanged, 0, what);
    const after = await cliSearch(d, QUERIES[0], what);
    assert.deepEqual(hitSet(after), clean[0], what);
    assert.deepEqual(after.notes, [], what);
    assert.deepEqual(
      after.sources.map((s) => s.root),
      [ref.ws],
      what,
    );
    rmSync(d, { recursive: true, force: true });
  }
  rmSync(ref.ws, { recursive: true, force: true });
});

test('control index search where there is no index (no manifest, no shards) says so plainly and how to build one, and creates nothing', async () => {
  const ref = await reference();
  const base = idx();
  const missing = join(base, 'no-such-index');
  const empty = join(base, 'empty');
  mkdirSync(empty);
  const emptyShards = join(base, 'empty-shards');
  mkdirSync(join(emptyShards, 'shards'), { recursive: true });
  // everything but the shards: nothing to recover an index from
  const noShards = copyOf(ref.dir);
  rmSync(join(noShards, 'shards'), { recursive: true });
  rmSync(join(noShards, 'manifest.json'));
  const garbageNoShards = copyOf(ref.dir);
  rmSync(join(garbageNoShards, 'shards'), { recursive: true });
  writeFileSync(join(garbageNoShards, 'manifest.json'), 'garbage');
  for (const [what, d] of [
    ['missing', missing],
    ['empty', empty],
    ['empty shards folder', emptyShards],
    ['snapshot only', noShards],
    ['garbage manifest, no shards', garbageNoShards],
  ] as const) {
    const r = await indexCommand(['search', 'kalman', '--index', d, '--no-notes', '--json']);
    assert.equal(r.code, 1, `${what}: ${r.out}`);
    assert.equal(r.err, `control index: Nothing to search: no index in ${d}: run \`control index build <folder> --index ${d}\` first.`, what);
  }
  assert.ok(!existsSync(missing), 'searching creates no index folder');
  // a built index of a folder with nothing to index: not "no index", but nothing in it
  const bare = idx();
  const emptyWs = mkdtempSync(join(tmpdir(), 'control-ws-'));
  assert.equal((await indexCommand(['build', emptyWs, '--index', bare])).code, 0);
  const r = await indexCommand(['search', 'kalman', '--index', bare, '--no-notes']);
  assert.equal(r.code, 1);
  assert.match(r.err, /Nothing to search: the index in .* holds no passages: run `control index build <folder> --index /);
  rmSync(base, { recursive: true, force: true });
  rmSync(bare, { recursive: true, force: true });
  rmSync(emptyWs, { recursive: true, force: true });
  rmSync(ref.ws, { recursive: true, force: true });
});
