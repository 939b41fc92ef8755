/**
 * The renderers of tool results (each tool's `render` facet is one of these or written beside
 * the tool); `render/answer.ts` adds the verification line. A tool result as Markdown: the numbers an engineer asked for first, then the facts they
 * need next (closed-loop poles with damping, stability), then the verification line.
 * Numbers are rounded to 6 significant figures here only; machine output keeps full precision.
 */
import type { AnalysisResult } from '../solvers/analysis.js';
import { modeInfo, type ModeInfo } from '../solvers/modes.js';
import type { Complex, Matrix } from '../types.js';
import type { Verification } from '../verify/index.js';
import { fmt, fmtEigenvalues, fmtSmall, latexNum } from './format.js';
import { factsTable, matrixBlock, type RenderOptions } from './markdown.js';

type R = Record<string, any>;

const isMatrix = (v: unknown): v is Matrix => Array.isArray(v) && (v.length === 0 || Array.isArray(v[0]));
const isComplexList = (v: unknown): v is Complex[] =>
  Array.isArray(v) && v.every((z) => Array.isArray(z) && z.length === 2 && z.every((x) => typeof x === 'number'));

function list(items: string[]): string {
  return items.length ? items.join(', ') : 'none';
}

/** "stable (max Re λ = -1.2)" for continuous, radius for discrete */
function stabilityPhrase(poles: Complex[], discrete: boolean): string {
  if (!poles.length) return '';
  if (discrete) {
    const rho = Math.max(...poles.map(([r, i]) => Math.hypot(r, i)));
    return rho < 1 ? `stable (spectral radius ${fmt(rho)})` : `**not stable** (spectral radius ${fmt(rho)})`;
  }
  const a = Math.max(...poles.map(([r]) => r));
  return a < 0 ? `stable (slowest time constant ${fmt(-1 / a)} s)` : `**not stable** (max Re λ = ${fmt(a)})`;
}

function modesTable(modes: ModeInfo[], discrete: boolean): string {
  const seen = new Set<string>();
  const rows: string[] = [];
  for (const m of modes) {
    const [label] = fmtEigenvalues([m.value, [m.value[0], -m.value[1]]].slice(0, m.value[1] === 0 ? 1 : 2) as Complex[]);
    if (seen.has(label)) continue;
    seen.add(label);
    const wn = m.wn !== undefined ? fmt(m.wn) : '–';
    const zeta = m.zeta !== undefined ? fmt(m.zeta) : '–';
    const tau = m.tau !== undefined ? fmt(m.tau) : '–';
    rows.push(
      discrete ? `| ${label} | ${m.magnitude !== undefined ? fmt(m.magnitude) : '–'} | ${wn} | ${zeta} | ${tau} |` : `| ${label} | ${wn} | ${zeta} | ${tau} |`,
    );
  }
  if (discrete) return ['| eigenvalue z | \\|z\\| | ωn of ln(z)/Ts (rad/s) | ζ | τ (s) |', '|---|---:|---:|---:|---:|', ...rows].join('\n');
  return ['| eigenvalue | ωn (rad/s) | ζ | τ (s) |', '|---|---:|---:|---:|', ...rows].join('\n');
}

export function verificationLine(v: Verification | undefined): string {
  if (!v) return '_Not independently verified: this tool has no verifier check yet._';
  const parts = v.checks.map((c) => (c.ok ? c.detail : `**FAILED: ${c.detail}**`));
  return v.ok ? `✔ Verified: ${parts.join('; ')}.` : `⚠ **Verification failed, do not use these numbers as they are**: ${parts.join('; ')}.`;
}

