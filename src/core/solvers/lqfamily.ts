/**
 * The LQ family beyond lqr/lqe (MATLAB lqi, lqry, estim, reg, lqg; python-control lqr with
 * integral_action, create_estimator_iosystem/create_statefbk_iosystem), and observer pole
 * placement by duality. Every Riccati equation is solved by riccati.ts (careMat/dareMat), the
 * Kalman gains by estimation.ts and the pole placement by place.ts: one numerical kernel.
 *
 * Conventions (MATLAB's, said in every answer):
 * - state feedback u = −Kx (lqi: u = −K[x; xi] = −Kx·x − Ki·xi);
 * - lqi's augmented state z = [x; xi], xi the integral of the output error r − y:
 *   continuous xi' = r − y, so Aa = [A 0; −C 0], Ba = [B; −D];
 *   discrete (MATLAB: forward Euler) xi[k+1] = xi[k] + Ts·(r[k] − y[k]), so
 *   Aa = [A 0; −Ts·C I], Ba = [B; −Ts·D]. python-control's lqr(..., integral_action=C) integrates
 *   +Cx without Ts instead: its Ki has the other sign (and a factor Ts in discrete time), its Q
 *   the integrator's cross terms with the other sign.
 * - lqry: the cost on y = Cx + Du, ∫ y'Qy + u'Ru + 2y'Nu, is lqr's with
 *   Qx = C'QC, Rx = R + D'QD + D'N + N'D, Nx = C'QD + C'N (MATLAB lqry).
 * - estim(sys, L): x̂' = Ax̂ + Bu + L(y − Cx̂ − Du) (discrete: x̂[k+1|k], MATLAB's delayed form),
 *   outputs [ŷ; x̂] = [C; I]x̂ (+ D u), inputs [u_known; y].
 * - reg(sys, K, L): the compensator from y to u with u = −Kx̂, x̂' = (A − BK − LC + LDK)x̂ + Ly;
 *   MATLAB connects it with positive feedback (feedback(sys, rsys, +1)).
 * - lqg(sys, QXU, QWV): x' = Ax + Bu + w, y = Cx + Du + v, QXU = [Q N; N' R] the cost weight,
 *   QWV = [Qn Nn; Nn' Rn] = cov([w; v]); K = lqr(A, B, Q, R, N), L the Kalman gain
 *   (G = I, cross covariance Nn); the compensator is reg's (discrete: the delayed estimator by
 *   default, 'current' uses x̂[n|n] = x̂[n|n−1] + M(y − Cx̂ − Du)).
 */
import { checkMatrix, fmtSize, isRows } from '../tools/args.js';
import { ControlError } from '../errors.js';
import { tool, BY_LOOKUP } from '../tools/types.js';
import { matrix, complexList } from '../tools/schema.js';
import type { RenderOptions } from '../render/markdown.js';
import { factsTable, matrixBlock } from '../render/markdown.js';
import { fmtEigenvalues } from '../render/format.js';
import type { Complex, Matrix } from '../types.js';
import type { Code } from '../codegen/code.js';
import { systemCode, verdictHolder } from '../codegen/code.js';
import { complexList as complexCode, num as numberLiteral } from '../codegen/literals.js';
import type { PlotSpec } from '../plot/specs.js';
import { type Mat, add, blocks, eye, fromRows, luFactor, luSolve, mul, scale, toRows, transpose, zeros } from '../linalg/dense.js';
import { eigvalsSorted } from '../linalg/schur.js';
import { careMat, dareMat, poleList, riccatiArgs } from './riccati.js';
import { estimatorSS, kalmanGains } from './estimation.js';
import { place } from './place.js';
import { readSS, ssProps, tsProp, type SS } from './_sys.js';
import { weightCaution } from './statefbk.js';

// ------------------------------------------------------------------ helpers

const discreteOf = (sys: SS) => sys.Ts > 0;
const eigs = (A: Mat): Complex[] => (A.r ? eigvalsSorted(A) : []);
const sub = (A: Mat, B: Mat): Mat => add(A, B, -1);

/** a state-space model with at least one state, as Mats */
function readPlant(args: Record<string, any>, toolName: string): { sys: SS; A: Mat; B: Mat; C: Mat; D: Mat } {
  const sys = readSS(args, toolName);
  if (sys.n === 0)
    throw new ControlError(`${toolName}: the model has no states (A is 0x0, a static gain y = D u); there is no state to feed back or estimate.`);
  return { sys, A: fromRows(sys.A), B: fromRows(sys.B), C: fromRows(sys.C), D: fromRows(sys.D) };
}

function sized(v: unknown, name: string, r: number, c: number, what: string): Mat {
  const M = checkMatrix(v, name);
  if (M.length !== r || (M[0]?.length ?? 0) !== c) throw new ControlError(`${name} is ${fmtSize(M)} but must be ${r}x${c} (${what}).`);
  return fromRows(M);
}

/** rethrows a Riccati refusal with what it means for this design */
function withHint<T>(f: () => T, hint: string): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof ControlError) throw new ControlError(`${e.message} ${hint}`, e.code);
    throw e;
  }
}

const ssOut = (A: Mat, B: Mat, C: Mat, D: Mat, Ts: number) => ({ A: toRows(A), B: toRows(B), C: toRows(C), D: toRows(D), ...(Ts > 0 ? { Ts } : {}) });

// ------------------------------------------------------------------ lqi

/** MATLAB lqi's augmented plant: z = [x; xi], xi' = r − y (discrete: xi += Ts (r − y)) */
export function lqiAugment(A: Mat, B: Mat, C: Mat, D: Mat, Ts: number): { Aa: Mat; Ba: Mat } {
  const n = A.r,
    p = C.r;
  const h = Ts > 0 ? Ts : 1;
  const Aa = blocks([
    [A, zeros(n, p)],
    [scale(C, -h), Ts > 0 ? eye(p) : zeros(p, p)],
  ]);
  const Ba = blocks([[B], [scale(D, -h)]]);
  return { Aa, Ba };
}

export interface LqiResult {
  K: Matrix;
  Kx: Matrix;
  Ki: Matrix;
  X: Matrix;
  poles: number[][];
  Aaug: Matrix;
  Baug: Matrix;
  /** the closed loop from the reference r to y (state [x; xi]) */
  closedLoop: { A: Matrix; B: Matrix; C: Matrix; D: Matrix; Ts?: number };
  caution?: string;
}

