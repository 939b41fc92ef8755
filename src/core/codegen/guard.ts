/**
 * Which workspace files @control must never write into: secrets (`.env*`, keys), files the
 * workspace ignores (`.gitignore`) or hides (`files.exclude`). Pure path logic; the VS Code
 * side reads the ignore files and settings and adds "outside the workspace".
 */
import ignore from 'ignore';
import { minimatch } from 'minimatch';

const SECRET_NAMES: [RegExp, string][] = [
  [/^\.env/i, 'an environment file (.env*)'],
  [/\.pem$/i, 'a certificate or key (*.pem)'],
  [/\.key$/i, 'a key file (*.key)'],
  [/^id_(rsa|dsa|ecdsa|ed25519)/i, 'an SSH key (id_rsa*)'],
  [/\.(p12|pfx|keystore|jks)$/i, 'a key store'],
  [/^\.(netrc|npmrc|pypirc)$/i, 'a credentials file'],
];

/** why a file must not be written into because of its name, or undefined */
export function secretReason(relPath: string): string | undefined {
  const parts = relPath.split(/[\\/]/).filter(Boolean);
  for (const part of parts) for (const [re, what] of SECRET_NAMES) if (re.test(part)) return `${part} is ${what}`;
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