export function renderAnalysis(_args: R, r: AnalysisResult, o: RenderOptions): string {
  const out: string[] = [];
  const ev = fmtEigenvalues(r.eigenvalues, o.digits);
  const domain = r.discrete ? 'discrete-time' : 'continuous-time';
  const verdict =
    r.stability === 'stable'
      ? `asymptotically **stable**`
      : r.stability === 'marginal'
        ? `**on the stability boundary** (${r.discrete ? '|z| = 1' : 'Re λ = 0'}): marginally stable at best, not asymptotically stable`
        : r.unstable.length
          ? `**unstable**: ${list(fmtEigenvalues(r.unstable, o.digits).map((s) => `λ = ${s}`))} ${r.discrete ? 'outside the unit circle' : 'in the right half plane'}${
              r.boundary.length
                ? ` (and ${list(fmtEigenvalues(r.boundary, o.digits).map((s) => `λ = ${s}`))} ${r.discrete ? 'on the unit circle' : 'on the imaginary axis'})`
                : ''
            }`
          : `**unstable**: the repeated eigenvalue${r.defective.length > 1 ? 's' : ''} ${list(fmtEigenvalues(r.defective, o.digits).map((s) => `λ = ${s}`))} on the ${r.discrete ? 'unit circle' : 'imaginary axis'} ${r.defective.length > 1 ? 'have Jordan blocks' : 'has a Jordan block'}, so the state grows polynomially (like ${r.discrete ? 'k' : 't'}) although no eigenvalue is ${r.discrete ? 'outside the circle' : 'in the right half plane'}`;
  if (r.n === 0) {
    // a static gain y = D u: nothing moves, and there is nothing to control or observe
    out.push(
      `**Stability.** The model has no states (0 states): it is a static gain y = Du, with no eigenvalues and no dynamics, so it is (trivially) stable. Controllability and observability ranks are 0 of 0.`,
    );
    return out.join('\n\n');
  }
  out.push(`**Stability.** The ${r.n}-state ${domain} model is ${verdict}.`);
  out.push(`**Eigenvalues of A:** ${ev.join(', ')}`);
  out.push(modesTable(r.modes, r.discrete));
  const facts: [string, string][] = [];
  if (r.controllability) {
    const c = r.controllability;
    facts.push([
      'Controllability',
      c.rank === r.n
        ? `controllable (rank ${c.rank} of ${r.n})`
        : `**not controllable** (rank ${c.rank} of ${r.n}); uncontrollable modes: ${list(fmtEigenvalues(c.uncontrollable, o.digits))}`,
    ]);
    facts.push(['Stabilisable', c.stabilisable ? 'yes' : '**no**: an uncontrollable mode is not stable']);
  }
  if (r.observability) {
    const b = r.observability;
    facts.push([
      'Observability',
      b.rank === r.n
        ? `observable (rank ${b.rank} of ${r.n})`
        : `**not observable** (rank ${b.rank} of ${r.n}); unobservable modes: ${list(fmtEigenvalues(b.unobservable, o.digits))}`,
    ]);
    facts.push(['Detectable', b.detectable ? 'yes' : '**no**: an unobservable mode is not stable']);
  }
  if (facts.length) out.push(factsTable(facts));
  out.push(analysisSummary(r));
  return out.join('\n\n');
}

/** the plain-language paragraph under the numbers */
export function analysisSummary(r: AnalysisResult): string {
  const s: string[] = [];
  if (r.stability === 'unstable') s.push('Left alone the state grows, so the plant needs feedback.');
  else if (r.stability === 'marginal') s.push('Left alone the state does not decay (it holds or oscillates), so feedback is needed for regulation.');
  else s.push('Left alone every mode decays.');
  const c = r.controllability,
    b = r.observability;
  if (c) {
    if (c.rank === r.n) s.push('Every mode can be moved by state feedback (pole placement or LQR will work).');
    else if (c.stabilisable)
      s.push('Some modes cannot be moved by the inputs, but they are stable, so the system can still be stabilised (an LQR design exists).');
    else s.push('An unstable mode cannot be influenced by the inputs: no controller using these inputs can stabilise it. Add or move an actuator.');
  }
  if (b) {
    if (b.rank === r.n) s.push('Every mode shows in the outputs, so an observer or Kalman filter can reconstruct the state.');
    else if (b.detectable) s.push('Some modes are invisible in the outputs but stable, so an observer still converges (detectable).');
    else s.push('An unstable mode is invisible in the outputs: no observer can estimate it. Add or move a sensor.');
  }
  return `**In short.** ${s.join(' ')}`;
}

