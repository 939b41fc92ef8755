#!/usr/bin/env python3
"""Independent expected values for ControlBench's `design` family (issue 14).

Every other family's expected numbers come from our own solver CLI (build.mjs). The design
family's come from here instead: this script recomputes each design with numpy, scipy 1.17,
python-control 0.10.2 and sympy, by routes of its own, and writes design_ref.json, which
build.mjs reads. Our solver is then only the thing under test: verify.mjs re-runs the CLI on
each question's `source` command and reports where it disagrees with these numbers.

    python3 benchmarks/design_ref.py        # rewrites benchmarks/design_ref.json

Routes (none of them our code):
- pidtune: the loop condition C(jwc)P(jwc) = exp(j(-180 deg + PM)) solved directly for the
  gains (PI, PD: one complex linear equation; PID with Ti = r*Td: sympy's exact root of the
  quadratic in Td; PIDF with Tf = Td/N: scipy brentq for the smallest Td on a Td grid), the
  achieved margin from a dense frequency grid refined by brentq, stability from numpy.roots.
  Published check: MATLAB's pidtune example 1/(s+1)^3, PI at 0.5205 rad/s -> Kp = 1.14,
  Ki = 0.454 (MathWorks pidtune documentation, "Specify Crossover Frequency").
- leadlag: the textbook procedures (Ogata, Modern Control Engineering, 5th ed., sections 7-11
  and 7-12) as our tool documents them: lead a = (1 + sin phi)/(1 - sin phi), its maximum at
  the frequency where |K P| = 1/sqrt(a); lag zero a decade below the new crossover, beta from
  |C P| = 1. With no safety angle, phi (lead) or the crossover (lag) is solved so the margin is
  the target. Published check: Ogata's lead example 4/(s(s+2)), Kv = 20, PM 50 deg, 5 deg extra:
  K = 10, crossover about 9 rad/s, alpha = 1/a about 0.24.
- lqr, dlqr, lqi, lqry, lqg, kalman: scipy.linalg.solve_continuous_are / solve_discrete_are
  (with the cross term s=), cross-checked against python-control's lqr/dlqr/lqe/dlqe where
  those take the same problem; lqi on the augmented system [A 0; -C 0] (discrete
  [A 0; -Ts C I]); lqry as lqr with C'QC; kalman with cross covariance N: P from the dual ARE
  with s = G N, L = (P C' + G N) Rn^-1 (discrete L = (A P C' + G N)(C P C' + Rn)^-1,
  M = P C'(C P C' + Rn)^-1, Z = P - M C P).
- place_observer: python-control place(A', C', p)' and Ackermann's formula on the dual
  (they must agree).
- place from time-domain specifications: zeta = -ln(Mp)/sqrt(pi^2 + ln^2 Mp), wn = 4/(zeta ts)
  (2 % settling) or pi/(tp sqrt(1 - zeta^2)) (peak time), the formulas our reader documents
  (src/core/reader/quantities.ts), then Ackermann's formula with sympy's exact arithmetic.
- refusals: the PBH rank test says which mode cannot be moved (no design exists).
"""
import json
import math
import os

import control as ct
import numpy as np
import scipy.linalg as la
import sympy as sp

from _acker import acker_exact  # benchmarks/_acker.py, beside this script
from scipy.optimize import brentq

HERE = os.path.dirname(os.path.abspath(__file__))
M = lambda x: np.array(x, dtype=float)
OUT = {}


def close(a, b, rtol=1e-9, what=''):
    a, b = np.asarray(a, float), np.asarray(b, float)
    assert np.allclose(a, b, rtol=rtol, atol=rtol * max(1.0, np.abs(b).max())), f'{what}: {a} vs {b}'


def record(key, **vals):
    OUT[key] = {k: float(v) for k, v in vals.items()}


def sorted_poles(z):
    """eigenvalues sorted by real part then imaginary part (the solver's order is not assumed:
    the questions name poles by their value, and the build reads them from the reference)"""
    return sorted(np.asarray(z, complex), key=lambda v: (round(v.real, 9), v.imag))


