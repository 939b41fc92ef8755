#!/usr/bin/env python3
"""Independent expected values for ControlBench's conversation families (issue 15, item 2):
`followup`, `typos_units`, `ask_back` and `design_spec` (benchmarks/questions_turns.mjs).

No number here comes from our solver. Each is recomputed with numpy, scipy 1.17, python-control
0.10.2 and sympy by a route of its own, most of them by two routes that must agree:

    python3 benchmarks/turns_ref.py        # rewrites benchmarks/turns_ref.json

Routes:
- lqr / dlqr / lqi: scipy.linalg.solve_continuous_are / solve_discrete_are, K = R^-1 B'X
  (discrete (R + B'XB)^-1 B'XA), against python-control's lqr / dlqr (u = -Kx, MATLAB's sign).
- kalman (continuous): the dual Riccati equation by scipy, L = P C' Rn^-1, against ct.lqe.
- place / place_observer: Ackermann's formula in exact arithmetic (sympy), against ct.place.
- c2d: zero-order hold by the matrix exponential of [[A, B], [0, 0]] (scipy.linalg.expm) against
  scipy.signal.cont2discrete and ct.sample_system; Tustin by the bilinear map
  Ad = (I + A T/2)(I - A T/2)^-1 (state space) or scipy.signal.bilinear (transfer function),
  against ct.sample_system(..., 'tustin'). Transfer functions are normalised to a monic
  denominator (MATLAB's and python-control's c2d output).
- margins: |L(jw)| = 1 and angle L(jw) = -180 deg located on a dense logarithmic grid and refined
  by brentq (discrete: L(e^{jwTs}), 0 < w < pi/Ts), against ct.margin. gm as a ratio, pm in degrees.
- step-response figures: y(t) = C A^-1 (e^{At} - I) B + D from the matrix exponential; rise time
  (10-90 %), settling time (last exit from the 2 % band) and the peak (dy/dt = C e^{At} B = 0) by
  brentq on a dense grid, against ct.step_info (which works on a sampled grid: 2 % there).
- step / impulse samples: the matrix exponential; freqresp: C (jwI - A)^-1 B + D or num/den at jw;
  dcgain: -C A^-1 B + D; bandwidth: brentq on |G(jw)| = |G(0)| 10^(-3/20) against ct.bandwidth;
  H2: sqrt(trace(C P C')) with P from the Lyapunov equation, against the integral of |G(jw)|^2;
  Hinf: the peak of sigma_max on a grid refined by minimize_scalar.
- pidtune: C(jwc) P(jwc) = exp(j(-180 deg + PM)) solved for the gains (PI, PD linear; PID with
  Ti = 4 Td by the quadratic in Td), as MATLAB's pidtune(G, type, wc, pidtuneOptions('PhaseMargin', pm));
  time-domain targets to (wc, pm) by the second-order prototype formulas the tool documents.
- leadlag: Ogata's procedure (sections 7-11, 7-12) with the conventions the tool documents, the
  lead angle solved by brentq so the achieved margin is the target.
- time-domain specifications: zeta = -ln Mp / sqrt(pi^2 + ln^2 Mp), wn = 4/(zeta ts) (2 %),
  discrete poles z = exp(s Ts).
"""
import json
import math
import os

import control as ct
import numpy as np
import scipy.linalg as la
import scipy.signal as sig
import sympy as sp

from _acker import acker_exact  # benchmarks/_acker.py, beside this script
from scipy.optimize import brentq, minimize_scalar

HERE = os.path.dirname(os.path.abspath(__file__))
M = lambda x: np.array(x, dtype=float)
OUT = {}


def close(a, b, rtol=1e-9, what=''):
    a, b = np.asarray(a), np.asarray(b)
    if not (np.iscomplexobj(a) or np.iscomplexobj(b)):
        a, b = a.astype(float), b.astype(float)
    assert np.allclose(a, b, rtol=rtol, atol=rtol * max(1.0, np.abs(b).max())), f'{what}: {a} vs {b}'


def record(key, **vals):
    d = OUT.setdefault(key, {})
    for k, v in vals.items():
        v = float(v)
        assert math.isfinite(v) and v != 0, f'{key}.{k} = {v}: a relative tolerance cannot score it'
        d[k] = v


def gains(prefix, K):
    K = np.atleast_2d(K)
    return {f'{prefix}{i}{j}': K[i, j] for i in range(K.shape[0]) for j in range(K.shape[1])}


def sorted_poles(z):
    return sorted(np.asarray(z, complex), key=lambda v: (round(v.real, 9), v.imag))


def poles_rec(z, prefix='p'):
    """real parts as signed values, imaginary parts of complex pairs as the positive value"""
    out = {}
    for i, v in enumerate(sorted_poles(z)):
        if abs(v.real) > 1e-12:
            out[f'{prefix}{i}_re'] = v.real
        if v.imag > 1e-12:
            out[f'{prefix}{i}_im'] = v.imag
    return out


