/**
 * The write guard: where @control may write a file. Every write of the extension (code
 * insert, report export, plot export) asks `checkWrite` first, and again just before writing.
 *
 * The decision is made on the file's **real** path as the operating system walks it once a
 * writer has created the missing folders (`vscode.workspace.fs.writeFile` and `mkdir -p` do):
 * every existing component resolved (symbolic links, junctions, links through a directory,
 * `..` taken after the link it follows), a missing one a new plain folder, so a `..` after it
 * returns to a real folder and what follows is resolved again, links followed as met
 * (`<ws>/new/../link` is the link). Every folder the write would create is judged too.
 * Refused, each with its reason:
 * - a real path outside every workspace root (a link to outside, to the home folder, a
 *   `..` path that climbs out), a link whose target does not exist, a link loop, a folder
 *   the write would create outside;
 * - a path through a file (`notes.py/x.py`), a path naming a folder, anything the file
 *   system will not resolve (EACCES, ENAMETOOLONG, …): `checkWrite` never throws;
 * - secrets and credentials (`.env*`, `*.env`, keys and key stores, `.aws/`, `.ssh/`,
 *   `.docker/`, `.kube/`, `.gnupg/`, `.git-credentials`, `.netrc`, `.npmrc`, `.pypirc`, …),
 *   by the name of the path, of the link and of its target;
 * - files whose contents something runs: `.vscode/` (tasks, launch, settings, mcp.json),
 *   `*.code-workspace`, `.devcontainer/`, `.git/` internals, shell start-up files;
 * - an existing file that is not a regular file, or has other hard links;
 * - files the workspace ignores (`.gitignore`, on the real path) or hides (`files.exclude`);
 * - creating a folder with a secret or configuration name, or (unless `allowIgnored`) one
 *   the workspace ignores or hides (`<ws>/id_rsa/../plot.svg` creates `id_rsa/`).
 * Pure path logic over an injected file system (`GuardFs`; `nodeGuardFs` is the real one).
 */
import { realpathSync, lstatSync, readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import ignore from 'ignore';
import { minimatch } from 'minimatch';

/** names that are secrets or run something, wherever they are */
const SECRET_NAMES: [RegExp, string][] = [
  [/^\.env/i, 'an environment file (.env*)'],
  [/.\.env$/i, 'an environment file (*.env)'],
  [/\.pem$/i, 'a certificate or key (*.pem)'],
  [/\.key$/i, 'a key file (*.key)'],
  [/^id_(rsa|dsa|ecdsa|ed25519)/i, 'an SSH key (id_rsa*)'],
  [/\.(p12|pfx|keystore|jks|kdbx|ppk|gpg)$/i, 'a key store'],
  [/^(\.netrc|_netrc|\.npmrc|\.pypirc|\.git-credentials|\.pgpass|\.htpasswd|\.yarnrc\.yml)$/i, 'a credentials file'],
  [/^(\.bashrc|\.bash_profile|\.bash_login|\.bash_logout|\.profile|\.zshrc|\.zshenv|\.zprofile|\.zlogin)$/i, 'a shell start-up file (the shell runs it)'],
  [/^\.gitconfig$/i, 'a git configuration file (it can name programs git runs)'],
  [/\.code-workspace$/i, 'a VS Code workspace file (its settings and tasks change what VS Code runs)'],
];

/** folders whose every file is a secret or runs something */
const SECRET_DIRS: [RegExp, string][] = [
  [/^\.ssh$/i, 'SSH keys and configuration'],
  [/^\.aws$/i, 'AWS credentials and configuration'],
  [/^\.azure$/i, 'Azure credentials'],
  [/^\.docker$/i, 'Docker credentials (config.json)'],
  [/^\.kube$/i, 'Kubernetes credentials (config)'],
  [/^\.gnupg$/i, 'GnuPG keys'],
  [/^\.git$/i, "git's internals (hooks and config run programs)"],
  [/^\.vscode$/i, "VS Code's workspace configuration (tasks.json, launch.json, settings.json and mcp.json change what VS Code runs)"],
  [/^\.devcontainer$/i, 'the dev container definition (it runs commands when the folder opens)'],
];

/** why a file must not be written into because of its path's names, or undefined */
export function secretReason(relPath: string): string | undefined {
  const parts = relPath.split(/[\\/]/).filter((p) => p && p !== '.');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    for (const [re, what] of SECRET_DIRS)
      if (re.test(part)) return i === parts.length - 1 ? `${part} is ${what}` : `${parts.slice(i).join('/')} is in ${part}/, ${what}`;
    for (const [re, what] of SECRET_NAMES) if (re.test(part)) return `${part} is ${what}`;
  }
  // ~/.config/gcloud and the like, two levels deep
  for (let i = 0; i + 1 < parts.length; i++)
    if (/^\.config$/i.test(parts[i]) && /^(gcloud|gh|hub|op|rclone)$/i.test(parts[i + 1]))
      return `${parts.slice(i).join('/')} is in ${parts[i]}/${parts[i + 1]}/, a credentials folder`;
  return undefined;
}