export function runLqi(args: Record<string, any>): LqiResult {
  const { sys, A, B, C, D } = readPlant(args, 'lqi');
  const { n, m, p, Ts } = sys;
  const { Aa, Ba } = lqiAugment(A, B, C, D, Ts);
  const a = riccatiArgs({ A: toRows(Aa), B: toRows(Ba), Q: args.Q, R: args.R, N: args.N });
  const s = withHint(
    () => (Ts > 0 ? dareMat : careMat)(a.A, a.B, a.Q, a.R, a.N),
    `(lqi solves the Riccati equation of the plant augmented with ${p} integrator${p > 1 ? 's' : ''} [A 0; −C 0]: integral action needs at least as many inputs as outputs (here ${m} and ${p}) and no plant zero at ${Ts > 0 ? 'z = 1' : 's = 0'}; Q must be (n + p)x(n + p) = ${n + p}x${n + p}.)`,
  );
  const K = s.K;
  const Kx = zeros(m, n),
    Ki = zeros(m, p);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) Kx.d[i * n + j] = K.d[i * (n + p) + j];
    for (let j = 0; j < p; j++) Ki.d[i * p + j] = K.d[i * (n + p) + n + j];
  }
  // closed loop from r: z' = (Aa − Ba K) z + [0; h I] r, y = (C − D Kx) x − D Ki xi
  const h = Ts > 0 ? Ts : 1;
  const Br = blocks([[zeros(n, p)], [scale(eye(p), h)]]);
  const Cy = blocks([[sub(C, mul(D, Kx)), scale(mul(D, Ki), -1)]]);
  const caution = weightCaution(a);
  return {
    K: toRows(K),
    Kx: toRows(Kx),
    Ki: toRows(Ki),
    X: toRows(s.X),
    poles: poleList(s.poles),
    Aaug: toRows(Aa),
    Baug: toRows(Ba),
    closedLoop: ssOut(s.Acl, Br, Cy, zeros(p, p), Ts),
    ...(caution ? { caution } : {}),
  };
}

// ------------------------------------------------------------------ lqry

/** MATLAB lqry's weights on the state: Qx = C'QC, Rx = R + D'QD + D'N + N'D, Nx = C'QD + C'N */
export function lqryWeights(C: Mat, D: Mat, Q: Mat, R: Mat, N: Mat | null): { Qx: Mat; Rx: Mat; Nx: Mat } {
  const Ct = transpose(C),
    Dt = transpose(D);
  const Qx = mul(mul(Ct, Q), C);
  let Rx = add(R, mul(mul(Dt, Q), D));
  let Nx = mul(mul(Ct, Q), D);
  if (N) {
    const DtN = mul(Dt, N);
    Rx = add(add(Rx, DtN), transpose(DtN));
    Nx = add(Nx, mul(Ct, N));
  }
  // exact symmetry (the products are symmetric up to rounding)
  for (const M of [Qx, Rx])
    for (let i = 0; i < M.r; i++)
      for (let j = 0; j < i; j++) {
        const v = (M.d[i * M.c + j] + M.d[j * M.c + i]) / 2;
        M.d[i * M.c + j] = M.d[j * M.c + i] = v;
      }
  return { Qx, Rx, Nx };
}

export function runLqry(args: Record<string, any>): Record<string, unknown> {
  const { sys, C, D } = readPlant(args, 'lqry');
  const { m, p } = sys;
  const Q = sized(args.Q, 'Q', p, p, 'the output weight: one row and column per output');
  const R = sized(args.R, 'R', m, m, 'the input weight: one row and column per input');
  const N = args.N === undefined || args.N === null ? null : sized(args.N, 'N', p, m, 'outputs by inputs');
  const w = lqryWeights(C, D, Q, R, N);
  const names = { A: 'A', B: 'B', Q: "C'QC", R: "R + D'QD + D'N + N'D", N: "C'QD + C'N" };
  const a = riccatiArgs({ A: sys.A, B: sys.B, [names.Q]: toRows(w.Qx), [names.R]: toRows(w.Rx), [names.N]: toRows(w.Nx) }, names);
  const s = (discreteOf(sys) ? dareMat : careMat)(a.A, a.B, a.Q, a.R, a.N);
  const caution = weightCaution(a);
  return {
    K: toRows(s.K),
    X: toRows(s.X),
    poles: poleList(s.poles),
    Acl: toRows(s.Acl),
    Qx: toRows(w.Qx),
    Rx: toRows(w.Rx),
    Nx: toRows(w.Nx),
    ...(caution ? { caution } : {}),
  };
}

// ------------------------------------------------------------------ estimators and compensators

/**
 * The observer-based compensator from y to u (u = −Kx̂), MATLAB reg/lqg: delayed (and
 * continuous) x̂' = (A − LC − (B − LD)K)x̂ + Ly, u = −Kx̂; current (M given):
 * (I − KMD)u = −K(I − MC)x̄ − KMy, x̄+ = (A − LC)x̄ + (B − LD)u + Ly.
 */
export function compensatorSS(A: Mat, B: Mat, C: Mat, D: Mat, K: Mat, L: Mat, M: Mat | null): { A: Mat; B: Mat; C: Mat; D: Mat } {
  const n = A.r,
    m = B.c,
    p = C.r;
  const BLD = sub(B, mul(L, D));
  const ALC = sub(A, mul(L, C));
  if (!M) return { A: sub(ALC, mul(BLD, K)), B: L, C: scale(K, -1), D: zeros(m, p) };
  const F = luFactor(sub(eye(m), mul(mul(K, M), D)));
  if (F.singular)
    throw new ControlError(
      'the current-form compensator has an algebraic loop: I − K M D is singular (the feedthrough D and the innovation gain cancel). Use the delayed form.',
    );
  const Cc = luSolve(F, scale(mul(K, sub(eye(n), mul(M, C))), -1));
  const Dc = luSolve(F, scale(mul(K, M), -1));
  return { A: add(ALC, mul(BLD, Cc)), B: add(L, mul(BLD, Dc)), C: Cc, D: Dc };
}