# ───────────────────────────── LQ designs ─────────────────────────────
def lqr(A, B, Q, R):
    A, B, Q, R = M(A), M(B), M(Q), M(R)
    X = la.solve_continuous_are(A, B, Q, R)
    K = la.solve(R, B.T @ X)
    K2, _, _ = ct.lqr(A, B, Q, R)
    close(K, K2, rtol=1e-7, what='lqr scipy vs python-control')
    return K, X, np.linalg.eigvals(A - B @ K)


def dlqr(A, B, Q, R):
    A, B, Q, R = M(A), M(B), M(Q), M(R)
    X = la.solve_discrete_are(A, B, Q, R)
    K = la.solve(R + B.T @ X @ B, B.T @ X @ A)
    K2, _, _ = ct.dlqr(A, B, Q, R)
    close(K, K2, rtol=1e-7, what='dlqr scipy vs python-control')
    return K, X, np.linalg.eigvals(A - B @ K)


def lqi(A, B, C, Q, R):
    A, B, C = M(A), M(B), M(C)
    n, p = A.shape[0], C.shape[0]
    Aa = np.block([[A, np.zeros((n, p))], [-C, np.zeros((p, p))]])  # MATLAB lqi: xi' = r - y
    Ba = np.vstack([B, np.zeros((p, B.shape[1]))])
    return lqr(Aa, Ba, Q, R)


def kalman_c(A, G, C, Qn, Rn):
    A, G, C, Qn, Rn = M(A), M(G), M(C), M(Qn), M(Rn)
    P = la.solve_continuous_are(A.T, C.T, G @ Qn @ G.T, Rn)
    L = P @ C.T @ np.linalg.inv(Rn)
    L2, P2, _ = ct.lqe(A, G, C, Qn, Rn)
    close(L, L2, rtol=1e-7, what='kalman scipy vs ct.lqe')
    return L, P


def place(A, B, poles):
    K = acker_exact(A, B, poles)
    if len(set(np.round(poles, 9))) == len(poles):
        close(K, ct.place(M(A), M(B), poles), rtol=1e-7, what='Ackermann vs ct.place')
    close(sorted_poles(np.linalg.eigvals(M(A) - M(B) @ K)), sorted_poles(poles), rtol=1e-6, what='placed poles')
    return K


def place_observer(A, C, poles):
    return place(M(A).T.tolist(), M(C).T.tolist(), poles).T


def spec_pair(zeta, wn):
    return complex(-zeta * wn, wn * math.sqrt(1 - zeta ** 2))


def zeta_of_overshoot(Mp):
    return -math.log(Mp) / math.sqrt(math.pi ** 2 + math.log(Mp) ** 2)


# ───────────────────────────── models ─────────────────────────────
def tf2ss(num, den):
    """controllable canonical form, MATLAB's tf2ss layout (only invariants are scored)"""
    A, B, C, D = sig.tf2ss(num, den)
    return A, B, C, D


def H(num, den, s):
    return np.polyval(num, s) / np.polyval(den, s)


def Hss(A, B, C, D, s):
    A, B, C, D = M(A), M(B), M(C), M(D)
    return (C @ np.linalg.solve(s * np.eye(len(A)) - A, B) + D)[0, 0]


def dcgain_ss(A, B, C, D=0):
    A, B, C = M(A), M(B), M(C)
    g = (-C @ np.linalg.solve(A, B))[0, 0] + D
    close(g, ct.dcgain(ct.ss(A, B, C, D)), rtol=1e-9, what='dcgain')
    return g


def c2d_zoh_ss(A, B, Ts):
    A, B = M(A), M(B)
    n, m = B.shape
    E = la.expm(np.block([[A, B], [np.zeros((m, n + m))]]) * Ts)
    Ad, Bd = E[:n, :n], E[:n, n:]
    Ad2, Bd2, *_ = sig.cont2discrete((A, B, np.eye(n), np.zeros((n, m))), Ts, method='zoh')
    close(Ad, Ad2, what='zoh Ad')
    close(Bd, Bd2, what='zoh Bd')
    return Ad, Bd


def c2d_tf(num, den, Ts, method):
    """(numd, dend) normalised to a monic denominator; numd padded to the denominator's length"""
    if method == 'zoh':
        A, B, C, D = tf2ss(num, den)
        Ad, Bd = c2d_zoh_ss(A, B, Ts)
        nd, dd = sig.ss2tf(Ad, Bd, C, D)
        nd = nd[0]
    else:
        nd, dd = sig.bilinear(num, den, fs=1 / Ts)
    nd, dd = np.asarray(nd, float) / dd[0], np.asarray(dd, float) / dd[0]
    nd = np.concatenate([np.zeros(len(dd) - len(nd)), nd])
    ref = ct.sample_system(ct.tf(num, den), Ts, method)
    rn, rd = np.asarray(ref.num[0][0], float), np.asarray(ref.den[0][0], float)
    rn, rd = rn / rd[0], rd / rd[0]
    rn = np.concatenate([np.zeros(len(rd) - len(rn)), rn])
    close(nd, rn, rtol=1e-8, what=f'c2d {method} num')
    close(dd, rd, rtol=1e-8, what=f'c2d {method} den')
    return nd, dd


