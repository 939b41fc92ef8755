/**
 * The values a message names, and the systems it defines: call arguments (matrices, numbers,
 * strings, pole lists, systems, expressions of named matrices), the system constructors of
 * MATLAB, python-control, SciPy, Scilab and ControlSystems.jl, series/parallel products of
 * transfer functions, and which tools take which kind of system. read.ts decides with them.
 */
import { isLiteralName, parseMatrixLiteral } from '../parse/index.js';
import type { ToolDef } from '../tools/types.js';
import { getTool } from '../tools/table.js';
import type { Matrix } from '../types.js';
import { splitArgs } from './calls.js';
import type { Conversation, Origin, System, SystemEntry } from './conversation.js';
import { completeConjugates, readNumberList, timeQuantity, type Cx } from './quantities.js';
import { gridValue, scanMessage, type Scan } from './scan.js';
import { fromRows, toRows, transpose } from '../linalg/dense.js';
import { conv as polyMul, polyadd, polyFromRoots, polyStrip } from '../linalg/poly.js';

/** a + b without leading zeros */
const polyPlus = (a: number[], b: number[]) => polyStrip(polyadd(a, b));

/** k times the real polynomial with these roots (conjugates completed), round-off below 1e-14 dropped */
function zpkPoly(roots: Cx[], k = 1): number[] {
  return polyFromRoots(completeConjugates(roots).values).map((c) => (Math.abs(c) < 1e-14 ? 0 : c * k));
}
import { parseTfExpression } from './tfexpr.js';
import { systemObject } from './interconnect.js';
import type { PreCall } from '../agent/deterministic.js';
import type { ReadOptions } from './read.js';
import { assignedText, rootCells, tfCoeffsOf, tfmSystem, zpkCellsToTf } from './mimo.js';

/** the state-space matrices, in order */
export const SS = ['A', 'B', 'C', 'D'] as const;

export function num2(x: number): string {
  return String(Number(x.toPrecision(6)));
}

/** a scalar value from a matrix argument, when it is 1x1 */
export function scalar(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (Array.isArray(v) && v.length === 1 && Array.isArray(v[0]) && v[0].length === 1 && typeof v[0][0] === 'number') return v[0][0];
  return undefined;
}

export function flat(v: Matrix): number[] | undefined {
  if (v.length === 1) return v[0];
  if (v.every((r) => r.length === 1)) return v.map((r) => r[0]);
  return undefined;
}

export interface Scope {
  /** matrices by name: message, then selection, then the conversation */
  matrix(name: string): { value: Matrix; origin: Origin } | undefined;
  system(name: string): { entry: SystemEntry | { sys: System; text: string; op?: PreCall }; origin: Origin; index?: number } | undefined;
  /** the value text of an assignment the matrix reader could not read (complex entries) */
  unreadable?(name: string): string | undefined;
}

export type ArgVal =
  | { kind: 'matrix'; value: Matrix; origin: Origin }
  /** `op`: the system is the result of a call the reader does not compute itself (feedback(G, 1)): run first, verified */
  | { kind: 'system'; sys: System; origin: Origin; index?: number; label: string; op?: PreCall }
  | { kind: 'string'; value: string; origin: Origin }
  | { kind: 'number'; value: number; origin: Origin }
  | { kind: 'poles'; value: Cx[]; origin: Origin }
  /** I (Julia's LinearAlgebra identity, MATLAB prose "Q = I"): sized by the argument it fills */
  | { kind: 'identity'; origin: Origin }
  /** MIMO coefficient lists, p x m (a MATLAB cell {1, [1 1]}, python-control's [[[1], [1, 1]]]): reader/mimo.ts */
  | { kind: 'tfcoeffs'; value: number[][][]; origin: Origin }
  | { kind: 'error'; message: string };

export function originShort(o: Origin): string {
  return o.from === 'turn'
    ? `turn ${o.turn}`
    : o.from === 'system'
      ? o.name
      : o.from === 'selection'
        ? 'the selection'
        : o.from === 'default'
          ? 'the default'
          : 'your message';
}

/** functions that build values (matrices, systems, grids), not requests */
export const KNOWN_FUNCTIONS =
  /^(syslin|poly|ss|tf|zpk|pid|statespace|transferfunction|lti|dlti|zerospolesgain|feedback|eye|zeros|ones|diag|array|matrix|mat|linspace|logspace|arange|inv|transpose|sqrt|exp|diag|print|disp|display|figure|plot|subplot|grid|hold|title|xlabel|ylabel|legend|show|clc|clear|close|format|fprintf|sprintf|np|load|pi|abs|real|imag|size|length|isstable|semilogx|semilogy|loglog|axis|stem|ylim|xlim|savefig|tight_layout|subplots|hstack|vstack|block|concatenate|asarray|reshape|dot|matmul|conj|angle|mag2db|db|rad2deg|deg2rad|range|len|list|float|int|str|pzplot|pzmap|sin|cos|tan|atan|tanh|sinh|cosh|log|log10|heaviside|sign|floor|ceil|mod|square|sawtooth)$/;