# ───────────────────────────── frequency-domain helpers ─────────────────────────────
def H(num, den, w):
    s = 1j * w
    return np.polyval(num, s) / np.polyval(den, s)


def crossings(num, den, lo=1e-4, hi=1e4, n=200001):
    """every frequency where |L(jw)| crosses 1, refined by brentq on log|L|"""
    ws = np.logspace(np.log10(lo), np.log10(hi), n)
    g = np.log(np.abs(H(num, den, ws)))
    out = []
    for k in np.where((g[:-1] > 0) != (g[1:] > 0))[0]:
        f = lambda w: math.log(abs(H(num, den, w)))
        out.append(ws[k + 1] if f(ws[k + 1]) == 0 else brentq(f, ws[k], ws[k + 1], xtol=1e-14, rtol=1e-15))
    return out


def pm_of(num, den):
    """the smallest phase margin over all gain crossovers, in degrees, and the first crossover"""
    ws = crossings(num, den)
    pms = [((math.degrees(np.angle(H(num, den, w))) + 180) + 180) % 360 - 180 for w in ws]
    return min(pms), ws[0]


def stable_cl(num, den):
    cl = np.polyadd(den, num)
    return bool(np.all(np.roots(cl).real < 0))


# ───────────────────────────── pidtune ─────────────────────────────
def pid_target(num, den, wc, pm):
    """the controller value C(jwc) that puts L(jwc) at exp(j(-180 + pm))"""
    return np.exp(1j * math.radians(-180 + pm)) / H(num, den, wc)


def pidtune_ref(key, num, den, typ, wc, pm=60, r=4, N=10):
    c = pid_target(num, den, wc, pm)
    Kp = Ki = Kd = Tf = 0.0
    if typ == 'P':
        Kp = abs(c)  # a P controller cannot set the phase: only |C| = 1/|P|
        Cn, Cd = [Kp], [1]
    elif typ == 'PI':  # Kp + Ki/(jw) = Kp - j Ki/w
        Kp, Ki = c.real, -c.imag * wc
        assert Kp > 0 and Ki > 0, 'PI cannot give this phase'
        Cn, Cd = [Kp, Ki], [1, 0]
    elif typ == 'PD':  # Kp + j w Kd
        Kp, Kd = c.real, c.imag / wc
        Cn, Cd = [Kd, Kp], [1]
    elif typ == 'PID':  # Kp (1 + 1/(j w r Td) + j w Td): angle tan phi = w Td - 1/(w r Td)
        Td = sp.symbols('Td', positive=True)
        t = math.tan(np.angle(c))
        roots = sp.solve(sp.Eq(wc * Td - 1 / (wc * r * Td), sp.nsimplify(t, rational=True)), Td)
        Td = float(max(roots))
        Kp = abs(c) / abs(1 + 1 / (1j * wc * r * Td) + 1j * wc * Td)
        Ki, Kd = Kp / (r * Td), Kp * Td
        Cn, Cd = [Kd, Kp, Ki], [1, 0]
    elif typ == 'PIDF':  # Kp (1 + 1/(j w r Td) + j w Td/(1 + j w Td/N)), the smallest Td
        shape = lambda Td: 1 + 1 / (1j * wc * r * Td) + 1j * wc * Td / (1 + 1j * wc * Td / N)
        f = lambda Td: np.angle(shape(Td)) - np.angle(c)
        grid = np.logspace(-6, 6, 120001) / wc
        v = np.array([f(x) for x in grid])
        k = np.where((v[:-1] < 0) & (v[1:] >= 0))[0][0]
        Td = brentq(f, grid[k], grid[k + 1], xtol=1e-16, rtol=1e-15)
        Kp = abs(c) / abs(shape(Td))
        Ki, Kd, Tf = Kp / (r * Td), Kp * Td, Td / N
        # Kp + Ki/s + Kd s/(Tf s + 1) = ((Kp Tf + Kd) s^2 + (Kp + Ki Tf) s + Ki) / (s (Tf s + 1))
        Cn, Cd = [Kp * Tf + Kd, Kp + Ki * Tf, Ki], [Tf, 1, 0]
    Ln, Ld = np.polymul(Cn, num), np.polymul(Cd, den)
    pm_achieved, _ = pm_of(Ln, Ld)
    assert stable_cl(Ln, Ld), f'{key}: closed loop unstable'
    vals = dict(Kp=Kp, pm=pm_achieved)
    if Ki: vals['Ki'] = Ki
    if Kd: vals['Kd'] = Kd
    if Tf: vals['Tf'] = Tf
    record(key, **vals)
    return vals


