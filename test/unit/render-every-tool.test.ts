/**
 * Every tool's result renders, in Markdown with LaTeX (`math: true`, the chat with math) and
 * in plain text (`math: false`: the CLI, MCP, the report), for a small SISO model and a model
 * with 2 inputs and 2 outputs wherever the tool takes a system, plus the discrete, transfer
 * function and no-state variants that take other branches of the renderer. Issue 11: MIMO
 * `freqresp` failed with "internal error: t.toExponential is not a function" in Markdown, MCP
 * and chat while its JSON was right.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TOOLS } from '../../src/core/tools/table.js';
import { prepareArgs } from '../../src/core/tools/call.js';
import { isControlError } from '../../src/core/errors.js';
import { verify } from '../../src/core/verify/index.js';
import { renderToolResult } from '../../src/core/render/answer.js';
import { resultCharts } from '../../src/core/render/svgplot.js';
import { invokeTool } from '../../src/core/mcp/invoke.js';

const A = [
  [0, 1],
  [-2, -3],
];
const Ad = [
  [0.9, 0.1],
  [0, 0.8],
];
const B1 = [[0], [1]];
const C1 = [[1, 0]];
/** 2 inputs, 2 outputs, a feedthrough on one channel */
const B2 = [
  [0, 1],
  [1, 0],
];
const C2 = [
  [1, 0],
  [0, 1],
];
const D2 = [
  [0, 0.5],
  [0, 0],
];
const I2 = [
  [1, 0],
  [0, 1],
];
const diagM = (d: number[]) => d.map((v, i) => d.map((_, j) => (i === j ? v : 0)));
const SISO = { A, B: B1, C: C1 };
const MIMO = { A, B: B2, C: C2, D: D2 };
const TF = { num: [1, 2], den: [1, 3, 2] };
const STATIC = {
  A: [],
  B: [],
  C: [],
  D: [
    [2, 1],
    [0, 3],
  ],
};
const t = [0, 0.5, 1, 2, 5];
const w = [0.1, 1, 10];

/**
 * Argument sets per tool: `siso` always, `mimo` (2 inputs, 2 outputs, or the tool's
 * multi-input/-output form) where the tool takes one. A tool added to the table without a
 * set here fails the test, so the renderer is never left behind.
 */
