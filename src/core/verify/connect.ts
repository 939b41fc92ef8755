/**
 * Independent checks of connect (block diagrams joined by signal names) and lft. The solver
 * appends the blocks in state space, closes the loop by feedbackSS and reduces by the
 * staircase; none of that is used here. The named diagram is evaluated in the frequency
 * domain: at each test point s every block's own response G_b(s) (its C(sI − A)⁻¹B + D or
 * num/den) and every summing junction's signs give one linear equation per signal
 * (x_y − Σ G_b(s)·x_u = 0 for a block output y, x_w = w for an external input), solved
 * directly for all the signals; the outputs' rows are the transfer matrix, compared with the
 * result's C(sI − A)⁻¹B + D. The names are re-derived from the arguments by this file's own
 * reading (sums parsed here, vector names expanded here), an lft is written as its named
 * diagram, minimality by the rank checks of verify/interconnect.ts, and each pole of the
 * whole interconnection must make the signal equations singular (unless it is a block's own pole).
 */
import type { Complex } from '../types.js';
import type { Check } from './index.js';
import { type CM, type VSys, agreement, cm, csolve, csv, minimalChecks, readV } from './interconnect.js';
import { sci } from './numeric.js';

/** a block of the diagram as the verifier sees it: its response and the names of its channels */
interface VBlock {
  sys: VSys;
  ins: string[];
  outs: string[];
}

interface Diagram {
  blocks: VBlock[];
  inputs: string[];
  outputs: string[];
}

/** a static gain row (a summing junction's signs, or a number) as a VSys */
const gainSys = (row: number[][]): VSys => ({
  at: () => ({ re: row.map((r) => r.slice()), im: row.map((r) => r.map(() => 0)) }),
  poles: [],
  n: 0,
  m: row[0].length,
  p: row.length,
});

const asNames = (v: unknown): string[] => (typeof v === 'string' ? [v.trim()] : (v as string[]).map((x) => x.trim()));

/** one name for k channels is MATLAB's u(1) … u(k) */
const perChannel = (v: unknown, k: number): string[] => {
  const l = asNames(v);
  return l.length === 1 && k > 1 ? Array.from({ length: k }, (_, i) => `${l[0]}(${i + 1})`) : l;
};

/** 'e = r - y' -> output e, inputs r, y with gains 1, −1 (this file's own reading of the expression) */
function sumBlock(text: string): VBlock {
  const [lhs, rhs] = text.split('=');
  const ins: string[] = [];
  const signs: number[] = [];
  for (const t of rhs.replace(/−/g, '-').matchAll(/([+-]?)\s*([^\s+-]+)/g)) {
    ins.push(t[2]);
    signs.push(t[1] === '-' ? -1 : 1);
  }
  return { sys: gainSys([signs]), ins, outs: [lhs.trim()] };
}

function connectDiagram(args: Record<string, any>): Diagram {
  const blocks: VBlock[] = (args.blocks as Record<string, any>[]).map((b) => {
    const v = readV(b.sys);
    const sys = v.at ? v : gainSys([[v.gain!]]);
    return { sys, ins: perChannel(b.inputName, sys.m), outs: perChannel(b.outputName, sys.p) };
  });
  const sums = args.sums === undefined ? [] : typeof args.sums === 'string' ? [args.sums] : (args.sums as string[]);
  blocks.push(...sums.map(sumBlock));
  const known = new Set(blocks.flatMap((b) => [...b.ins, ...b.outs]));
  // a vector name stands for its elements, in order
  const expand = (n: string) =>
    known.has(n) ? [n] : [...known].filter((x) => x.startsWith(`${n}(`)).sort((a, b) => parseInt(a.slice(n.length + 1)) - parseInt(b.slice(n.length + 1)));
  return { blocks, inputs: asNames(args.inputs).flatMap(expand), outputs: asNames(args.outputs).flatMap(expand) };
}

/** the signal equations' matrix (I − block gains) at s, and its signal index */
function signalMatrix(d: Diagram, s: Complex): { M: CM; at: Map<string, number> } {
  const at = new Map<string, number>();
  for (const n of [...d.inputs, ...d.blocks.flatMap((b) => [...b.outs, ...b.ins])]) if (!at.has(n)) at.set(n, at.size);
  const N = at.size;
  const M = cm(N, N);
  for (let i = 0; i < N; i++) M.re[i][i] = 1;
  for (const b of d.blocks) {
    const R = b.sys.at!(s);
    b.outs.forEach((y, i) =>
      b.ins.forEach((u, j) => {
        M.re[at.get(y)!][at.get(u)!] -= R.re[i][j];
        M.im[at.get(y)!][at.get(u)!] -= R.im[i][j];
      }),
    );
  }
  return { M, at };
}