# MATLAB's documented example: pidtune(tf(1, [1 3 3 1]), 'PI', 0.5205) -> Kp = 1.14, Ki = 0.454
v = pidtune_ref('pid_pi_matlab', [1], [1, 3, 3, 1], 'PI', 0.5205)
assert round(v['Kp'], 2) == 1.14 and round(v['Ki'], 3) == 0.454, v
pidtune_ref('pid_p', [1], [1, 1, 0], 'P', 1.0)  # 1/(s(s+1)) at 1 rad/s: Kp = sqrt 2, PM 45
close(OUT['pid_p']['Kp'], math.sqrt(2), what='P gain')
close(OUT['pid_p']['pm'], 45, rtol=1e-9, what='P margin')
v = pidtune_ref('pid_pd', [1], [1, 0, 0], 'PD', 2.0)  # 1/s^2, PM 60: Kp = 4 cos 60, Kd = 4 sin 60 / 2
close([v['Kp'], v['Kd']], [2, math.sqrt(3)], what='PD closed form')
pidtune_ref('pid_pid', [1], [1, 3, 3, 1], 'PID', 1.0)
pidtune_ref('pid_pidf', [1], [1, 3, 3, 1], 'PIDF', 0.8)
pidtune_ref('pid_pi_typ1', [1], [1, 2, 0], 'PI', 0.5, pm=50)
pidtune_ref('pid_pid_ratio', [2], [1, 6, 11, 6], 'PID', 2.0, pm=45, r=2)
pidtune_ref('pid_pi_unstable', [1], [1, -1], 'PI', 3.0)  # an unstable plant 1/(s - 1)
pidtune_ref('pid_pi_nmp', [-1, 1], [1, 2, 1], 'PI', 0.3)  # a right-half-plane zero (-s + 1)/(s + 1)^2

# a specification PI cannot meet: 1/(s+1)^3 at 1.5 rad/s needs +48.9 deg from the controller,
# a PI gives only (-90, 0). Our tool's documented fallback: the integral corner a decade below
# crossover (Ti wc = 10, phase -atan(0.1)); the margin that leaves is computed here.
num, den, wc = [1], [1, 3, 3, 1], 1.5
need = math.degrees(np.angle(pid_target(num, den, wc, 60)))
Kp = 1 / abs(H(num, den, wc)) / abs(1 + 1 / (1j * 10))
Ki = Kp * wc / 10
pmA, _ = pm_of(np.polymul([Kp, Ki], num), np.polymul([1, 0], den))
record('pid_pi_short', need=need, Kp=Kp, Ki=Ki, pm=pmA)
assert need > 0


# ───────────────────────────── leadlag ─────────────────────────────
def first_cross(num, den, K, level, lo=1e-4, hi=1e4):
    ws = np.logspace(np.log10(lo), np.log10(hi), 200001)
    g = np.log(K * np.abs(H(num, den, ws)) / level)
    k = np.where((g[:-1] > 0) & (g[1:] <= 0))[0][0]
    if g[k + 1] == 0:
        return ws[k + 1]
    return brentq(lambda w: math.log(K * abs(H(num, den, w)) / level), ws[k], ws[k + 1], xtol=1e-14, rtol=1e-15)


