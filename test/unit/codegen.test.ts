import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectTurn, runTurn } from '../../src/core/agent/turn.js';
import { TurnLog } from '../../src/core/codegen/trace.js';
import { buildReport, markdownToHtml } from '../../src/core/codegen/report.js';
import type { TurnEvent } from '../../src/core/agent/events.js';
import { CODEGEN_TOOLS, canReproduce, reproduce, type CodeLanguage } from '../../src/core/codegen/index.js';
import { complexNum, grid, matrix, num } from '../../src/core/codegen/literals.js';
import { findAssignments, parseMatrixLiteral } from '../../src/core/parse/index.js';
import { runTool } from '../../src/core/tools/call.js';
import { verify } from '../../src/core/verify/index.js';
import type { Matrix } from '../../src/core/types.js';

const LANGS: CodeLanguage[] = ['matlab', 'python'];

/** the tool calls of a turn with their results, as the chat sees them */
async function calls(command: string, prompt: string) {
  const events: TurnEvent[] = await collectTurn({ prompt, command });
  const args = new Map<string, Record<string, unknown>>();
  const out: { tool: string; args: Record<string, any>; result?: Record<string, any>; verification?: any }[] = [];
  for (const e of events) {
    if (e.type === 'tool_call') args.set(e.id, e.args);
    if (e.type === 'tool_result') out.push({ tool: e.tool, args: args.get(e.id)!, result: e.result, verification: e.verification });
  }
  return out;
}

function solved(tool: string, args: Record<string, any>) {
  const result = runTool(tool, args);
  return { tool, args, result, verification: verify(tool, args, result) };
}

/** the assignments of a generated snippet, by name (comments are not code: dropped first) */
function assigned(code: string, lang: CodeLanguage): Map<string, Matrix> {
  const c = lang === 'matlab' ? '%' : '#';
  const body = code
    .split('\n')
    .map((l) => (l.trimStart().startsWith(c) ? '' : l.replace(new RegExp(`\\s+${c} .*$`), '')))
    .join('\n');
  const out = new Map<string, Matrix>();
  for (const a of findAssignments(body)) if (a.value && !a.error) out.set(a.name, a.value);
  return out;
}

/** the value of `name = ...` in the comparison comment, read back with our parser */
function commented(code: string, name: string, lang: CodeLanguage): Matrix {
  const c = lang === 'matlab' ? '%' : '#';
  const line = code.split('\n').find((l) => l.startsWith(`${c}   ${name} = `));
  assert.ok(line, `no comment line for ${name} in\n${code}`);
  return parseMatrixLiteral(line.slice(`${c}   ${name} = `.length));
}

const AWKWARD = [
  [0.1 + 0.2, 1 / 3, -2.5e17],
  [1e-300, -Math.PI, 123456789.12345679],
  [Math.SQRT2, -0.000123456789012345, 7],
];

test('literals: every double round-trips through our parser exactly, in both languages', () => {
  for (const lang of LANGS) {
    assert.deepEqual(parseMatrixLiteral(matrix(AWKWARD, lang)), AWKWARD, lang);
    const big = Array.from({ length: 7 }, (_, i) => Array.from({ length: 7 }, (_, j) => (i + 1) / (j + 3) - j * 1e-7));
    const text = matrix(big, lang);
    assert.ok(text.includes('\n'), 'a 7 x 7 matrix is written one row per line');
    assert.deepEqual(parseMatrixLiteral(text), big, `${lang} multi-line`);
  }
  assert.equal(num(Infinity, 'matlab'), 'Inf');
  assert.equal(num(-Infinity, 'python'), '-np.inf');
  assert.equal(num(-0, 'python'), '0');
  assert.equal(complexNum([-1, 2], 'matlab'), '-1+2i');
  assert.equal(complexNum([-1, -2], 'python'), '(-1-2j)');
  assert.equal(complexNum([0, 3], 'matlab'), '3i');
});