/** the diagram's transfer matrix at s, by a direct solve of its signal equations */
function diagramAt(d: Diagram, s: Complex): CM {
  const { M, at } = signalMatrix(d, s);
  const rhs = cm(at.size, d.inputs.length);
  d.inputs.forEach((w, k) => (rhs.re[at.get(w)!][k] = 1));
  const X = csolve(M, rhs);
  return { re: d.outputs.map((z) => X.re[at.get(z)!].slice()), im: d.outputs.map((z) => X.im[at.get(z)!].slice()) };
}

function diagramChecks(d: Diagram, r: Record<string, any>, what: string, names: boolean): Check[] {
  const parts = d.blocks.map((b) => b.sys);
  const total = parts.reduce((t, x) => t + x.n, 0);
  const checks: Check[] = [...agreement((s) => diagramAt(d, s), parts, r, what), ...minimalChecks(r, total)];
  if (names) {
    const same = (a: unknown, b: string[]) => Array.isArray(a) && a.length === b.length && a.every((x, i) => x === b[i]);
    const ok = same(r.input_names, d.inputs) && same(r.output_names, d.outputs);
    checks.push({
      name: 'signal names',
      ok,
      detail: ok
        ? `inputs ${d.inputs.join(', ')} and outputs ${d.outputs.join(', ')} as asked`
        : `names ${JSON.stringify([r.input_names, r.output_names])}, asked ${JSON.stringify([d.inputs, d.outputs])}`,
    });
  }
  // each pole of the whole interconnection makes the signal equations singular, unless it is a block's own pole
  const poles = (r.poles ?? []) as Complex[];
  const open = parts.flatMap((x) => x.poles);
  const scale = Math.max(1, ...poles.map(([x, y]) => Math.hypot(x, y)), ...open.map(([x, y]) => Math.hypot(x, y)));
  let worst = 0,
    shared = 0;
  for (const p of poles) {
    if (Math.min(Infinity, ...open.map((q) => Math.hypot(q[0] - p[0], q[1] - p[1]))) <= 1e-6 * scale) {
      shared++;
      continue;
    }
    const sv = csv(signalMatrix(d, p).M);
    worst = Math.max(worst, sv[sv.length - 1] / Math.max(1, sv[0]));
  }
  checks.push({
    name: 'interconnection poles',
    ok: poles.length === total && worst <= 1e-6,
    value: worst,
    detail: `${poles.length} poles (the blocks have ${total} states); the signal equations are singular at each (σmin ${sci(worst)})${shared ? `; ${shared} shared with a block` : ''}`,
  });
  return checks;
}

/** lft as its named diagram, the channels re-derived here from MATLAB's rule */
function lftDiagram(args: Record<string, any>, r: Record<string, any>): { d: Diagram; nu: number; ny: number } {
  const P = readV(args.sys1),
    K = readV(args.sys2);
  const P1 = P.at ? P : gainSys([[P.gain!]]),
    K1 = K.at ? K : gainSys([[K.gain!]]);
  const nu: number = typeof args.nu === 'number' ? args.nu : K1.p;
  const ny: number = typeof args.ny === 'number' ? args.ny : K1.m;
  const seq = (p: string, k: number) => Array.from({ length: k }, (_, i) => `${p}${i + 1}`);
  let d: Diagram;
  if (args.form === 'upper')
    d = {
      blocks: [
        { sys: P1, ins: [...seq('u', nu), ...seq('w', P1.m - nu)], outs: [...seq('y', ny), ...seq('z', P1.p - ny)] },
        { sys: K1, ins: seq('y', ny), outs: seq('u', nu) },
      ],
      inputs: seq('w', P1.m - nu),
      outputs: seq('z', P1.p - ny),
    };
  else
    d = {
      blocks: [
        { sys: P1, ins: [...seq('w', P1.m - nu), ...seq('u', nu)], outs: [...seq('z', P1.p - ny), ...seq('y', ny)] },
        { sys: K1, ins: [...seq('y', ny), ...seq('v', K1.m - ny)], outs: [...seq('u', nu), ...seq('q', K1.p - nu)] },
      ],
      inputs: [...seq('w', P1.m - nu), ...seq('v', K1.m - ny)],
      outputs: [...seq('z', P1.p - ny), ...seq('q', K1.p - nu)],
    };
  void r;
  return { d, nu, ny };
}

export const CONNECT_CHECKS = {
  connect: (args: Record<string, any>, r: Record<string, any>) => diagramChecks(connectDiagram(args), r, 'the named block diagram solved at each point', true),
  lft: (args: Record<string, any>, r: Record<string, any>) => {
    const { d, nu, ny } = lftDiagram(args, r);
    const checks = diagramChecks(d, r, `the ${args.form === 'upper' ? 'upper' : 'lower'} LFT diagram solved at each point`, false);
    checks.push({ name: 'loop channels', ok: r.nu === nu && r.ny === ny, detail: `nu = ${r.nu}, ny = ${r.ny} (expected ${nu}, ${ny})` });
    return checks;
  },
};