/** the value of one call argument */
export function evalArg(text: string, scope: Scope, conv: Conversation, msgText: string): ArgVal {
  const t = text.trim();
  const origin: Origin = { from: 'message', text: t };
  const str = t.match(/^['"]([^'"]*)['"]$/);
  if (str) return { kind: 'string', value: str[1], origin };
  if (/^(?:np\.|numpy\.|math\.)?inf(?:inity)?$/i.test(t)) return { kind: 'number', value: Infinity, origin };
  const q = t.match(/^([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-zµμ]+)$/);
  if (q) {
    const s = timeQuantity(Number(q[1]), q[2]);
    if (s !== undefined) return { kind: 'number', value: s, origin };
  }
  // A' (a transpose, as in place(A', C', p) for an observer)
  const tr = t.match(/^([A-Za-z_]\w*)\s*'$/) ?? t.match(/^([A-Za-z_]\w*)\.T$/);
  if (tr) {
    const m = scope.matrix(tr[1]);
    if (m) return { kind: 'matrix', value: m.value.length ? toRows(transpose(fromRows(m.value))) : [], origin: { from: 'message', text: t } };
  }
  // stepinfo(step(G)), margin(bode(G)): the system inside a response call
  const inner = t.match(/^(?:[A-Za-z_]\w*\.)*(?:step|impulse|bode|freqresp|step_response|impulse_response)\s*\(\s*([A-Za-z_]\w*)\s*(?:,[^()]*)?\)$/);
  if (inner) {
    const sys = scope.system(inner[1]);
    if (sys) return { kind: 'system', sys: sys.entry.sys, origin: sys.origin, index: sys.index, label: inner[1] };
  }
  // conv(p, q): the product of two polynomials
  const cv = t.match(/^(?:np\.)?(?:conv|convolve|polymul)\s*\(([\s\S]*)\)$/);
  if (cv) {
    const ps = splitArgs(cv[1]).map((a) => evalArg(a.text, scope, conv, msgText));
    const vec = (p: ArgVal) => (p.kind === 'number' ? [p.value] : p.kind === 'matrix' ? flat(p.value) : undefined);
    const vs = ps.map(vec);
    if (vs.length === 2 && vs[0] && vs[1]) return { kind: 'matrix', value: [polyMul(vs[0], vs[1])], origin: { from: 'message', text: t } };
  }
  if (/^[A-Za-z_][\w.]*$/.test(t)) {
    const sys = scope.system(t);
    const op = sys && 'op' in sys.entry ? sys.entry.op : undefined;
    if (sys) return { kind: 'system', sys: sys.entry.sys, origin: sys.origin, index: sys.index, label: t, ...(op ? { op } : {}) };
    const m = scope.matrix(t);
    if (m) return { kind: 'matrix', value: m.value, origin: m.origin };
    const bad = scope.unreadable?.(t);
    if (bad) {
      const list = readNumberList(bad, 0);
      if (list && list.values.some(([, im]) => im !== 0)) return { kind: 'poles', value: list.values, origin: { from: 'message', text: `${t} = ${bad}` } };
    }
    const cells = assignedText(msgText, t);
    const tc = cells ? tfCoeffsOf(cells) : undefined;
    if (tc && Array.isArray(tc)) return { kind: 'tfcoeffs', value: tc, origin: { from: 'message', text: `${t} = ${cells}` } };
    if (tc && 'error' in tc) return { kind: 'error', message: tc.error };
    if (t === 'I') return { kind: 'identity', origin };
    // a flag written as a name (ControlSystems.jl's are(Continuous, …), Scilab's 'c')
    if (/^(?:Continuous|Discrete|Cont|Disc)$/i.test(t)) return { kind: 'string', value: t.toLowerCase(), origin };
  }
  // a SciPy system tuple (A, B, C, D) or (num, den)
  const tuple = t.match(/^\(([\s\S]*)\)$/);
  if (tuple && /,/.test(tuple[1])) {
    const parts = splitArgs(tuple[1]).map((a) => evalArg(a.text, scope, conv, msgText));
    if (parts.every((p) => p.kind === 'matrix' || p.kind === 'number')) {
      const ms = parts.map((p) => (p.kind === 'number' ? [[p.value]] : (p as { value: Matrix }).value));
      if (ms.length === 5 && scalar(ms[4]) !== undefined)
        return { kind: 'system', sys: { kind: 'ss', A: ms[0], B: ms[1], C: ms[2], D: ms[3], Ts: scalar(ms[4]) }, origin, label: t };
      if (ms.length >= 3 && ms.length <= 4 && ms[0].length > 1)
        return { kind: 'system', sys: { kind: 'ss', A: ms[0], B: ms[1], C: ms[2], D: ms[3] }, origin, label: t };
      if (ms.length === 2 || ms.length === 3) {
        const num = flat(ms[0]),
          den = flat(ms[1]);
        const dt = ms.length === 3 ? scalar(ms[2]) : undefined;
        if (num && den) return { kind: 'system', sys: { kind: 'tf', num, den, ...(dt && dt > 0 ? { Ts: dt, variable: 'z' as const } : {}) }, origin, label: t };
      }
    }
  }
  // feedback(G, H, sign) of transfer functions: the closed loop G/(1 ∓ GH)
  const fb = t.match(/^(?:[A-Za-z_]\w*\.)*feedback\s*\(([\s\S]*)\)$/);
  if (fb) {
    const fa = splitArgs(fb[1]).map((a) => evalArg(a.text, scope, conv, msgText));
    const g = fa[0];
    const h = fa[1] ?? { kind: 'number' as const, value: 1, origin };
    const sign = fa[2]?.kind === 'number' ? fa[2].value : -1;
    const asTf = (v: ArgVal): { num: number[]; den: number[]; Ts?: number } | undefined =>
      v.kind === 'system' && v.sys.kind === 'tf' ? v.sys : v.kind === 'number' ? { num: [v.value], den: [1] } : undefined;
    const G = g && asTf(g),
      H = asTf(h);
    // the closed loop is the feedback tool's (verified) result: its call runs first; the algebra
    // below is only the reading's view of it (which tools fit, the call line)
    const o1 = g && (g.kind === 'system' || g.kind === 'number') ? systemObject(g.kind === 'system' ? g.sys : g.value) : undefined;
    const o2 = h.kind === 'system' || h.kind === 'number' ? systemObject(h.kind === 'system' ? h.sys : h.value) : undefined;
    const op: PreCall | undefined =
      o1 && 'value' in o1 && o2 && 'value' in o2
        ? { tool: 'feedback', args: { sys1: o1.value, sys2: o2.value, ...(sign !== -1 ? { sign } : {}) }, text: t.replace(/^(?:[A-Za-z_]\w*\.)+/, '') }
        : undefined;
    if (G && H) {
      // T = nG dH / (dG dH − sign·nG nH)
      const num = polyMul(G.num, H.den);
      const den = polyPlus(
        polyMul(G.den, H.den),
        polyMul(G.num, H.num).map((x) => -sign * x),
      );
      return { kind: 'system', sys: { kind: 'tf', num, den, ...(G.Ts ? { Ts: G.Ts, variable: 'z' as const } : {}) }, origin, label: t, ...(op ? { op } : {}) };
    }
    return {
      kind: 'error',
      message: `${t}: a feedback of state-space models inside another call is not read; close the loop first (T = feedback(…)), then ask about T`,
    };
  }
  // constructors
  const ctor = t.match(/^(?:[A-Za-z_]\w*\.)*(ss|tf|zpk|pid|StateSpace|TransferFunction|lti|dlti|ZerosPolesGain|syslin)\s*\(([\s\S]*)\)$/);
  if (ctor) {
    const sys = construct(ctor[1], splitArgs(ctor[2]), scope, conv, msgText);
    if (sys) return sys.kind === 'error' ? sys : { kind: 'system', sys: sys.sys, origin, label: t };
  }
  // G*C, G + H of named transfer functions (series and parallel, read as the product/sum of rationals)
  if (/[*+]/.test(t) && !/(?<![A-Za-z_])[sz](?![A-Za-z_])/.test(t)) {
    const ids = [...new Set(t.match(/(?<![\w.])[A-Za-z_]\w*(?!\s*\()/g) ?? [])];
    if (ids.length && ids.every((id) => scope.system(id)) && /^[\w\s*+\-.()]+$/.test(t)) {
      const combined = combineSystems(t, scope, conv, msgText);
      if (combined) {
        const Ts = ids.map((id) => scope.system(id)!.entry.sys.Ts).find((x) => x !== undefined);
        return { kind: 'system', sys: Ts && combined.kind === 'tf' ? { ...combined, Ts, variable: 'z' } : combined, origin, label: t };
      }
      return { kind: 'error', message: `${t}: products and sums are read for transfer functions; for state-space models use series(…) or parallel(…)` };
    }
  }
  // an expression of named matrices: eig(A-B*K), lyap(A', C'*C)
  if (/[-+*'/]/.test(t) && /[A-Za-z_]/.test(t) && !/(?<![A-Za-z_])[sz](?![A-Za-z_])/.test(t)) {
    const ids = [...new Set(t.match(/(?<![\w.])[A-Za-z_]\w*(?!\s*\()/g) ?? [])].filter((id) => !isLiteralName(id));
    const vals = ids.map((id) => scope.matrix(id));
    if (ids.length && vals.every(Boolean)) {
      let sub = t;
      ids.forEach((id, k) => {
        const v = vals[k]!.value;
        sub = sub.replace(new RegExp(`(?<![\\w.])${id}(?![\\w(])`, 'g'), v.length === 1 && v[0].length === 1 ? `(${v[0][0]})` : `(${JSON.stringify(v)})`);
      });
      try {
        const v = parseMatrixLiteral(sub);
        return {
          kind: 'matrix',
          value: v,
          origin: { from: 'message', text: `${t} with ${ids.join(', ')} from ${[...new Set(vals.map((x) => originShort(x!.origin)))].join(', ')}` },
        };
      } catch (e) {
        return { kind: 'error', message: `${t}: ${(e as Error).message}` };
      }
    }
  }
  // a transfer-function expression used as an argument: margin(10/(s*(s+1)))
  if (/(?<![A-Za-z_])[sz](?![A-Za-z_])/.test(t) && /[/*^+]/.test(t) && !/[\[\]]/.test(t)) {
    try {
      const tf = parseTfExpression(t);
      return { kind: 'system', sys: { kind: 'tf', num: tf.num, den: tf.den, variable: tf.variable }, origin, label: t };
    } catch {
      /* fall through */
    }
  }
  // a cell {1, [1 1]} or python's [[[1], [1, 1]]]: a transfer matrix's coefficient lists
  const tc = /^[{[]/.test(t) ? tfCoeffsOf(t) : undefined;
  if (tc && Array.isArray(tc)) return { kind: 'tfcoeffs', value: tc, origin };
  if (tc && 'error' in tc) return { kind: 'error', message: tc.error };
  const grid = gridValue(t);
  if (grid) return { kind: 'matrix', value: [grid], origin };
  try {
    const v = parseMatrixLiteral(t);
    if (v.length === 1 && v[0].length === 1) return { kind: 'number', value: v[0][0], origin };
    return { kind: 'matrix', value: v, origin };
  } catch (e) {
    // complex lists: [-1+2i, -1-2i]
    const list = readNumberList(t, 0);
    if (list && list.end >= t.length - 1 && list.values.some(([, im]) => im !== 0)) return { kind: 'poles', value: list.values, origin };
    return { kind: 'error', message: `${t}: ${(e as Error).message}` };
  }
}

/** tf(…) * tf(…) and tf(…) + tf(…) of SISO transfer functions (series and parallel) */
export function combineSystems(rhs: string, scope: Scope, conv: Conversation, msgText: string): System | undefined {
  const terms: { sign: number; factors: string[] }[] = [];
  let depth = 0,
    cur = '',
    sign = 1;
  let factors: string[] = [];
  for (const ch of rhs + '+') {
    if (ch === '(' || ch === '[') depth++;
    if (ch === ')' || ch === ']') depth--;
    if (depth === 0 && (ch === '*' || ch === '+' || ch === '-')) {
      if (cur.trim()) factors.push(cur.trim());
      cur = '';
      if (ch !== '*') {
        if (factors.length) terms.push({ sign, factors });
        factors = [];
        sign = ch === '-' ? -1 : 1;
      }
      continue;
    }
    cur += ch;
  }
  let num: number[] | undefined, den: number[] | undefined;
  for (const term of terms) {
    let n = [term.sign],
      d = [1];
    for (const f of term.factors) {
      const v = evalArg(f, scope, conv, msgText);
      const tf = v.kind === 'system' && v.sys.kind === 'tf' ? v.sys : v.kind === 'number' ? { num: [v.value], den: [1] } : undefined;
      if (!tf) return undefined;
      n = polyMul(n, tf.num);
      d = polyMul(d, tf.den);
    }
    if (!num || !den) [num, den] = [n, d];
    else [num, den] = [polyPlus(polyMul(num, d), polyMul(n, den)), polyMul(den, d)];
  }
  return num && den ? { kind: 'tf', num, den } : undefined;
}

export function construct(
  kind: string,
  args: { name?: string; text: string }[],
  scope: Scope,
  conv: Conversation,
  msgText: string,
): { kind: 'system'; sys: System } | { kind: 'error'; message: string } | undefined {
  // MIMO: tf({…}, {…}), ct.tf([[[…]]], [[[…]]]), zpk({…}, {…}, K) (reader/mimo.ts)
  const mimo = constructMimo(kind.toLowerCase(), args, scope, conv, msgText);
  if (mimo) return mimo;
  const pos = args.filter((a) => !a.name).map((a) => evalArg(a.text, scope, conv, msgText));
  const kw = Object.fromEntries(args.filter((a) => a.name).map((a) => [a.name!, evalArg(a.text, scope, conv, msgText)]));
  const bad = [...pos, ...Object.values(kw)].find((p) => p.kind === 'error');
  if (bad) return bad as { kind: 'error'; message: string };
  const tsv = kw.dt ?? kw.Ts ?? kw.ts;
  const k = kind.toLowerCase();
  const asVec = (p: ArgVal | undefined): number[] | undefined =>
    p?.kind === 'number' ? [p.value] : p?.kind === 'matrix' ? (p.value.length === 0 ? [] : flat(p.value)) : undefined;
  const asRoots = (p: ArgVal | undefined): Cx[] | undefined => (p?.kind === 'poles' ? p.value : asVec(p)?.map((x) => [x, 0] as Cx));
  // Scilab: syslin('c' | 'd' | Ts, A, B, C [, D]) or syslin('c', H)
  if (kind.toLowerCase() === 'syslin' && args.length >= 2) {
    const dom = args[0].text.trim().replace(/^['"]|['"]$/g, '');
    const Ts = dom === 'c' ? undefined : dom === 'd' ? 1 : Number(dom);
    if (dom !== 'c' && !(Ts && Ts > 0)) return { kind: 'error', message: `syslin(${args[0].text}, …): the domain must be 'c', 'd' or a sample time` };
    const rest = args.slice(1).map((a) => evalArg(a.text, scope, conv, msgText));
    if (rest.length === 1 && rest[0].kind === 'system') {
      const s = rest[0].sys;
      return { kind: 'system', sys: s.kind === 'tf' ? { ...s, ...(Ts ? { Ts, variable: 'z' as const } : {}) } : { ...s, ...(Ts ? { Ts } : {}) } };
    }
    const ms = rest.map((p) => (p.kind === 'matrix' ? p.value : p.kind === 'number' ? [[p.value]] : undefined));
    if (ms.length >= 3 && ms.slice(0, 3).every(Boolean))
      return { kind: 'system', sys: { kind: 'ss', A: ms[0]!, B: ms[1]!, C: ms[2]!, ...(ms[3] ? { D: ms[3] } : {}), ...(Ts ? { Ts } : {}) } };
    return undefined;
  }
  const delay = args.find((a) => /delay/i.test(a.text) || /delay/i.test(a.name ?? ''));
  if (delay)
    return {
      kind: 'error',
      message: `${kind}(… ${delay.name ?? delay.text} …): time delays are not supported yet; approximate the delay with a Padé approximation and give the rational transfer function`,
    };
  if (k === 'ss' || k === 'statespace') {
    if (pos.length === 1 && pos[0].kind === 'system') return undefined; // ss(G): a conversion, read as tf2ss
    const ms = pos.map((p) => (p.kind === 'matrix' ? p.value : p.kind === 'number' ? [[p.value]] : undefined));
    if (ms.length < 3 || ms.slice(0, 4).some((m) => !m)) return undefined;
    const Ts = ms.length >= 5 ? scalar(ms[4]) : tsv?.kind === 'number' ? tsv.value : undefined;
    return { kind: 'system', sys: { kind: 'ss', A: ms[0]!, B: ms[1]!, C: ms[2]!, ...(ms[3] ? { D: ms[3] } : {}), ...(Ts && Ts > 0 ? { Ts } : {}) } };
  }
  if (k === 'tf' || k === 'transferfunction' || k === 'lti' || k === 'dlti') {
    if (pos.length === 1 && pos[0].kind === 'system') return undefined; // tf(sys): a conversion, read as ss2tf
    if (pos.length === 1 && pos[0].kind === 'string') return undefined; // tf('s')
    if (pos.length >= 4 && k !== 'tf') {
      const ms = pos.map((p) => (p.kind === 'matrix' ? p.value : p.kind === 'number' ? [[p.value]] : undefined));
      if (ms.slice(0, 4).every(Boolean)) return { kind: 'system', sys: { kind: 'ss', A: ms[0]!, B: ms[1]!, C: ms[2]!, D: ms[3]! } };
    }
    const num = asVec(pos[0]),
      den = asVec(pos[1]);
    if (!num || !den) return undefined;
    const tsArg = pos[2]?.kind === 'number' ? pos[2].value : tsv?.kind === 'number' ? tsv.value : k === 'dlti' ? 1 : undefined;
    return { kind: 'system', sys: { kind: 'tf', num, den, ...(tsArg && tsArg > 0 ? { Ts: tsArg, variable: 'z' as const } : {}) } };
  }
  // MATLAB pid(Kp, Ki, Kd, Tf): C(s) = Kp + Ki/s + Kd·s/(Tf·s + 1) (Tf = 0: the ideal derivative Kd·s)
  if (k === 'pid') {
    const g = pos.map((p) => (p.kind === 'number' ? p.value : undefined));
    if (!g.length || g.some((x) => x === undefined)) return undefined;
    const [Kp, Ki = 0, Kd = 0, Tf = 0] = g as number[];
    if (Tf < 0) return { kind: 'error', message: `pid(…, Tf = ${Tf}): the derivative filter time constant must be >= 0` };
    // over the common denominator s·(Tf·s + 1)
    const num = polyPlus(polyPlus(polyMul([Kp, 0], [Tf, 1]), [Ki * Tf, Ki]), [Kd, 0, 0]);
    const den = Ki !== 0 ? polyMul([1, 0], [Tf, 1]) : [Tf, 1];
    // without an integral term the s cancels: Kp + Kd·s/(Tf·s + 1) = (Kp·(Tf·s + 1) + Kd·s)/(Tf·s + 1)
    const n2 = Ki !== 0 ? num : polyPlus(polyMul([Kp], [Tf, 1]), [Kd, 0]);
    const tsArg = pos[4]?.kind === 'number' ? pos[4].value : tsv?.kind === 'number' ? tsv.value : undefined;
    if (tsArg && tsArg > 0)
      return {
        kind: 'error',
        message: 'pid(…, Ts): a discrete PID (its integrator formula) is not read yet; give the discrete controller as a transfer function in z',
      };
    return { kind: 'system', sys: { kind: 'tf', num: polyStrip(n2), den: polyStrip(den) } };
  }
  if (k === 'zpk' || k === 'zerospolesgain') {
    const z = asRoots(pos[0]),
      p = asRoots(pos[1]);
    const gain = pos[2]?.kind === 'number' ? pos[2].value : 1;
    if (!z || !p) return undefined;
    const tsArg = pos[3]?.kind === 'number' ? pos[3].value : tsv?.kind === 'number' ? tsv.value : undefined;
    return {
      kind: 'system',
      sys: { kind: 'tf', num: zpkPoly(z, gain), den: zpkPoly(p), ...(tsArg && tsArg > 0 ? { Ts: tsArg, variable: 'z' as const } : {}) },
    };
  }
  return undefined;
}

/**
 * A MIMO transfer function written with cells or nested lists: tf(num, den[, Ts]) with num a cell
 * or p x m lists (den the same shape, or one list shared by every entry, as MATLAB and
 * python-control allow), zpk(z, p, k[, Ts]) with z and p cells of root lists and k a p x m matrix.
 * undefined when no argument is such a value (the SISO constructors read it).
 */
function constructMimo(
  k: string,
  args: { name?: string; text: string }[],
  scope: Scope,
  conv: Conversation,
  msgText: string,
): { kind: 'system'; sys: System } | { kind: 'error'; message: string } | undefined {
  if (!/^(?:tf|transferfunction|zpk|zerospolesgain)$/.test(k)) return undefined;
  const pos = args.filter((a) => !a.name);
  const kw = Object.fromEntries(args.filter((a) => a.name).map((a) => [a.name!, a.text]));
  const textOf = (a?: { text: string }) => {
    const t = a?.text.trim() ?? '';
    return /^[A-Za-z_]\w*$/.test(t) ? (assignedText(msgText, t) ?? t) : t;
  };
  const tsText = pos[k.startsWith('z') ? 3 : 2]?.text ?? kw.dt ?? kw.Ts ?? kw.ts;
  const tsVal = tsText !== undefined ? evalArg(tsText, scope, conv, msgText) : undefined;
  const Ts = tsVal?.kind === 'number' && tsVal.value > 0 ? tsVal.value : undefined;
  const fail = (e: unknown) => ({ kind: 'error' as const, message: `${k}(…): ${(e as Error).message}` });
  if (k === 'zpk' || k === 'zerospolesgain') {
    const Z = rootCells(textOf(pos[0])),
      P = rootCells(textOf(pos[1]));
    if (!Z && !P) return undefined;
    if ((Z && 'error' in Z) || (P && 'error' in P)) return { kind: 'error', message: ((Z && 'error' in Z ? Z : P) as { error: string }).error };
    if (!Z || !P)
      return {
        kind: 'error',
        message: `zpk(${pos[0]?.text}, ${pos[1]?.text}, …): the zeros and the poles of a MIMO model are both cells, one root list per channel`,
      };
    const kv = pos[2] ? evalArg(pos[2].text, scope, conv, msgText) : undefined;
    const K = kv?.kind === 'number' ? [[kv.value]] : kv?.kind === 'matrix' ? kv.value : undefined;
    if (!K) return { kind: 'error', message: `zpk(…, ${pos[2]?.text ?? '?'}): the gains of a MIMO zpk model are a matrix, one per channel` };
    try {
      const T = zpkCellsToTf(Z as Cx[][][], P as Cx[][][], K);
      return { kind: 'system', sys: tfmSystem(T.num, T.den, { Ts }) };
    } catch (e) {
      return fail(e);
    }
  }
  const num = pos[0] ? tfCoeffsOf(textOf(pos[0])) : undefined;
  if (!num || !Array.isArray(num)) return num && 'error' in num ? { kind: 'error', message: num.error } : undefined;
  const denT = textOf(pos[1]);
  const den = tfCoeffsOf(denT);
  let D: number[][][];
  if (den && Array.isArray(den)) D = den;
  else if (den && 'error' in den) return { kind: 'error', message: den.error };
  else {
    // one denominator for every entry: tf({1, [1 1]}, [1 2])
    const dv = evalArg(pos[1]?.text ?? '', scope, conv, msgText);
    const d = dv.kind === 'number' ? [dv.value] : dv.kind === 'matrix' ? flat(dv.value) : undefined;
    if (!d)
      return {
        kind: 'error',
        message: `${k}(…, ${pos[1]?.text ?? '?'}): the denominators are a cell of the same shape as the numerators, or one coefficient list`,
      };
    D = num.map((r) => r.map(() => d));
  }
  try {
    return { kind: 'system', sys: tfmSystem(num, D, { Ts }) };
  } catch (e) {
    return fail(e);
  }
}

/** systems the message defines: expressions, num/den, constructors assigned to names, A..D */
export function messageSystems(
  scan: Scan,
  scope: Scope,
  conv: Conversation,
  selection?: ReadOptions['selection'],
): { name?: string; sys: System; text: string; origin: Origin; op?: PreCall }[] {
  const out: { name?: string; sys: System; text: string; origin: Origin; op?: PreCall }[] = scan.systems.map((s) => ({
    ...s,
    origin: { from: 'message', text: s.text },
  }));
  // NAME = ss(...) / tf(...) / zpk(...) / signal.TransferFunction(...)
  for (const c of scan.calls) {
    if (!/^(ss|tf|zpk|pid|statespace|transferfunction|lti|dlti|zerospolesgain|feedback|syslin)$/.test(c.fn)) continue;
    let sys: ReturnType<typeof construct>;
    let op: PreCall | undefined;
    if (c.fn === 'feedback') {
      if (c.outputs.length !== 1) continue;
      const v = evalArg(c.text, scope, conv, scan.text);
      sys = v.kind === 'system' ? { kind: 'system', sys: v.sys } : undefined;
      if (v.kind === 'system' && v.op) op = { ...v.op, output: c.outputs[0] };
    } else sys = construct(c.fn, c.args, scope, conv, scan.text);
    // a MIMO constructor that cannot be read says why (an improper entry, shapes that differ)
    if (sys?.kind === 'error' && /[{]|\[\s*\[\s*\[/.test(c.text) && !scan.problems.includes(sys.message)) scan.problems.push(sys.message);
    if (!sys || sys.kind === 'error') continue;
    const name = c.outputs.length === 1 ? c.outputs[0] : undefined;
    // G = tf(…) * tf(…): the statement goes on after the call; the whole right-hand side is the system
    const after = scan.text.slice(c.end).match(/^[ \t]*[*+\-/]/);
    if (after) {
      if (!name) continue;
      const stmtEnd = scan.text.slice(c.start).search(/[;\n]|$/);
      const rhs = scan.text.slice(c.start, c.start + stmtEnd);
      const combined = combineSystems(rhs, scope, conv, scan.text);
      if (combined) out.push({ name, sys: combined, text: `${name} = ${rhs.trim()}`, origin: { from: 'message', text: `${name} = ${rhs.trim()}` } });
      continue;
    }
    // an inner call of such a product was already taken with it
    if (out.some((o) => o.text.includes(c.text) && o.text !== c.text)) continue;
    if (out.some((o) => o.text === c.text)) continue;
    out.push({
      name,
      sys: sys.sys,
      text: name ? `${name} = ${c.text}` : c.text,
      origin: { from: 'message', text: name ? `${name} = ${c.text}` : c.text },
      ...(op ? { op } : {}),
    });
  }
  // num = [...], den = [...]
  const num = scan.assigns.get('num') ?? scan.assigns.get('numerator') ?? scan.assigns.get('b');
  const den = scan.assigns.get('den') ?? scan.assigns.get('denominator') ?? scan.assigns.get('a');
  if (num?.value && den?.value) {
    const n = num.value.length === 0 ? [0] : flat(num.value),
      d = flat(den.value);
    if (n && d && (scan.assigns.has('num') || scan.assigns.has('den') || scan.assigns.has('numerator')))
      out.push({ sys: { kind: 'tf', num: n, den: d }, text: `${num.text}, ${den.text}`, origin: { from: 'message', text: `${num.text}, ${den.text}` } });
  }
  // A, B, C, D in the message (and the selection, which the user attached to this turn)
  const sel = selection ? scanMessage(selection.text) : undefined;
  // a transfer function in the selection (num/den, tf(...), an expression) when the message gives none
  if (sel && !out.length && !SS.some((k) => scan.assigns.has(k)) && !sel.assigns.has('A')) {
    const inSel = messageSystems(sel, scope, conv).filter((d) => d.sys.kind === 'tf');
    for (const d of inSel) out.push({ ...d, origin: { from: 'selection', text: d.text, label: selection!.label } });
  }
  // a family with a common suffix (Ad, Bd, Cd; A_c, B_c) when there is no plain A (Ad, Bd: a discrete model)
  let discreteFamily = false;
  for (const sc of [scan, sel]) {
    if (!sc || sc.assigns.has('A')) continue;
    let fam = [...sc.assigns.keys()].map((k) => k.match(/^A(_?[A-Za-z0-9]+)$/)?.[1]).filter((x): x is string => !!x && sc.assigns.has('B' + x));
    // Ad alone (with a plain C, G…): still the A of the model
    if (!fam.length) {
      const alone = [...sc.assigns.keys()].map((k) => k.match(/^A(_?(?:d|c|k|p|dt|ct|sys|0|1))$/)?.[1]).filter((x): x is string => !!x);
      const aNames = [...sc.assigns.keys()].filter((k) => /^A_?\w+$/.test(k));
      if (alone.length === 1 && aNames.length === 1) fam = alone;
    }
    if (fam.length === 1) for (const k of SS) if (sc.assigns.has(k + fam[0])) sc.assigns.set(k, sc.assigns.get(k + fam[0])!);
    if (fam.length === 1 && /^_?d$/.test(fam[0])) discreteFamily = true;
  }
  const have = SS.filter((k) => scan.assigns.get(k)?.value !== undefined);
  const selHave = sel ? SS.filter((k) => sel.assigns.get(k)?.value !== undefined) : [];
  if (have.includes('A') || (have.length && !selHave.includes('A') && !out.length)) {
    const sys: System & { kind: 'ss' } = { kind: 'ss', A: undefined as unknown as Matrix };
    for (const k of SS) {
      const a = scan.assigns.get(k) ?? (selHave.includes(k) ? sel!.assigns.get(k) : undefined);
      if (a?.value) (sys as Record<string, unknown>)[k] = a.value;
    }
    if (discreteFamily) sys.discrete = true;
    // sys = ss(A, B, C, D) "with A = …": the named system is these matrices, not a second one
    const same = (o: System) => o.kind === 'ss' && (['A', 'B', 'C'] as const).every((k) => JSON.stringify(o[k]) === JSON.stringify(sys[k]));
    if (sys.A && !out.some((o) => same(o.sys))) out.push({ sys, text: have.map((k) => k).join(', '), origin: { from: 'message', text: have.join(', ') } });
  } else if (selHave.includes('A')) {
    const sys: System & { kind: 'ss' } = { kind: 'ss', A: undefined as unknown as Matrix };
    for (const k of SS) {
      const a = scan.assigns.get(k) ?? sel!.assigns.get(k);
      if (a?.value) (sys as Record<string, unknown>)[k] = a.value;
    }
    out.push({ sys, text: selHave.join(', '), origin: { from: 'selection', text: selHave.join(', '), label: selection!.label } });
  }
  return out;
}

export function toolAccepts(tool: ToolDef, sys: System): 'native' | 'realise' | 'no' {
  const p = tool.parameters.properties;
  // a conversion to the form the system already has is no reading
  // a transfer matrix (reader/mimo.ts) is a transfer function to the conversions, realised for the others
  if (sys.kind === 'ss' && sys.tfm)
    return tool.name === 'ss2tf' ? 'no' : tool.name === 'tf2ss' ? 'native' : p.sys1 || p.systems || p.num || p.A ? 'native' : 'no';
  if ((tool.name === 'ss2tf' && sys.kind === 'tf') || (tool.name === 'tf2ss' && sys.kind === 'ss')) return 'no';
  // the interconnections take systems of either form as operands
  if (p.sys1 || p.systems) return 'native';
  if (sys.kind === 'tf') return p.num ? 'native' : p.A ? 'realise' : 'no';
  return p.A ? 'native' : 'no';
}

/** the discrete or continuous counterpart the request needs */
export function variantFor(tool: ToolDef, discrete: boolean): ToolDef {
  const other = discrete ? tool.words.discrete : undefined;
  return (other && getTool(other)) || tool;
}

/** a short value for the call line: scalars, vectors and pole lists; a matrix is named only */
/** `lqr(A, B, Q, R = 1)`: the call as the first line of an answer shows it (values when short, names otherwise) */
export function callSignature(name: string, args: Record<string, unknown>, keys: string[] = Object.keys(args), labels: Record<string, string> = {}): string {
  const shown = keys.map((k) => {
    const v = labels[k] ?? renderValue(args[k], k);
    return v ? `${k} = ${v}` : k;
  });
  return `\`${name}(${shown.join(', ')})\``;
}

export function renderValue(v: unknown, key?: string): string {
  if (typeof v === 'number') return num2(v);
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return `'${v}'`;
  if (!Array.isArray(v)) return '';
  if (v.length === 1 && Array.isArray(v[0]) && v[0].length === 1 && typeof v[0][0] === 'number') return num2(v[0][0]);
  if (v.every((x) => typeof x === 'number'))
    return v.length > 8 ? `[${v.length} values, ${num2(v[0] as number)} … ${num2(v[v.length - 1] as number)}]` : `[${(v as number[]).map(num2).join(' ')}]`;
  if (key === 'poles' && v.every((x) => Array.isArray(x) && x.length === 2)) {
    return `[${(v as [number, number][]).map(([re, im]) => (im === 0 ? num2(re) : `${num2(re)}${im < 0 ? '−' : '+'}${num2(Math.abs(im))}j`)).join(', ')}]`;
  }
  return '';
}
