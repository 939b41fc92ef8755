// The write guard (issue 11, trust boundary) on real folders with real symbolic links: the
// decision is made on the real path, so links to outside, to .env, to a home folder, to an
// ignored folder, through a linked folder, and `..` paths that climb out are refused, each
// with its reason; ordinary files (existing or new) are allowed. A `..` after a folder that does not
// exist yet is resolved as the writer's created folder (the rest re-resolved, links followed), the
// folders a write would create are judged too, and file system errors are refusals, never throws.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkWrite, realPathOf, secretReason, type WriteVerdict } from '../../src/core/codegen/guard.js';

let base: string;
let ws: string;
let outside: string;
let home: string;

before(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'control-guard-')));
  ws = join(base, 'ws');
  outside = join(base, 'outside');
  home = join(base, 'home');
  for (const d of [ws, join(ws, 'sub'), join(ws, 'build'), outside, join(outside, 'odir'), home, join(home, '.ssh')]) mkdirSync(d, { recursive: true });
  writeFileSync(join(ws, 'notes.py'), 'x = 1\n');
  writeFileSync(join(ws, 'sub', 'model.m'), 'A = 1;\n');
  writeFileSync(join(ws, '.env'), 'SECRET=1\n');
  writeFileSync(join(ws, '.gitignore'), 'build/\n');
  writeFileSync(join(ws, 'build', 'gen.py'), 'x = 1\n');
  writeFileSync(join(outside, 'secret.txt'), 'outside\n');
  writeFileSync(join(outside, 'h.txt'), 'hard\n');
  writeFileSync(join(home, '.bashrc'), 'echo hi\n');
  writeFileSync(join(home, '.ssh', 'authorized_keys'), 'ssh-ed25519 AAAA\n');
  writeFileSync(join(home, 'notes.md'), '# notes\n');
  // the links a hostile workspace could carry
  symlinkSync(join(outside, 'secret.txt'), join(ws, 'link_out.py'));
  symlinkSync('../outside/secret.txt', join(ws, 'rel_out.py'));
  symlinkSync('.env', join(ws, 'link_env.py'));
  symlinkSync(home, join(ws, 'link_home'));
  symlinkSync(join(ws, 'build', 'gen.py'), join(ws, 'link_build.py'));
  symlinkSync(join(outside, 'odir'), join(ws, 'linkdir'));
  symlinkSync(join(outside, 'not-yet.py'), join(ws, 'dangling.py'));
  symlinkSync(join(ws, 'loop2'), join(ws, 'loop1'));
  symlinkSync(join(ws, 'loop1'), join(ws, 'loop2'));
  symlinkSync(join(ws, 'notes.py'), join(ws, 'alias.py')); // a link inside to an ordinary file
  linkSync(join(outside, 'h.txt'), join(ws, 'hard.py'));
  symlinkSync(ws, join(base, 'wslink')); // the workspace opened through a link
  symlinkSync(join(ws, 'notes.py', 'x'), join(ws, 'through_file')); // a link whose target passes through a file
  mkdirSync(join(ws, 'locked'));
  writeFileSync(join(ws, 'locked', 'in.py'), 'x = 1\n');
  chmodSync(join(ws, 'locked'), 0o000);
});

after(() => {
  chmodSync(join(ws, 'locked'), 0o755);
  rmSync(base, { recursive: true, force: true });
});

const check = (target: string, roots = [ws], exclude?: Record<string, unknown>): WriteVerdict => checkWrite(target, { roots, exclude: () => exclude });

function refused(target: string, why: RegExp, roots?: string[], exclude?: Record<string, unknown>): void {
  const v = check(target, roots, exclude);
  assert.equal(v.ok, false, `${target} was allowed: ${JSON.stringify(v)}`);
  if (!v.ok) assert.match(v.reason, why, target);
}