def tustin_ss(A, Ts):
    A = M(A)
    I = np.eye(len(A))
    return (I + A * Ts / 2) @ np.linalg.inv(I - A * Ts / 2)


# ───────────────────────────── frequency domain ─────────────────────────────
def loop_fn(num, den, Ts=0.0):
    if Ts:
        return lambda w: H(num, den, np.exp(1j * w * Ts))
    return lambda w: H(num, den, 1j * w)


def roots_on(f, lo, hi, n=200001):
    ws = np.logspace(np.log10(lo), np.log10(hi), n)
    g = f(ws)
    out = []
    for k in np.where(np.sign(g[:-1]) != np.sign(g[1:]))[0]:
        out.append(brentq(lambda w: float(f(np.array([w]))[0]), ws[k], ws[k + 1], xtol=1e-15, rtol=1e-15))
    return out


def margins(num, den, Ts=0.0):
    """gm (ratio) at the phase crossover, pm (deg) at the gain crossover; negative feedback"""
    L = loop_fn(num, den, Ts)
    hi = math.pi / Ts * (1 - 1e-9) if Ts else 1e4
    wgc = roots_on(lambda w: np.log(np.abs(L(w))), 1e-4, hi)
    # phase crossover: Im L = 0 with Re L < 0
    wpc = [w for w in roots_on(lambda w: np.imag(L(w)), 1e-4, hi) if L(w).real < 0]
    out = {}
    if wgc:
        pms = [math.degrees(np.angle(L(w))) % 360 - 180 for w in wgc]
        k = int(np.argmin(np.abs(pms)))
        out.update(pm=pms[k], wgc=wgc[k])
    if wpc:
        gms = [1 / abs(L(w)) for w in wpc]
        k = int(np.argmin(np.abs(np.log(gms))))
        out.update(gm=gms[k], gm_db=20 * math.log10(gms[k]), wpc=wpc[k])
    sys = ct.tf(num, den, Ts) if Ts else ct.tf(num, den)
    gm, pm, wcg, wcp = ct.margin(sys)
    if 'pm' in out:
        close(out['pm'], pm, rtol=1e-5, what='pm vs ct.margin')
        close(out['wgc'], wcp, rtol=1e-5, what='wgc vs ct.margin')
    if 'gm' in out:
        close(out['gm'], gm, rtol=1e-5, what='gm vs ct.margin')
        close(out['wpc'], wcg, rtol=1e-5, what='wpc vs ct.margin')
    return out


def bandwidth(num, den):
    g0 = abs(H(num, den, 0))
    level = g0 * 10 ** (-3 / 20)
    wb = roots_on(lambda w: np.abs(H(num, den, 1j * w)) - level, 1e-4, 1e4)[0]
    close(wb, ct.bandwidth(ct.tf(num, den)), rtol=1e-5, what='bandwidth vs ct.bandwidth')
    return wb


def hinf(A, B, C, D=0.0):
    f = lambda w: -abs(Hss(A, B, C, [[D]], 1j * w))
    ws = np.logspace(-3, 3, 60001)
    v = np.array([f(w) for w in ws])
    k = int(np.argmin(v))
    r = minimize_scalar(f, bounds=(ws[max(k - 1, 0)], ws[k + 1]), method='bounded', options={'xatol': 1e-13})
    return -r.fun, r.x


def h2(A, B, C):
    A, B, C = M(A), M(B), M(C)
    P = la.solve_continuous_lyapunov(A, -B @ B.T)
    v = math.sqrt(np.trace(C @ P @ C.T))
    # against (1/pi) * integral over w >= 0 of |G(jw)|^2
    from scipy.integrate import quad
    I = quad(lambda w: abs(Hss(A, B, C, [[0]], 1j * w)) ** 2, 0, np.inf, limit=500)[0] / math.pi
    close(v, math.sqrt(I), rtol=1e-6, what='H2 Lyapunov vs integral')
    return v


# ───────────────────────────── time domain ─────────────────────────────
def step_at(A, B, C, t, D=0.0):
    A, B, C = M(A), M(B), M(C)
    n = len(A)
    E = la.expm(np.block([[A, B], [np.zeros((1, n + 1))]]) * t)  # [x; u] with u' = 0
    return (C @ E[:n, n:])[0, 0] + D


def impulse_at(A, B, C, t):
    A, B, C = M(A), M(B), M(C)
    return (C @ la.expm(A * t) @ B)[0, 0]