export function renderFeedback(tool: string, args: Record<string, any>, r: Record<string, any>, o: RenderOptions): string {
  const out: string[] = [];
  const discrete = tool === 'dlqr' || tool === 'dare' || (typeof args.Ts === 'number' && args.Ts > 0);
  const gain = tool === 'lqe' || tool === 'kalman' ? 'L' : 'K';
  const sol = tool === 'lqe' || tool === 'kalman' ? 'P' : 'X';
  if (isMatrix(r[gain])) {
    const law = gain === 'K' ? 'u = −Kx' : 'estimator x̂′ = Ax̂ + Bu + L(y − Cx̂)';
    out.push(`**Gain** (${law}):\n\n${matrixBlock(gain, r[gain], o)}`);
  }
  if (isComplexList(r.poles)) {
    const closed = gain === 'K' ? 'A − BK' : 'A − LC';
    out.push(`**Closed-loop poles** (eig(${closed})): ${fmtEigenvalues(r.poles, o.digits).join(', ')} — ${stabilityPhrase(r.poles, discrete)}.`);
    const Ts = typeof args.Ts === 'number' && args.Ts > 0 ? args.Ts : 0;
    if (!discrete || Ts)
      out.push(
        modesTable(
          r.poles.map((z: Complex) => modeInfo(z, discrete, Ts)),
          discrete,
        ),
      );
  }
  if (isMatrix(r.Acl)) out.push(`**Closed-loop matrix:**\n\n${matrixBlock('A_cl', r.Acl, o)}`);
  if (isMatrix(r[sol])) out.push(`**Riccati solution:**\n\n${matrixBlock(sol, r[sol], o)}`);
  for (const k of ['M', 'Z']) if (isMatrix(r[k])) out.push(matrixBlock(k, r[k], o));
  if (typeof r.caution === 'string') out.push(`**Caution:** ${r.caution}`);
  return out.join('\n\n');
}

/** fields that hold complex lists ([re, im] pairs), as opposed to n x 2 matrices */
const COMPLEX_FIELDS = new Set(['eigenvalues', 'poles', 'zeros', 'H', 'uncontrollable', 'unobservable']);

/** a polynomial in s (or z) from its coefficients, highest power first: s^2 + 3s + 2 (LaTeX: s^{2} + 3s + 2) */
export function polyText(c: number[], v = 's', digits?: number, latex = false): string {
  const n = c.length - 1;
  const terms: string[] = [];
  const minus = latex ? '-' : '−';
  c.forEach((a, i) => {
    if (a === 0) return;
    const p = n - i;
    const mag = Math.abs(a);
    const coef = p > 0 && Math.abs(mag - 1) < 1e-15 ? '' : latex ? latexNum(mag, digits) : fmt(mag, digits);
    const pow = p === 0 ? '' : p === 1 ? v : latex ? `${v}^{${p}}` : `${v}^${p}`;
    terms.push(`${a < 0 ? minus : '+'} ${coef}${pow}`);
  });
  if (!terms.length) return '0';
  const t = terms.join(' ');
  return t.startsWith('+ ') ? t.slice(2) : minus + t.slice(2);
}

function samples(n: number, k: number): number[] {
  if (n <= k) return Array.from({ length: n }, (_, i) => i);
  return [...new Set(Array.from({ length: k }, (_, i) => Math.round((i * (n - 1)) / (k - 1))))];
}

export function renderTimeResponse(tool: string, args: Record<string, any>, r: Record<string, any>, o: RenderOptions): string {
  const t = (r.t ?? args.t) as number[];
  const y = r.y as unknown[];
  const siso = y.every((v) => typeof v === 'number');
  const idx = samples(t.length, 11);
  const what = tool === 'step' ? 'unit step' : 'unit impulse';
  const caution = typeof r.caution === 'string' ? `\n\n**Caution:** ${r.caution}` : '';
  if (siso) {
    const yy = y as number[];
    const rows = idx.map((i) => `| ${fmt(t[i], o.digits)} | ${fmt(yy[i], o.digits)} |`);
    const peak = yy.reduce((m, v) => (Math.abs(v) > Math.abs(m) ? v : m), 0);
    return (
      [
        `**Response to a ${what}** at ${t.length} times from t = ${fmt(t[0])} to ${fmt(t[t.length - 1])} s; y(end) = ${fmt(yy[yy.length - 1], o.digits)}, largest |y| = ${fmt(Math.abs(peak), o.digits)}.`,
        ['| t (s) | y |', '|---:|---:|', ...rows].join('\n'),
      ].join('\n\n') + caution
    );
  }
  const Y = y as number[][][];
  const p = Y[0].length,
    m = Y[0][0].length;
  const head = `| t (s) | ${Array.from({ length: p * m }, (_, k) => `y${Math.floor(k / m) + 1} ← u${(k % m) + 1}`).join(' | ')} |`;
  const rows = idx.map(
    (i) =>
      `| ${fmt(t[i], o.digits)} | ${Y[i]
        .flat()
        .map((v) => fmt(v, o.digits))
        .join(' | ')} |`,
  );
  return (
    [`**Response to a ${what} on each input** at ${t.length} times (output i ← input j).`, [head, `|---:|${'---:|'.repeat(p * m)}`, ...rows].join('\n')].join(
      '\n\n',
    ) + caution
  );
}