test('grids are written as linspace/logspace when they are one, else as literals', () => {
  const lin = Array.from({ length: 101 }, (_, i) => i * 0.05);
  assert.equal(grid(lin, 'matlab'), 'linspace(0, 5, 101)');
  const log = Array.from({ length: 50 }, (_, i) => 10 ** (-2 + (4 * i) / 49));
  assert.equal(grid(log, 'python'), 'np.logspace(-2, 2, 50)');
  const odd = [0, 0.1, 0.5, 2];
  assert.deepEqual(parseMatrixLiteral(grid(odd, 'python')), [odd]);
});

test('lqr: the call as each tool writes it, arguments and result parse back to the same numbers', () => {
  const r = solved('lqr', {
    A: [
      [0, 1],
      [-2, -3],
    ],
    B: [[0], [1]],
    Q: [
      [1, 0],
      [0, 1],
    ],
    R: [[1]],
  });
  const m = reproduce(r, 'matlab');
  assert.match(m, /^\[K, S, P\] = lqr\(A, B, Q, R\);/m);
  const p = reproduce(r, 'python');
  assert.match(p, /^import control as ct$/m);
  assert.match(p, /^K, S, E = ct\.lqr\(A, B, Q, R\)/m);
  for (const [lang, code] of [
    ['matlab', m],
    ['python', p],
  ] as const) {
    const vars = assigned(code, lang);
    for (const k of ['A', 'B', 'Q', 'R']) assert.deepEqual(vars.get(k), r.args[k], `${lang} ${k}`);
    assert.deepEqual(commented(code, 'K', lang), r.result.K, `${lang} K in the comment`);
    assert.deepEqual(commented(code, 'X', lang), r.result.X);
    assert.match(code, /@control result, verified/);
  }
});

test('lqr with a cross weight N passes N; dlqr calls dlqr', () => {
  const a = {
    A: [
      [1, 0.1],
      [0, 1],
    ],
    B: [[0], [0.1]],
    Q: [
      [1, 0],
      [0, 1],
    ],
    R: [[1]],
    N: [[0.1], [0]],
  };
  assert.match(reproduce(solved('lqr', a), 'matlab'), /lqr\(A, B, Q, R, N\)/);
  assert.match(reproduce(solved('dlqr', a), 'python'), /K, S, E = ct\.dlqr\(A, B, Q, R, N\)/);
});

test('Lyapunov: MATLAB lyap(A, Q) as ours, SciPy with -Q', () => {
  const r = solved('lyap', {
    A: [
      [-1, 2],
      [0, -3],
    ],
    Q: [
      [1, 0],
      [0, 1],
    ],
  });
  assert.match(reproduce(r, 'matlab'), /^X = lyap\(A, Q\);/m);
  const p = reproduce(r, 'python');
  assert.match(p, /^X = solve_continuous_lyapunov\(A, -Q\)/m);
  assert.match(p, /^from scipy\.linalg import solve_continuous_lyapunov$/m);
  assert.deepEqual(commented(p, 'X', 'python'), r.result.X);
  const d = solved('dlyap', {
    A: [
      [0.5, 0.1],
      [0, 0.2],
    ],
    Q: [
      [1, 0],
      [0, 1],
    ],
  });
  assert.match(reproduce(d, 'python'), /^X = solve_discrete_lyapunov\(A, Q\)/m);
  assert.match(reproduce(d, 'matlab'), /^X = dlyap\(A, Q\);/m);
});

test('c2d: zoh as given; tustin is SciPy/python-control "bilinear" and says the coordinates may differ', () => {
  const a = {
    A: [
      [0, 1],
      [-2, -3],
    ],
    B: [[0], [1]],
    C: [[1, 0]],
    Ts: 0.1,
  };
  const z = solved('c2d', { ...a, method: 'zoh' });
  const m = reproduce(z, 'matlab');
  assert.match(m, /^sysd = c2d\(sysc, Ts, 'zoh'\);/m);
  assert.match(m, /^sysc = ss\(A, B, C, D\);/m);
  assert.deepEqual(assigned(m, 'matlab').get('D'), [[0]], 'D = zeros when not given');
  assert.deepEqual(commented(m, 'Ad', 'matlab'), z.result.Ad);
  const t = reproduce(solved('c2d', { ...a, method: 'tustin' }), 'python');
  assert.match(t, /ct\.c2d\(sysc, Ts, method='bilinear'\)/);
  assert.match(t, /similarity transform/);
});

