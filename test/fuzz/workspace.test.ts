// Fuzz: the write guard in a hostile workspace (issue 11, item 7; ARCHITECTURE.md invariant 7).
// A temp workspace holds secrets (.env, .ssh/, .git/, .vscode/), an ignored folder, a file
// hard-linked to one outside, and the links a hostile workspace can carry (to outside, to a
// home folder, to .env, through a linked folder, dangling, looping, relative, to .git/).
// Seeded random paths are built from these names, `..`, `.`, new names (secret ones among
// them: prod.env, .aws/credentials, id_rsa, .git-credentials, .docker/config.json, ...), case
// variants and doubled separators. For each, `checkWrite` decides; when it allows, the test
// really writes there (creating missing folders, as an export would), and then checks the
// effect on disk, independently of the guard's own reasoning: nothing outside the workspace
// changed, no secret or configuration file changed, and (for code inserts) nothing ignored.
// Ordinary new files must be allowed (a guard that refuses everything fails here).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { checkWrite } from '../../src/core/codegen/guard.js';
import { fuzzSeed, Rng } from './_fuzz.js';

const SEED = fuzzSeed('workspace.test.ts');
const TARGETS = 600;

/** everything the test creates, and the only place it ever writes */
let fuzzRoot: string;
let base: string;
let ws: string;

before(() => {
  // the fixture sits five levels below the test's own temp folder, and every link points inside
  // that folder: a path of up to four components that climbs with '..' stays in it
  fuzzRoot = realpathSync(mkdtempSync(join(tmpdir(), 'control-fuzz-guard-')));
  base = join(fuzzRoot, 'l1', 'l2', 'l3', 'l4', 'b');
  ws = join(base, 'ws');
  const outside = join(base, 'outside');
  const home = join(base, 'home');
  for (const d of [
    ws,
    join(ws, 'sub'),
    join(ws, 'build'),
    join(ws, '.git'),
    join(ws, '.vscode'),
    join(ws, '.ssh'),
    join(ws, 'docs'),
    outside,
    join(outside, 'odir'),
    home,
    join(home, '.ssh'),
    join(home, '.aws'),
  ])
    mkdirSync(d, { recursive: true });
  const files: Record<string, string> = {
    'ws/notes.py': 'x = 1\n',
    'ws/sub/model.m': 'A = 1;\n',
    'ws/docs/readme.md': '# docs\n',
    'ws/.env': 'SECRET=1\n',
    'ws/.gitignore': 'build/\n*.log\n',
    'ws/build/gen.py': 'x = 1\n',
    'ws/.git/config': '[core]\n',
    'ws/.vscode/tasks.json': '{}\n',
    'ws/.ssh/id_rsa': 'KEY\n',
    'outside/secret.txt': 'outside\n',
    'outside/h.txt': 'hard\n',
    'outside/odir/x.py': 'x\n',
    'home/.bashrc': 'echo hi\n',
    'home/.ssh/authorized_keys': 'ssh-ed25519 AAAA\n',
    'home/.aws/credentials': '[default]\n',
    'home/notes.md': '# notes\n',
  };
  for (const [p, t] of Object.entries(files)) writeFileSync(join(base, p), t);
  const links: [string, string][] = [
    [join(outside, 'secret.txt'), 'link_out.py'],
    ['../outside/secret.txt', 'rel_out.py'],
    ['.env', 'link_env.py'],
    [home, 'link_home'],
    [join(ws, 'build', 'gen.py'), 'link_build.py'],
    [join(outside, 'odir'), 'linkdir'],
    ['../outside/odir', 'rel_linkdir'],
    [join(outside, 'not-yet.py'), 'dangling.py'],
    [join(ws, 'loop2'), 'loop1'],
    [join(ws, 'loop1'), 'loop2'],
    [join(ws, 'notes.py'), 'alias.py'],
    [join(ws, 'sub'), 'subalias'],
    [join(ws, '.git'), 'gitlink'],
    [join(ws, '.vscode', 'tasks.json'), 'tasks_link.json'],
    [join(home, '.ssh'), 'sshlink'],
    [base, 'up'],
    [fuzzRoot, 'root'],
  ];
  for (const [target, name] of links) symlinkSync(target, join(ws, name));
  linkSync(join(outside, 'h.txt'), join(ws, 'hard.py'));
});

after(() => rmSync(fuzzRoot, { recursive: true, force: true }));

// ------------------------------------------------------------------ the effect on disk, independently

/** every entry under `dir` (links not followed): type, size, content hash, link target */
function snapshot(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = lstatSync(p);
    if (st.isSymbolicLink()) out.set(p, `link ${readlinkSync(p)}`);
    else if (st.isDirectory()) {
      out.set(p, 'dir');
      snapshot(p, out);
    } else out.set(p, `file ${createHash('sha1').update(readFileSync(p)).digest('hex')}`);
  }
  return out;
}