def stepinfo(A, B, C, D=0.0):
    """rise (10-90 %), settling (2 %), overshoot (%), peak and peak time of a stable SISO model"""
    yf = dcgain_ss(A, B, C, D)
    poles = np.linalg.eigvals(M(A))
    T = 12 / min(abs(p.real) for p in poles)  # long enough for the slowest mode to vanish
    ts = np.linspace(0, T, 60001)
    Ad = la.expm(M(A) * (ts[1] - ts[0]))
    Bd = c2d_zoh_ss(A, B, ts[1] - ts[0])[1]
    x = np.zeros((len(A), 1))
    y = np.empty(len(ts))
    for i in range(len(ts)):  # exact at the samples (zero-order hold of a constant input)
        y[i] = (M(C) @ x)[0, 0] + D
        x = Ad @ x + Bd
    g = lambda t: step_at(A, B, C, t, D)
    cross = lambda lev: next(brentq(lambda t: g(t) - lev, ts[k], ts[k + 1], xtol=1e-15) for k in range(len(ts) - 1) if (y[k] - lev) * (y[k + 1] - lev) <= 0 and y[k] != lev)
    rise = cross(yf * 0.9) - cross(yf * 0.1)
    out_band = np.where(np.abs(y - yf) > 0.02 * abs(yf))[0]
    k = out_band[-1]
    settle = brentq(lambda t: abs(g(t) - yf) - 0.02 * abs(yf), ts[k], ts[k + 1], xtol=1e-15)
    res = dict(rise=rise, settling=settle, final=yf)
    kp = int(np.argmax(y))
    if y[kp] > yf * (1 + 1e-9):
        dy = lambda t: impulse_at(A, B, C, t) if D == 0 else None
        tp = brentq(dy, ts[max(kp - 1, 1)], ts[kp + 1], xtol=1e-15)
        res.update(overshoot=(g(tp) - yf) / yf * 100, peak=g(tp), peak_time=tp)
    info = ct.step_info(ct.ss(M(A), M(B), M(C), D), T=ts)
    close(res['settling'], info['SettlingTime'], rtol=2e-3, what='settling vs ct.step_info')
    close(res['rise'], info['RiseTime'], rtol=2e-3, what='rise vs ct.step_info')
    if 'overshoot' in res:
        close(res['overshoot'], info['Overshoot'], rtol=2e-3, what='overshoot vs ct.step_info')
    return res


def stepinfo_tf(num, den):
    A, B, C, D = tf2ss(num, den)
    return stepinfo(A, B, C, float(D[0, 0]))


# ───────────────────────────── pidtune / leadlag ─────────────────────────────
def pm_of(num, den):
    return margins(num, den)['pm']


def pidtune(num, den, typ, wc, pm=60, r=4):
    c = np.exp(1j * math.radians(-180 + pm)) / H(num, den, 1j * wc)
    if typ == 'PI':
        Kp, Ki = c.real, -c.imag * wc
        assert Kp > 0 and Ki > 0, 'PI cannot give this phase'
        Cn, Cd, out = [Kp, Ki], [1, 0], dict(Kp=Kp, Ki=Ki)
    elif typ == 'PD':
        Kp, Kd = c.real, c.imag / wc
        Cn, Cd, out = [Kd, Kp], [1], dict(Kp=Kp, Kd=Kd)
    elif typ == 'PID':  # Kp (1 + 1/(j w r Td) + j w Td), angle: tan phi = w Td - 1/(w r Td)
        t = math.tan(np.angle(c))
        # wc Td^2 - t Td - 1/(wc r) = 0, the positive root
        Td = (t + math.sqrt(t * t + 4 / r)) / (2 * wc)
        Kp = abs(c) / abs(1 + 1 / (1j * wc * r * Td) + 1j * wc * Td)
        Ki, Kd = Kp / (r * Td), Kp * Td
        Cn, Cd, out = [Kd, Kp, Ki], [1, 0], dict(Kp=Kp, Ki=Ki, Kd=Kd)
    Ln, Ld = np.polymul(Cn, num), np.polymul(Cd, den)
    m = margins(Ln, Ld)
    close(m['pm'], pm, rtol=1e-7, what='pidtune achieved margin')
    close(m['wgc'], wc, rtol=1e-7, what='pidtune crossover')
    assert np.all(np.roots(np.polyadd(Ld, Ln)).real < 0), 'closed loop unstable'
    return out


def first_cross(num, den, K, level):
    return roots_on(lambda w: np.log(K * np.abs(H(num, den, 1j * w)) / level), 1e-4, 1e4)[0]


def lead_design(num, den, K, phim_deg):
    a = (1 + math.sin(math.radians(phim_deg))) / (1 - math.sin(math.radians(phim_deg)))
    wm = first_cross(num, den, K, 1 / math.sqrt(a))
    T = 1 / (wm * math.sqrt(a))
    return a, wm, T, np.polymul([K * a * T, K], num), np.polymul([T, 1], den)


def lead_exact(num, den, K, pm):
    phim = brentq(lambda x: pm_of(*lead_design(num, den, K, x)[3:]) - pm, 1, 74, xtol=1e-13)
    a, wm, T, Ln, Ld = lead_design(num, den, K, phim)
    m = margins(Ln, Ld)
    close(m['pm'], pm, rtol=1e-7, what='lead margin')
    return dict(a=a, wc=m['wgc'], zero=1 / (a * T), pole=1 / T, phi=phim)