def phase_deg(num, den, w):
    """the plant's phase, unwrapped from low frequency (integrators give -90 deg each)"""
    ws = np.logspace(-6, np.log10(w), 20001)
    return math.degrees(np.unwrap(np.angle(H(num, den, ws)))[-1])


def lead_design(num, den, K, phim_deg):
    a = (1 + math.sin(math.radians(phim_deg))) / (1 - math.sin(math.radians(phim_deg)))
    wm = first_cross(num, den, K, 1 / math.sqrt(a))
    T = 1 / (wm * math.sqrt(a))
    Ln, Ld = np.polymul([K * a * T, K], num), np.polymul([T, 1], den)
    return a, wm, T, Ln, Ld


def leadlag_lead(key, num, den, K, pm, extra=None):
    w0 = first_cross(num, den, K, 1)
    pm0 = 180 + phase_deg(num, den, w0)
    if extra is not None:
        phim = pm - pm0 + extra
    else:
        phim = brentq(lambda x: pm_of(*lead_design(num, den, K, x)[3:])[0] - pm, 1, 74, xtol=1e-13)
    a, wm, T, Ln, Ld = lead_design(num, den, K, phim)
    pmA, _ = pm_of(Ln, Ld)
    assert stable_cl(Ln, Ld)
    record(key, K=K, a=a, T=T, wc=wm, pm=pmA, pm_uncomp=pm0, phi=phim, zero=1 / (a * T), pole=1 / T)


def lag_design(num, den, K, w, r=10):
    g = K * abs(H(num, den, w))
    beta = math.sqrt(g * g * (1 + r * r) - 1) / r
    T = r / w
    Ln, Ld = np.polymul([K * T, K], num), np.polymul([beta * T, 1], den)
    return beta, T, Ln, Ld


def leadlag_lag(key, num, den, K, pm, extra=None, r=10):
    w0 = first_cross(num, den, K, 1)
    if extra is not None:  # the crossover where K P has phase -180 + pm + extra
        target = -180 + pm + extra
        w = brentq(lambda x: phase_deg(num, den, x) - target, 1e-4, w0, xtol=1e-15)
    else:  # the highest crossover below w0 at which the lag-compensated margin is pm
        f = lambda x: pm_of(*lag_design(num, den, K, x, r)[2:])[0] - pm
        ws = w0 * np.logspace(-3, -1e-3, 400)
        v = [f(x) for x in ws]
        k = max(i for i in range(1, len(ws)) if v[i - 1] >= 0 and v[i] < 0)
        w = brentq(f, ws[k - 1], ws[k], xtol=1e-15)
    beta, T, Ln, Ld = lag_design(num, den, K, w, r)
    pmA, wgc = pm_of(Ln, Ld)
    assert stable_cl(Ln, Ld)
    close(wgc, w, rtol=1e-8, what=f'{key} crossover')
    record(key, K=K, beta=beta, T=T, wc=w, pm=pmA, zero=1 / T, pole=1 / (beta * T))