const SETS: Record<string, Record<string, Record<string, unknown>>> = {
  eig: {
    siso: { A },
    oscillator: {
      A: [
        [0, 1],
        [-4, 0],
      ],
    },
    empty: { A: [] },
  },
  ctrb_rank: {
    siso: { A, B: B1 },
    mimo: { A, B: B2 },
    uncontrollable: {
      A: [
        [-1, 0],
        [0, -2],
      ],
      B: [[1], [0]],
    },
  },
  obsv_rank: { siso: { A, C: C1 }, mimo: { A, C: C2 } },
  lyap: {
    siso: { A, Q: I2 },
    descriptor: {
      A,
      Q: I2,
      E: [
        [1, 0.5],
        [0, 2],
      ],
    },
  },
  dlyap: {
    siso: { A: Ad, Q: I2 },
    descriptor: {
      A: Ad,
      Q: I2,
      E: [
        [1, 0.5],
        [0, 2],
      ],
    },
  },
  sylvester: { siso: { A, Bs: [[-1]], Cs: [[1], [2]] } },
  dsylvester: { siso: { A: Ad, Bs: [[0.5]], Cs: [[1], [2]] } },
  lyapchol: { siso: { A, B: B1 }, mimo: { A, B: B2 } },
  dlyapchol: { siso: { A: Ad, B: B1 }, mimo: { A: Ad, B: B2 } },
  care: {
    siso: { A, B: B1, Q: I2, R: [[1]] },
    mimo: { A, B: B2, Q: I2, R: I2 },
    descriptor: {
      A,
      B: B1,
      Q: I2,
      R: [[1]],
      S: [[0.1], [0]],
      E: [
        [1, 0.2],
        [0, 2],
      ],
    },
  },
  dare: {
    siso: { A: Ad, B: B1, Q: I2, R: [[1]] },
    mimo: { A: Ad, B: B2, Q: I2, R: I2 },
    descriptor: {
      A: Ad,
      B: B1,
      Q: I2,
      R: [[1]],
      S: [[0.1], [0]],
      E: [
        [1, 0.2],
        [0, 2],
      ],
    },
  },
  lqr: { siso: { A, B: B1, Q: I2, R: [[1]] }, mimo: { A, B: B2, Q: I2, R: I2 } },
  dlqr: { siso: { A: Ad, B: B1, Q: I2, R: [[1]] }, mimo: { A: Ad, B: B2, Q: I2, R: I2 } },
  lqe: {
    siso: { A, G: B1, C: C1, Qn: [[1]], Rn: [[0.1]] },
    mimo: {
      A,
      G: B2,
      C: C2,
      Qn: I2,
      Rn: [
        [0.1, 0],
        [0, 0.1],
      ],
    },
  },
  kalman: {
    siso: { A: Ad, G: B1, C: C1, Qn: [[1]], Rn: [[0.1]], Ts: 0.1 },
    mimo: {
      A: Ad,
      G: B2,
      C: C2,
      Qn: I2,
      Rn: [
        [0.1, 0],
        [0, 0.1],
      ],
      Ts: 0.1,
    },
    continuous: { A, G: B1, C: C1, Qn: [[1]], Rn: [[0.1]] },
  },
  // (a complex pair with 2 inputs is refused today, "eigenvector matrix became singular": see the report)
  place: {
    siso: {
      A,
      B: B1,
      poles: [
        [-1, 1],
        [-1, -1],
      ],
    },
    mimo: { A, B: B2, poles: [-1, -2] },
  },
  c2d: {
    siso: { ...SISO, Ts: 0.1 },
    mimo: { ...MIMO, Ts: 0.1 },
    tustin: { ...SISO, Ts: 0.1, method: 'tustin' },
    static: { ...STATIC, Ts: 0.1 },
    matched: { ...TF, Ts: 0.1, method: 'matched' },
    prewarp: { ...TF, Ts: 0.1, method: 'tustin', prewarp: 5 },
    impulse: { ...SISO, Ts: 0.1, method: 'impulse' },
    euler: { ...MIMO, Ts: 0.1, method: 'euler' },
  },
  d2c: {
    siso: { A: Ad, B: B1, C: C1, Ts: 0.1 },
    mimo: { A: Ad, B: B2, C: C2, D: D2, Ts: 0.1 },
    tf: { num: [0.1], den: [1, -0.9], Ts: 0.1, method: 'matched' },
  },
  d2d: {
    siso: { A: Ad, B: B1, C: C1, Ts: 0.1, newTs: 0.25 },
    mimo: { A: Ad, B: B2, C: C2, D: D2, Ts: 0.1, newTs: 0.3 },
    tf: { num: [0.1], den: [1, -0.9], Ts: 0.1, newTs: 0.2 },
  },
  evalfr: { siso: { ...SISO, s: [0, 2] }, mimo: { ...MIMO, s: 1 }, tf: { ...TF, s: [1, 1] }, discrete: { A: Ad, B: B1, C: C1, Ts: 0.1, s: [0, 1] } },
  tf2ss: {
    siso: TF,
    constant: { num: [3], den: [2] },
    mimo: {
      num: [
        [[1], [1, 1]],
        [[2], [0]],
      ],
      den: [
        [
          [1, 2],
          [1, 3],
        ],
        [[1, 2], [1]],
      ],
    },
    sharedDen: { num: [[[1, 0], [2]]], den: [1, 3, 2] },
  },
  ss2tf: { siso: SISO, mimo: MIMO, discrete: { A: Ad, B: B2, C: C2, D: D2, Ts: 0.1 } },
  zpk: {
    siso: SISO,
    mimo: MIMO,
    tf: TF,
    tfMimo: {
      num: [[[1], [1, 1]]],
      den: [
        [
          [1, 2],
          [1, 3],
        ],
      ],
    },
    static: STATIC,
  },
  zpk2tf: {
    siso: { z: [-1], p: [-2, -3], k: 5 },
    complex: {
      z: [],
      p: [
        [-1, 2],
        [-1, -2],
      ],
      k: 5,
    },
    mimo: { z: [[[-1], []]], p: [[[-2, -3], [-4]]], k: [[5, 2]] },
    discrete: { z: [0.5], p: [0.9], k: 1, Ts: 0.1 },
  },
  zpk2ss: { siso: { z: [-1], p: [-2, -3], k: 5 }, mimo: { z: [[[-1], []]], p: [[[-2, -3], [-4]]], k: [[5, 2]] }, gain: { z: [], p: [], k: 3 } },
  poles_zeros: { siso: SISO, mimo: MIMO, tf: TF, static: STATIC },
  dcgain: { siso: SISO, mimo: MIMO, tf: TF, discrete: { A: Ad, B: B1, C: C1, Ts: 0.1 } },
  freqresp: {
    siso: { ...SISO, w },
    mimo: { ...MIMO, w },
    discrete: { A: Ad, B: B1, C: C1, w, Ts: 0.1 },
    discreteMimo: { A: Ad, B: B2, C: C2, w, Ts: 0.1 },
    diagonal: {
      A: [
        [-1, 0],
        [0, -2],
      ],
      B: I2,
      C: I2,
      w,
    },
    atPole: {
      A: [
        [0, 1],
        [0, 0],
      ],
      B: B1,
      C: C1,
      w: [0, 1],
    },
    static: { ...STATIC, w },
  },
  margins: { siso: SISO, tf: TF, loop: { num: [10], den: [1, 6, 5, 0] }, constant: { num: [2], den: [1] }, discrete: { num: [0.5], den: [1, -0.5], Ts: 0.1 } },
  step: { siso: { ...SISO, t }, mimo: { ...MIMO, t }, discrete: { A: Ad, B: B1, C: C1, t: [0, 0.1, 0.2], Ts: 0.1 }, static: { ...STATIC, t } },
  impulse: { siso: { ...SISO, t }, mimo: { ...MIMO, t } },
  stepinfo: { siso: SISO },
  lsim: {
    siso: { ...SISO, signal: 'step', tfinal: 5 },
    mimo: { ...MIMO, u: 'sin(t) + heaviside(t - 1)', tfinal: 3, x0: [1, 0] },
    samples: { ...TF, u: [0, 1, 0.5, 0.25], t: [0, 0.5, 1, 1.5] },
    discrete: { A: Ad, B: B1, C: C1, Ts: 0.1, signal: 'square', period: 0.4, tfinal: 1 },
    static: { ...STATIC, signal: 'ramp', tfinal: 1, dt: 0.25 },
    defaultGrid: { ...SISO, signal: 'sine', period: 2 },
  },
  initial: { siso: { A, C: C1, x0: [1, 0] }, mimo: { ...MIMO, x0: [1, -1], tfinal: 2 }, discrete: { A: Ad, C: C1, x0: [1, 1], Ts: 0.1, tfinal: 1 } },
  h2norm: { siso: SISO, mimo: MIMO, discrete: { A: Ad, B: B1, C: C1, Ts: 0.1 }, feedthrough: { ...SISO, D: [[1]] } },
  hinfnorm: { siso: SISO, mimo: MIMO, static: STATIC },
  analyse: { siso: SISO, mimo: MIMO, stateOnly: { A }, discrete: { A: Ad, B: B1, C: C1, Ts: 0.1 }, static: STATIC },
  rlocus: { siso: SISO, tf: TF },
  nyquist: { siso: SISO, tf: TF },
  damp: {
    siso: SISO,
    mimo: MIMO,
    tf: TF,
    A: { A },
    integrator: { num: [1], den: [1, 0, 4, 0] },
    discrete: {
      A: [
        [0, 0],
        [0, 1.2],
      ],
      Ts: 0.5,
    },
    static: STATIC,
  },
};