def lag_exact(num, den, K, pm, r=10):
    def design(w):
        g = K * abs(H(num, den, 1j * w))
        beta = math.sqrt(g * g * (1 + r * r) - 1) / r
        T = r / w
        return beta, T, np.polymul([K * T, K], num), np.polymul([beta * T, 1], den)
    w0 = first_cross(num, den, K, 1)
    f = lambda x: pm_of(*design(x)[2:]) - pm
    ws = w0 * np.logspace(-3, -1e-3, 400)
    v = [f(x) for x in ws]
    k = max(i for i in range(1, len(ws)) if v[i - 1] >= 0 and v[i] < 0)
    w = brentq(f, ws[k - 1], ws[k], xtol=1e-15)
    beta, T, Ln, Ld = design(w)
    m = margins(Ln, Ld)
    close(m['wgc'], w, rtol=1e-8, what='lag crossover')
    return dict(beta=beta, wc=w, zero=1 / T, pole=1 / (beta * T))


# ═════════════════════════════ followup ═════════════════════════════
# fu01: LQR, then R = 10, then Q = diag([10 1]) with R = 10
A1, B1 = [[0, 1], [-2, -3]], [[0], [1]]
K, X, z = lqr(A1, B1, np.eye(2), [[1]])
record('fu01_t1', **gains('K', K))
K, X, z = lqr(A1, B1, np.eye(2), [[10]])
record('fu01_t2', **gains('K', K), **poles_rec(z))
K, X, z = lqr(A1, B1, np.diag([10, 1]), [[10]])
record('fu01_t3', **gains('K', K))

# fu02: G = 4/(s^2 + 2s + 4): damping, then the step, then the denominator s^2 + 4s + 4... kept underdamped: s^2 + 3s + 4
z = np.roots([1, 2, 4])
record('fu02_t1', wn=abs(z[0]), zeta=-z[0].real / abs(z[0]), im=abs(z[0].imag))
close(abs(z[0]), 2, what='wn')
si = stepinfo_tf([4], [1, 2, 4])
record('fu02_t2', overshoot=si['overshoot'], settling=si['settling'], peak_time=si['peak_time'])
close(si['overshoot'], 100 * math.exp(-math.pi * 0.5 / math.sqrt(0.75)), rtol=1e-9, what='prototype overshoot')
si = stepinfo_tf([4], [1, 3, 4])
record('fu02_t3', overshoot=si['overshoot'], settling=si['settling'], peak_time=si['peak_time'])

# fu03: 1/(s+2) zoh at 0.1, then tustin, then tustin at 0.5
nd, dd = c2d_tf([1], [1, 2], 0.1, 'zoh')
record('fu03_t1', num1=nd[1], den1=dd[1], pole=-dd[1])
close(dd[1], -math.exp(-0.2), what='zoh pole')
nd, dd = c2d_tf([1], [1, 2], 0.1, 'tustin')
record('fu03_t2', num0=nd[0], num1=nd[1], den1=dd[1], pole=-dd[1])
nd, dd = c2d_tf([1], [1, 2], 0.5, 'tustin')
record('fu03_t3', num0=nd[0], num1=nd[1], den1=dd[1], pole=-dd[1])

# fu04: L = 10/(s(s+1)(s+5)) margins, then gain 20, then unity-feedback closed-loop poles with 20
m = margins([10], np.polymul([1, 1, 0], [1, 5]))
record('fu04_t1', gm=m['gm'], gm_db=m['gm_db'], pm=m['pm'], wpc=m['wpc'], wgc=m['wgc'])
close(m['gm'], 3, what='gm 30/10')
m = margins([20], np.polymul([1, 1, 0], [1, 5]))
record('fu04_t2', gm=m['gm'], pm=m['pm'], wgc=m['wgc'])
z = np.roots(np.polyadd(np.polymul([1, 1, 0], [1, 5]), [20]))
record('fu04_t3', **poles_rec(z))

# fu05: double integrator, place at -2 +- 2j, then observer at -10, -11
DI, DIB, C1 = [[0, 1], [0, 0]], [[0], [1]], [[1, 0]]
K = place(DI, DIB, [-2 + 2j, -2 - 2j])
record('fu05_t1', **gains('K', K))
L = place_observer(DI, C1, [-10, -11])
record('fu05_t2', **gains('L', L))

# fu06: two plants, LQR on the first, then "the same for the other"
K, X, z = lqr([[0, 1], [-1, -1]], [[0], [1]], np.eye(2), [[1]])
record('fu06_t1', **gains('K', K))
K, X, z = lqr([[0, 1], [2, -1]], [[0], [1]], np.eye(2), [[1]])
record('fu06_t2', **gains('K', K))

# fu07: G = 5/(s^2 + 6s + 5): DC gain, then Bode at 2 rad/s, then bandwidth
record('fu07_t1', dc=H([5], [1, 6, 5], 0))
g = H([5], [1, 6, 5], 2j)
record('fu07_t2', mag=abs(g), mag_db=20 * math.log10(abs(g)), phase=math.degrees(np.angle(g)))
record('fu07_t3', bw=bandwidth([5], [1, 6, 5]))