# Ogata's lead example: G = 4/(s(s+2)), Kv = 20 -> K = 10 (Kv = lim s K G = 2K), PM 50, extra 5
leadlag_lead('lead_ogata', [4], [1, 2, 0], 10, 50, extra=5)
o = OUT['lead_ogata']
assert abs(o['wc'] - 9) < 0.3 and abs(1 / o['a'] - 0.24) < 0.01, o  # Ogata: ~9 rad/s, alpha 0.24
leadlag_lead('lead_exact', [4], [1, 2, 0], 10, 50)
close(OUT['lead_exact']['pm'], 50, rtol=1e-7, what='exact lead margin')
# Ogata's lag example: G = 1/(s(s+1)(0.5s+1)), Kv = 5 -> K = 5, PM 40, extra 12
leadlag_lag('lag_ogata', [1], np.polymul([1, 1, 0], [0.5, 1]), 5, 40, extra=12)
leadlag_lag('lag_exact', [1], np.polymul([1, 1, 0], [0.5, 1]), 5, 40)
close(OUT['lag_exact']['pm'], 40, rtol=1e-7, what='exact lag margin')
# lead on a type-0 plant with the gain given: 100/((s+1)(s+5)), exact 60 deg
leadlag_lead('lead_type0', [1], [1, 6, 5], 100, 60)
close(OUT['lead_type0']['pm'], 60, rtol=1e-7, what='type-0 lead margin')
# lead at a given crossover: 1/(s(s+1)), wc = 3, PM 45: phi = 45 - (180 + angle P(j3))
num, den, wc = [1], [1, 1, 0], 3.0
phim = 45 - (180 + phase_deg(num, den, wc))
a = (1 + math.sin(math.radians(phim))) / (1 - math.sin(math.radians(phim)))
K = 1 / (abs(H(num, den, wc)) * math.sqrt(a))
T = 1 / (wc * math.sqrt(a))
pmA, wgc = pm_of(np.polymul([K * a * T, K], num), np.polymul([T, 1], den))
close(wgc, wc, rtol=1e-9, what='lead at wc crossover')
record('lead_wc', K=K, a=a, T=T, pm=pmA, phi=phim)


# ───────────────────────────── LQ designs ─────────────────────────────
def lqr_ref(A, B, Q, R, N=None):
    A, B, Q, R = M(A), M(B), M(Q), M(R)
    Nm = np.zeros((A.shape[0], B.shape[1])) if N is None else M(N)
    X = la.solve_continuous_are(A, B, Q, R, s=Nm)
    K = la.solve(R, B.T @ X + Nm.T)
    K2, X2, _ = ct.lqr(A, B, Q, R, Nm)
    close(K, K2, rtol=1e-7, what='lqr scipy vs python-control')
    return K, X, sorted_poles(np.linalg.eigvals(A - B @ K))


def dlqr_ref(A, B, Q, R, N=None):
    A, B, Q, R = M(A), M(B), M(Q), M(R)
    Nm = np.zeros((A.shape[0], B.shape[1])) if N is None else M(N)
    X = la.solve_discrete_are(A, B, Q, R, s=Nm)
    K = la.solve(R + B.T @ X @ B, B.T @ X @ A + Nm.T)
    K2, X2, _ = ct.dlqr(A, B, Q, R, Nm)
    close(K, K2, rtol=1e-7, what='dlqr scipy vs python-control')
    return K, X, sorted_poles(np.linalg.eigvals(A - B @ K))


def gains(prefix, K):
    return {f'{prefix}{i}{j}': K[i, j] for i in range(K.shape[0]) for j in range(K.shape[1])}


def poles_rec(z, prefix='p'):
    return {f'{prefix}{i}_re': v.real for i, v in enumerate(z)} | {f'{prefix}{i}_im': abs(v.imag) for i, v in enumerate(z) if abs(v.imag) > 1e-12}


# lqi: augmented [A 0; -C 0], [B; -D]
def lqi_ref(key, A, B, C, Q, R, Ts=0.0, D=None):
    A, B, C = M(A), M(B), M(C)
    n, p = A.shape[0], C.shape[0]
    D = np.zeros((p, B.shape[1])) if D is None else M(D)
    if Ts:
        Aa = np.block([[A, np.zeros((n, p))], [-Ts * C, np.eye(p)]])
        Ba = np.vstack([B, -Ts * D])
        K, X, z = dlqr_ref(Aa, Ba, Q, R)
    else:
        Aa = np.block([[A, np.zeros((n, p))], [-C, np.zeros((p, p))]])
        Ba = np.vstack([B, -D])
        K, X, z = lqr_ref(Aa, Ba, Q, R)
    record(key, **gains('K', K), **poles_rec(z))