/** what must never change: everything outside the workspace; inside it, secrets, what runs, and (for code inserts) ignored files */
function protectedPath(p: string, allowIgnored: boolean): string | undefined {
  const rel = relative(ws, p);
  if (rel.startsWith('..') || rel === '') return 'outside the workspace';
  const parts = rel.split(sep);
  const top = parts[0].toLowerCase();
  if (['.env', '.git', '.vscode', '.ssh'].includes(top)) return `a secret or configuration (${parts[0]})`;
  if (
    parts.some(
      (x) =>
        /^\.env|\.env$|^id_rsa|\.pem$|\.key$|^\.git-credentials$|^\.npmrc$|^\.netrc$|^\.bashrc$|\.code-workspace$/i.test(x) ||
        /^\.(aws|docker|ssh|git|vscode|kube|gnupg|devcontainer)$/i.test(x),
    )
  )
    return 'a secret or configuration name';
  if (!allowIgnored && (top === 'build' || /\.log$/i.test(p))) return 'ignored by .gitignore';
  return undefined;
}

/**
 * Where writing `p` would land when the writer creates missing folders first (as an export
 * does): components walked in order, a link followed where it is met, '..' taken from the
 * folder reached so far, a missing component created. Written here, apart from the guard.
 */
function osDestination(p: string, depth = 0): string {
  if (depth > 40) return `${sep}ELOOP`; // a loop of links: the write fails (counted as outside)
  let cur: string = sep;
  const comps = p.split(sep);
  for (let i = 0; i < comps.length; i++) {
    const c = comps[i];
    if (c === '' || c === '.') continue;
    if (c === '..') {
      cur = dirname(cur);
      continue;
    }
    const next = join(cur, c);
    let st;
    try {
      st = lstatSync(next);
    } catch {
      st = undefined;
    }
    if (st?.isSymbolicLink()) {
      const to = readlinkSync(next);
      // a link: continue from its target, walked the same way (it may hold links and '..')
      cur = osDestination(to.startsWith(sep) ? to : `${cur}${sep}${to}`, depth + 1);
    } else cur = next;
  }
  return cur;
}

// ------------------------------------------------------------------ targets

const EXISTING = [
  'notes.py',
  'sub',
  'docs',
  'build',
  '.env',
  '.git',
  '.vscode',
  '.ssh',
  'link_out.py',
  'rel_out.py',
  'link_env.py',
  'link_home',
  'link_build.py',
  'linkdir',
  'rel_linkdir',
  'dangling.py',
  'loop1',
  'alias.py',
  'subalias',
  'gitlink',
  'tasks_link.json',
  'sshlink',
  'up',
  'root',
  'hard.py',
  'model.m',
  'gen.py',
  'config',
  'tasks.json',
  'id_rsa',
  'secret.txt',
  'odir',
  'outside',
  'home',
  'ws',
  'etc',
  'passwd',
  'tmp',
];
const NEW = [
  'new.py',
  'report.md',
  'plot.svg',
  'x.m',
  'prod.env',
  '.env.local',
  '.ENV',
  '.Env',
  'x.pem',
  'server.key',
  'id_rsa',
  'id_ed25519.pub',
  '.aws',
  'credentials',
  '.docker',
  'config.json',
  '.git-credentials',
  '.npmrc',
  '.netrc',
  '.bashrc',
  '.zshrc',
  '.kube',
  '.gnupg',
  '.devcontainer',
  'devcontainer.json',
  'my.code-workspace',
  'a.log',
  'Ω.py',
  'файл.py',
  'a b.py',
  '-rf',
  '.hidden.py',
  'settings.json',
  'launch.json',
  '.SSH',
  '.Git',
];

function target(r: Rng): string {
  const k = r.int(0, 9);
  if (k === 0) return join(base, r.pick(['outside', 'home', '.']), r.pick([...NEW, ...EXISTING]));
  if (k === 1) return r.pick([join(fuzzRoot, 'x.py'), join(fuzzRoot, 'l1', '.bashrc'), join(base, 'ws2', 'x.py'), `${ws}_evil/x.py`, `${ws}-x.py`]);
  const segs: string[] = [];
  const n = r.int(1, 4);
  for (let i = 0; i < n; i++)
    segs.push(
      r.weighted([
        [35, r.pick(EXISTING)],
        [35, r.pick(NEW)],
        [15, '..'],
        [8, '.'],
        [7, ''],
      ] as const),
    );
  let p = ws + sep + segs.join(r.chance(0.1) ? '//' : sep);
  if (r.chance(0.05)) p += sep;
  return p;
}

/** plain new files in ordinary folders: these must be allowed */
function ordinary(r: Rng, k: number): string {
  return join(ws, r.pick(['', 'sub', 'docs', 'subalias']), `fuzz_${k}.${r.pick(['py', 'm', 'md', 'txt'])}`);
}

