/**
 * A tool result as Markdown: the numbers an engineer asked for first, then the facts they
 * need next (closed-loop poles with damping, stability), then the verification line.
 * Numbers are rounded to 6 significant figures here only; machine output keeps full precision.
 */
import type { AnalysisResult, ModeInfo } from '../solvers/analysis.js';
import type { Complex, Matrix } from '../types.js';
import type { Verification } from '../verify/index.js';
import { fmt, fmtEigenvalues, fmtSmall } from './format.js';
import { factsTable, matrixBlock, type RenderOptions } from './markdown.js';

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
    rows.push(`| ${label} | ${wn} | ${zeta} | ${tau} |`);
  }
  const head = discrete
    ? '| eigenvalue z | ωn of ln(z)/Ts (rad/s) | ζ | τ (s) |'
    : '| eigenvalue | ωn (rad/s) | ζ | τ (s) |';
  return [head, '|---|---:|---:|---:|', ...rows].join('\n');
}

export function verificationLine(v: Verification | undefined): string {
  if (!v) return '_Not independently verified: this tool has no verifier check yet._';
  const parts = v.checks.map((c) => (c.ok ? c.detail : `**FAILED: ${c.detail}**`));
  return v.ok ? `✔ Verified: ${parts.join('; ')}.` : `⚠ **Verification failed, do not use these numbers as they are**: ${parts.join('; ')}.`;
}

function renderAnalysis(r: AnalysisResult, o: RenderOptions): string {
  const out: string[] = [];
  const ev = fmtEigenvalues(r.eigenvalues, o.digits);
  const domain = r.discrete ? 'discrete-time' : 'continuous-time';
  const verdict =
    r.stability === 'stable'
      ? `asymptotically **stable**`
      : r.stability === 'marginal'
        ? `**on the stability boundary** (${r.discrete ? '|z| = 1' : 'Re λ = 0'}): marginally stable at best, not asymptotically stable`
        : `**unstable**: ${list(fmtEigenvalues(r.unstable, o.digits).map((s) => `λ = ${s}`))} ${r.discrete ? 'outside the unit circle' : 'in the right half plane'}${
            r.boundary.length ? ` (and ${list(fmtEigenvalues(r.boundary, o.digits).map((s) => `λ = ${s}`))} ${r.discrete ? 'on the unit circle' : 'on the imaginary axis'})` : ''
          }`;
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
  const c = r.controllability, b = r.observability;
  if (c) {
    if (c.rank === r.n) s.push('Every mode can be moved by state feedback (pole placement or LQR will work).');
    else if (c.stabilisable) s.push('Some modes cannot be moved by the inputs, but they are stable, so the system can still be stabilised (an LQR design exists).');
    else s.push('An unstable mode cannot be influenced by the inputs: no controller using these inputs can stabilise it. Add or move an actuator.');
  }
  if (b) {
    if (b.rank === r.n) s.push('Every mode shows in the outputs, so an observer or Kalman filter can reconstruct the state.');
    else if (b.detectable) s.push('Some modes are invisible in the outputs but stable, so an observer still converges (detectable).');
    else s.push('An unstable mode is invisible in the outputs: no observer can estimate it. Add or move a sensor.');
  }
  return `**In short.** ${s.join(' ')}`;
}

function renderFeedback(tool: string, args: Record<string, any>, r: Record<string, any>, o: RenderOptions): string {
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
  }
  if (isMatrix(r.Acl)) out.push(`**Closed-loop matrix:**\n\n${matrixBlock('A_cl', r.Acl, o)}`);
  if (isMatrix(r[sol])) out.push(`**Riccati solution:**\n\n${matrixBlock(sol, r[sol], o)}`);
  for (const k of ['M', 'Z'])
    if (isMatrix(r[k])) out.push(matrixBlock(k, r[k], o));
  return out.join('\n\n');
}

function renderGeneric(r: Record<string, unknown>, o: RenderOptions): string {
  const out: string[] = [];
  for (const [k, v] of Object.entries(r)) {
    if (typeof v === 'number') out.push(`**${k}** = ${Number.isInteger(v) ? String(v) : fmt(v, o.digits)}`);
    else if (isComplexList(v)) out.push(`**${k}:** ${list(fmtEigenvalues(v, o.digits))}`);
    else if (isMatrix(v)) out.push(matrixBlock(k, v, o));
    else if (Array.isArray(v) && v.every((x) => typeof x === 'number'))
      out.push(`**${k}** = [${v.slice(0, 12).map((x) => fmt(x as number, o.digits)).join(', ')}${v.length > 12 ? `, … (${v.length} values)` : ''}]`);
    else if (typeof v === 'string' || typeof v === 'boolean') out.push(`**${k}:** ${String(v)}`);
  }
  return out.join('\n\n');
}

/** the Markdown of one tool result, verification line included */
export function renderToolResult(
  tool: string,
  args: Record<string, any>,
  result: Record<string, any>,
  verification: Verification | undefined,
  o: RenderOptions,
): string {
  let body: string;
  switch (tool) {
    case 'analyse':
      body = renderAnalysis(result as AnalysisResult, o);
      break;
    case 'lqr':
    case 'dlqr':
    case 'care':
    case 'dare':
    case 'lqe':
    case 'kalman':
      body = renderFeedback(tool, args, result, o);
      break;
    case 'place':
      body = renderFeedback(tool, args, result, o);
      break;
    case 'eig': {
      const ev = result.eigenvalues as Complex[];
      body = `**Eigenvalues:** ${fmtEigenvalues(ev, o.digits).join(', ')}`;
      break;
    }
    case 'ctrb_rank':
    case 'obsv_rank': {
      const n = (args.A as Matrix).length;
      const what = tool === 'ctrb_rank' ? 'controllability' : 'observability';
      body = `**Rank of the ${what} matrix:** ${result.rank} of ${n} — ${result.rank === n ? (tool === 'ctrb_rank' ? 'controllable' : 'observable') : `**not ${tool === 'ctrb_rank' ? 'controllable' : 'observable'}**`}.\n\n${matrixBlock(tool === 'ctrb_rank' ? 'Co' : 'Ob', result.matrix, o)}`;
      break;
    }
    default:
      body = renderGeneric(result, o);
  }
  return `${body}\n\n${verificationLine(verification)}`;
}

export { fmtSmall };