# fu08: double integrator zoh at 0.1, then dlqr, then the same at Ts = 0.5
Ad, Bd = c2d_zoh_ss(DI, DIB, 0.1)
record('fu08_t1', Ad01=Ad[0, 1], Bd00=Bd[0, 0], Bd10=Bd[1, 0])
K, X, z = dlqr(Ad, Bd, np.eye(2), [[1]])
record('fu08_t2', **gains('K', K))
Ad, Bd = c2d_zoh_ss(DI, DIB, 0.5)
K, X, z = dlqr(Ad, Bd, np.eye(2), [[1]])
record('fu08_t3', **gains('K', K))

# fu09: Kalman gain, then Rn ten times larger
L, P = kalman_c(A1, [[0], [1]], C1, [[1]], [[0.1]])
record('fu09_t1', **gains('L', L))
L, P = kalman_c(A1, [[0], [1]], C1, [[1]], [[1]])
record('fu09_t2', **gains('L', L))

# fu10: G = 3/((s+1)(s+3)): PI at 2 rad/s (PM 60), then PM 45, then PID
P10 = ([3], [1, 4, 3])
record('fu10_t1', **pidtune(*P10, 'PI', 2.0, 60))
record('fu10_t2', **pidtune(*P10, 'PI', 2.0, 45))
record('fu10_t3', **pidtune(*P10, 'PID', 2.0, 45))

# fu11: 10/(s(s+1)) margins, then a lead for exactly 50 deg keeping K (gain in the plant)
m = margins([10], [1, 1, 0])
record('fu11_t1', pm=m['pm'], wgc=m['wgc'])
v = lead_exact([10], [1, 1, 0], 1, 50)
record('fu11_t2', zero=v['zero'], pole=v['pole'], wc=v['wc'])

# fu12: G = 100/((s+1)(s+10)) margins, then Hinf norm of T = G/(1 + G)
m = margins([100], [1, 11, 10])
record('fu12_t1', pm=m['pm'], wgc=m['wgc'])
A, B, C, D = tf2ss([100], [1, 11, 110])
pk, wpk = hinf(A, B, C)
record('fu12_t2', hinf=pk, wpeak=wpk)

# fu13: x' = -0.5x + u sampled at 50 ms, then dlqr with Q = 1, R = 0.1
Ad, Bd = c2d_zoh_ss([[-0.5]], [[1]], 0.05)
record('fu13_t1', Ad=Ad[0, 0], Bd=Bd[0, 0])
K, X, z = dlqr(Ad, Bd, [[1]], [[0.1]])
record('fu13_t2', K=K[0, 0], pole=z[0].real)

# fu14: companion 3-state: stability, place at -2, -3, -4, DC gain of the closed loop
A14, B14, C14 = [[0, 1, 0], [0, 0, 1], [-6, -11, -6]], [[0], [0], [1]], [[1, 0, 0]]
z = np.linalg.eigvals(M(A14))
record('fu14_t1', **poles_rec(z))
K = place(A14, B14, [-2, -3, -4])
record('fu14_t2', **gains('K', K))
record('fu14_t3', dc=dcgain_ss(M(A14) - M(B14) @ K, B14, C14))

# fu15: G = 10/(s(s+2)) margins, zoh at 0.1 s, margins of the discrete loop
m = margins([10], [1, 2, 0])
record('fu15_t1', pm=m['pm'], wgc=m['wgc'])
nd, dd = c2d_tf([10], [1, 2, 0], 0.1, 'zoh')
record('fu15_t2', num1=nd[1], num2=nd[2], den1=dd[1], den2=dd[2])
m = margins(nd, dd, 0.1)
record('fu15_t3', pm=m['pm'], wgc=m['wgc'], gm=m['gm'], wpc=m['wpc'])

# fu16: impulse then step of A = [-1 2; 0 -3], B = [1; 1], C = [1 0] at t = 1
A16, B16, C16 = [[-1, 2], [0, -3]], [[1], [1]], [[1, 0]]
record('fu16_t1', y1=impulse_at(A16, B16, C16, 1.0))
close(impulse_at(A16, B16, C16, 1.0), 2 * math.exp(-1) - math.exp(-3), what='impulse closed form')
record('fu16_t2', y1=step_at(A16, B16, C16, 1.0))

# fu17: lqr then lqi
A17 = [[0, 1], [0, -2]]
K, X, z = lqr(A17, [[0], [1]], np.diag([10, 1]), [[1]])
record('fu17_t1', **gains('K', K))
K, X, z = lqi(A17, [[0], [1]], C1, np.diag([10, 1, 50]), [[1]])
record('fu17_t2', **gains('K', K))

# fu18: G = (s+3)/(s^3 + 4s^2 + 6s + 4): poles and zeros, then the H2 norm
record('fu18_t1', zero=np.roots([1, 3])[0], **poles_rec(np.roots([1, 4, 6, 4])))
A, B, C, D = tf2ss([1, 3], [1, 4, 6, 4])
record('fu18_t2', h2=h2(A, B, C))