test('write guard: a path through a regular file is refused with a reason, not a thrown ENOTDIR', () => {
  let v: ReturnType<typeof checkWrite> | string;
  try {
    v = checkWrite(`${ws}/notes.py/x.py`, { roots: [ws] });
  } catch (e) {
    v = `threw: ${(e as Error).message}`;
  }
  assert.equal(typeof v === 'object' && v.ok === false && typeof v.reason === 'string', true, `checkWrite(<ws>/notes.py/x.py) gave ${JSON.stringify(v)}`);
});

test('write guard: "<ws>/newdir/../link_out.py" (a missing folder, "..", then a link to outside) is refused: created as a writer creates parents, it writes outside', () => {
  const t = `${ws}/newdir/../link_out.py`;
  const v = checkWrite(t, { roots: [ws] });
  assert.equal(
    v.ok,
    false,
    `allowed: ${JSON.stringify(v)}; the operating system resolves ${t} (once newdir exists) to ${realpathSync(join(ws, 'link_out.py'))}`,
  );
});

test(`write guard fuzz: ${TARGETS} random paths in a hostile workspace; every allowed write lands inside it, never on a secret, never outside`, () => {
  const r = new Rng(SEED, 5);
  const violations: string[] = [];
  const notes: string[] = [];
  let allowed = 0;
  let refused = 0;
  for (let k = 0; k < TARGETS; k++) {
    const benign = r.chance(0.15);
    const t = benign ? ordinary(r, k) : target(r);
    const allowIgnored = r.chance(0.3);
    let v: ReturnType<typeof checkWrite>;
    try {
      v = checkWrite(t, { roots: [ws], allowIgnored });
    } catch (e) {
      violations.push(`${t}: the guard threw ${(e as Error).message}`);
      continue;
    }
    if (!v.ok) {
      refused++;
      if (typeof v.reason !== 'string' || !v.reason) violations.push(`${t}: refused without a reason`);
      if (benign) violations.push(`${t}: an ordinary new file was refused: ${v.reason}`);
      continue;
    }
    allowed++;
    // a safety net of this test's own: where the operating system would write (folders created
    // on the way, links followed as met); never anywhere but this test's temp folder
    const dest = osDestination(t);
    if (relative(fuzzRoot, dest).startsWith('..')) {
      violations.push(`${t}: allowed (${JSON.stringify(v)}), and writing it would land at ${dest}, outside even this test's folder (not written)`);
      continue;
    }
    const before = snapshot(fuzzRoot);
    try {
      mkdirSync(dirname(t), { recursive: true });
      writeFileSync(t, `written by the fuzz, case ${k}\n`);
    } catch (e) {
      notes.push(`${t}: allowed but not writable (${(e as NodeJS.ErrnoException).code})`);
      if (benign) violations.push(`${t}: an ordinary new file could not be written: ${(e as Error).message}`);
    }
    const after = snapshot(fuzzRoot);
    for (const p of new Set([...before.keys(), ...after.keys()])) {
      if (before.get(p) === after.get(p)) continue;
      const why = protectedPath(p, allowIgnored);
      if (why) violations.push(`${t} (allowIgnored ${allowIgnored}) was allowed (${JSON.stringify(v)}) and changed ${p}: ${why}`);
    }
    if (existsSync(t)) {
      const real = realpathSync(t);
      if (real !== dest && !lstatSync(real).isDirectory()) notes.push(`${t}: written at ${real}, this test's own resolution said ${dest}`);
      if (relative(ws, real).startsWith('..')) violations.push(`${t}: allowed, and its real path ${real} is outside the workspace`);
    }
  }
  // by cause: known root causes are counted apart so a new kind of violation stands out
  const cause = (v: string) =>
    v.includes('the guard threw') ? 'the guard threw' : /\/\.\.(\/|$| )/.test(v.split(' ')[0]) ? "allowed a path with '..' after a missing folder" : 'other';
  const byCause = new Map<string, string[]>();
  for (const v of violations) byCause.set(cause(v), [...(byCause.get(cause(v)) ?? []), v]);
  for (const [c, list] of byCause) console.log(`# guard: ${list.length} violations: ${c}, e.g.\n#   ${list.slice(0, 3).join('\n#   ')}`);
  console.log(
    `# guard: ${TARGETS} paths: ${allowed} allowed and written, ${refused} refused${notes.length ? `; ${notes.length} allowed but not writable, e.g. ${notes.slice(0, 3).join('; ')}` : ''}`,
  );
  assert.ok(allowed >= TARGETS * 0.1, `only ${allowed} of ${TARGETS} paths allowed`);
  assert.deepEqual(
    [...byCause].map(([c, list]) => `${list.length} x ${c}: ${list[0]}`),
    [],
    `${violations.length} violations (FUZZ_SEED=${SEED})`,
  );
});