// the interconnections take systems as sys1/sys2/systems (readSystemArg), minreal a flat model
const G1 = { num: [1], den: [1, 1] };
const G2 = { num: [2], den: [1, 3] };
Object.assign(SETS, {
  series: {
    siso: { sys1: G1, sys2: G2 },
    mimo: { sys1: MIMO, sys2: { ...MIMO, A: Ad } },
    static: { sys1: 2, sys2: STATIC },
    discrete: { sys1: { ...G1, Ts: 0.1 }, sys2: 3 },
  },
  parallel: { siso: { sys1: G1, sys2: G2, sign: -1 }, mimo: { sys1: MIMO, sys2: 1 }, zero: { sys1: G1, sys2: G1, sign: -1 } },
  feedback: {
    siso: { sys1: G1 },
    mimo: { sys1: MIMO, sys2: { ...MIMO, A: Ad } },
    channels: { sys1: MIMO, sys2: 2, feedin: [1], feedout: [2] },
    positive: { sys1: G1, sign: 1 },
  },
  append: { siso: { systems: [G1, G2] }, mimo: { systems: [MIMO, SISO, 2] } },
  minreal: {
    siso: SISO,
    mimo: MIMO,
    tf: { num: [1, 1], den: [1, 3, 2] },
    hidden: {
      A: [
        [-1, 0],
        [0, -2],
      ],
      B: [[1], [0]],
      C: [[1, 1]],
    },
    static: STATIC,
  },
});