/** the `files.exclude` pattern that hides relPath, or undefined (object-valued `when` rules are not evaluated and count as excluding) */
export function excludedBy(relPath: string, patterns: Record<string, unknown>): string | undefined {
  const p = relPath.replace(/\\/g, '/');
  for (const [glob, on] of Object.entries(patterns)) {
    if (!on) continue;
    const g = glob.replace(/\\/g, '/');
    // a pattern matches the file or one of its folders
    const segs = p.split('/');
    for (let i = 1; i <= segs.length; i++) if (minimatch(segs.slice(0, i).join('/'), g, { dot: true })) return glob;
  }
  return undefined;
}

/** whether relPath is ignored by the .gitignore files given as {dir (relative, '' for the root), text} */
export function gitIgnored(relPath: string, gitignores: readonly { dir: string; text: string }[]): boolean {
  const p = relPath.replace(/\\/g, '/');
  for (const { dir, text } of gitignores) {
    const d = dir.replace(/\\/g, '/').replace(/\/$/, '');
    if (d && !p.startsWith(d + '/')) continue;
    const rel = d ? p.slice(d.length + 1) : p;
    if (ignore().add(text).ignores(rel)) return true;
  }
  return false;
}

// ------------------------------------------------------------------ real paths

/** what the guard needs of a file system */
export interface GuardFs {
  /** the real path of an existing path; throws an error with `code` (ENOENT, ENOTDIR, ELOOP, …) otherwise */
  realpath(path: string): string;
  /** the entry itself (a link is not followed), or undefined when there is none */
  lstat(path: string): { isSymbolicLink(): boolean; isFile(): boolean; isDirectory(): boolean; nlink: number } | undefined;
  /** a text file's contents, or undefined (used for .gitignore files) */
  readText(path: string): string | undefined;
}

/** the machine's file system */
export const nodeGuardFs: GuardFs = {
  realpath: (p) => realpathSync.native(p),
  lstat: (p) => lstatSync(p, { throwIfNoEntry: false }),
  readText: (p) => {
    try {
      return readFileSync(p, 'utf8');
    } catch {
      return undefined;
    }
  },
};

/**
 * `created`: the folders a writer that creates missing parents (as `vscode.workspace.fs.writeFile`
 * and `mkdir -p` do) makes on the way, in order, each a real path; a path like `a/new/../x`
 * creates `a/new` although the file lands in `a/`.
 */
export type RealPath = { ok: true; real: string; exists: boolean; created: string[] } | { ok: false; reason: string };

/** an error of the file system (its code: ENOENT, ENOTDIR, …), or anything else thrown, in words */
function describe(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return e instanceof Error ? e.message : String(e);
}

/** why `p` cannot be resolved, from the error code of realpath or lstat */
function fsFailure(p: string, code: string): string {
  switch (code) {
    case 'ELOOP':
      return `${p} is a loop of symbolic links`;
    case 'ENOTDIR':
      return `${p} cannot be resolved: a part of it (or of a link it goes through) is a file, not a folder`;
    case 'EACCES':
    case 'EPERM':
      return `${p} cannot be resolved: permission denied (${code})`;
    case 'ENAMETOOLONG':
      return `${p} cannot be resolved: the path or one of its names is too long`;
    default:
      return `${p} cannot be resolved (${code})`;
  }
}

type Stat = NonNullable<ReturnType<GuardFs['lstat']>>;

/** lstat that never throws: the entry, undefined when there is none, or why it could not be read */
function lstatOf(fs: GuardFs, p: string): { ok: true; st: Stat | undefined } | { ok: false; reason: string } {
  try {
    return { ok: true, st: fs.lstat(p) };
  } catch (e) {
    const code = describe(e);
    if (code === 'ENOENT') return { ok: true, st: undefined };
    return { ok: false, reason: fsFailure(p, code) };
  }
}

/**
 * The real path of `target` (absolute), component by component as the operating system
 * walks it after a writer has created the missing folders: an existing component is
 * replaced by its real path (so a later `..` leaves the link's target, not the link); a
 * missing one is a new plain folder (or the new file), so a `..` after it returns to the real
 * folder it was made in, and the components after that are resolved again, links followed
 * as met. An existing component with more after it must be a folder. Never throws: every
 * error of the file system is a refusal with its reason.
 */