# fu19: K/(s(s+2)(s+4)): gain margin (K = 1), then K = 10 closed-loop step
m = margins([1], np.polymul([1, 2, 0], [1, 4]))
record('fu19_t1', gm=m['gm'], wpc=m['wpc'])
close(m['gm'], 48, what='Routh: K = 48')
si = stepinfo_tf([10], np.polyadd(np.polymul([1, 2, 0], [1, 4]), [10]))
record('fu19_t2', overshoot=si['overshoot'], settling=si['settling'])

# fu20: A = [0 1; 1 0] eigenvalues, then close the loop with K = [3 2] (u = -Kx), then K = [5 4]
z = np.linalg.eigvals(M([[0, 1], [1, 0]]))
record('fu20_t1', ev_unstable=max(z.real), ev_stable=min(z.real))
Acl = M([[0, 1], [1, 0]]) - M([[0], [1]]) @ M([[3, 2]])
record('fu20_t2', **poles_rec(np.linalg.eigvals(Acl)))
Acl = M([[0, 1], [1, 0]]) - M([[0], [1]]) @ M([[5, 4]])
z = np.linalg.eigvals(Acl)
close(z, [-2, -2], rtol=1e-6, what='double pole')
record('fu20_t3', p=-2.0)

# fu21: MIMO LQR, then R = diag([1 10])
A21 = [[-1, 1], [0, -2]]
K, X, z = lqr(A21, np.eye(2), np.eye(2), np.eye(2))
record('fu21_t1', **gains('K', K))
K, X, z = lqr(A21, np.eye(2), np.eye(2), np.diag([1, 10]))
record('fu21_t2', **gains('K', K))

# ═════════════════════════════ typos_units ═════════════════════════════
K, X, z = lqr(DI, DIB, np.eye(2), [[1]])
record('ty01', **gains('K', K))
record('ty02', **gains('K', place(A1, B1, [-4, -5])))
g = H([10], [1, 10], 10j)
record('ty03', mag=abs(g), mag_db=20 * math.log10(abs(g)), phase=math.degrees(np.angle(g)))
nd, dd = c2d_tf([1], [1, 1], 0.05, 'zoh')
record('ty04', num1=nd[1], den1=dd[1], pole=-dd[1])
Ad, Bd = c2d_zoh_ss([[0, 1], [-4, -0.4]], [[0], [1]], 0.1)
record('ty05', **gains('Ad', Ad), Bd00=Bd[0, 0], Bd10=Bd[1, 0])
v = pidtune([50], [1, 25, 100], 'PI', 2 * math.pi, 45)
record('ty06', **v, wc=2 * math.pi)
zeta, ts = zeta_of_overshoot(0.10), 2.0
p = spec_pair(zeta, 4 / (zeta * ts))
record('ty07', **gains('K', place([[0, 1], [0, -2]], [[0], [1]], [p, p.conjugate()])), re=p.real, im=p.imag)
K, X, z = dlqr([[1, 0.1], [0, 1]], [[0.005], [0.1]], np.eye(2), [[10]])
record('ty08', **gains('K', K))
L, P = kalman_c([[0, 1], [-1, -0.2]], [[0], [1]], C1, [[0.5]], [[0.01]])
record('ty09', **gains('L', L))
m = margins([2], [1, 1, 0])
record('ty10', pm=m['pm'], wgc=m['wgc'], fgc=m['wgc'] / (2 * math.pi))
z = np.linalg.eigvals(M([[0, 1], [-5, -2]]))
record('ty11', **poles_rec(z))
si = stepinfo_tf([9], [1, 3, 9])
record('ty12', overshoot=si['overshoot'], settling=si['settling'], rise=si['rise'])
Ad = tustin_ss([[-1, 0], [0, -2]], 0.2)
record('ty13', Ad00=Ad[0, 0], Ad11=Ad[1, 1])
A, B, C, D = tf2ss([1], [1, 0.2, 1])
pk, wpk = hinf(A, B, C)
close(pk, 1 / (2 * 0.1 * math.sqrt(1 - 0.01)), rtol=1e-9, what='resonant peak closed form')
record('ty14', hinf=pk)
K, X, z = lqr([[0, 1], [0, -1]], [[0], [1]], np.diag([100, 1]), [[0.01]])
record('ty15', **gains('K', K))
z = np.roots([1, 0.8, 4])
record('ty16', wn=abs(z[0]), zeta=-z[0].real / abs(z[0]))
m = margins([4], [1, 3, 3, 1])
close(m['gm'], 2, what='gm of 4/(s+1)^3')
record('ty17', gm_db=m['gm_db'], wpc=m['wpc'])
K, X, z = lqr([[0, 1, 0], [0, 0, 1], [0, 0, -5]], [[0], [0], [5]], np.diag([1, 0, 0]), [[1]])
record('ty18', **gains('K', K))