/** most input-output pairs a MIMO frequency response shows as tables (the rest is said) */
const MAX_FREQ_PAIRS = 16;

/**
 * A frequency response as tables of magnitude (dB) and phase (°) at up to 12 of the
 * frequencies: one table for SISO, one per output ← input pair for MIMO (the solver returns a
 * p x m matrix per frequency), each the same table as the SISO answer of that channel. A
 * frequency on a pole has |H| = ∞ and no phase (–); a pair with no path (H = 0 at every
 * frequency) is said in one line instead of a table of −∞.
 */
export function renderFreq(args: Record<string, any>, r: Record<string, any>, o: RenderOptions): string {
  const w = args.w as number[];
  const idx = samples(w.length, 12);
  const unit = typeof args.Ts === 'number' && args.Ts > 0 ? `H(e^{jωTs}), Ts = ${fmt(args.Ts)} s` : 'H(jω)';
  const mimo = Array.isArray(r.mag_db[0]);
  const mag = (k: number, i: number, j: number): number => (mimo ? r.mag_db[k][i][j] : r.mag_db[k]);
  const phase = (k: number, i: number, j: number): number => (mimo ? r.phase_deg[k][i][j] : r.phase_deg[k]);
  const magCell = (v: number) => (v === Infinity ? '∞' : v === -Infinity ? '−∞' : fmt(v, o.digits));
  const phaseCell = (v: number) => (Number.isFinite(v) ? fmt(v, o.digits) : '–');
  const table = (i: number, j: number) =>
    [
      '| ω (rad/s) | magnitude (dB) | phase (°) |',
      '|---:|---:|---:|',
      ...idx.map((k) => `| ${fmt(w[k], o.digits)} | ${magCell(mag(k, i, j))} | ${phaseCell(phase(k, i, j))} |`),
    ].join('\n');
  const p = mimo ? (r.mag_db[0] as number[][]).length : 1;
  const m = mimo ? (r.mag_db[0][0] as number[]).length : 1;
  const onPole = idx.filter((k) => {
    for (let i = 0; i < p; i++) for (let j = 0; j < m; j++) if (mag(k, i, j) === Infinity) return true;
    return false;
  });
  const poleNote = onPole.length
    ? `At ω = ${onPole.map((k) => fmt(w[k], o.digits)).join(', ')} rad/s the frequency lies on a pole of the model (${unit.startsWith('H(jω)') ? 'on the imaginary axis' : 'on the unit circle'}): |H| is infinite there and the phase has no value (–).`
    : '';
  const range =
    w.length === 1 ? `at ω = ${fmt(w[0])} rad/s` : `at ${w.length} frequencies from ${fmt(w[0])} to ${fmt(w[w.length - 1])} rad/s (${idx.length} shown)`;
  if (!mimo) return [`**Frequency response** ${unit} ${range}:`, table(0, 0), poleNote].filter(Boolean).join('\n\n');
  const out = [
    `**Frequency response** ${unit} of the model with ${m} input${m === 1 ? '' : 's'} and ${p} output${p === 1 ? '' : 's'} ${range}, one table per pair (output i ← input j):`,
  ];
  let shown = 0;
  for (let i = 0; i < p; i++)
    for (let j = 0; j < m; j++) {
      if (shown === MAX_FREQ_PAIRS) continue;
      shown++;
      const name = `**y${i + 1} ← u${j + 1}**`;
      if (w.every((_, k) => mag(k, i, j) === -Infinity)) out.push(`${name}: H = 0 at every frequency (no path from input ${j + 1} to output ${i + 1}).`);
      else out.push(`${name}\n\n${table(i, j)}`);
    }
  if (p * m > shown) {
    const pair = (k: number) => `y${Math.floor(k / m) + 1} ← u${(k % m) + 1}`;
    out.push(
      `The other ${p * m - shown} of the ${p * m} pairs (${pair(shown)} to ${pair(p * m - 1)}) are not shown; to see one, keep its column of B and its row of C (and that entry of D).`,
    );
  }
  if (poleNote) out.push(poleNote);
  return out.join('\n\n');
}