export function realPathOf(target: string, fs: GuardFs = nodeGuardFs, path: typeof nodePath = nodePath): RealPath {
  if (typeof target !== 'string' || !target || target.includes('\0')) return { ok: false, reason: 'not a file path' };
  if (!path.isAbsolute(target)) return { ok: false, reason: `${target} is not an absolute path` };
  try {
    return walk(target, fs, path);
  } catch (e) {
    return { ok: false, reason: `${target} cannot be resolved (${describe(e)})` };
  }
}

function walk(target: string, fs: GuardFs, path: typeof nodePath): RealPath {
  const root = path.parse(target).root;
  const comps = target
    .slice(root.length)
    .split(path.sep === '\\' ? /[\\/]+/ : /\/+/)
    .filter((c) => c !== '');
  let cur = root;
  /** how many of cur's last components do not exist yet (0: cur exists) */
  let pending = 0;
  const created = new Set<string>(); // in the order made
  for (let i = 0; i < comps.length; i++) {
    const comp = comps[i];
    const more = i < comps.length - 1; // something follows: this component must be (or become) a folder
    if (comp === '.') continue;
    if (comp === '..') {
      // cur is a real path (links already followed) or a new plain folder inside one: its parent is the real parent
      cur = path.dirname(cur);
      if (pending > 0) pending--;
      continue;
    }
    if (pending > 0) {
      // inside a folder that does not exist yet: nothing here exists either (and comp is a plain
      // name, so plain concatenation, which shares cur, joins it: path.join would copy cur each time)
      const next = cur.endsWith(path.sep) ? cur + comp : cur + path.sep + comp;
      cur = next;
      pending++;
      if (more) created.add(next);
      continue;
    }
    const next = path.join(cur, comp);
    let real: string;
    try {
      real = fs.realpath(next);
    } catch (e) {
      const code = describe(e);
      if (code !== 'ENOENT') return { ok: false, reason: fsFailure(next, code) };
      const l = lstatOf(fs, next);
      if (!l.ok) return l;
      if (l.st?.isSymbolicLink()) return { ok: false, reason: `${next} is a symbolic link to something that does not exist (writing would create its target)` };
      cur = next;
      pending = 1;
      if (more) created.add(next);
      continue;
    }
    if (more) {
      const l = lstatOf(fs, real);
      if (!l.ok) return l;
      if (l.st && !l.st.isDirectory()) {
        const what = real === next ? 'a file' : `a link to a file (${real})`;
        return { ok: false, reason: `${path.basename(next)} is ${what}, not a folder: ${next} has more after it` };
      }
    }
    cur = real;
  }
  return { ok: true, real: cur, exists: pending === 0, created: [...created] };
}

// ------------------------------------------------------------------ the decision

export interface WriteGuardOptions {
  /** the workspace folders (absolute paths); nothing outside their real paths is written */
  roots: readonly string[];
  fs?: GuardFs;
  /** `files.exclude` of the folder holding a root */
  exclude?: (root: string) => Record<string, unknown> | undefined;
  /**
   * files the workspace ignores (.gitignore) or hides (files.exclude) may be written: for new
   * files of fixed names in a folder of their own (the report export), which users often
   * ignore. Secrets, what runs, and everything outside stay refused.
   */
  allowIgnored?: boolean;
  /** path flavour (tests of Windows paths); default the machine's */
  path?: typeof nodePath;
}

export type WriteVerdict =
  | { ok: true; /** the real path written */ real: string; /** its real workspace root */ root: string; /** relative to it, with '/' */ rel: string }
  | { ok: false; reason: string };

/**
 * May @control write the file at `target` (an absolute path)? Decided on its real path and
 * on every folder writing it would create; `{ok: false, reason}` says why not, in words a
 * user can act on. Never throws: whatever goes wrong while checking is a refusal.
 */
export function checkWrite(target: string, opts: WriteGuardOptions): WriteVerdict {
  try {
    return decide(target, opts);
  } catch (e) {
    return { ok: false, reason: `${String(target)} could not be checked (${describe(e)}): @control writes only what it could check` };
  }
}

/** longer paths are refused: more than PATH_MAX on Linux and macOS, and no file @control writes is named so */
const MAX_PATH_CHARS = 4096;

