/**
 * The plots an answer offers (the buttons under it in the chat): each tool's `plots` facet
 * builds them with the helpers here. Pure data: what to plot and of which system; the numbers
 * are computed later by `plot/data.ts` through the verified call path.
 */
export const PLOT_KINDS = ['bode', 'step', 'impulse', 'nyquist', 'rlocus', 'pzmap', 'lsim', 'initial', 'sigma', 'diskmargin', 'nlsim', 'mpc'] as const;
export type PlotKind = (typeof PLOT_KINDS)[number];

/**
 * Plots drawn from a system alone (offered by the quick pick of `control.plot`); the others
 * need more than the system: `lsim` its input (its args are the lsim call's: u or signal, t or
 * tfinal, x0), `initial` the initial state x0, `diskmargin` its call (a loop L, or a plant and
 * controller sys1/sys2, with sigma and w), `mpc` the whole mpc call (horizon, weights, bounds, x0).
 */
export const SYSTEM_PLOT_KINDS: readonly PlotKind[] = ['bode', 'step', 'impulse', 'nyquist', 'rlocus', 'pzmap', 'sigma'];

export const KIND_LABEL: Record<PlotKind, string> = {
  bode: 'Bode',
  step: 'Step response',
  impulse: 'Impulse response',
  nyquist: 'Nyquist',
  rlocus: 'Root locus',
  pzmap: 'Pole-zero map',
  lsim: 'Simulation: output and input',
  initial: 'Free response',
  sigma: 'Singular values',
  diskmargin: 'Disk margin over frequency',
  nlsim: 'Nonlinear simulation: states',
  mpc: 'MPC closed loop: states, outputs and inputs',
};

/** one plot an answer offers: its kind, the system (num/den or A, B, C, D, Ts) and the button's title */
export interface PlotSpec {
  kind: PlotKind;
  args: Record<string, unknown>;
  title: string;
}

/** the system arguments of a call (num, den, A, B, C, D, Ts), nothing else */
export function systemArgs(a: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ['num', 'den', 'A', 'B', 'C', 'D', 'Ts']) if (a[k] !== undefined && a[k] !== null) out[k] = a[k];
  return out;
}

/** one input and one output: a transfer function, or B with one column and C with one row */
export function isSiso(sys: Record<string, unknown>): boolean {
  if (Array.isArray(sys.num) && Array.isArray(sys.den)) return true;
  const B = sys.B as number[][] | undefined;
  const C = sys.C as number[][] | undefined;
  return B?.[0]?.length === 1 && C?.length === 1;
}

const TITLES: Record<PlotKind, string> = {
  bode: 'Plot Bode',
  step: 'Plot step response',
  impulse: 'Plot impulse response',
  nyquist: 'Plot Nyquist',
  rlocus: 'Plot root locus',
  pzmap: 'Plot poles and zeros',
  lsim: 'Plot output and input',
  initial: 'Plot free response',
  sigma: 'Plot singular values',
  diskmargin: 'Plot disk margin over frequency',
  nlsim: 'Plot states against time',
  mpc: 'Plot MPC closed loop',
};

/** these plots of the call's system, whatever its size (root locus and Nyquist read a SISO L anyway) */
export function systemPlots(...kinds: PlotKind[]): (args: Record<string, unknown>) => PlotSpec[] {
  return (args) => {
    const sys = systemArgs(args);
    return kinds.map((kind) => ({ kind, args: sys, title: TITLES[kind] }));
  };
}

/** these plots of the call's system, offered when it is SISO (the plots draw one channel) */
export function sisoPlots(...kinds: PlotKind[]): (args: Record<string, unknown>) => PlotSpec[] {
  const all = systemPlots(...kinds);
  return (args) => (isSiso(systemArgs(args)) ? all(args) : []);
}

/** analyse: step and Bode when SISO, and the pole map of A (with zeros when C is known) */
export function analysisPlots(args: Record<string, unknown>): PlotSpec[] {
  const sys = systemArgs(args);
  const out: PlotSpec[] = [];
  if (sys.A === undefined) return out;
  if (isSiso(sys)) out.push({ kind: 'step', args: sys, title: TITLES.step }, { kind: 'bode', args: sys, title: TITLES.bode });
  out.push({ kind: 'pzmap', args: sys.C !== undefined ? sys : { A: sys.A, ...(sys.Ts !== undefined ? { Ts: sys.Ts } : {}) }, title: TITLES.pzmap });
  return out;
}

/** a state-feedback design (u = −Kx): the pole map of the closed loop A − BK */
export function closedLoopPlots(args: Record<string, unknown>, result: Record<string, unknown> | undefined): PlotSpec[] {
  const A = args.A as number[][] | undefined;
  const B = args.B as number[][] | undefined;
  const K = result?.K as number[][] | undefined;
  if (!A || !B || !K || !Array.isArray(K[0])) return [];
  // A − BK: the closed loop whose poles the design chose (the poles come from eig, in the plot)
  const Acl = A.map((row, i) => row.map((v, j) => v - B[i].reduce((s, b, l) => s + b * K[l][j], 0)));
  return [{ kind: 'pzmap', args: { A: Acl, ...(typeof args.Ts === 'number' ? { Ts: args.Ts } : {}) }, title: 'Plot closed-loop poles' }];
}