/** plant (A, B, C, D) with a compensator (Ak, Bk, Ck, Dk) from y to u in positive feedback: the closed loop's A */
export function closedLoopA(A: Mat, B: Mat, C: Mat, D: Mat, k: { A: Mat; B: Mat; C: Mat; D: Mat }): Mat {
  const p = C.r;
  const F = luFactor(sub(eye(p), mul(D, k.D)));
  if (F.singular) throw new ControlError('the loop is not well posed: I − D·Dk is singular.');
  const EC = luSolve(F, C); // (I − D Dk)⁻¹ C
  const EDC = luSolve(F, mul(D, k.C));
  return blocks([
    [add(A, mul(mul(B, k.D), EC)), mul(B, add(k.C, mul(k.D, EDC)))],
    [mul(k.B, EC), add(k.A, mul(k.B, EDC))],
  ]);
}

function readIndices(v: unknown, name: string, max: number): number[] {
  if (v === undefined || v === null) return [];
  const list = typeof v === 'number' ? [v] : v;
  if (!Array.isArray(list)) throw new ControlError(`${name} must be a list of 1-based input indices.`);
  const out: number[] = [];
  for (const x of list.flat(2)) {
    if (typeof x !== 'number' || !Number.isInteger(x) || x < 1 || x > max)
      throw new ControlError(`${name}: ${String(x)} is not an input index from 1 to ${max}.`);
    if (!out.includes(x)) out.push(x);
  }
  return out;
}

const columns = (M: Mat, idx: number[]): Mat => {
  const out = zeros(M.r, idx.length);
  for (let i = 0; i < M.r; i++) idx.forEach((j, k) => (out.d[i * idx.length + k] = M.d[i * M.c + j - 1]));
  return out;
};

export function runEstim(args: Record<string, any>): Record<string, unknown> {
  const { sys, A, B, C, D } = readPlant(args, 'estim');
  const L = sized(args.L, 'L', sys.n, sys.p, 'the observer gain: states by outputs');
  const known = readIndices(args.known, 'known', sys.m);
  const type = args.type === 'current' ? 'current' : 'delayed';
  if (type === 'current' && !discreteOf(sys))
    throw new ControlError("estim: the 'current' form is for discrete-time plants (give Ts > 0); a continuous observer has one form.");
  let M: Mat | null = null;
  if (type === 'current') {
    // MATLAB estim(sys, L, 'current'): L is the predictor gain A·M of a Kalman filter; M = A⁻¹L
    const F = luFactor(A);
    if (F.singular)
      throw new ControlError("estim 'current' needs the innovation gain M = A⁻¹L, and A is singular: give M with kalman(…, type='current') instead.");
    M = luSolve(F, L);
  }
  const e = estimatorSS(A, columns(B, known), C, columns(D, known), L, M);
  return {
    ...ssOut(e.A, e.B, e.C, e.D, sys.Ts),
    poles: poleList(eigs(sub(A, mul(L, C)))),
    known,
    type: discreteOf(sys) ? type : 'continuous',
  };
}

export function runReg(args: Record<string, any>): Record<string, unknown> {
  const { sys, A, B, C, D } = readPlant(args, 'reg');
  const K = sized(args.K, 'K', sys.m, sys.n, 'the state-feedback gain: inputs by states, u = −Kx');
  const L = sized(args.L, 'L', sys.n, sys.p, 'the observer gain: states by outputs');
  const k = compensatorSS(A, B, C, D, K, L, null);
  const Acl = closedLoopA(A, B, C, D, k);
  return {
    ...ssOut(k.A, k.B, k.C, k.D, sys.Ts),
    regulatorPoles: poleList(eigs(sub(A, mul(B, K)))),
    estimatorPoles: poleList(eigs(sub(A, mul(L, C)))),
    poles: poleList(eigs(Acl)),
  };
}

export function runLqg(args: Record<string, any>): Record<string, unknown> {
  const { sys, A, B, C, D } = readPlant(args, 'lqg');
  const { n, m, p, Ts } = sys;
  const QXU = checkMatrix(args.QXU, 'QXU');
  const QWV = checkMatrix(args.QWV, 'QWV');
  if (QXU.length !== n + m || QXU[0].length !== n + m)
    throw new ControlError(`QXU is ${fmtSize(QXU)} but must be (n + m)x(n + m) = ${n + m}x${n + m}: the weight [Q N; N' R] on [x; u].`);
  if (QWV.length !== n + p || QWV[0].length !== n + p)
    throw new ControlError(
      `QWV is ${fmtSize(QWV)} but must be (n + p)x(n + p) = ${n + p}x${n + p}: the covariance [Qn Nn; Nn' Rn] of [w; v] (w enters every state: x' = Ax + Bu + w).`,
    );
  const part = (M: Matrix, r0: number, c0: number, r: number, c: number) => M.slice(r0, r0 + r).map((row) => row.slice(c0, c0 + c));
  const type = args.type === 'current' ? 'current' : 'delayed';
  if (type === 'current' && Ts <= 0) throw new ControlError("lqg: the 'current' form is for discrete-time plants (give Ts > 0).");
  const names = { A: 'A', B: 'B', Q: 'Q (QXU(1:n,1:n))', R: 'R (QXU(n+1:end,n+1:end))', N: 'N (QXU(1:n,n+1:end))' };
  const a = riccatiArgs({ A: sys.A, B: sys.B, [names.Q]: part(QXU, 0, 0, n, n), [names.R]: part(QXU, n, n, m, m), [names.N]: part(QXU, 0, n, n, m) }, names);
  const reg = withHint(() => (Ts > 0 ? dareMat : careMat)(a.A, a.B, a.Q, a.R, a.N), '(the regulator half of the LQG design, K = lqr(A, B, Q, R, N))');
  const kf = withHint(
    () => kalmanGains({ A: sys.A, G: toRows(eye(n)), C: sys.C, Qn: part(QWV, 0, 0, n, n), Rn: part(QWV, n, n, p, p), N: part(QWV, 0, n, n, p), Ts }),
    '(the Kalman-filter half of the LQG design, with the process noise w entering every state)',
  );
  const M = type === 'current' && kf.M ? kf.M : null;
  const k = compensatorSS(A, B, C, D, reg.K, kf.L, M);
  const Acl = closedLoopA(A, B, C, D, k);
  const cautions = [weightCaution(a)].filter(Boolean);
  return {
    ...ssOut(k.A, k.B, k.C, k.D, Ts),
    K: toRows(reg.K),
    L: toRows(kf.L),
    ...(kf.M ? { M: toRows(kf.M) } : {}),
    X: toRows(reg.X),
    P: toRows(kf.P),
    regulatorPoles: poleList(reg.poles),
    estimatorPoles: poleList(kf.poles),
    poles: poleList(eigs(Acl)),
    type: Ts > 0 ? type : 'continuous',
    ...(cautions.length ? { caution: cautions.join(' ') } : {}),
  };
}