export function renderMargins(_args: R, r: Record<string, any>, o: RenderOptions): string {
  if (typeof r.caution === 'string') {
    // a static-gain loop: the margins hold at every frequency, there is no crossover frequency
    const g = Number.isFinite(r.gm) ? `${fmt(r.gm, o.digits)} (${fmt(r.gm_db, o.digits)} dB)` : '∞';
    const p = Number.isFinite(r.pm_deg) ? `${fmt(r.pm_deg, o.digits)}°` : '∞';
    return `**Gain margin** ${g}, **phase margin** ${p}, with no single crossover frequency.\n\n**Caution:** ${r.caution}`;
  }
  const gm = Number.isFinite(r.gm)
    ? `**Gain margin** ${fmt(r.gm, o.digits)} (${fmt(r.gm_db, o.digits)} dB) at the phase crossover ω = ${fmt(r.w_pc, o.digits)} rad/s: the loop gain can grow by that factor before the Nyquist curve reaches −1.`
    : '**Gain margin** ∞: the phase never crosses −180°, so no gain increase alone reaches −1.';
  const pm = Number.isFinite(r.pm_deg)
    ? `**Phase margin** ${fmt(r.pm_deg, o.digits)}° at the gain crossover ω = ${fmt(r.w_gc, o.digits)} rad/s${r.pm_deg < 0 ? ' (negative: with unity feedback this loop is unstable at that crossover)' : ''}.`
    : '**Phase margin** ∞: |L(jω)| never crosses 1.';
  return `${gm}\n\n${pm}`;
}

export function renderStepinfo(_args: R, r: Record<string, any>, o: RenderOptions): string {
  const rows: [string, string][] = [
    ['Rise time (10% → 90%)', `${fmt(r.rise_time, o.digits)} s`],
    ['Settling time (2%)', `${fmt(r.settling_time, o.digits)} s`],
    ['Overshoot', `${fmt(r.overshoot_pct, o.digits)} %`],
    [
      'Peak',
      Number.isFinite(r.peak_time)
        ? `${fmt(r.peak, o.digits)} at t = ${fmt(r.peak_time, o.digits)} s`
        : `${fmt(r.peak, o.digits)} (no overshoot: approached from below)`,
    ],
    ['Final value', fmt(r.final_value, o.digits)],
  ];
  const out = [`**Step-response characteristics**\n\n${factsTable(rows)}`];
  if (Array.isArray(r.spec) && r.spec.length) {
    const failed = (r.spec as SpecItem[]).filter((s) => !s.pass).map((s) => s.item);
    out.push(`**Against the specification**\n\n${specTable(r.spec)}`);
    out.push(failed.length ? `✘ The design misses its specification: ${failed.join(', ')}.` : '✔ The design meets every item of its specification.');
  }
  // how the checked system was formed (the closed loop of a design and its reference gain), from the plan
  if (typeof _args.spec?.note === 'string') out.push(_args.spec.note);
  return out.join('\n\n');
}

/** one item of a design specification with its verdict (pidtune, leadlag, stepinfo with targets) */
export interface SpecItem {
  item: string;
  target: string;
  achieved: string;
  pass: boolean;
}

/** the specification table: target, achieved, ✔ pass / ✘ fail per item */
export function specTable(spec: SpecItem[]): string {
  return [
    '| specification | target | achieved | |',
    '|---|---|---|---|',
    ...spec.map((s) => `| ${s.item} | ${s.target} | ${s.achieved} | ${s.pass ? '✔ pass' : '✘ fail'} |`),
  ].join('\n');
}