function allowed(target: string, rel: string, roots?: string[]): void {
  const v = check(target, roots);
  assert.ok(v.ok, `${target} was refused: ${JSON.stringify(v)}`);
  if (v.ok) assert.equal(v.rel, rel);
}

test('ordinary files are allowed: existing, new, in new folders, through a link inside, through a linked root', () => {
  allowed(join(ws, 'notes.py'), 'notes.py');
  allowed(join(ws, 'sub', 'model.m'), 'sub/model.m');
  allowed(join(ws, 'new.py'), 'new.py');
  allowed(join(ws, 'newdir', 'deeper', 'x.py'), 'newdir/deeper/x.py');
  allowed(join(ws, 'control-reports', '2026-01-01-lqr.md'), 'control-reports/2026-01-01-lqr.md');
  allowed(join(ws, 'alias.py'), 'notes.py');
  allowed(`${ws}/sub/../notes.py`, 'notes.py');
  allowed(`${ws}/./sub//model.m`, 'sub/model.m');
  allowed(join(base, 'wslink', 'notes.py'), 'notes.py', [join(base, 'wslink')]);
  allowed(join(ws, 'notes.py'), 'notes.py', [join(base, 'wslink')]);
  allowed(join(home, 'notes.md'), 'notes.md', [home]);
});

