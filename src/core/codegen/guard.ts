/**
 * The write guard: where @control may write a file. Every write of the extension (code
 * insert, report export, plot export) asks `checkWrite` first, and again just before writing.
 *
 * The decision is made on the file's **real** path: every existing component resolved
 * (symbolic links, junctions, links through a directory, `..` taken after the link it
 * follows, as the operating system does), a file that does not exist yet placed under the
 * real path of its nearest existing ancestor. Refused, each with its reason:
 * - a real path outside every workspace root (a link to outside, to the home folder, a
 *   `..` path that climbs out), a link whose target does not exist, a link loop;
 * - secrets and credentials (`.env*`, `*.env`, keys and key stores, `.aws/`, `.ssh/`,
 *   `.docker/`, `.kube/`, `.gnupg/`, `.git-credentials`, `.netrc`, `.npmrc`, `.pypirc`, …),
 *   by the name of the path, of the link and of its target;
 * - files whose contents something runs: `.vscode/` (tasks, launch, settings, mcp.json),
 *   `*.code-workspace`, `.devcontainer/`, `.git/` internals, shell start-up files;
 * - an existing file that is not a regular file, or has other hard links;
 * - files the workspace ignores (`.gitignore`, on the real path) or hides (`files.exclude`).
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
    for (const [re, what] of SECRET_DIRS) if (re.test(part)) return i === parts.length - 1 ? `${part} is ${what}` : `${parts.slice(i).join('/')} is in ${part}/, ${what}`;
    for (const [re, what] of SECRET_NAMES) if (re.test(part)) return `${part} is ${what}`;
  }
  // ~/.config/gcloud and the like, two levels deep
  for (let i = 0; i + 1 < parts.length; i++)
    if (/^\.config$/i.test(parts[i]) && /^(gcloud|gh|hub|op|rclone)$/i.test(parts[i + 1])) return `${parts.slice(i).join('/')} is in ${parts[i]}/${parts[i + 1]}/, a credentials folder`;
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

export type RealPath = { ok: true; real: string; exists: boolean } | { ok: false; reason: string };

const codeOf = (e: unknown) => (e as { code?: string }).code ?? 'unknown error';

/**
 * The real path of `target` (absolute), component by component as the operating system
 * walks it: an existing component is replaced by its real path (so a later `..` leaves the
 * link's target, not the link), a missing one (and all after it) is appended as written.
 */
export function realPathOf(target: string, fs: GuardFs = nodeGuardFs, path: typeof nodePath = nodePath): RealPath {
  if (typeof target !== 'string' || !target || target.includes('\0')) return { ok: false, reason: 'not a file path' };
  if (!path.isAbsolute(target)) return { ok: false, reason: `${target} is not an absolute path` };
  const root = path.parse(target).root;
  const comps = target.slice(root.length).split(path.sep === '\\' ? /[\\/]+/ : /\/+/);
  let cur = root;
  let missing = false;
  for (const comp of comps) {
    if (comp === '' || comp === '.') continue;
    if (comp === '..') {
      cur = path.dirname(cur);
      continue;
    }
    const next = path.join(cur, comp);
    if (missing) {
      cur = next;
      continue;
    }
    try {
      cur = fs.realpath(next);
    } catch (e) {
      const code = codeOf(e);
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        if (fs.lstat(next)?.isSymbolicLink()) return { ok: false, reason: `${next} is a symbolic link to something that does not exist (writing would create its target)` };
        missing = true;
        cur = next;
      } else if (code === 'ELOOP') return { ok: false, reason: `${next} is a loop of symbolic links` };
      else return { ok: false, reason: `${next} cannot be resolved (${code})` };
    }
  }
  return { ok: true, real: cur, exists: !missing };
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
 * May @control write the file at `target` (an absolute path)? Decided on its real path;
 * `{ok: false, reason}` says why not, in words a user can act on.
 */
export function checkWrite(target: string, opts: WriteGuardOptions): WriteVerdict {
  const fs = opts.fs ?? nodeGuardFs;
  const path = opts.path ?? nodePath;
  const fold = (p: string) => (path.sep === '\\' ? p.toLowerCase() : p);
  const refuse = (reason: string): WriteVerdict => ({ ok: false, reason });

  const r = realPathOf(target, fs, path);
  if (!r.ok) return refuse(r.reason);
  const real = r.real;
  const via = fold(real) === fold(path.resolve(target)) && real === target ? '' : ` (its real path is ${real})`;

  // the innermost workspace root that holds the real path
  let best: { root: string; rel: string } | undefined;
  for (const given of opts.roots) {
    const rr = realPathOf(given, fs, path);
    if (!rr.ok || !rr.exists) continue;
    const rel = path.relative(fold(rr.real), fold(real));
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) continue;
    if (!best || rr.real.length > best.root.length) best = { root: rr.real, rel: path.relative(rr.real, real) };
  }
  if (!best) return refuse(`${target} is outside the workspace${via}: @control writes only inside the workspace folders`);
  const rel = best.rel.split(path.sep).join('/');

  // names: the real path's, the link's own name and the path as given
  const given = path.resolve(target);
  const lexicalRel = opts.roots
    .map((root) => path.relative(path.resolve(root), given))
    .find((x) => x && !x.startsWith('..') && !path.isAbsolute(x));
  for (const p of [rel, lexicalRel?.split(path.sep).join('/'), path.basename(target)]) {
    const secret = p && secretReason(p);
    if (secret) return refuse(`${secret}${p === rel ? via : ''}: @control never writes into secrets or files that configure what runs`);
  }

  if (r.exists) {
    const st = fs.lstat(real);
    if (st && !st.isFile()) return refuse(`${target} is not a regular file${via}`);
    if (st && st.nlink > 1) return refuse(`${target} has ${st.nlink - 1} other hard link${st.nlink > 2 ? 's' : ''}: writing it would change another file too`);
  }

  if (opts.allowIgnored) return { ok: true, real, root: best.root, rel };
  const hidden = excludedBy(rel, opts.exclude?.(best.root) ?? {});
  if (hidden) return refuse(`${rel} is hidden by the files.exclude pattern "${hidden}"${via}`);
  // every .gitignore from the root down to the real file's folder
  const dirs = rel.split('/').slice(0, -1);
  const gitignores: { dir: string; text: string }[] = [];
  for (let i = 0; i <= dirs.length; i++) {
    const dir = dirs.slice(0, i).join('/');
    const text = fs.readText(path.join(best.root, ...dirs.slice(0, i), '.gitignore'));
    if (text !== undefined) gitignores.push({ dir, text });
  }
  if (gitIgnored(rel, gitignores)) return refuse(`${rel} is ignored by the workspace's .gitignore${via}`);
  return { ok: true, real, root: best.root, rel };
}