// the reduction tools: a stable 3-state model with well separated Hankel singular values
const A3 = [
  [-1, 0, 0],
  [0, -2, 0],
  [0, 0, -30],
];
const SISO3 = { A: A3, B: [[1], [1], [1]], C: [[1, 1, 1]] };
const MIMO3 = {
  A: A3,
  B: [
    [1, 0],
    [1, 1],
    [0, 1],
  ],
  C: [
    [1, 1, 1],
    [0, 1, -1],
  ],
  D: [
    [0, 0.5],
    [0, 0],
  ],
};
Object.assign(SETS, {
  gram: {
    siso: SISO3,
    mimo: { ...MIMO3, type: 'o' },
    factor: { ...SISO3, type: 'c', factor: true },
    discrete: { A: Ad, B: B1, C: C1, Ts: 0.1, type: 'o' },
  },
  hsvd: { siso: SISO3, mimo: MIMO3, tf: TF, discrete: { A: Ad, B: B1, C: C1, Ts: 0.1 } },
  balreal: { siso: SISO3, mimo: MIMO3, tf: TF },
  balred: {
    siso: { ...SISO3, order: 2 },
    mimo: { ...MIMO3, order: 2, method: 'matchdc' },
    tf: { num: [1, 5, 6], den: [1, 10, 35, 50, 24], order: 2 },
    discrete: { A: Ad, B: B1, C: C1, Ts: 0.1, order: 1 },
  },
  modred: {
    siso: { ...SISO3, elim: [3] },
    mimo: { ...MIMO3, elim: [3], method: 'truncate' },
    unstable: {
      A: [
        [1, 0],
        [0, -20],
      ],
      B: B1,
      C: [[1, 1]],
      elim: [2],
    },
  },
});