# ═════════════════════════════ design_spec ═════════════════════════════
# ds01: 3 states, dominant zeta = 0.6, wn = 3, third pole at -15
A3, B3 = [[0, 1, 0], [0, 0, 1], [-1, -3, -3]], [[0], [0], [1]]
p = spec_pair(0.6, 3)
record('ds01', **gains('K', place(A3, B3, [p, p.conjugate(), -15])))
# ds02: zeta = 0.707, wn = 2, third pole 5x further left than the pair's real part
A, B = [[0, 1, 0], [0, 0, 1], [0, -4, -5]], [[0], [0], [2]]
p = spec_pair(0.707, 2)
record('ds02', **gains('K', place(A, B, [p, p.conjugate(), 5 * p.real])), third=5 * p.real)
# ds03: PI to 55 deg at 1.5 rad/s on 2/(s+2)^2
record('ds03', **pidtune([2], [1, 4, 4], 'PI', 1.5, 55))
# ds04: PD at 8 rad/s with 60 deg on 1/(s(s+4))
record('ds04', **pidtune([1], [1, 4, 0], 'PD', 8.0, 60))
# ds05: lead for exactly 45 deg on 5/(s(s+1)(0.1s+1)), the gain in the plant (K = 1)
v = lead_exact([5], np.polymul([1, 1, 0], [0.1, 1]), 1, 45)
record('ds05', zero=v['zero'], pole=v['pole'], wc=v['wc'])
# ds06: lag with the position constant Kp = 20 on 1/((s+1)(s+2)): K = 40, exactly 45 deg
v = lag_exact([1], [1, 3, 2], 40, 45)
record('ds06', wc=v['wc'], zero=v['zero'], pole=v['pole'])
# ds07: discrete place, zeta = 0.7, wn = 5 rad/s mapped by z = exp(s Ts), Ts = 0.1
p = spec_pair(0.7, 5)
zd = np.exp(p * 0.1)
K = place([[1, 0.1], [0, 1]], [[0.005], [0.1]], [zd, zd.conjugate()])
record('ds07', **gains('K', K), z_re=zd.real, z_im=zd.imag)
# ds08: observer 4x faster than the controller poles -2 +- 2j: -8 +- 8j
L = place_observer(A1, C1, [-8 + 8j, -8 - 8j])
record('ds08', **gains('L', L))
# ds09: pidtune from an overshoot target: PM from zeta (prototype) at a given crossover
zeta = zeta_of_overshoot(0.10)
pm = math.degrees(math.atan(2 * zeta / math.sqrt(math.sqrt(1 + 4 * zeta ** 4) - 2 * zeta ** 2)))
record('ds09', **pidtune([1], [1, 3, 3, 1], 'PID', 0.8, pm), pm=pm)
# ds10: a PI from overshoot and settling targets: the prototype's zeta -> pm, zeta wn = 4/ts -> wn -> wc
zeta = zeta_of_overshoot(0.05)
wn = 4 / (zeta * 4.0)
wc = wn * math.sqrt(math.sqrt(1 + 4 * zeta ** 4) - 2 * zeta ** 2)
pm = math.degrees(math.atan(2 * zeta / math.sqrt(math.sqrt(1 + 4 * zeta ** 4) - 2 * zeta ** 2)))
record('ds10', **pidtune([1], [1, 1], 'PI', wc, pm), wc=wc, pm=pm)
# ds11: ITAE-free simple spec: closed-loop double pole at -5 for x' = [0 1; 0 -1] x + [0; 2] u
record('ds11', **gains('K', place([[0, 1], [0, -1]], [[0], [2]], [-5, -5])))
# ds12: lead placed at a given crossover 4 rad/s with PM 50 on 1/(s(s+2))
num, den, wc = [1], [1, 2, 0], 4.0
ph = math.degrees(np.angle(H(num, den, 1j * wc))) % 360 - 360  # the plant's phase, -90 - atan(wc/2)
phim = 50 - (180 + ph)
a = (1 + math.sin(math.radians(phim))) / (1 - math.sin(math.radians(phim)))
Kl = 1 / (abs(H(num, den, 1j * wc)) * math.sqrt(a))
T = 1 / (wc * math.sqrt(a))
m = margins(np.polymul([Kl * a * T, Kl], num), np.polymul([T, 1], den))
close(m['wgc'], wc, rtol=1e-9, what='lead at wc crossover')
close(m['pm'], 50, rtol=1e-9, what='lead at wc margin')
record('ds12', K=Kl, phi=phim, zero=1 / (a * T), pole=1 / T)

with open(os.path.join(HERE, 'turns_ref.json'), 'w') as f:
    json.dump({'generator': 'benchmarks/turns_ref.py', 'versions': {
        'numpy': np.__version__, 'scipy': __import__('scipy').__version__,
        'control': ct.__version__, 'sympy': sp.__version__},
        'values': OUT}, f, indent=1, sort_keys=True)
    f.write('\n')
print(f'wrote turns_ref.json: {len(OUT)} keys, {sum(len(v) for v in OUT.values())} values')