test('place: same sign convention, complex poles as complex literals', () => {
  const r = solved('place', {
    A: [
      [0, 1],
      [0, 0],
    ],
    B: [[0], [1]],
    poles: [
      [-1, 2],
      [-1, -2],
    ],
  });
  const m = reproduce(r, 'matlab');
  assert.match(m, /^p = \[-1\+2i, -1-2i\];/m);
  assert.match(m, /^K = place\(A, B, p\);/m);
  const p = reproduce(r, 'python');
  assert.match(p, /^p = \[\(-1\+2j\), \(-1-2j\)\]/m);
  assert.match(p, /^K = ct\.place\(A, B, p\)/m);
  assert.deepEqual(commented(p, 'K', 'python'), r.result.K);
});

test('kalman: continuous as lqe; discrete through kalman(ss(..., Ts)) and dlqe', () => {
  const a = {
    A: [
      [1, 0.1],
      [0, 1],
    ],
    G: [[0], [1]],
    C: [[1, 0]],
    Qn: [[1]],
    Rn: [[1]],
  };
  assert.match(reproduce(solved('kalman', a), 'matlab'), /^\[L, P, E\] = lqe\(A, G, C, Qn, Rn\);/m);
  const d = solved('kalman', { ...a, Ts: 0.1 });
  assert.match(reproduce(d, 'matlab'), /^\[kest, L, P, M, Z\] = kalman\(sys, Qn, Rn\);/m);
  const p = reproduce(d, 'python');
  assert.match(p, /^L, P, E = ct\.dlqe\(A, G, C, Qn, Rn\)/m);
  assert.deepEqual(commented(p, 'L', 'python'), d.result.L);
});