lqi_ref('lqi_dc', [[0, 1], [0, -1]], [[0], [1]], [[1, 0]], np.diag([1, 1, 10]), [[1]])
lqi_ref('lqi_first', [[-2]], [[1]], [[1]], np.diag([0, 25]), [[0.5]])
lqi_ref('lqi_mimo', [[-1, 0.5], [0, -2]], np.eye(2), np.eye(2), np.diag([1, 1, 10, 10]), np.eye(2))
lqi_ref('lqi_disc', [[1, 0.1], [0, 0.9]], [[0.005], [0.1]], [[1, 0]], np.diag([1, 0.1, 5]), [[1]], Ts=0.1)


def lqry_ref(key, A, B, C, Q, R, D=None, Ts=0.0):
    A, B, C, Q, R = M(A), M(B), M(C), M(Q), M(R)
    D = np.zeros((C.shape[0], B.shape[1])) if D is None else M(D)
    K, X, z = (dlqr_ref if Ts else lqr_ref)(A, B, C.T @ Q @ C, R + D.T @ Q @ D, C.T @ Q @ D)
    record(key, **gains('K', K), **poles_rec(z))


lqry_ref('lqry_msd', [[0, 1], [-2, -3]], [[0], [1]], [[1, 0]], [[10]], [[1]])
lqry_ref('lqry_disc', [[1, 0.1], [0, 0.95]], [[0], [0.1]], [[1, 0]], [[5]], [[0.1]], Ts=0.1)
lqry_ref('lqry_feedthrough', [[-1, 1], [0, -2]], [[0], [1]], [[1, 0]], [[4]], [[1]], D=[[0.5]])


def kalman_c(A, G, C, Qn, Rn, N=None):
    A, G, C, Qn, Rn = M(A), M(G), M(C), M(Qn), M(Rn)
    GN = np.zeros((A.shape[0], C.shape[0])) if N is None else G @ M(N)
    P = la.solve_continuous_are(A.T, C.T, G @ Qn @ G.T, Rn, s=GN)
    L = (P @ C.T + GN) @ np.linalg.inv(Rn)
    if N is None:
        L2, P2, _ = ct.lqe(A, G, C, Qn, Rn)
        close(L, L2, rtol=1e-7, what='lqe scipy vs python-control')
    else:  # python-control 0.10.2 has no cross covariance in lqe: check the Riccati residual
        res = A @ P + P @ A.T - (P @ C.T + GN) @ np.linalg.solve(Rn, C @ P + GN.T) + G @ Qn @ G.T
        assert np.abs(res).max() < 1e-10 and np.all(np.linalg.eigvals(A - L @ C).real < 0)
    return L, P


def kalman_d(A, G, C, Qn, Rn, N=None):
    A, G, C, Qn, Rn = M(A), M(G), M(C), M(Qn), M(Rn)
    GN = np.zeros((A.shape[0], C.shape[0])) if N is None else G @ M(N)
    P = la.solve_discrete_are(A.T, C.T, G @ Qn @ G.T, Rn, s=GN)
    S = C @ P @ C.T + Rn
    L = (A @ P @ C.T + GN) @ np.linalg.inv(S)
    Mg = P @ C.T @ np.linalg.inv(S)
    Z = P - Mg @ C @ P
    if N is None:
        L2, P2, _ = ct.dlqe(A, G, C, Qn, Rn)
        close(P, P2, rtol=1e-7, what='dlqe scipy vs python-control')
    else:  # no cross covariance in python-control's dlqe: check the Riccati residual
        res = A @ P @ A.T - P - (A @ P @ C.T + GN) @ np.linalg.solve(S, C @ P @ A.T + GN.T) + G @ Qn @ G.T
        assert np.abs(res).max() < 1e-10 and np.all(np.abs(np.linalg.eigvals(A - L @ C)) < 1)
    return L, Mg, P, Z