export function runPlaceObserver(args: Record<string, any>): Record<string, unknown> {
  const A = checkMatrix(args.A, 'A');
  const C = checkMatrix(args.C, 'C');
  const n = A.length;
  if (!n || A.some((r) => r.length !== n)) throw new ControlError(`A is ${fmtSize(A)}; it must be square with at least one state.`);
  if (!C.length || C.some((r) => r.length !== n)) throw new ControlError(`C is ${fmtSize(C)} but A is ${n}x${n}; C must have ${n} columns (one per state).`);
  if (!Array.isArray(args.poles)) throw new ControlError('poles must be a list of numbers or [re, im] pairs.');
  const At = toRows(transpose(fromRows(A))),
    Ct = toRows(transpose(fromRows(C)));
  let r;
  try {
    r = place(At, Ct, args.poles);
  } catch (e) {
    if (e instanceof ControlError)
      throw new ControlError(
        `${e.message
          .replace(/^place:/, 'place_observer:')
          .replace(/\(A, B\) is not controllable/, '(A, C) is not observable')
          .replace(/the uncontrollable mode\(s\)/g, 'the unobservable mode(s)')
          .replace(/under any state feedback/g, 'under any observer gain L')
          .replace(/A − BK/g, 'A − LC')} (observer poles are placed on the dual pair (Aᵀ, Cᵀ)).`,
        e.code,
      );
    throw e;
  }
  const L = transpose(fromRows(r.K));
  return { L: toRows(L), poles: r.poles, Acl: toRows(sub(fromRows(A), mul(L, fromRows(C)))) };
}

// ------------------------------------------------------------------ rendering

const isM = (v: unknown): v is Matrix => Array.isArray(v) && (v.length === 0 || Array.isArray(v[0]));
const polesText = (r: unknown, o: RenderOptions) => (Array.isArray(r) ? fmtEigenvalues(r as Complex[], o.digits).join(', ') : '');

function stablePhrase(poles: Complex[], discrete: boolean): string {
  if (!poles.length) return '';
  if (discrete) {
    const rho = Math.max(...poles.map(([re, im]) => Math.hypot(re, im)));
    return rho < 1 ? 'stable (inside the unit circle)' : '**not stable** (a pole on or outside the unit circle)';
  }
  return Math.max(...poles.map(([re]) => re)) < 0 ? 'stable (left half-plane)' : '**not stable** (a pole in the closed right half-plane)';
}

const isDisc = (a: Record<string, any>) => typeof a.Ts === 'number' && a.Ts > 0;

function renderSystem(r: Record<string, any>, o: RenderOptions, what: string): string {
  return [
    `**${what}**${isDisc(r) ? ` (discrete, Ts = ${r.Ts})` : ''}:`,
    matrixBlock('A_k', r.A, o),
    matrixBlock('B_k', r.B, o),
    matrixBlock('C_k', r.C, o),
    matrixBlock('D_k', r.D, o),
  ].join('\n\n');
}

function renderLqi(a: Record<string, any>, r: Record<string, any>, o: RenderOptions): string {
  const d = isDisc(a);
  const out = [
    `**Gain** (u = −K[x; xᵢ] = −Kₓx − Kᵢxᵢ; xᵢ${d ? `[k+1] = xᵢ[k] + Ts·(r[k] − y[k])` : "' = r − y"}, the integral of the output error):`,
    matrixBlock('K', r.K, o),
    `${matrixBlock('K_x', r.Kx, o)}\n\n${matrixBlock('K_i', r.Ki, o)}`,
    `**Closed-loop poles** (eig(Aₐ − BₐK), augmented state [x; xᵢ]): ${polesText(r.poles, o)} — ${stablePhrase(r.poles, d)}. With these, a constant reference r is tracked with zero steady-state error.`,
    `**Augmented plant** (Aₐ = [A 0; ${d ? '−Ts·C I' : '−C 0'}], Bₐ = [B; ${d ? '−Ts·D' : '−D'}]):`,
    matrixBlock('A_a', r.Aaug, o),
    matrixBlock('B_a', r.Baug, o),
    `**Riccati solution** (MATLAB's S):\n\n${matrixBlock('X', r.X, o)}`,
    "Sign convention: MATLAB lqi's (xᵢ integrates r − y). python-control's lqr(…, integral_action=C) integrates +Cx: its Kᵢ is −Kᵢ here" +
      (d ? ' (and scaled by Ts: no Ts in its integrator).' : '.'),
  ];
  if (typeof r.caution === 'string') out.push(`**Caution:** ${r.caution}`);
  return out.join('\n\n');
}

function renderLqry(a: Record<string, any>, r: Record<string, any>, o: RenderOptions): string {
  const out = [
    `**Gain** (u = −Kx, minimising ${isDisc(a) ? 'Σ' : '∫'} yᵀQy + uᵀRu + 2yᵀNu with y = Cx + Du):`,
    matrixBlock('K', r.K, o),
    `**Closed-loop poles** (eig(A − BK)): ${polesText(r.poles, o)} — ${stablePhrase(r.poles, isDisc(a))}.`,
    '**The equivalent state weights** (lqr(A, B, Qx, Rx, Nx) gives the same K): Qx = CᵀQC, Rx = R + DᵀQD + DᵀN + NᵀD, Nx = CᵀQD + CᵀN.',
    matrixBlock('Q_x', r.Qx, o),
    matrixBlock('R_x', r.Rx, o),
    matrixBlock('N_x', r.Nx, o),
    `**Riccati solution:**\n\n${matrixBlock('X', r.X, o)}`,
  ];
  if (typeof r.caution === 'string') out.push(`**Caution:** ${r.caution}`);
  return out.join('\n\n');
}

function renderEstim(a: Record<string, any>, r: Record<string, any>, o: RenderOptions): string {
  const known = (r.known as number[]) ?? [];
  const ins = known.length ? `[u(${known.join(', ')}); y]` : 'y';
  const cur = r.type === 'current';
  return [
    `**Observer** (inputs ${ins}, outputs [ŷ; x̂]${cur ? ', x̂ = x̂[n|n] (current form: M = A⁻¹L)' : isDisc(a) ? ', x̂ = x̂[n|n−1] (delayed form)' : ''}): x̂${isDisc(a) ? '[k+1]' : "'"} = (A − LC)x̂ + (B − LD)u + Ly.`,
    renderSystem(r, o, 'Estimator'),
    `**Estimator poles** (eig(A − LC)): ${polesText(r.poles, o)} — ${stablePhrase(r.poles, isDisc(a))}.`,
  ].join('\n\n');
}