// frequency analysis, structure and delays (issue 13, second part)
Object.assign(SETS, {
  bandwidth: { siso: SISO, tf: TF, discrete: { num: [0.5], den: [1, -0.5], Ts: 0.1 }, dbdrop: { ...TF, dbdrop: -6 } },
  sigma: { siso: { ...SISO, w }, mimo: { ...MIMO, w }, tf: TF, static: { ...STATIC, w } },
  stability_margins: {
    siso: SISO,
    tf: { num: [25], den: [1, 10, 10, 10] },
    integrator: { num: [10], den: [1, 6, 5, 0] },
    unstable: { num: [1], den: [1, -1] },
  },
  ctrbf: { siso: { ...SISO3, B: [[1], [1], [0]] }, mimo: MIMO },
  obsvf: { siso: { ...SISO3, C: [[1, 0, 1]] }, mimo: MIMO },
  kalman_decomp: { siso: { A: A3, B: [[1], [1], [0]], C: [[1, 0, 1]] }, mimo: MIMO3 },
  canon: { siso: SISO3, mimo: MIMO3, companion: { ...SISO, form: 'companion' }, tf: TF },
  ss2ss: {
    siso: {
      ...SISO,
      T: [
        [1, 1],
        [0, 1],
      ],
    },
    mimo: {
      ...MIMO,
      T: [
        [2, 0],
        [1, 1],
      ],
    },
  },
  tzero: { siso: { ...SISO, D: [[0]] }, mimo: MIMO, decoupling: { A: A3, B: [[1], [1], [0]], C: [[1, 0, 1]] } },
  pade: {
    siso: { T: 0.5, N: 3 },
    tf: { ...TF, T: 0.2, N: 2 },
    ss: { ...SISO, T: 0.1, N: 4 },
    mimo: { ...MIMO, T: 0.1, N: 2 },
    output: { ...SISO, T: 0.1, N: 2, delayAt: 'output' },
  },
  thiran: { siso: { tau: 2.4, Ts: 1 }, integer: { tau: 3, Ts: 1 } },
  lqi: {
    siso: { A, B: B1, C: C1, Q: diagM([1, 1, 10]), R: [[1]] },
    mimo: { A, B: B2, C: C2, Q: diagM([1, 1, 5, 5]), R: I2 },
    discrete: { A: Ad, B: B1, C: C1, Q: diagM([1, 1, 1]), R: [[1]], Ts: 0.1 },
  },
  lqry: { siso: { A, B: B1, C: C1, Q: [[10]], R: [[1]] }, mimo: { A, B: B2, C: C2, Q: I2, R: I2 } },
  estim: { siso: { A, B: B1, C: C1, L: [[5], [4]] }, mimo: { A, B: B2, C: C2, L: diagM([5, 4]) } },
  reg: { siso: { A, B: B1, C: C1, K: [[4, 2]], L: [[5], [4]] }, mimo: { A, B: B2, C: C2, K: diagM([3, 2]), L: diagM([5, 4]) } },
  lqg: {
    siso: { A, B: B1, C: C1, QXU: diagM([1, 1, 1]), QWV: diagM([1, 1, 0.1]) },
    mimo: { A, B: B2, C: C2, QXU: diagM([1, 1, 1, 1]), QWV: diagM([1, 1, 0.1, 0.1]) },
  },
  pidtune: {
    // MATLAB's pidtune example 1/(s + 1)³, PI at 0.5205 rad/s
    siso: { num: [1], den: [1, 3, 3, 1], type: 'PI', wc: 0.5205 },
    pidf: { num: [1], den: [1, 3, 3, 1], type: 'PIDF', wc: 1 },
    unmet: { num: [1], den: [1, 3, 3, 1], type: 'PI', wc: 1 },
    ss: { ...SISO, type: 'PID' },
    defaultWc: { num: [2], den: [1, 2, 0] },
  },
  leadlag: {
    // Ogata's lead example 4/(s(s + 2)), PM 50°, Kv = 20
    siso: { num: [4], den: [1, 2, 0], kind: 'lead', pm: 50, Kv: 20 },
    lag: { num: [1], den: [1, 3, 2, 0], kind: 'lag', pm: 40, Kv: 5 },
  },
  place_observer: { siso: { A, C: C1, poles: [-5, -6] }, mimo: { A, C: C2, poles: [-5, -6] } },
  wls_alloc: {
    // one virtual control, two actuators; then three moments from four surfaces, past the limits
    siso: { B: [[1, 2]], v: [1], umin: -0.25, umax: 0.25 },
    mimo: {
      B: [
        [0, -4.24, 4.24, 1.49],
        [1.65, -1.27, -1.27, 0],
        [0, -0.28, 0.28, -0.88],
      ],
      v: [6, -2, 0.3],
      umin: [-0.96, -0.52, -0.52, -0.52],
      umax: [0.44, 0.52, 0.52, 0.52],
    },
    rate: {
      B: [
        [1, 1, 0],
        [0, 1, 1],
      ],
      v: [1, 0.5],
      umin: -1,
      umax: 1,
      u_prev: [0, 0, 0],
      rate_max: 2,
      Ts: 0.1,
      Wu: [[1, 2, 3]],
      gamma: 1e4,
    },
  },
  // nonlinear models: the damped pendulum (parameters), Van der Pol (no input), two inputs with an output
  find_eqpt: {
    siso: { equations: "x1' = x2; x2' = -g/l*sin(x1) - b*x2 + u", params: { g: 9.81, l: 1, b: 0.1 }, x0: [3, 0] },
    target: { equations: "x1' = x2; x2' = -9.81*sin(x1) - 0.5*x2 + u", outputs: 'y = x1', x0: [0.4, 0], y0: [0.5] },
    noInput: { equations: "x1' = x2; x2' = mu*(1 - x1^2)*x2 - x1", params: { mu: 1 } },
  },
  linearize: {
    siso: { equations: "x1' = x2; x2' = -g/l*sin(x1) - b*x2 + u", params: { g: 9.81, l: 1, b: 0.1 }, x: [3.141592653589793, 0] },
    mimo: { equations: "x1' = x2; x2' = -9.81*sin(x1) + u1 - u2", outputs: 'y1 = x1; y2 = x1 + x2', x: [0.7, 0], u: [0, 1] },
    noInput: { equations: "x1' = x2; x2' = mu*(1 - x1^2)*x2 - x1", params: { mu: 1 }, x: [0, 0] },
  },
  lyapunov_check: {
    siso: { equations: "x1' = x2; x2' = -sin(x1) - x2", x: [0, 0], radius: 2 },
    givenP: {
      equations: "x1' = -x1 + x1^2*x2; x2' = -x2",
      x: [0, 0],
      radius: 3,
      P: [
        [1, 0],
        [0, 1],
      ],
    },
    oneState: { equations: "x1' = -x1 + x1^3", x: [0], radius: 2 },
  },
  nlsim: {
    siso: { equations: "x1' = x2; x2' = -g/l*sin(x1) - b*x2 + u", params: { g: 9.81, l: 1, b: 0.1 }, x0: [0.5, 0], tfinal: 10 },
    mimo: { equations: "x1' = x2 + u1; x2' = -sin(x1) - 0.3*x2 + u2", x0: [0, 1], u: [1, 'cos(t)'], tfinal: 3 },
    formula: { equations: "x1' = x2; x2' = -x1 - 0.2*x2 + u", x0: [0, 0], u: 'sin(2*t)', tfinal: 5 },
    noInput: { equations: "x1' = x2; x2' = mu*(1 - x1^2)*x2 - x1", params: { mu: 1 }, x0: [2, 0], tfinal: 20 },
  },
  cbf_filter: {
    // single integrator around the unit disc; adaptive cruise control (Ames et al. 2019); a one-state barrier with α = 2
    siso: { equations: "x' = u", barrier: '1 - x', u_nom: 1, alpha: 2, x0: [0], tfinal: 5 },
    mimo: { equations: "x1' = u1; x2' = u2", barrier: 'x1^2 + x2^2 - 1', u_nom: ['2 - x1', '-x2'], x0: [-3, 0.5], tfinal: 10 },
    params: {
      equations: "x1' = -(f0 + f1*x1 + f2*x1^2)/m + u/m; x2' = v0 - x1",
      params: { m: 1650, f0: 0.1, f1: 5, f2: 0.25, v0: 13.89, Th: 1.8, vd: 24 },
      barrier: 'x2 - Th*x1',
      u_nom: '-m*(x1 - vd)',
      x0: [20, 100],
      tfinal: 20,
    },
  },
  mpc: {
    // the saturated double integrator, a continuous SISO servo with rate and output bounds, MIMO with state bounds and a reference
    siso: {
      A: [
        [1, 1],
        [0, 1],
      ],
      B: [[0.5], [1]],
      Ts: 1,
      N: 10,
      umin: -1,
      umax: 1,
      x0: [5, 0],
      steps: 20,
    },
    servo: { num: [1], den: [1, 1, 0], Ts: 0.1, continuous: true, N: 20, Nc: 5, umin: -2, umax: 2, dumax: 0.5, dumin: -0.5, ymax: 1.05, r: [1], S: [[0.1]] },
    mimo: { A: Ad, B: B2, C: C2, Ts: 0.1, N: 8, R: I2, xmin: [-1, null], xmax: [1, null], x0: [0.5, -0.5] },
    unconstrained: { A: Ad, B: B1, Ts: 0.1, N: 5, x0: [1, 0], steps: 10 },
  },
  diskmargin: {
    siso: { num: [25], den: [1, 10, 10, 10] },
    // MATLAB's spinning satellite: L = P·K, P = ss([0 10; -10 0], eye(2), [1 10; -10 1], 0), K = I
    mimo: {
      A: [
        [0, 10],
        [-10, 0],
      ],
      B: I2,
      C: [
        [1, 10],
        [-10, 1],
      ],
    },
    skew: { num: [25], den: [1, 10, 10, 10], sigma: -1 },
    discrete: { num: [0.5], den: [1, -0.5], Ts: 0.1 },
    unstable: { num: [1], den: [1, -1] },
  },
  diskmargin_io: {
    siso: { sys1: { num: [25], den: [1, 10, 10, 10] }, sys2: 1 },
    mimo: {
      sys1: {
        A: [
          [0, 10],
          [-10, 0],
        ],
        B: I2,
        C: [
          [1, 10],
          [-10, 1],
        ],
      },
      sys2: {
        D: [
          [1, -2],
          [0, 1],
        ],
      },
    },
  },
  connect: {
    // MATLAB's connect example: G = 1/(s+1) with u -> y, C = (2s+1)/s with e -> u, e = r - y
    siso: {
      blocks: [
        { sys: G1, inputName: ['u'], outputName: ['y'] },
        { sys: { num: [2, 1], den: [1, 0] }, inputName: ['e'], outputName: ['u'] },
      ],
      sums: ['e = r - y'],
      inputs: ['r'],
      outputs: ['y'],
    },
    mimo: {
      blocks: [
        { sys: MIMO, inputName: ['u1', 'u2'], outputName: ['y1', 'y2'] },
        { sys: 2, inputName: ['e1'], outputName: ['u1'] },
        { sys: 3, inputName: ['e2'], outputName: ['u2'] },
      ],
      sums: ['e1 = r1 - y1', 'e2 = r2 - y2'],
      inputs: ['r1', 'r2'],
      outputs: ['y1', 'y2'],
    },
  },
  lft: {
    siso: {
      sys1: {
        A: [
          [0, 1],
          [0, -1],
        ],
        B: [
          [0, 0],
          [0, 1],
        ],
        C: [
          [1, 0],
          [-1, 0],
        ],
        D: [
          [0, 0],
          [1, 0],
        ],
      },
      sys2: 10,
    },
    mimo: { sys1: MIMO, sys2: 0.5, nu: 1, ny: 1 },
    upper: { sys1: MIMO, sys2: 0.5, form: 'upper', nu: 1, ny: 1 },
  },
});