test('margins: infinite and undefined results are written as each language spells them', () => {
  const r = solved('margins', { num: [1], den: [1, 3, 3, 1] });
  const m = reproduce(r, 'matlab');
  assert.match(m, /^L = tf\(num, den\);/m);
  assert.match(m, /^\[Gm, Pm, Wcg, Wcp\] = margin\(L\);/m);
  assert.match(m, /^% {3}gm = 8$/m);
  assert.match(m, /^% {3}pm_deg = Inf$/m);
  assert.match(reproduce(r, 'python'), /^# {3}w_gc = np\.nan$/m);
});

test('step, bode and stepinfo turns: every result of the turn has code in both languages', async () => {
  const all = [
    ...(await calls('step', 'num=[1], den=[1 2 1]')),
    ...(await calls('bode', 'num=[1], den=[1 2 1]')),
    ...(await calls('impulse', 'A=[0.5 0; 0 0.2], B=[1;1], C=[1 1], D=0, Ts=0.1')),
  ];
  const tools = all.map((c) => c.tool);
  for (const t of ['tf2ss', 'step', 'stepinfo', 'freqresp', 'margins', 'impulse']) assert.ok(tools.includes(t), `${t} in ${tools}`);
  for (const c of all) for (const lang of LANGS) assert.ok(reproduce(c, lang).length > 50);
  const step = all.find((c) => c.tool === 'step')!;
  assert.match(reproduce(step, 'matlab'), /^t = linspace\(0, \d+(\.\d+)?, \d+\);$/m);
  assert.match(reproduce(step, 'python'), /ct\.step_response\(sys, T=t\)\.outputs/);
  const imp = all.find((c) => c.tool === 'impulse')!;
  assert.match(reproduce(imp, 'matlab'), /impulse\(sys, t\) \* sys\.Ts/, 'MATLAB scales the discrete pulse by 1/Ts');
  assert.match(reproduce(imp, 'python'), /impulse_response\(sys, T=t\)\.outputs \* sys\.dt/, 'python-control too');
  assert.match(reproduce(imp, 'matlab'), /^sys = ss\(A, B, C, D, 0\.1\);/m);
  const fr = all.find((c) => c.tool === 'freqresp')!;
  assert.match(reproduce(fr, 'python'), /^w = np\.logspace\(/m);
});

test('every tool with a generator writes code from a real turn, and the matrices read back', async () => {
  const prompts: [string, string][] = [
    ['lqr', 'A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1'],
    ['dlqr', 'A=[1 0.1; 0 1], B=[0;0.1], Q=eye(2), R=1'],
    ['care', 'A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1'],
    ['dare', 'A=[1 0.1; 0 1], B=[0;0.1], Q=eye(2), R=1'],
    ['lqe', 'A=[0 1; -2 -3], G=[0;1], C=[1 0], Qn=1, Rn=1'],
    ['kalman', 'A=[1 0.1; 0 1], G=[0;1], C=[1 0], Qn=1, Rn=1, Ts=0.1'],
    ['place', 'A=[0 1; 0 0], B=[0;1], poles=[-1 -2]'],
    ['lyap', 'A=[-1 2; 0 -3], Q=eye(2)'],
    ['dlyap', 'A=[0.5 0; 0 0.2], Q=eye(2)'],
    ['sylvester', 'A=[-1 0; 0 -2], Bs=[-3], Cs=[1; 1]'],
    ['bandwidth', 'num=[1], den=[1 1]'],
    ['sigma', 'A=[-1 0; 0 -2], B=[1 0; 0 1], C=[1 1; 0 1]'],
    ['stability_margins', 'num=[25], den=[1 10 10 10]'],
    ['ctrbf', 'A=[1 1; 4 -2], B=[1 -1; 1 -1], C=[1 0; 0 1]'],
    ['obsvf', 'A=[1 1; 4 -2], B=[1; 1], C=[1 -1]'],
    ['kalman_decomp', 'A=[-1 0 0; 0 -2 0; 0 0 -3], B=[1; 1; 0], C=[1 0 1]'],
    ['canon', 'A=[0 1 0; 0 0 1; -10 -8 -3], B=[0; 0; 1], C=[1 0 0]'],
    ['ss2ss', 'A=[0 1; -2 -3], B=[0; 1], C=[1 0], T=[1 1; 0 1]'],
    ['tzero', 'A=[-1 0; 0 -2], B=[1; 0], C=[1 1], D=0'],
    ['pade', 'num=[1], den=[1 1], T=0.5, N=3'],
    ['thiran', 'tau=2.4, Ts=1'],
    ['dsylvester', 'A=[0.5 0; 0 0.2], Bs=[0.3], Cs=[1; 1]'],
    ['lyapchol', 'A=[-1 2; 0 -3], B=[1; 1]'],
    ['dlyapchol', 'A=[0.5 0.1; 0 0.8], B=[1; 1]'],
    ['c2d', 'A=[0 1; -2 -3], B=[0;1], C=[1 0], Ts=0.1'],
    ['d2c', 'A=[0.9 0.1; 0 0.8], B=[0;0.1], C=[1 0], Ts=0.1'],
    ['d2d', 'A=[0.9 0.1; 0 0.8], B=[0;0.1], C=[1 0], Ts=0.1, newTs=0.3'],
    ['evalfr', 'num=[1 2], den=[1 3 2], s=[1, 1]'],
    ['margins', 'num=[1], den=[1 3 3 1]'],
    ['analyse', 'A=[0 1; -2 -3], B=[0;1], C=[1 0]'],
    ['tf2ss', 'num=[1 2], den=[1 3 2]'],
    ['ss2tf', 'A=[0 1; -2 -3], B=[0;1], C=[1 0]'],
    ['poles_zeros', 'num=[1 2], den=[1 3 2]'],
    ['dcgain', 'A=[0 1; -2 -3], B=[0;1], C=[1 0]'],
    ['h2norm', 'A=[0 1; -2 -3], B=[0;1], C=[1 0]'],
    ['hinfnorm', 'A=[0 1; -2 -3], B=[0;1], C=[1 0]'],
    ['eig', 'A=[0 1; -2 -3]'],
    ['ctrb_rank', 'A=[0 1; -2 -3], B=[0;1]'],
    ['obsv_rank', 'A=[0 1; -2 -3], C=[1 0]'],
    ['damp', 'A=[0 1; -4 -0.8]'],
    ['damp', 'H(z) = 1/(z^2 - 1.5z + 0.7), Ts=0.1'],
    ['lsim', 'A=[0 1; -2 -3], B=[0;1], C=[1 0], u=[0 1 2 3], t=[0 0.5 1 1.5]'],
    ['initial', 'A=[0 1; -4 -0.4], C=[1 0], x0=[1; 0]'],
    ['series', 'G1 = 1/(s+1), G2 = 2/(s+3)'],
    ['parallel', 'G1 = 1/(s+1), G2 = 1/(s+2)'],
    ['feedback', 'G = 1/(s^2 + 2s + 1)'],
    ['append', 'G1 = 1/(s+1), G2 = 2/(s+3)'],
    ['minreal', 'num=[1 1], den=[1 3 2]'],
    ['minreal', 'A=[-1 0; 0 -2], B=[1; 0], C=[1 1]'],
    ['gram', "A=[-1 0; 1 -2], B=[1; 0], type='c'"],
    ['hsvd', 'A=[-1 0 0; 0 -2 0; 0 0 -30], B=[1;1;1], C=[1 1 1]'],
    ['balreal', 'A=[-1 0 0; 0 -2 0; 0 0 -30], B=[1;1;1], C=[1 1 1]'],
    ['balred', 'A=[-1 0 0; 0 -2 0; 0 0 -30], B=[1;1;1], C=[1 1 1], order=2'],
    ['modred', 'A=[-1 0 0; 0 -2 0; 0 0 -30], B=[1;1;1], C=[1 1 1], elim=[3]'],
    ['zpk', 'num=[1 2], den=[1 3 2]'],
    ['zpk2tf', 'z=[-1], p=[-2, -3], k=5'],
    ['zpk2ss', 'z=[-1], p=[-2, -3], k=5'],
    ['diskmargin', 'num=[25], den=[1 10 10 10]'],
    ['diskmargin_io', 'diskmargin(P, K) with P = ss([0 10; -10 0], eye(2), [1 10; -10 1], 0) and K = [1 -2; 0 1]'],
    [
      'connect',
      "G = tf(1, [1 1]); G.InputName = 'u'; G.OutputName = 'y'; C = tf([2 1], [1 0]); C.InputName = 'e'; C.OutputName = 'u'; S = sumblk('e = r - y'); T = connect(G, C, S, 'r', 'y')",
    ],
    ['lft', 'lft(P, K) with P = ss([0 1; 0 -1], [0 0; 0 1], [1 0; -1 0], [0 0; 1 0]) and K = 10'],
    ['pidtune', 'num=[1], den=[1 3 3 1], type=PI, wc=0.5205'],
    ['leadlag', 'num=[4], den=[1 2 0], kind=lead, pm=50, Kv=20'],
    ['lqi', 'A=[0 1; 0 -1], B=[0;1], C=[1 0], Q=diag([1 1 10]), R=1'],
    ['find_eqpt', "equilibrium of x1' = x2; x2' = -9.81*sin(x1) - 0.5*x2 + u with u0 = 2 from x0 = [0; 0]"],
    ['linearize', "linearize x1' = x2; x2' = -g/l*sin(x1) - b*x2 + u with g = 9.81, l = 1, b = 0.1 about x = [pi; 0]"],
    ['nlsim', "simulate x1' = x2; x2' = -9.81*sin(x1) - 0.1*x2 from x0 = [0.5; 0] for 10 s"],
    ['lyapunov_check', "region of attraction of x1' = -x2; x2' = x1 + (x1^2 - 1)*x2 at the origin with radius 3"],
    ['cbf_filter', "CBF safety filter for x1' = u1; x2' = u2 with barrier h = x1^2 + x2^2 - 1 and nominal u = [2 - x1; -x2] from x0 = [-3; 0.5] for 10 s"],
    ['lqry', 'A=[0 1; -2 -3], B=[0;1], C=[1 0], Q=10, R=1'],
    ['estim', 'A=[0 1; -2 -3], B=[0;1], C=[1 0], L=[8;4]'],
    ['reg', 'A=[0 1; -2 -3], B=[0;1], C=[1 0], K=[4 2], L=[8;4]'],
    ['lqg', 'A=[0 1; -2 -3], B=[0;1], C=[1 0], QXU=eye(3), QWV=diag([1 1 0.1]), Ts=0.1, type=current'],
    ['place_observer', 'A=[0 1; -2 -3], C=[1 0], poles=[-5 -6]'],
    ['wls_alloc', 'B=[1 1 0; 0 1 1], v=[3; 0.5], umin=[-1 -1 -1], umax=[1 1 1]'],
    ['mpc', 'MPC for A=[1 1;0 1], B=[0.5;1], horizon 10, |u| <= 1, x0=[5;0]'],
    ['mpc', 'model predictive control of G(s)=1/(s(s+1)) with Ts=0.1, N=20, input between -2 and 2'],
  ];
  const seen = new Set<string>();
  for (const [cmd, prompt] of prompts) {
    const cs = await calls(cmd, prompt);
    assert.ok(cs.length, `${cmd}: no tool call`);
    for (const c of cs) {
      assert.ok(c.result, `${c.tool} refused: ${JSON.stringify(c)}`);
      assert.ok(canReproduce(c.tool), `${c.tool} has no generator`);
      seen.add(c.tool);
      for (const lang of LANGS) {
        const code = reproduce(c, lang);
        const vars = assigned(code, lang);
        for (const k of ['A', 'B', 'C', 'Q', 'R', 'G']) {
          if (Array.isArray(c.args[k]) && Array.isArray(c.args[k][0]) && vars.has(k)) assert.deepEqual(vars.get(k), c.args[k], `${c.tool} ${lang} ${k}`);
        }
        // the interconnections write each system's literals as num1, den1 or A1, B1, …
        // (a tool of a delay alone, pade(T, N) or thiran(tau, Ts), has no system to write)
        if (['A', 'num', 'sys1', 'systems'].some((k) => c.args[k] !== undefined))
          assert.ok(
            [...vars.keys()].some((k) => /^(A|num|D)\w*$/.test(k)),
            `${c.tool} ${lang}: no system written:\n${code}`,
          );
        assert.match(code, /@control result/);
      }
    }
  }
  const missing = CODEGEN_TOOLS.filter((t) => !seen.has(t) && !['step', 'impulse', 'stepinfo', 'freqresp'].includes(t));
  assert.deepEqual(missing, []);
});

test('an unverified or failed result says so; a tool without a generator is refused', () => {
  const r = solved('lqr', {
    A: [
      [0, 1],
      [-2, -3],
    ],
    B: [[0], [1]],
    Q: [
      [1, 0],
      [0, 1],
    ],
    R: [[1]],
  });
  assert.match(reproduce({ ...r, verification: { ok: false, checks: [{ name: 'x', ok: false, detail: 'bad' }] } }, 'python'), /VERIFICATION FAILED/);
  assert.match(reproduce({ ...r, verification: undefined }, 'python'), /not independently verified/);
  assert.match(reproduce({ tool: 'lqr', args: r.args }, 'matlab'), /^\[K, S, P\] = lqr/m);
  assert.throws(() => reproduce({ tool: 'rlocus', args: {} }, 'matlab'), /no code generator for rlocus/);
});

// ------------------------------------------------------------------ design report, turn log

async function logged(log: TurnLog, command: string, prompt: string): Promise<TurnEvent[]> {
  const seen: TurnEvent[] = [];
  for await (const e of log.record(runTurn({ prompt, command }), prompt, command)) seen.push(e);
  return seen;
}

test('the turn log passes events through unchanged and keeps only the last N turns', async () => {
  const log = new TurnLog(2);
  const seen = await logged(log, 'lqr', 'A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1');
  assert.deepEqual(log.turns()[0].events, seen);
  await logged(log, 'eig', 'A=[0 1; -2 -3]');
  await logged(log, 'margins', 'num=[1], den=[1 3 3 1]');
  assert.deepEqual(
    log.turns().map((t) => t.command),
    ['eig', 'margins'],
  );
});

test('design report: Markdown with problem, result and verification; self-contained HTML with matrix tables; JSONL trace', async () => {
  const log = new TurnLog();
  await logged(log, 'lqr', 'A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1');
  await logged(log, 'margins', 'num=[1], den=[1 3 3 1]');
  await logged(log, 'lqr', 'A=[1 0; 0 -1], B=[0;1], Q=eye(2), R=1'); // refused: not stabilisable
  const r = buildReport(log.turns(), new Date(2026, 4, 1, 12, 0))!;
  assert.equal(r.base, '2026-05-01-lqr-margins');
  assert.match(r.markdown, /^# Control design report: lqr, margins$/m);
  assert.match(r.markdown, /^## 1\. \/lqr A=\[0 1; -2 -3\]/m);
  assert.match(r.markdown, /```matlab\nA = \[0 1; -2 -3\];\nB = \[0; 1\];/);
  assert.match(r.markdown, /^- ✔ Riccati residual/m);
  assert.match(r.markdown, /Cannot solve.*stabilisable/);
  // HTML: no scripts, no external resources, matrices as tables
  assert.doesNotMatch(r.html, /<script|<link|src=|https?:\/\//i);
  assert.match(r.html, /<table class="matrix"><tr><td>0\.236068<\/td><td>0\.236068<\/td><\/tr><\/table>/);
  assert.match(r.html, /<h2>1\. \/lqr A=\[0 1; -2 -3\]/);
  // JSONL: a header per turn, then the events, non-finite numbers as strings
  const lines = r.jsonl
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    lines.filter((l) => l.type === 'turn').map((l) => l.turn),
    [1, 2, 3],
  );
  const lqr = lines.find((l) => l.type === 'tool_result' && l.tool === 'lqr');
  assert.equal(lqr.result.K[0][1], 0.2360679774997897);
  const margins = lines.find((l) => l.type === 'tool_result' && l.tool === 'margins');
  assert.equal(margins.result.pm_deg, 'Infinity');
  assert.equal(buildReport([]), undefined);
});

test('the Markdown subset becomes HTML: tables, aligned matrices, escaping', () => {
  const html = markdownToHtml('**X** =\n\n```text\n 1  -2.5\n 3  4e-7\n```\n\n| a | b |\n|---|---:|\n| <x> | 1 |\n\n- one\n- `two`');
  assert.match(html, /<table class="matrix"><tr><td>1<\/td><td>-2\.5<\/td><\/tr><tr><td>3<\/td><td>4e-7<\/td><\/tr><\/table>/);
  assert.match(html, /<td>&lt;x&gt;<\/td><td class="num">1<\/td>/);
  assert.match(html, /<li><code>two<\/code><\/li>/);
});

test('insert guard: secrets by name, files.exclude patterns, nested .gitignore files', async () => {
  const { secretReason, excludedBy, gitIgnored } = await import('../../src/core/codegen/guard.js');
  for (const p of ['.env', '.env.local', 'config/.env.production', 'certs/server.pem', 'tls.key', 'id_rsa', 'id_rsa.pub', 'keys/id_ed25519'])
    assert.ok(secretReason(p), `${p} is a secret`);
  for (const p of ['pendulum.m', 'src/motor.py', 'environment.py', 'keyboard.py', 'monkey.m']) assert.equal(secretReason(p), undefined, p);
  assert.equal(excludedBy('build/gen.py', { '**/build': true }), '**/build');
  assert.equal(excludedBy('a/.git/x.py', { '**/.git': true }), '**/.git');
  assert.equal(excludedBy('src/a.py', { '**/build': true, 'src/*.py': false }), undefined);
  const gi = [
    { dir: '', text: 'build/\n*.log\n' },
    { dir: 'sub', text: 'gen_*.m\n' },
  ];
  assert.ok(gitIgnored('build/x.py', gi));
  assert.ok(gitIgnored('sub/gen_model.m', gi));
  assert.ok(!gitIgnored('gen_model.m', gi), 'sub/.gitignore applies under sub/ only');
  assert.ok(!gitIgnored('src/motor.py', gi));
});