function decide(target: string, opts: WriteGuardOptions): WriteVerdict {
  const fs = opts.fs ?? nodeGuardFs;
  const path = opts.path ?? nodePath;
  const fold = (p: string) => (path.sep === '\\' ? p.toLowerCase() : p);
  const refuse = (reason: string): WriteVerdict => ({ ok: false, reason });
  const NEVER = '@control never writes into secrets or files that configure what runs';

  if (typeof target === 'string' && target.length > MAX_PATH_CHARS)
    return refuse(`${target.slice(0, 80)}… is too long a path (${target.length} characters; at most ${MAX_PATH_CHARS})`);
  const r = realPathOf(target, fs, path);
  if (!r.ok) return refuse(r.reason);
  // a path ending in a separator, '.' or '..' names a folder
  if (/(^|[\\/])\.{1,2}$|[\\/]$/.test(target.slice(path.parse(target).root.length))) return refuse(`${target} names a folder, not a file`);
  const real = r.real;
  if (r.created.includes(real)) return refuse(`${target} names a folder that writing it would create (${real}), not a file`);
  const via = fold(real) === fold(path.resolve(target)) && real === target ? '' : ` (its real path is ${real})`;

  // the workspace roots' real paths, and the innermost one that holds a real path
  const roots: string[] = [];
  for (const given of opts.roots) {
    const rr = realPathOf(given, fs, path);
    if (rr.ok && rr.exists) roots.push(rr.real);
  }
  const place = (p: string): { root: string; rel: string } | undefined => {
    let best: { root: string; rel: string } | undefined;
    for (const root of roots) {
      const rel = path.relative(fold(root), fold(p));
      if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) continue;
      if (!best || root.length > best.root.length) best = { root, rel: path.relative(root, p).split(path.sep).join('/') };
    }
    return best;
  };
  const texts = new Map<string, string | undefined>(); // .gitignore files read, by path
  /** the files.exclude pattern or .gitignore that hides rel (a folder when `dir`), or undefined */
  const hiddenWhy = (root: string, rel: string, dir: boolean): string | undefined => {
    const hidden = excludedBy(rel, opts.exclude?.(root) ?? {});
    if (hidden) return `hidden by the files.exclude pattern "${hidden}"`;
    // every .gitignore from the root down to the folder holding rel
    const dirs = rel.split('/').slice(0, -1);
    const gitignores: { dir: string; text: string }[] = [];
    for (let i = 0; i <= dirs.length; i++) {
      const file = path.join(root, ...dirs.slice(0, i), '.gitignore');
      if (!texts.has(file)) texts.set(file, fs.readText(file));
      const text = texts.get(file);
      if (text !== undefined) gitignores.push({ dir: dirs.slice(0, i).join('/'), text });
    }
    return gitIgnored(dir ? `${rel}/` : rel, gitignores) ? "ignored by the workspace's .gitignore" : undefined;
  };

  const best = place(real);
  if (!best) return refuse(`${target} is outside the workspace${via}: @control writes only inside the workspace folders`);
  const rel = best.rel;

  // names: the real path's, the link's own name and the path as given
  const given = path.resolve(target);
  const lexicalRel = opts.roots.map((root) => path.relative(path.resolve(root), given)).find((x) => x && !x.startsWith('..') && !path.isAbsolute(x));
  for (const p of [rel, lexicalRel?.split(path.sep).join('/'), path.basename(target)]) {
    const secret = p && secretReason(p);
    if (secret) return refuse(`${secret}${p === rel ? via : ''}: ${NEVER}`);
  }

  if (r.exists) {
    const l = lstatOf(fs, real);
    if (!l.ok) return refuse(l.reason);
    const st = l.st;
    if (st && !st.isFile()) return refuse(`${target} is not a regular file${via}`);
    if (st && st.nlink > 1) return refuse(`${target} has ${st.nlink - 1} other hard link${st.nlink > 2 ? 's' : ''}: writing it would change another file too`);
  }

  // the folders writing it creates, under the same rules: inside, no secret or configuration name, not
  // ignored. Only the innermost ones need checking: a folder's checks cover the names of its ancestors
  // and a .gitignore or files.exclude pattern that hides an ancestor hides it too; the file's own
  // checks above and below cover the folders that hold it.
  const parents = new Set(r.created.map((d) => path.dirname(d)));
  const innermost = r.created.filter((d) => !parents.has(d) && !real.startsWith(d + path.sep));
  for (const dir of innermost) {
    const at = place(dir);
    if (!at) return refuse(`writing ${target} would create the folder ${dir}, outside the workspace: @control writes only inside the workspace folders`);
    const secret = secretReason(at.rel);
    if (secret) return refuse(`writing ${target} would create the folder ${at.rel}, and ${secret}: ${NEVER}`);
    if (!opts.allowIgnored) {
      const why = hiddenWhy(at.root, at.rel, true);
      if (why) return refuse(`writing ${target} would create the folder ${at.rel}, ${why}`);
    }
  }

  if (opts.allowIgnored) return { ok: true, real, root: best.root, rel };
  const why = hiddenWhy(best.root, rel, false);
  if (why) return refuse(`${rel} is ${why}${via}`);
  return { ok: true, real, root: best.root, rel };
}