function renderCompensator(a: Record<string, any>, r: Record<string, any>, o: RenderOptions, tool: 'reg' | 'lqg'): string {
  const d = isDisc(a);
  const out: string[] = [];
  if (tool === 'lqg') {
    out.push(
      '**Regulator** (u = −Kx̂, K = lqr(A, B, Q, R, N) with [Q N; Nᵀ R] = QXU):',
      matrixBlock('K', r.K, o),
      `**Kalman filter** (x' = Ax + Bu + w, y = Cx + Du + v, cov([w; v]) = QWV)${d ? ': L the predictor gain, M the innovation gain' : ''}:`,
      matrixBlock('L', r.L, o),
    );
    if (isM(r.M) && d) out.push(matrixBlock('M', r.M, o));
  }
  const form = d ? (r.type === 'current' ? ' (current estimator x̂[n|n])' : ' (delayed estimator x̂[n|n−1])') : '';
  out.push(
    `**Compensator** from y to u${form}, u = −Kx̂; connect it with **positive** feedback, as MATLAB's feedback(sys, C, +1) with C this compensator:`,
    renderSystem(r, o, 'Its state space'),
    `**Separation:** the closed loop's ${(r.poles as unknown[]).length} poles are eig(A − BK) ∪ eig(A − LC).`,
    factsTable([
      ['regulator poles eig(A − BK)', polesText(r.regulatorPoles, o)],
      ['estimator poles eig(A − LC)', polesText(r.estimatorPoles, o)],
      ['closed loop', `${polesText(r.poles, o)} — ${stablePhrase(r.poles, d)}`],
    ]),
  );
  if (typeof r.caution === 'string') out.push(`**Caution:** ${r.caution}`);
  return out.join('\n\n');
}

function renderPlaceObserver(_a: Record<string, any>, r: Record<string, any>, o: RenderOptions): string {
  return [
    "**Observer gain** (x̂' = Ax̂ + Bu + L(y − Cx̂); placed on the dual pair (Aᵀ, Cᵀ): L = place(Aᵀ, Cᵀ, p)ᵀ):",
    matrixBlock('L', r.L, o),
    `**Estimator poles** (eig(A − LC)): ${polesText(r.poles, o)}.`,
    matrixBlock('A − LC', r.Acl, o),
  ].join('\n\n');
}

// ------------------------------------------------------------------ code

const PY = (code: Code) => code.lang === 'python';

function lqiCode(code: Code, a: Record<string, any>, r: LqiResult | undefined): void {
  systemCode(code, a, 'sys');
  code.mat('Q', a.Q).mat('R', a.R);
  if (isRows(a.N)) code.mat('N', a.N);
  const Nn = isRows(a.N) ? ', N' : '';
  const d = isDisc(a);
  if (!PY(code)) code.line(`[K, S, e] = lqi(sys, Q, R${Nn});   % u = -K*[x; xi], xi${d ? '[k+1] = xi[k] + Ts*(r - y)' : "' = r - y"}`);
  else {
    code.comment(`MATLAB lqi's augmented plant: xi${d ? '[k+1] = xi[k] + Ts (r - y) (forward Euler)' : "' = r - y"}`);
    code.comment('(ct.lqr(sys, Q, R, integral_action=C) integrates +C x instead: the other sign of Ki)');
    code.line('n, p = A.shape[0], C.shape[0]');
    if (d) {
      code.line('Aa = np.block([[A, np.zeros((n, p))], [-Ts * C, np.eye(p)]])');
      code.line('Ba = np.vstack([B, -Ts * D])');
      code.line(`K, S, e = ct.dlqr(Aa, Ba, Q, R${Nn})`);
    } else {
      code.line('Aa = np.block([[A, np.zeros((n, p))], [-C, np.zeros((p, p))]])');
      code.line('Ba = np.vstack([B, -D])');
      code.line(`K, S, e = ct.lqr(Aa, Ba, Q, R${Nn})`);
    }
  }
  if (r) code.comment(verdictHolder).expect('K', r.K).expect('S', r.X);
}

function lqryCode(code: Code, a: Record<string, any>, r: Record<string, any> | undefined): void {
  systemCode(code, a, 'sys');
  code.mat('Q', a.Q).mat('R', a.R);
  if (isRows(a.N)) code.mat('N', a.N);
  const d = isDisc(a);
  if (!PY(code)) code.line(`[K, S, e] = lqry(sys, Q, R${isRows(a.N) ? ', N' : ''});   % u = -K*x, cost on y = C*x + D*u`);
  else {
    code.comment("python-control has no lqry: the output weights as state weights (MATLAB lqry's reduction)");
    if (!isRows(a.N)) code.line('N = np.zeros((C.shape[0], B.shape[1]))');
    code.line('Qx = C.T @ Q @ C');
    code.line('Rx = R + D.T @ Q @ D + D.T @ N + N.T @ D');
    code.line('Nx = C.T @ Q @ D + C.T @ N');
    code.line(`K, S, e = ct.${d ? 'dlqr' : 'lqr'}(A, B, Qx, Rx, Nx)`);
  }
  if (r) code.comment(verdictHolder).expect('K', r.K).expect('S', r.X);
}

function estimCode(code: Code, a: Record<string, any>, r: Record<string, any> | undefined): void {
  systemCode(code, a, 'sys');
  code.mat('L', a.L);
  const known = Array.isArray(a.known) ? (a.known as number[]).flat() : [];
  if (!PY(code)) {
    const args = known.length || a.type === 'current' ? `, 1:size(C, 1), [${known.join(' ')}]` : '';
    code.line(`est = estim(sys, L${args}${a.type === 'current' ? ", 'current'" : ''});   % inputs [u_known; y], outputs [y_hat; x_hat]`);
  } else {
    code.comment('python-control builds estimators from covariances (create_estimator_iosystem); for a given L, the state space:');
    code.line('n, p = A.shape[0], C.shape[0]');
    const idx = `[${known.map((k) => k - 1).join(', ')}]`;
    code.line(`Bk, Dk = B[:, ${idx}], D[:, ${idx}]`);
    if (a.type === 'current') {
      code.line('M = np.linalg.solve(A, L)   # innovation gain of the current form');
      code.line('IMC = np.eye(n) - M @ C');
      code.line('est = ct.ss(A - L @ C, np.hstack([Bk - L @ Dk, L]), np.vstack([C @ IMC, IMC]), np.block([[Dk - C @ M @ Dk, C @ M], [-M @ Dk, M]]), Ts)');
    } else
      code.line(
        `est = ct.ss(A - L @ C, np.hstack([Bk - L @ Dk, L]), np.vstack([C, np.eye(n)]), np.block([[Dk, np.zeros((p, p))], [np.zeros((n, Bk.shape[1])), np.zeros((n, p))]])${isDisc(a) ? ', Ts' : ''})`,
      );
  }
  if (r) code.comment(verdictHolder).expect('A_est', r.A).expect('B_est', r.B);
}

