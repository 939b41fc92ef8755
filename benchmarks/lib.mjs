// Shared helpers for building and verifying the question set: run the solver CLI, read a
// number out of a result by path, format the `source` command.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI = join(ROOT, 'dist', 'cli.js');

/** `control solve <tool> '<json args>'`, the exact command recorded in `source`. */
export function sourceOf(tool, args) {
  const json = JSON.stringify(args);
  if (json.includes("'")) throw new Error(`args of ${tool} contain a single quote`);
  return `control solve ${tool} '${json}'`;
}

/** Parses a `source` string back into [tool, args]. */
export function parseSource(source) {
  const m = /^control solve (\w+) '(.*)'$/s.exec(source);
  if (!m) throw new Error(`not a source command: ${source}`);
  return [m[1], JSON.parse(m[2])];
}

/** Runs `node dist/cli.js solve <tool> '<args>' --json`; returns {result} or {error}. */
export function solve(tool, args) {
  let out;
  try {
    out = execFileSync(process.execPath, [CLI, 'solve', tool, JSON.stringify(args), '--json'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (e) {
    // a refusal may exit non-zero but still print {"error": ...}
    out = e.stdout ?? '';
    if (!out.trim()) throw new Error(`solve ${tool} failed: ${e.stderr || e.message}`);
  }
  return JSON.parse(out);
}

/** Reads `K[0][1]`, `modes[0].zeta`, `gm` out of an object. */
export function getPath(obj, path) {
  const parts = path.match(/[^.[\]]+/g) ?? [];
  let v = obj;
  for (const p of parts) {
    if (v == null) return undefined;
    v = v[/^\d+$/.test(p) ? Number(p) : p];
  }
  return v;
}

export function relErr(a, b) {
  if (a === b) return 0;
  return Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
}