/** tools that refuse a model with several inputs or outputs, by design (said, never thrown as an internal error) */
const SISO_ONLY = new Set(['pidtune', 'leadlag', 'margins', 'stepinfo', 'rlocus', 'nyquist', 'bandwidth', 'stability_margins']);

const FORBIDDEN = ['internal error', 'NaN', 'undefined', '[object Object]'];

test('every tool in the table has argument sets here (siso always, mimo where it takes a system)', () => {
  for (const tool of TOOLS) {
    assert.ok(SETS[tool.name]?.siso, `no SISO argument set for ${tool.name}`);
    const takesSystem = ['B', 'C', 'G'].some((k) => k in tool.parameters.properties);
    if (takesSystem && !SISO_ONLY.has(tool.name)) assert.ok(SETS[tool.name].mimo, `no MIMO argument set for ${tool.name}`);
  }
});

test('every tool result renders in Markdown and plain text without throwing, internal errors, NaN, undefined or [object Object]', async () => {
  const problems: string[] = [];
  let rendered = 0;
  for (const tool of TOOLS) {
    for (const [kind, raw] of Object.entries(SETS[tool.name] ?? {})) {
      const where = `${tool.name} (${kind})`;
      let args: Record<string, any>, result: Record<string, any>, v: ReturnType<typeof verify>;
      try {
        ({ args } = prepareArgs(tool.name, raw));
        result = tool.run(args);
        v = verify(tool.name, args, result);
      } catch (e) {
        problems.push(`${where}: ${isControlError(e) ? 'refused' : 'threw'}: ${(e as Error).message}`);
        continue;
      }
      if (v && !v.ok) problems.push(`${where}: the verifier rejects a correct result: ${JSON.stringify(v.checks)}`);
      for (const math of [true, false]) {
        try {
          const md = renderToolResult(tool.name, args, result, v, { math });
          if (!md.trim()) problems.push(`${where}, math: ${math}: empty`);
          for (const bad of FORBIDDEN) if (md.includes(bad)) problems.push(`${where}, math: ${math}: contains "${bad}":\n${md}`);
          rendered++;
        } catch (e) {
          problems.push(`${where}, math: ${math}: the renderer threw ${(e as Error).message}`);
        }
      }
      try {
        for (const c of resultCharts(tool.name, args, result)) if (/NaN|undefined/.test(c.svg)) problems.push(`${where}: chart ${c.caption} has NaN/undefined`);
      } catch (e) {
        problems.push(`${where}: the charts threw ${(e as Error).message}`);
      }
      // the MCP / language-model tool path: a result, never "internal error"
      const r = await invokeTool(tool.name, raw);
      if (!r.ok) problems.push(`${where}: MCP path refused: ${r.reason}`);
    }
  }
  assert.deepEqual(problems, []);
  assert.ok(rendered >= 2 * 60, `only ${rendered} renderings`);
});