export function renderGeneric(_args: R, r: Record<string, unknown>, o: RenderOptions): string {
  const out: string[] = [];
  for (const [k, v] of Object.entries(r)) {
    if (typeof v === 'number') out.push(`**${k}** = ${Number.isInteger(v) ? String(v) : fmt(v, o.digits)}`);
    else if (COMPLEX_FIELDS.has(k) && isComplexList(v)) out.push(`**${k}:** ${list(fmtEigenvalues(v, o.digits))}`);
    else if (isMatrix(v)) out.push(matrixBlock(k, v, o));
    else if (Array.isArray(v) && v.every((x) => typeof x === 'number'))
      out.push(
        `**${k}** = [${v
          .slice(0, 12)
          .map((x) => fmt(x as number, o.digits))
          .join(', ')}${v.length > 12 ? `, … (${v.length} values)` : ''}]`,
      );
    else if (typeof v === 'string' || typeof v === 'boolean') out.push(`**${k}:** ${String(v)}`);
  }
  return out.join('\n\n');
}

/** a renderer that needs to know which of its tools it renders (lqr or dare, step or impulse) */
export const feedbackRenderer = (tool: string) => (args: R, r: R, o: RenderOptions) => renderFeedback(tool, args, r, o);
export const timeResponseRenderer = (tool: string) => (args: R, r: R, o: RenderOptions) => renderTimeResponse(tool, args, r, o);

export function renderFreqresp(args: R, result: R, o: RenderOptions): string {
  return Array.isArray(result.mag_db) && Array.isArray(args.w) && args.w.length ? renderFreq(args, result, o) : renderGeneric(args, result, o);
}

export function renderC2d(args: R, result: R, o: RenderOptions): string {
  return isMatrix(result.Ad) && !result.Ad.length
    ? [
        `**Discretised with ${result.method ?? args.method}, Ts = ${fmt(args.Ts)} s:** the model has no states (0 states, a static gain), so Ad, Bd and Cd are empty and it is the same in discrete time:`,
        matrixBlock('Dd', result.Dd, o),
      ].join('\n\n')
    : [
        `**Discretised with ${result.method ?? args.method}, Ts = ${fmt(args.Ts)} s:**`,
        ...['Ad', 'Bd', 'Cd', 'Dd'].map((k) => matrixBlock(k, result[k], o)),
      ].join('\n\n');
}

export function renderTf2ss(args: R, result: R, o: RenderOptions): string {
  return [
    `**A state-space realisation** of (${polyText(result.num ?? args.num)}) / (${polyText(result.den ?? args.den)}):${isMatrix(result.A) && !result.A.length ? ' a constant, so the model has no states (0 states): A, B and C are empty (A = [], B = zeros(0,1), C = zeros(1,0)) and y = Du.' : ''}`,
    ...['A', 'B', 'C', 'D'].filter((k) => isMatrix(result[k]) && result[k].length).map((k) => matrixBlock(k, result[k], o)),
  ].join('\n\n');
}

export function renderSs2tf(args: R, result: R): string {
  const Ts = typeof result.Ts === 'number' && result.Ts > 0 ? result.Ts : typeof args.Ts === 'number' && args.Ts > 0 ? args.Ts : 0;
  const v = Ts ? 'z' : 's';
  return `**Transfer function:** H(${v}) = (${polyText(result.num, v)}) / (${polyText(result.den, v)})${Ts ? ` (discrete, Ts = ${fmt(Ts)} s)` : ''}`;
}

export function renderPolesZeros(_args: R, result: R, o: RenderOptions): string {
  return [
    `**Poles:** ${list(fmtEigenvalues(result.poles, o.digits))}`,
    `**Zeros:** ${list(fmtEigenvalues(result.zeros, o.digits))}`,
    ...(typeof result.gain === 'number' ? [`**Gain:** ${fmt(result.gain, o.digits)}`] : []),
  ].join('\n\n');
}

export function renderDcgain(_args: R, result: R, o: RenderOptions): string {
  return `**DC gain** (steady-state output per unit constant input):\n\n${matrixBlock('G0', result.gain, o)}`;
}