test('symbolic links are judged by their real path: to outside, to .env, to a home folder, to an ignored folder, through a linked folder', () => {
  refused(join(ws, 'link_out.py'), /link_out\.py is outside the workspace \(its real path is .*outside\/secret\.txt\)/);
  refused(join(ws, 'rel_out.py'), /outside the workspace/);
  refused(join(ws, 'link_env.py'), /\.env is an environment file/);
  refused(join(ws, 'link_home', '.bashrc'), /outside the workspace \(its real path is .*home\/\.bashrc\)/);
  refused(join(ws, 'link_home', 'notes.md'), /outside the workspace/);
  refused(join(ws, 'link_home', '.ssh', 'authorized_keys'), /outside the workspace/);
  refused(join(ws, 'link_build.py'), /build\/gen\.py is ignored by the workspace's \.gitignore/);
  refused(join(ws, 'linkdir', 'new.py'), /outside the workspace \(its real path is .*outside\/odir\/new\.py\)/);
  refused(join(ws, 'linkdir'), /outside the workspace/);
  refused(join(ws, 'dangling.py'), /symbolic link to something that does not exist/);
  refused(join(ws, 'loop1', 'x.py'), /loop of symbolic links/);
  refused(join(ws, 'hard.py'), /other hard link/);
});

test('`..` paths are resolved after the links they follow', () => {
  refused(`${ws}/../outside/secret.txt`, /outside the workspace/);
  refused(`${ws}/sub/../../outside/new.py`, /outside the workspace/);
  refused(`${ws}/../../../../../../etc/passwd`, /outside the workspace/);
  // lexically ws/secret.txt, really outside/secret.txt: linkdir -> outside/odir, then ..
  refused(`${ws}/linkdir/../secret.txt`, /outside the workspace \(its real path is .*outside\/secret\.txt\)/);
  refused(`${ws}/link_home/../outside/secret.txt`, /outside the workspace/);
  refused(`${ws}/sub/../.env`, /\.env is an environment file/);
  refused(`${ws}/newdir/../../outside/x.py`, /outside the workspace/);
  refused('relative/path.py', /not an absolute path/);
});

test('secrets and files that configure what runs are refused by name', () => {
  const secrets: [string, RegExp][] = [
    ['.env', /environment file/],
    ['.env.production', /environment file/],
    ['config/prod.env', /environment file \(\*\.env\)/],
    ['.aws/credentials', /\.aws\/, AWS credentials/],
    ['.aws/config', /AWS/],
    ['.git-credentials', /credentials file/],
    ['.docker/config.json', /Docker credentials/],
    ['.ssh/id_ed25519', /SSH/],
    ['.ssh/config', /SSH/],
    ['.ssh/authorized_keys', /SSH/],
    ['.kube/config', /Kubernetes/],
    ['.npmrc', /credentials file/],
    ['.pypirc', /credentials file/],
    ['.netrc', /credentials file/],
    ['certs/server.pem', /\*\.pem/],
    ['tls.key', /\*\.key/],
    ['id_rsa', /SSH key/],
    ['keys/id_rsa.pub', /SSH key/],
    ['store.jks', /key store/],
    ['cert.p12', /key store/],
    ['.gnupg/pubring.kbx', /GnuPG/],
    ['.vscode/tasks.json', /VS Code's workspace configuration/],
    ['.vscode/launch.json', /VS Code/],
    ['.vscode/settings.json', /VS Code/],
    ['.vscode/mcp.json', /VS Code/],
    ['proj.code-workspace', /workspace file/],
    ['.devcontainer/devcontainer.json', /dev container/],
    ['.git/config', /git's internals/],
    ['.git/hooks/pre-commit', /git's internals/],
    ['sub/.git/HEAD', /git's internals/],
    ['.bashrc', /shell start-up/],
    ['.zshrc', /shell start-up/],
    ['.gitconfig', /git configuration/],
    ['.config/gcloud/credentials.db', /credentials folder/],
  ];
  for (const [rel, why] of secrets) {
    refused(join(ws, ...rel.split('/')), why);
    assert.ok(secretReason(rel), rel);
  }
  // a home folder opened as the workspace: its secrets are still refused, its notes are not
  refused(join(home, '.bashrc'), /shell start-up/, [home]);
  refused(join(home, '.ssh', 'authorized_keys'), /SSH/, [home]);
  for (const p of [
    'pendulum.m',
    'src/motor.py',
    'environment.py',
    'keyboard.py',
    'monkey.m',
    'envelope.md',
    'notes/env.py',
    'vscode/x.py',
    'git.md',
    'docs/keys.md',
  ])
    assert.equal(secretReason(p), undefined, p);
});

test('ignored and hidden files: .gitignore on the real path, files.exclude; nothing open: everything is outside', () => {
  refused(join(ws, 'build', 'gen.py'), /ignored by the workspace's \.gitignore/);
  refused(join(ws, 'build', 'new.py'), /ignored/);
  refused(join(ws, 'hidden', 'a.py'), /files\.exclude pattern "\*\*\/hidden"/, [ws], { '**/hidden': true });
  // the report and plot exports may go into an ignored folder; never outside, never a secret
  assert.ok(checkWrite(join(ws, 'build', 'report.md'), { roots: [ws], allowIgnored: true }).ok);
  assert.equal(checkWrite(join(ws, 'linkdir', 'report.md'), { roots: [ws], allowIgnored: true }).ok, false);
  assert.equal(checkWrite(join(ws, 'build', '.env'), { roots: [ws], allowIgnored: true }).ok, false);
  refused(join(ws, 'notes.py'), /outside the workspace/, []);
  refused(join(ws, 'notes.py'), /outside the workspace/, [join(base, 'no-such-folder')]);
});

test('realPathOf follows links component by component, as the operating system does', () => {
  const r = realPathOf(`${ws}/linkdir/../secret.txt`);
  assert.deepEqual(r, { ok: true, real: join(outside, 'secret.txt'), exists: true, created: [] });
  const n = realPathOf(join(ws, 'linkdir', 'a', 'b.py'));
  assert.deepEqual(n, { ok: true, real: join(outside, 'odir', 'a', 'b.py'), exists: false, created: [join(outside, 'odir', 'a')] });
  // an injected file system: the function is pure given it
  const fake = {
    realpath: (p: string) => {
      if (p === '/w') return '/w';
      if (p === '/w/l') return '/elsewhere';
      throw Object.assign(new Error('no'), { code: 'ENOENT' });
    },
    lstat: () => undefined,
    readText: () => undefined,
  };
  assert.deepEqual(checkWrite('/w/l/x.py', { roots: ['/w'], fs: fake }), {
    ok: false,
    reason: '/w/l/x.py is outside the workspace (its real path is /elsewhere/x.py): @control writes only inside the workspace folders',
  });
  assert.deepEqual(checkWrite('/w/a/x.py', { roots: ['/w'], fs: fake }), { ok: true, real: '/w/a/x.py', root: '/w', rel: 'a/x.py' });
});

test("'..' after a folder that does not exist yet: what follows is resolved again, links followed as met", () => {
  // a writer that creates missing parents makes newdir, then '..' is ws and link_out.py is followed
  assert.deepEqual(realPathOf(`${ws}/newdir/../link_out.py`), { ok: true, real: join(outside, 'secret.txt'), exists: true, created: [join(ws, 'newdir')] });
  refused(`${ws}/newdir/../link_out.py`, /link_out\.py is outside the workspace \(its real path is .*outside\/secret\.txt\)/);
  refused(`${ws}/missing/../hard.py`, /hard\.py has 1 other hard link/);
  refused(`${ws}/missing/../link_env.py`, /\.env is an environment file/);
  refused(`${ws}/missing/../linkdir/new.py`, /outside the workspace \(its real path is .*outside\/odir\/new\.py\)/);
  refused(`${ws}/missing/../link_home/.bashrc`, /outside the workspace/);
  refused(`${ws}/missing/../dangling.py`, /symbolic link to something that does not exist/);
  refused(`${ws}/missing/../loop1/x.py`, /loop of symbolic links/);
  // mirrors: an existing folder first, '..' twice; several missing folders and as many '..'; a climb out after them
  refused(`${ws}/sub/missing/../../link_out.py`, /outside the workspace \(its real path is .*outside\/secret\.txt\)/);
  refused(`${ws}/m1/m2/../../link_out.py`, /outside the workspace/);
  refused(`${ws}/m1/m2/../m3/../../hard.py`, /other hard link/);
  refused(`${ws}/missing/../../outside/secret.txt`, /outside the workspace/);
  refused(`${ws}/linkdir/missing/../../secret.txt`, /outside the workspace \(its real path is .*outside\/secret\.txt\)/);
  // '..' ending the path names a folder (the workspace itself, or one the writer would create)
  refused(`${ws}/missing/..`, /names a folder, not a file/);
  refused(`${ws}/missing/../..`, /names a folder, not a file/);
  refused(`${ws}/newdir/`, /names a folder, not a file/);
  refused(`${ws}/newdir/../newdir`, /names a folder that writing it would create/);
  refused(`${ws}/launch/passwd/../passwd`, /names a folder that writing it would create/);
});

test('the folders a write would create are judged as existing ones: no secret or configuration name, not outside, not ignored', () => {
  refused(`${ws}/id_rsa/../plot.svg`, /would create the folder id_rsa, and id_rsa is an SSH key/);
  refused(`${ws}/.vscode/../x.py`, /would create the folder \.vscode, and \.vscode is VS Code's workspace configuration/);
  refused(`${ws}/sub/.aws/../x.py`, /would create the folder sub\/\.aws, and .*AWS credentials/);
  refused(`${ws}/prod.env/../x.py`, /would create the folder prod\.env, and prod\.env is an environment file/);
  refused(`${ws}/../newfolder/../ws/x.py`, /would create the folder .*\/newfolder, outside the workspace/);
  // at the root of the file system
  refused(`/control-guard-no-such-folder/..${ws}/x.py`, /would create the folder \/control-guard-no-such-folder, outside the workspace/);
  refused(`${ws}/build/new/../../x.py`, /would create the folder build\/new, ignored by the workspace's \.gitignore/);
  refused(`${ws}/hidden/../x.py`, /would create the folder hidden, hidden by the files\.exclude pattern "\*\*\/hidden"/, [ws], { '**/hidden': true });
  // exports may create folders in an ignored folder, never secret ones
  assert.ok(checkWrite(`${ws}/build/new/../../x.py`, { roots: [ws], allowIgnored: true }).ok);
  assert.equal(checkWrite(`${ws}/id_rsa/../plot.svg`, { roots: [ws], allowIgnored: true }).ok, false);
  // ordinary new nested folders, with or without '..', are still allowed
  allowed(`${ws}/reports/2026/x.md`, 'reports/2026/x.md');
  assert.deepEqual(realPathOf(`${ws}/reports/2026/x.md`), {
    ok: true,
    real: join(ws, 'reports', '2026', 'x.md'),
    exists: false,
    created: [join(ws, 'reports'), join(ws, 'reports', '2026')],
  });
  allowed(`${ws}/newdir/../new.py`, 'new.py');
  allowed(`${ws}/newdir/../newdir/x.py`, 'newdir/x.py');
  allowed(`${ws}/sub/a/../b/c.py`, 'sub/b/c.py');
});

test('file system errors while resolving are refusals with a reason, never a throw', () => {
  refused(`${ws}/notes.py/x.py`, /notes\.py is a file, not a folder/);
  refused(`${ws}/notes.py/../x.py`, /notes\.py is a file, not a folder/);
  refused(`${ws}/notes.py/.`, /notes\.py is a file, not a folder/);
  refused(`${ws}/hard.py/sub/plot.svg`, /hard\.py is a file, not a folder/);
  refused(`${ws}/alias.py/x.py`, /alias\.py is a link to a file \(.*notes\.py\), not a folder/);
  refused(`${ws}/missing/../notes.py/x.py`, /notes\.py is a file, not a folder/);
  refused(`${ws}/through_file`, /through_file cannot be resolved: a part of it .* is a file, not a folder/);
  refused(`${ws}/${'a'.repeat(300)}/x.py`, /too long/);
  refused(`${ws}/${'ab/'.repeat(3000)}x.py`, /too long/);
  // an injected file system whose every call fails in its own way
  const boom = (code: string) => () => {
    throw Object.assign(new Error(code), { code });
  };
  const fake = (realpath: (p: string) => string, lstat: () => never | undefined = () => undefined, readText: () => string | undefined = () => undefined) => ({
    realpath,
    lstat,
    readText,
  });
  const ok = (p: string) => (p === '/w' || p === '/w/f.py' ? p : boom('ENOENT')());
  const cases: [ReturnType<typeof fake>, RegExp][] = [
    [fake((p) => (p === '/w' ? p : boom('EACCES')())), /\/w\/a cannot be resolved: permission denied \(EACCES\)/],
    [fake((p) => (p === '/w' ? p : boom('EIO')())), /\/w\/a cannot be resolved \(EIO\)/],
    [fake(ok, boom('EPERM')), /permission denied \(EPERM\)/],
    [fake(ok, boom('ENOTDIR')), /a file, not a folder/],
    [
      fake(
        ok,
        () => undefined,
        () => {
          throw new Error('disk gone');
        },
      ),
      /could not be checked \(disk gone\)/,
    ],
    [
      fake(() => {
        throw 'not even an Error';
      }),
      /cannot be resolved \(not even an Error\)/,
    ],
  ];
  for (const [fs, why] of cases) {
    let v: WriteVerdict;
    assert.doesNotThrow(() => {
      v = checkWrite('/w/a/x.py', { roots: ['/w'], fs });
    });
    assert.equal(v!.ok, false, JSON.stringify(v!));
    if (!v!.ok) assert.match(v!.reason, why);
  }
});

test('a folder that cannot be read is refused with its reason', { skip: process.getuid?.() === 0 && 'root reads every folder' }, () => {
  refused(join(ws, 'locked', 'in.py'), /permission denied \(EACCES\)/);
  refused(join(ws, 'locked', 'new', 'x.py'), /permission denied \(EACCES\)/);
});