L, P = kalman_c([[0, 1], [-2, -3]], [[0], [1]], [[1, 0]], [[1]], [[0.1]], N=[[0.2]])
record('kalman_cross_c', **gains('L', L), P00=P[0, 0], P11=P[1, 1])
L, Mg, P, Z = kalman_d([[1, 0.1], [0, 0.95]], [[0.005], [0.1]], [[1, 0]], [[1]], [[0.02]], N=[[0.05]])
record('kalman_cross_d', **gains('L', L), **gains('M', Mg), P00=P[0, 0])
L, Mg, P, Z = kalman_d([[1, 0.2], [0, 1]], [[0.02], [0.2]], [[1, 0]], [[0.4]], [[0.25]])
record('kalman_current', **gains('L', L), **gains('M', Mg), Z00=Z[0, 0], Z11=Z[1, 1], P00=P[0, 0])


def lqg_ref(key, A, B, C, QXU, QWV, Ts=0.0):
    A, B, C, QXU, QWV = M(A), M(B), M(C), M(QXU), M(QWV)
    n, m, p = A.shape[0], B.shape[1], C.shape[0]
    Q, N, R = QXU[:n, :n], QXU[:n, n:], QXU[n:, n:]
    Qn, Nn, Rn = QWV[:n, :n], QWV[:n, n:], QWV[n:, n:]
    if Ts:
        K, X, zr = dlqr_ref(A, B, Q, R, N)
        L, Mg, P, Z = kalman_d(A, np.eye(n), C, Qn, Rn, Nn)
        vals = gains('K', K) | gains('L', L) | gains('M', Mg)
    else:
        K, X, zr = lqr_ref(A, B, Q, R, N)
        L, P = kalman_c(A, np.eye(n), C, Qn, Rn, Nn)
        vals = gains('K', K) | gains('L', L)
    ze = sorted_poles(np.linalg.eigvals(A - L @ C))
    record(key, **vals, **poles_rec(ze, 'e'))


lqg_ref('lqg_di', [[0, 1], [0, 0]], [[0], [1]], [[1, 0]], np.eye(3), np.diag([1, 1, 0.1]))
lqg_ref('lqg_cross', [[0, 1], [-1, -0.5]], [[0], [1]], [[1, 0]], np.diag([4, 1, 0.5]),
        [[0.5, 0, 0.1], [0, 1, 0.2], [0.1, 0.2, 0.3]])
lqg_ref('lqg_current', [[1, 0.1], [0, 1]], [[0.005], [0.1]], [[1, 0]], np.eye(3), np.diag([0.01, 0.01, 0.1]), Ts=0.1)

# lqr / dlqr variations
K, X, z = lqr_ref([[0, 1], [4, -0.5]], [[0], [2]], np.diag([20, 1]), [[0.5]])
record('lqr_unstable', **gains('K', K), X00=X[0, 0], **poles_rec(z))
K, X, z = lqr_ref([[0, 1, 0], [0, 0, 1], [-1, -2, -1]], [[0, 0], [1, 0], [0, 1]], np.diag([5, 1, 1]), np.diag([1, 2]))
record('lqr_mimo3', **gains('K', K))
K, X, z = dlqr_ref([[1.1, 0.2], [0, 0.9]], [[0], [0.1]], np.diag([1, 0.5]), [[0.2]], N=[[0.1], [0]])
record('dlqr_cross', **gains('K', K), **poles_rec(z))
K, X, z = dlqr_ref([[0.8, 0.5], [-0.5, 0.8]], [[1], [0]], np.eye(2), [[10]])
record('dlqr_rot', **gains('K', K), X00=X[0, 0], pmag=abs(z[0]))


# ───────────────────────────── observers and placement ─────────────────────────────
def observer_ref(key, A, C, poles):
    A, C = M(A), M(C)
    L = ct.place(A.T, C.T, poles).T
    L2 = acker_exact(A.T.tolist(), C.T.tolist(), poles).T
    close(L, L2, rtol=1e-7, what=f'{key} place vs Ackermann')
    record(key, **gains('L', L2))