test('SISO-only tools refuse a 2x2 model with a reason, never an internal error', async () => {
  for (const name of SISO_ONLY) {
    const r = await invokeTool(name, MIMO);
    assert.equal(r.ok, false, name);
    if (!r.ok) {
      assert.match(r.reason, /SISO|2 inputs and 2 outputs/, name);
      assert.ok(!r.reason.includes('internal error'), r.reason);
    }
  }
});

/** the rows of each "| ω | magnitude | phase |" table in a rendering */
function tables(md: string): string[][] {
  const out: string[][] = [];
  let cur: string[] | undefined;
  for (const line of md.split('\n')) {
    if (line.startsWith('| ω')) out.push((cur = []));
    else if (cur && /^\| \d/.test(line)) cur.push(line);
    else if (!line.startsWith('|')) cur = undefined;
  }
  return out;
}

test('MIMO freqresp: one table per output ← input pair, each exactly the SISO rendering of that channel', () => {
  for (const extra of [
    {},
    {
      Ts: 0.1,
      A: [
        [0.9, 0.1],
        [-0.1, 0.8],
      ],
    },
  ]) {
    const raw = { ...MIMO, ...extra, w: [0.1, 0.5, 1, 2, 10] };
    const { tool, args } = prepareArgs('freqresp', raw);
    const r = tool.run(args);
    const v = verify('freqresp', args, r);
    assert.ok(v?.ok, `the MIMO check passes: ${JSON.stringify(v?.checks)}`);
    for (const math of [true, false]) {
      const md = renderToolResult('freqresp', args, r, v, { math });
      assert.match(md, /2 inputs and 2 outputs/);
      assert.match(md, /✔ Verified/);
      const got = tables(md);
      assert.equal(got.length, 4, md);
      let k = 0;
      for (let i = 0; i < 2; i++)
        for (let j = 0; j < 2; j++, k++) {
          assert.ok(md.includes(`y${i + 1} ← u${j + 1}`), `pair y${i + 1} ← u${j + 1} is named`);
          const channel = { ...raw, B: raw.B.map((row) => [row[j]]), C: [raw.C[i]], D: [[raw.D[i][j]]] };
          const s = prepareArgs('freqresp', channel);
          const sr = s.tool.run(s.args);
          assert.deepEqual(got[k], tables(renderToolResult('freqresp', s.args, sr, undefined, { math }))[0], `y${i + 1} ← u${j + 1}`);
        }
    }
  }
});