export function renderRlocus(_args: R, result: R, o: RenderOptions): string {
  const a = result.asymptotes as { centroid: number; angles_deg: number[] } | undefined;
  const br = (result.breakaway ?? []) as { s: Complex; k: number }[];
  return [
    `**Root locus** of 1 + k·L(s) = 0 at ${(result.k as number[]).length} gains from ${fmt(result.k[0])} to ${fmt(result.k.at(-1))}: ${(result.open_loop_poles as Complex[]).length} branches start at the open-loop poles (${list(fmtEigenvalues(result.open_loop_poles, o.digits))}) and end at the zeros (${list(fmtEigenvalues(result.open_loop_zeros, o.digits))}) or along the asymptotes.`,
    a && a.angles_deg.length
      ? `**Asymptotes:** centroid σ = ${fmt(a.centroid, o.digits)}, angles ${a.angles_deg.map((x) => `${fmt(x, o.digits)}°`).join(', ')}.`
      : '',
    br.length ? `**Breakaway/break-in points:** ${br.map((b) => `s = ${fmtEigenvalues([b.s], o.digits)[0]} at k = ${fmt(b.k, o.digits)}`).join('; ')}.` : '',
    '_Use **Plot** to see the branches._',
  ]
    .filter(Boolean)
    .join('\n\n');
}

export function renderNyquist(_args: R, result: R): string {
  const N = result.encirclements as number,
    P = result.open_loop_unstable_poles as number,
    Z = result.closed_loop_unstable_poles as number;
  return `**Nyquist criterion:** the curve of L(jω) encircles −1 ${N === 0 ? 'zero times' : `${Math.abs(N)} time${Math.abs(N) > 1 ? 's' : ''} ${N > 0 ? 'clockwise' : 'counter-clockwise'}`}; with P = ${P} open-loop pole${P === 1 ? '' : 's'} in the right half plane, the unity-feedback closed loop has Z = N + P = ${Z} unstable pole${Z === 1 ? '' : 's'}: **${Z === 0 ? 'stable' : 'unstable'}**.${(result.detours as unknown[]).length ? ` The contour detours around ${(result.detours as unknown[]).length} pole(s) on the imaginary axis.` : ''}\n\n_Use **Plot** to see the curve._`;
}

/** where a model's poles make its H norms infinite: the words for the right half-plane or the outside of the unit circle */
function normPoles(args: R, result: R): { disc: boolean; nU: number; nB: number; beyond: string; on: string } {
  const disc = typeof args.Ts === 'number' && args.Ts > 0;
  const nU = typeof result.unstable_poles === 'number' ? result.unstable_poles : 0;
  const nB = typeof result.boundary_poles === 'number' ? result.boundary_poles : 0;
  const poles = (k: number) => `${k} pole${k === 1 ? '' : 's'}`;
  return {
    disc,
    nU,
    nB,
    beyond: `${poles(nU)} ${disc ? 'outside the unit circle' : 'in the right half-plane'}`,
    on: `${poles(nB)} ${disc ? 'on the unit circle' : 'on the imaginary axis'}`,
  };
}

export function renderH2(args: R, result: R, o: RenderOptions): string {
  const p = normPoles(args, result);
  if (Number.isFinite(result.h2))
    return `**H2 norm** ‖G‖₂ = ${fmt(result.h2, o.digits)} (the RMS output for unit white noise on each input; the model is stable, so this is also its L2 norm).`;
  if (p.nB) return `**H2 norm:** ∞ and **L2 norm:** ∞ (${p.on}: the frequency response is unbounded near ${p.nB === 1 ? 'it' : 'them'}).`;
  const dPart = `a direct feedthrough D ≠ 0 in continuous time: ‖G(jω)‖ tends to ‖D‖ ≠ 0 as ω → ∞, so the integral of ‖G(jω)‖² diverges`;
  if (!p.nU) return `**H2 norm:** ∞ (${dPart}); the L2 norm is ∞ as well.`;
  const l2 = Number.isFinite(result.l2)
    ? `**L2 norm:** ${fmt(result.l2, o.digits)} (${p.disc ? '(1/2π)∫ ‖G(e^{jθ})‖²_F dθ over the unit circle' : '(1/2π)∫ ‖G(jω)‖²_F dω over all ω'}, square-rooted: the stable part's H2 norm and the mirrored antistable part's, combined)`
    : `**L2 norm:** ∞ as well (${dPart})`;
  return `**H2 norm:** ∞ (the model is unstable: ${p.beyond}, so it is not in H2); ${l2}.`;
}

