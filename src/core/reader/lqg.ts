/**
 * LQG weights as engineers write them. MATLAB's lqg takes QXU = [Q N; Nᵀ R] (the cost on
 * [x; u]) and QWV = [Qn Nn; Nnᵀ Rn] (the covariance of [w; v], w on every state), but a request
 * usually gives lqr's Q and R and kalman's Qn and Rn ("design an LQG controller with Q = eye(2),
 * R = 1, Qn = eye(2), Rn = 0.1"). They are placed as the blocks lqg defines (no arithmetic: the
 * off-diagonal blocks are N and Nn when given, else zero), said in the reading. A weight of the
 * wrong size is asked back, never padded or scaled.
 */
import { eye, toRows, zeros } from '../linalg/dense.js';
import type { Matrix } from '../types.js';
import type { Origin } from './conversation.js';
import type { Scope } from './values.js';

export interface LqgWeights {
  set: { key: 'QXU' | 'QWV'; value: Matrix; origin: Origin }[];
  /** the names that were read into QXU/QWV (no longer "not used") */
  used: string[];
  /** a weight of the wrong size: asked back */
  problem?: string;
}

/** [[X, Y], [Yᵀ, Z]] as one matrix (blocks placed, nothing computed) */
function blocks(X: Matrix, Y: Matrix, Z: Matrix): Matrix {
  const top = X.map((r, i) => [...r, ...Y[i]]);
  const bottom = Z.map((r, i) => [...Y.map((y) => y[i]), ...r]);
  return [...top, ...bottom];
}

export function lqgWeights(scope: Scope, identity: Map<string, string>, args: Record<string, unknown>): LqgWeights {
  const out: LqgWeights = { set: [], used: [] };
  if (!Array.isArray(args.A) || !Array.isArray(args.B) || !Array.isArray(args.C)) return out;
  const n = (args.A as Matrix).length,
    m = (args.B as Matrix)[0]?.length ?? 0,
    p = (args.C as Matrix).length;
  const read = (names: string[], rows: number, cols: number, square: boolean) => {
    for (const k of names) {
      const v = scope.matrix(k);
      if (v) {
        if (v.value.length !== rows || v.value.some((r) => r.length !== cols))
          return {
            bad: `${k} is ${v.value.length}x${v.value[0]?.length ?? 0} but must be ${rows}x${cols}${square ? ` (the plant has ${rows === n ? `${n} states` : rows === m ? `${m} inputs` : `${p} outputs`})` : ''}`,
          };
        return { name: k, value: v.value, origin: v.origin };
      }
      const id = identity.get(k);
      if (id && square && rows === cols) return { name: k, value: toRows(eye(rows)), origin: { from: 'message', text: id } as Origin };
    }
    return undefined;
  };
  const pair = (key: 'QXU' | 'QWV', a: [string[], number], b: [string[], number], c: string[]) => {
    if (args[key] !== undefined) return;
    const X = read(a[0], a[1], a[1], true);
    const Z = read(b[0], b[1], b[1], true);
    const Y = read(c, a[1], b[1], false);
    for (const r of [X, Z, Y]) if (r && 'bad' in r) out.problem = out.problem ? `${out.problem}; ${r.bad}` : r.bad;
    if (!X || !Z || 'bad' in X || 'bad' in Z || (Y && 'bad' in Y)) return;
    const cross = Y && !('bad' in Y) ? Y : undefined;
    const value = blocks(X.value, cross?.value ?? toRows(zeros(a[1], b[1])), Z.value);
    const names = [X.name, ...(cross ? [cross.name] : []), Z.name];
    // not "QXU = …": the reading line takes an origin that starts with the argument's name as written so in the message
    const text = `[${X.name} ${cross ? cross.name : '0'}; ${cross ? `${cross.name}ᵀ` : '0'} ${Z.name}] of ${names.join(', ')}`;
    const o = X.origin;
    const origin: Origin = o.from === 'system' || o.from === 'default' ? { from: 'message', text } : ({ ...o, text } as Origin);
    out.set.push({ key, value, origin });
    out.used.push(...names);
  };
  pair('QXU', [['Q'], n], [['R'], m], ['N']);
  pair('QWV', [['Qn', 'W', 'Qw', 'Q_w'], n], [['Rn', 'V', 'Rv', 'R_v'], p], ['Nn']);
  return out;
}