observer_ref('obs_companion', [[0, 1, 0], [0, 0, 1], [-6, -11, -6]], [[1, 0, 0]], [-10, -11, -12])
observer_ref('obs_complex', [[0, 1], [-4, -0.4]], [[1, 0]], [-8 + 6j, -8 - 6j])


def spec_poles(Mp=None, ts=None, tp=None):
    zeta = -math.log(Mp) / math.sqrt(math.pi ** 2 + math.log(Mp) ** 2)
    wn = 4 / (zeta * ts) if ts is not None else math.pi / (tp * math.sqrt(1 - zeta ** 2))
    return zeta, wn, complex(-zeta * wn, wn * math.sqrt(1 - zeta ** 2))


def place_spec(key, A, B, Mp=None, ts=None, tp=None, extra=()):
    zeta, wn, p = spec_poles(Mp, ts, tp)
    poles = [p, p.conjugate(), *extra]
    K = acker_exact(A, B, poles)
    K2 = ct.place(M(A), M(B), poles) if len(set(poles)) == len(poles) else K
    close(K, K2, rtol=1e-7, what=f'{key} Ackermann vs place')
    record(key, **gains('K', K), zeta=zeta, wn=wn, re=p.real, im=p.imag)


place_spec('spec_os_ts', [[0, 1], [0, -1]], [[0], [1]], Mp=0.05, ts=2)
place_spec('spec_os_tp', [[0, 1], [0, 0]], [[0], [1]], Mp=0.10, tp=1)
place_spec('spec_third', [[0, 1, 0], [0, 0, 1], [0, -2, -3]], [[0], [0], [1]], Mp=0.15, ts=1, extra=[-20])


# ───────────────────────────── refusals: the PBH test names the stuck mode ─────────────────────────────
def pbh_stuck(A, B, discrete=False):
    """eigenvalues of A that [A - lambda I, B] does not reach and that need moving"""
    A, B = M(A), M(B)
    bad = []
    for lam in np.linalg.eigvals(A):
        r = np.linalg.matrix_rank(np.hstack([A - lam * np.eye(len(A)), B]), tol=1e-9)
        unstable = abs(lam) >= 1 if discrete else lam.real >= 0
        if r < len(A) and unstable:
            bad.append(lam)
    return bad


# lqi on G = (s + 0)/(s + 1) written as A = -1, B = 1, C = -1, D = 1: a zero at s = 0 makes
# the integrator uncontrollable in [A 0; -C 0], [B; -D]
st = pbh_stuck([[-1, 0], [1, 0]], [[1], [-1]])
assert len(st) == 1 and abs(st[0]) < 1e-12
record('refuse_lqi_zero', stuck=st[0].real)  # the mode at s = 0 (refusals score the reason, not a number)
st = pbh_stuck([[1.5, 0], [0, 0.5]], [[0], [1]], discrete=True)
assert len(st) == 1 and abs(st[0] - 1.5) < 1e-12
record('refuse_dlqr', stuck=st[0].real)
# observer on A = diag(1, 2), C = [1 0]: the mode at 2 is unobservable (dual PBH)
st = pbh_stuck(M([[1, 0], [0, 2]]).T, M([[1, 0]]).T)
assert len(st) == 1 and abs(st[0] - 2) < 1e-12
record('refuse_observer', stuck=st[0].real)
st = pbh_stuck(M([[1.2, 0], [0, 0.5]]).T, M([[0, 1]]).T, discrete=True)
assert len(st) == 1 and abs(st[0] - 1.2) < 1e-12
record('refuse_kalman', stuck=st[0].real)

with open(os.path.join(HERE, 'design_ref.json'), 'w') as f:
    json.dump({'generator': 'benchmarks/design_ref.py', 'versions': {
        'numpy': np.__version__, 'scipy': __import__('scipy').__version__,
        'control': ct.__version__, 'sympy': sp.__version__},
        'values': OUT}, f, indent=1, sort_keys=True)
    f.write('\n')
print(f'wrote design_ref.json: {len(OUT)} designs, {sum(len(v) for v in OUT.values())} values')