test('freqresp: a channel with no path says so; a frequency on a pole shows ∞ and no phase, with the reason', () => {
  const diag = prepareArgs('freqresp', {
    A: [
      [-1, 0],
      [0, -2],
    ],
    B: I2,
    C: I2,
    w,
  });
  const md = renderToolResult('freqresp', diag.args, diag.tool.run(diag.args), undefined, { math: false });
  assert.match(md, /y1 ← u2.*H = 0 at every frequency/s);
  const pole = prepareArgs('freqresp', {
    A: [
      [0, 1],
      [0, 0],
    ],
    B: B1,
    C: C1,
    w: [0, 1],
  });
  const pr = pole.tool.run(pole.args);
  const v = verify('freqresp', pole.args, pr);
  assert.ok(v?.ok, JSON.stringify(v?.checks));
  const pm = renderToolResult('freqresp', pole.args, pr, v, { math: false });
  assert.match(pm, /\| 0 \| ∞ \| – \|/);
  assert.match(pm, /pole/);
});

test('the design report charts a MIMO frequency response, one curve per pair', () => {
  const { tool, args } = prepareArgs('freqresp', { ...MIMO, w });
  const charts = resultCharts('freqresp', args, tool.run(args));
  assert.equal(charts.length, 2);
  for (const c of charts) {
    assert.equal((c.svg.match(/<path /g) ?? []).length, 4, c.caption);
    assert.ok(c.svg.includes('y2 ← u1'), c.caption);
  }
});