function regCode(code: Code, a: Record<string, any>, r: Record<string, any> | undefined): void {
  systemCode(code, a, 'sys');
  code.mat('K', a.K).mat('L', a.L);
  if (!PY(code)) code.line('rsys = reg(sys, K, L);   % from y to u = -K*x_hat; closed loop: feedback(sys, rsys, +1)');
  else {
    code.comment('the observer-based compensator (MATLAB reg): from y to u = -K x_hat');
    code.line(`rsys = ct.ss(A - B @ K - L @ C + L @ D @ K, L, -K, np.zeros((B.shape[1], C.shape[0]))${isDisc(a) ? ', Ts' : ''})`);
    code.line('cl = ct.feedback(sys, rsys, sign=+1)   # poles: eig(A - BK) and eig(A - LC)');
  }
  if (r) code.comment(verdictHolder).expect('A_reg', r.A).expect('poles', r.poles);
}

function lqgCode(code: Code, a: Record<string, any>, r: Record<string, any> | undefined): void {
  systemCode(code, a, 'sys');
  code.mat('QXU', a.QXU).mat('QWV', a.QWV);
  const cur = a.type === 'current';
  if (!PY(code)) code.line(`reg = lqg(sys, QXU, QWV${cur ? ", [], 'current'" : ''});   % from y to u = -K*x_hat; closed loop: feedback(sys, reg, +1)`);
  else {
    const d = isDisc(a);
    code.line('n, m, p = A.shape[0], B.shape[1], C.shape[0]');
    code.line(`K, X, _ = ct.${d ? 'dlqr' : 'lqr'}(A, B, QXU[:n, :n], QXU[n:, n:], QXU[:n, n:])`);
    code.comment('Kalman filter with w entering every state (G = I) and cross covariance Nn');
    code.line(`L, P, _ = ct.${d ? 'dlqe' : 'lqe'}(A, np.eye(n), C, QWV[:n, :n], QWV[n:, n:], QWV[:n, n:])`);
    if (cur) {
      code.line('M = P @ C.T @ np.linalg.inv(C @ P @ C.T + QWV[n:, n:])   # innovation gain (current form)');
      code.line('F = np.linalg.inv(np.eye(m) - K @ M @ D)');
      code.line('Ck = -F @ K @ (np.eye(n) - M @ C); Dk = -F @ K @ M');
      code.line('reg = ct.ss(A - L @ C + (B - L @ D) @ Ck, L + (B - L @ D) @ Dk, Ck, Dk, Ts)');
    } else code.line(`reg = ct.ss(A - B @ K - L @ C + L @ D @ K, L, -K, np.zeros((m, p))${d ? ', Ts' : ''})`);
    code.line('cl = ct.feedback(sys, reg, sign=+1)');
  }
  if (r) code.comment(verdictHolder).expect('K', r.K).expect('L', r.L).expect('poles', r.poles);
}

function placeObserverCode(code: Code, a: Record<string, any>, r: Record<string, any> | undefined): void {
  code.mat('A', a.A).mat('C', a.C);
  const poles = (a.poles as (number | Complex)[]).map((p): Complex => (typeof p === 'number' ? [p, 0] : p));
  code.assign('p', complexCode(poles, code.lang));
  if (!PY(code)) code.line("L = place(A', C', p)';   % duality: eig(A - L*C) = p");
  else code.line('L = ct.place(A.T, C.T, p).T   # duality: eig(A - L C) = p');
  if (r) code.comment(verdictHolder).expect('L', r.L);
  void numberLiteral;
}

// ------------------------------------------------------------------ plots

function lqiPlots(_a: Record<string, unknown>, r: LqiResult | undefined): PlotSpec[] {
  if (!r?.closedLoop) return [];
  return [{ kind: 'step', args: { ...r.closedLoop }, title: 'Plot closed-loop step (r to y)' }];
}

function loopPolesPlot(a: Record<string, any>, r: Record<string, any> | undefined): PlotSpec[] {
  if (!r || !isM(a.A) || !isM(r.A)) return [];
  // the assembled closed loop's poles, from eig in the plot
  try {
    const D = isM(a.D) && a.D.length ? a.D : (a.C as Matrix).map(() => (a.B as Matrix)[0].map(() => 0));
    const Acl = closedLoopA(fromRows(a.A), fromRows(a.B), fromRows(a.C), fromRows(D), {
      A: fromRows(r.A),
      B: fromRows(r.B),
      C: fromRows(r.C),
      D: fromRows(r.D),
    });
    return [{ kind: 'pzmap', args: { A: toRows(Acl), ...(isDisc(a) ? { Ts: a.Ts } : {}) }, title: 'Plot closed-loop poles' }];
  } catch {
    return [];
  }
}

// ------------------------------------------------------------------ tools

const sysParams = { ...ssProps, ...tsProp };
const needABC = ['A', 'B', 'C'];
const typeProp = {
  type: {
    type: 'string',
    enum: ['delayed', 'current'],
    description: "discrete only: 'delayed' (x̂[n|n−1], default) or 'current' (x̂[n|n] = x̂[n|n−1] + M(y − Cx̂ − Du))",
  },
};
const OFFER = (_name: string) => BY_LOOKUP;