export function renderHinf(args: R, result: R, o: RenderOptions): string {
  const p = normPoles(args, result);
  if (Number.isFinite(result.hinf))
    return `**H∞ norm** ‖G‖∞ = ${fmt(result.hinf, o.digits)} (${fmt(20 * Math.log10(result.hinf), o.digits)} dB), the peak gain over frequency, ${isMatrix(args.A) && !args.A.length ? 'σmax(D) at every frequency (no states: a static gain)' : `at ω = ${fmt(result.fpeak, o.digits)} rad/s`}${typeof result.linf === 'number' ? '; the model is stable, so this is also its L∞ norm' : ''}.`;
  if (p.nB || !Number.isFinite(result.linf))
    return `**H∞ norm:** ∞ and **L∞ norm:** ∞ (${p.nB ? p.on : 'a pole on the stability boundary'}${Number.isFinite(result.fpeak_linf ?? result.fpeak) ? `, at ω = ${fmt(result.fpeak_linf ?? result.fpeak, o.digits)} rad/s` : ''}: the gain is unbounded there).`;
  const w = result.fpeak_linf === Infinity ? '∞ (approached as ω → ∞)' : `${fmt(result.fpeak_linf, o.digits)} rad/s`;
  return `**H∞ norm:** ∞ (the model is unstable: ${p.beyond}, so it is not in H∞); **L∞ norm:** ${fmt(result.linf, o.digits)} (${fmt(20 * Math.log10(result.linf), o.digits)} dB) at ω = ${w}, the peak gain over frequency (what MATLAB's norm(sys, Inf) returns for an unstable model).`;
}

export function renderEig(_args: R, result: R, o: RenderOptions): string {
  const ev = result.eigenvalues as Complex[];
  return ev.length ? `**Eigenvalues:** ${fmtEigenvalues(ev, o.digits).join(', ')}` : '**Eigenvalues:** none — A is 0x0 (0 states).';
}

/** ctrb_rank and obsv_rank */
export const rankRenderer =
  (tool: 'ctrb_rank' | 'obsv_rank') =>
  (args: R, result: R, o: RenderOptions): string => {
    const n = (args.A as Matrix).length;
    const what = tool === 'ctrb_rank' ? 'controllability' : 'observability';
    if (n === 0)
      return `**Rank of the ${what} matrix:** 0 of 0 — the model has no states (0 states), so there is nothing to ${tool === 'ctrb_rank' ? 'control' : 'observe'}.`;
    return `**Rank of the ${what} matrix:** ${result.rank} of ${n} — ${result.rank === n ? (tool === 'ctrb_rank' ? 'controllable' : 'observable') : `**not ${tool === 'ctrb_rank' ? 'controllable' : 'observable'}**`}.\n\n${matrixBlock(tool === 'ctrb_rank' ? 'Co' : 'Ob', result.matrix, o)}`;
  };

export { fmtSmall };

/** a result's frequencies (rad/s: w_gc, w_pc, wc, wn, bandwidth, …) also in Hz, f = ω/2π, for a request that asked "in Hz" */
export function frequenciesInHz(result: Record<string, unknown>, digits?: number): string {
  const FREQ = /^(?:w|omega)(?:_?[a-z]+)?$|^bandwidth$/;
  const hz = (w: number) => (Number.isFinite(w) ? `${fmt(w / (2 * Math.PI), digits)} Hz` : String(w));
  const parts: string[] = [];
  for (const [k, v] of Object.entries(result)) {
    if (!FREQ.test(k)) continue;
    if (typeof v === 'number') parts.push(`${k} = ${fmt(v, digits)} rad/s = ${hz(v)}`);
    else if (Array.isArray(v) && v.length > 0 && v.length <= 8 && v.every((x) => typeof x === 'number'))
      parts.push(`${k} = ${v.map((x) => hz(x as number)).join(', ')}`);
  }
  return parts.length ? `**In Hz** (f = ω/2π), as asked: ${parts.join('; ')}.` : '**In Hz** was asked, but this result has no frequency to convert.';
}
