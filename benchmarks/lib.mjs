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

/** the expectations of an item: one, or one per turn of a multi-turn item */
export function expectsOf(item) {
  return item.turns?.length ? item.turns.map((t) => t.expect) : item.expect ? [item.expect] : [];
}

/** the questions of an item, in order */
export function questionsOf(item) {
  return item.turns?.length ? item.turns.map((t) => t.question) : [item.question];
}

/**
 * Every scored number against its independent value: a number with `ref` (the design family)
 * against design_ref.json's `values`, every other one against reference.json's
 * `values[source][path]` (benchmarks/reference.py: numpy, scipy, python-control). Returns the
 * problems (a disagreement beyond the number's rtol, or no independent value) and counts.
 */
export function independentProblems(items, reference, designRef) {
  const problems = [];
  let checked = 0;
  let worst = { err: 0, what: '' };
  for (const q of items)
    for (const e of expectsOf(q))
      for (const n of e.numbers ?? []) {
        let ind;
        let where;
        if (n.ref !== undefined) {
          const [d, k] = String(n.ref).split('.');
          ind = designRef?.[d]?.[k];
          where = `design_ref.json/turns_ref.json ${n.ref}`;
        } else {
          ind = reference?.[n.source]?.[n.path];
          where = 'reference.json';
        }
        if (typeof ind !== 'number' || !Number.isFinite(ind)) {
          problems.push(`${q.id} ${n.name}: no independent value (${where}); compute it in benchmarks/reference.py or stop scoring it and say why in the note`);
          continue;
        }
        checked++;
        const err = relErr(ind, n.value);
        if (err > worst.err) worst = { err, what: `${q.id} ${n.name}` };
        if (!(err <= n.rtol)) problems.push(`${q.id} ${n.name}: expected ${n.value}, independent ${ind} (${where}), rel. ${err.toExponential(2)} > rtol ${n.rtol}`);
      }
  return { problems, checked, worst };
}