export const tools = [
  tool({
    name: 'lqi',
    words: {
      calls: [
        { names: ['lqi'], args: ['sys', 'Q', 'R', 'N'], returns: ['K', 'X', 'poles'] },
        { names: ['lqi'], args: ['A', 'B', 'C', 'D', 'Q', 'R', 'N'], returns: ['K', 'X', 'poles'] },
      ],
      phrases: [
        'lqi',
        'lqr with integral action',
        'lqr with integrator',
        'lqr with integral',
        'integral action lqr',
        'linear quadratic integral',
        'linear-quadratic-integral',
        'lq integral control',
        'lq servo',
        'optimal servo with integral action',
      ],
      example: '/lqi A=[0 1; 0 -1], B=[0; 1], C=[1 0], Q=diag([1 1 10]), R=1',
    },
    title: 'LQR with integral action (lqi)',
    brief: 'LQR with integral action: u = -K[x; xi], xi integral of r - y (MATLAB lqi).',
    description:
      "Linear-quadratic-integral control (MATLAB lqi(sys, Q, R, N)): the augmented state z = [x; xi], xi the integral of the output error r − y (continuous xi' = r − y: Aa = [A 0; −C 0], Ba = [B; −D]; discrete, forward Euler xi[k+1] = xi[k] + Ts(r − y): Aa = [A 0; −Ts·C I], Ba = [B; −Ts·D]); " +
      "u = −Kz = −Kx·x − Ki·xi minimises ∫ z'Qz + u'Ru + 2z'Nu. Q is (n+p)x(n+p), R m x m, N (n+p) x m. Returns K = [Kx Ki], Kx, Ki, X, the closed-loop poles, Aaug, Baug and the closed loop from r to y. Zero steady-state error to a constant reference.",
    parameters: {
      type: 'object',
      properties: {
        ...sysParams,
        Q: matrix('weight on z = [x; xi], (n + p) x (n + p), symmetric'),
        R: matrix('input weight R (m x m), symmetric positive definite'),
        N: matrix('cross weight N ((n + p) x m), optional'),
      },
      required: [...needABC, 'Q', 'R'],
      additionalProperties: false,
    },
    run: runLqi,
    intro:
      "**LQR with integral action.** The plant is augmented with the integral xᵢ of the output error r − y, and an LQR is designed for z = [x; xᵢ]: u = −Kz = −Kₓx − Kᵢxᵢ. Any stabilising gain then gives zero steady-state error to a constant reference (the integrator's state settles only when y = r).",
    render: renderLqi,
    code: { title: 'LQR with integral action (MATLAB lqi), u = -K[x; xi]', gen: lqiCode },
    model: OFFER('lqi'),
    plots: lqiPlots,
  }),
  tool({
    name: 'lqry',
    words: {
      calls: [{ names: ['lqry'], args: ['sys', 'Q', 'R', 'N'], returns: ['K', 'X', 'poles'] }],
      phrases: ['lqry', 'lqr with output weighting', 'output weighted lqr', 'output-weighted lqr', 'lqr on the output', 'lqr with output weight'],
      example: '/lqry A=[0 1; -2 -3], B=[0; 1], C=[1 0], Q=10, R=1',
    },
    title: 'LQR with output weighting (lqry)',
    brief: "LQR with the cost on y = Cx + Du: ∫ y'Qy + u'Ru (MATLAB lqry).",
    description:
      "LQR with output weighting (MATLAB lqry(sys, Q, R, N)): u = −Kx minimising ∫ y'Qy + u'Ru + 2y'Nu (discrete: Σ) with y = Cx + Du; the same as lqr with Qx = C'QC, Rx = R + D'QD + D'N + N'D, Nx = C'QD + C'N. Q is p x p, R m x m, N p x m. Returns K, X, poles, Acl and the equivalent Qx, Rx, Nx.",
    parameters: {
      type: 'object',
      properties: {
        ...sysParams,
        Q: matrix('output weight Q (p x p), symmetric'),
        R: matrix('input weight R (m x m), symmetric'),
        N: matrix('cross weight N (p x m), optional'),
      },
      required: [...needABC, 'Q', 'R'],
      additionalProperties: false,
    },
    run: runLqry,
    intro:
      '**LQR with output weighting.** The cost weighs the outputs y = Cx + Du instead of the states; it is an LQR with the state weights CᵀQC (and the cross terms the feedthrough D brings).',
    render: renderLqry,
    code: { title: 'LQR with output weighting (MATLAB lqry), u = -Kx', gen: lqryCode },
    model: OFFER('lqry'),
    plots: (a: Record<string, any>, r: Record<string, any> | undefined) =>
      r && isM(r.Acl) ? [{ kind: 'pzmap', args: { A: r.Acl, ...(isDisc(a) ? { Ts: a.Ts } : {}) }, title: 'Plot closed-loop poles' }] : [],
  }),
  tool({
    name: 'estim',
    words: {
      calls: [
        { names: ['estim'], args: ['sys', 'L', 'sensors', 'known'] },
        { names: ['create_estimator_iosystem'], args: ['sys'], note: "python-control's estimator is designed from covariances; estim takes a given gain L" },
      ],
      phrases: ['estim', 'observer from gain', 'state estimator from l', 'observer state space', 'build the observer', 'luenberger observer system'],
      example: '/estim A=[0 1; -2 -3], B=[0; 1], C=[1 0], L=[5; 4]',
    },
    title: 'State estimator from a gain (estim)',
    brief: 'Observer state space from a gain L (MATLAB estim): inputs [u; y], outputs [y_hat; x_hat].',
    description:
      "Observer (state estimator) from a given gain L (MATLAB estim(sys, L, sensors, known)): x̂' = (A − LC)x̂ + (B − LD)u + Ly, outputs [ŷ; x̂] = [C; I]x̂ + [D; 0]u. Inputs: the known plant inputs (known: 1-based indices, default none) then y. Discrete: the delayed form x̂[n+1|n] (default) or type='current' (x̂[n|n], M = A⁻¹L). Returns A, B, C, D of the estimator and its poles eig(A − LC).",
    parameters: {
      type: 'object',
      properties: {
        ...sysParams,
        L: matrix('observer gain L (n x p)'),
        known: {
          type: 'array',
          items: { type: 'integer', minimum: 1 },
          description: 'indices (1-based) of the known plant inputs u fed to the estimator; default none',
        },
        ...typeProp,
      },
      required: [...needABC, 'L'],
      additionalProperties: false,
    },
    run: runEstim,
    intro: "**Observer.** A copy of the plant driven by the measurement error: x̂' = Ax̂ + Bu + L(y − ŷ), ŷ = Cx̂ + Du; its error e = x − x̂ obeys e' = (A − LC)e.",
    render: renderEstim,
    code: { title: 'observer from a gain L (MATLAB estim)', gen: estimCode },
    model: OFFER('estim'),
    plots: { none: 'an estimator; plot the closed loop with reg or lqg' },
  }),
  tool({
    name: 'reg',
    words: {
      name: 'call-only',
      calls: [{ names: ['reg'], args: ['sys', 'K', 'L'] }],
      phrases: [
        'observer-based compensator',
        'observer based compensator',
        'observer-based controller',
        'observer based controller',
        'compensator from k and l',
        'regulator from k and l',
        'dynamic compensator from',
      ],
      example: '/reg A=[0 1; -2 -3], B=[0; 1], C=[1 0], K=[4 2], L=[5; 4]',
    },
    title: 'Observer-based compensator (reg)',
    brief: 'Observer-based compensator from K and L (MATLAB reg): y to u = -K x_hat.',
    description:
      "Observer-based compensator (MATLAB reg(sys, K, L)): from y to u = −Kx̂ with x̂' = (A − BK − LC + LDK)x̂ + Ly (discrete: x̂[n+1|n]); connect it to the plant with positive feedback. Returns A, B, C, D of the compensator, regulatorPoles eig(A − BK), estimatorPoles eig(A − LC) and the closed loop's poles (their union: the separation principle).",
    parameters: {
      type: 'object',
      properties: { ...sysParams, K: matrix('state-feedback gain K (m x n), u = −Kx'), L: matrix('observer gain L (n x p)') },
      required: [...needABC, 'K', 'L'],
      additionalProperties: false,
    },
    run: runReg,
    intro:
      "**Observer-based compensator.** The state feedback u = −Kx applied to the observer's estimate x̂. By the separation principle the closed loop's poles are those of the regulator, eig(A − BK), and of the estimator, eig(A − LC).",
    render: (a, r, o) => renderCompensator(a, r, o, 'reg'),
    code: { title: 'observer-based compensator (MATLAB reg), u = -K x_hat', gen: regCode },
    model: OFFER('reg'),
    plots: loopPolesPlot,
  }),
  tool({
    name: 'lqg',
    words: {
      calls: [{ names: ['lqg'], args: ['sys', 'QXU', 'QWV', 'QI', 'type'] }],
      phrases: ['lqg', 'lqg controller', 'lqg regulator', 'lqg compensator', 'linear quadratic gaussian', 'linear-quadratic-gaussian', 'lqg design'],
      example: '/lqg A=[0 1; -2 -3], B=[0; 1], C=[1 0], QXU=diag([1 1 1]), QWV=diag([1 1 0.1])',
    },
    title: 'LQG compensator (lqg)',
    brief: 'LQG compensator: LQR gain K + Kalman gain L in one controller from y to u (MATLAB lqg).',
    description:
      "Linear-quadratic-Gaussian compensator (MATLAB lqg(sys, QXU, QWV)): plant x' = Ax + Bu + w, y = Cx + Du + v with cov([w; v]) = QWV = [Qn Nn; Nn' Rn] ((n+p) square); cost ∫ [x; u]'QXU[x; u] with QXU = [Q N; N' R] ((n+m) square). K = lqr(A, B, Q, R, N), L the Kalman gain; the compensator from y to u = −Kx̂ (positive feedback). " +
      "Discrete: delayed estimator by default, type='current' for x̂[n|n]. Returns A, B, C, D of the compensator, K, L (M), X, P, regulator, estimator and closed-loop poles. (MATLAB's QI, the 2-dof integral form, is not taken: use lqi.)",
    parameters: {
      type: 'object',
      properties: {
        ...sysParams,
        QXU: matrix('cost weight [Q N; Nᵀ R] on [x; u], (n + m) x (n + m)'),
        QWV: matrix('noise covariance [Qn Nn; Nnᵀ Rn] of [w; v], (n + p) x (n + p); w enters every state'),
        ...typeProp,
      },
      required: [...needABC, 'QXU', 'QWV'],
      additionalProperties: false,
    },
    run: runLqg,
    intro:
      '**LQG controller.** An LQR gain K and a Kalman filter gain L, designed separately and joined into one compensator u = −Kx̂; by the separation principle the closed loop has the regulator poles eig(A − BK) and the estimator poles eig(A − LC).',
    render: (a, r, o) => renderCompensator(a, r, o, 'lqg'),
    code: { title: 'LQG compensator (MATLAB lqg), u = -K x_hat', gen: lqgCode },
    model: OFFER('lqg'),
    plots: loopPolesPlot,
  }),
  tool({
    name: 'place_observer',
    words: {
      calls: [{ names: ['place_observer', 'obsv_place'], args: ['A', 'C', 'poles'] }],
      phrases: [
        'observer pole placement',
        'place observer poles',
        'place the observer poles',
        'observer poles at',
        'estimator poles at',
        'observer gain with poles',
        'luenberger observer gain',
      ],
      aliases: { poles: ['p', 'P', 'observer_poles', 'pe'] },
      example: '/place_observer A=[0 1; -2 -3], C=[1 0], poles=[-5 -6]',
    },
    title: 'Observer pole placement',
    brief: 'Observer gain L with eig(A - LC) at the given poles (place on (A^T, C^T)).',
    description:
      'Observer (Luenberger) gain L such that eig(A − LC) are the requested poles, by duality: L = place(Aᵀ, Cᵀ, p)ᵀ (MATLAB and python-control idiom). Refuses an unobservable (A, C). Returns L, the achieved poles and A − LC.',
    parameters: {
      type: 'object',
      properties: { A: matrix('state matrix A (n x n)'), C: matrix('output matrix C (p x n)'), poles: complexList('the n desired observer poles') },
      required: ['A', 'C', 'poles'],
      additionalProperties: false,
    },
    run: runPlaceObserver,
    intro:
      '**Observer pole placement.** The estimator error e = x − x̂ obeys e′ = (A − LC)e; placing eig(A − LC) is placing eig(Aᵀ − CᵀLᵀ), a state-feedback problem on the dual pair (Aᵀ, Cᵀ).',
    render: renderPlaceObserver,
    code: { title: 'observer pole placement by duality, eig(A - LC) = p', gen: placeObserverCode },
    model: OFFER('place_observer'),
    plots: (_a: Record<string, any>, r: Record<string, any> | undefined) =>
      r && isM(r.Acl) ? [{ kind: 'pzmap', args: { A: r.Acl }, title: 'Plot estimator poles' }] : [],
  }),
];
