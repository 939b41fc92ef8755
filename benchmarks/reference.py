#!/usr/bin/env python3
"""Independent values for every scored ControlBench number: writes benchmarks/reference.json.

For each number of controlbench.jsonl (every family, every turn of a multi-turn item) this
script reads only WHAT is asked (the `source` command's tool and arguments, and the `path` into
its result), never the expected value, and recomputes it with numpy, scipy and python-control
(0.10.2) by its own route:

  Riccati/LQR/LQE/Kalman   scipy.linalg.solve_continuous_are / solve_discrete_are (cross terms
                           through s=), gains by the textbook formulas, closed-loop poles by eig;
                           checked against python-control's lqr/dlqr/lqe where it has the case
  place (single input)     Ackermann's formula; closed-loop poles by eig
  c2d                      scipy.signal.cont2discrete (zoh, bilinear, foh)
  lyap / dlyap / gramians  scipy.linalg.solve_continuous_lyapunov / solve_discrete_lyapunov
  eig / analyse            numpy eig; modes wn = |s|, zeta = -Re s/|s| (discrete: s = ln z / Ts),
                           tau = -1/Re s; controllability and observability ranks by
                           numpy.linalg.matrix_rank of control.ctrb/obsv, uncontrollable and
                           unobservable modes by the PBH rank test
  poles_zeros / dcgain     numpy roots; -C A^-1 B + D
  ss2tf                    scipy.signal.ss2tf
  margins                  crossovers bracketed on a dense log grid and refined by brentq on the
                           exact frequency response (gain: |L| = 1; phase: Im L = 0, Re L < 0)
  hinfnorm / h2norm        peak of the largest singular value, grid then bounded scalar
                           refinement; H2 from the Lyapunov gramian
  freqresp                 C (jwI - A)^-1 B, phase unwrapped along the requested frequencies
  step / impulse           matrix exponential (closed forms C A^-1 (e^{At} - I) B, C e^{At} B)
  stepinfo                 the exact step response: rise time 10-90 % and the 2 % settling
                           time by brentq, the peak by bounded scalar refinement

Numbers of the design family are not recomputed here: their values ARE the independent
design_ref.json (design_ref.py), and verify.mjs checks them against it. A number this script
cannot compute in the product's convention is listed under "not_computed" with the reason;
the check (benchmarks/verify.mjs, test/unit/eval.test.ts) then fails until the item stops
scoring it (and says why in its note).

Run: python3 benchmarks/reference.py   (after node benchmarks/build.mjs; commit reference.json)
"""
import json, os, re, sys
import numpy as np, scipy, scipy.linalg as la, scipy.signal as sig
from scipy.optimize import brentq, minimize_scalar
import control

HERE = os.path.dirname(os.path.abspath(__file__))
M = lambda x: np.array(x, float)


def parse(src):
    m = re.match(r"^control solve (\w+) '(.*)'$", src, re.S)
    return m.group(1), json.loads(m.group(2))


def get(r, path):
    for p in re.findall(r'[^.\[\]]+', path):
        r = r[int(p)] if p.isdigit() else r[p]
    return r


def pairs(vals):
    """eigenvalues as [re, im], sorted by real part then imaginary part (the product's order)"""
    vals = sorted(np.asarray(vals, complex), key=lambda v: (round(v.real, 9), v.imag))
    return [[v.real, v.imag] for v in vals]


def D_of(a, C, B):
    return M(a['D']) if 'D' in a else np.zeros((C.shape[0], B.shape[1]))


def pbh(A, X, ctrb=True):
    """modes of A that X (B, or C) cannot reach/see: rank [λI - A, B] < n (or [λI - A; C])"""
    n = A.shape[0]
    out = []
    for lam in np.linalg.eigvals(A):
        Mx = np.hstack([lam * np.eye(n) - A, X]) if ctrb else np.vstack([lam * np.eye(n) - A, X])
        if np.linalg.matrix_rank(Mx, tol=1e-8 * max(1, np.abs(Mx).max())) < n:
            out.append(lam)
    # a repeated eigenvalue is tested once per copy; keep distinct ones
    uniq = []
    for v in out:
        if not any(abs(v - u) < 1e-9 for u in uniq):
            uniq.append(v)
    return pairs(uniq)


def modes(ev, Ts):
    out = []
    for re_, im in ev:
        s = complex(re_, im)
        s = np.log(s) / Ts if Ts else s
        wn = abs(s)
        out.append({'wn': wn, 'zeta': -s.real / wn, 'tau': -1 / s.real if s.real < 0 else None})
    return out


def freq(A, B, C, D, z):
    n = A.shape[0]
    return C @ np.linalg.solve(z * np.eye(n) - A, B) + D


def tf_of(a):
    if 'num' in a:
        return np.atleast_1d(M(a['num'])), M(a['den'])
    A, B, C = M(a['A']), M(a['B']), M(a['C'])
    nn, dd = sig.ss2tf(A, B, C, D_of(a, C, B))
    return nn[0], dd


def margins(a):
    num, den = tf_of(a)
    Ts = a.get('Ts', 0) or 0
    top = np.pi / Ts * (1 - 1e-9) if Ts else 1e4
    ws = np.logspace(-5, np.log10(top), 400001)
    L = lambda w: np.polyval(num, np.exp(1j * w * Ts) if Ts else 1j * w) / np.polyval(den, np.exp(1j * w * Ts) if Ts else 1j * w)
    Lw = L(ws)
    out = {}
    g = np.abs(Lw) - 1
    i = np.where(np.sign(g[:-1]) * np.sign(g[1:]) < 0)[0]
    if len(i):
        wgc = brentq(lambda w: abs(L(w)) - 1, ws[i[0]], ws[i[0] + 1], xtol=1e-14, rtol=1e-14)
        ph = np.degrees(np.angle(L(wgc)))
        out['w_gc'] = wgc
        out['pm_deg'] = (ph + 180 + 180) % 360 - 180  # 180 + phase, wrapped to (-180, 180]
    im = Lw.imag
    j = [k for k in np.where(np.sign(im[:-1]) * np.sign(im[1:]) < 0)[0] if Lw.real[k] < 0]
    if j:
        wpc = brentq(lambda w: L(w).imag, ws[j[0]], ws[j[0] + 1], xtol=1e-14, rtol=1e-14)
        out['w_pc'] = wpc
        out['gm'] = 1 / abs(L(wpc))
        out['gm_db'] = -20 * np.log10(abs(L(wpc)))
    return out


def sigma_peak(A, B, C, D, Ts):
    top = np.pi / Ts if Ts else 1e3
    ws = np.concatenate([[0.0], np.logspace(-6, np.log10(top), 200001)])
    if Ts:
        ws = ws[ws <= top]
    sv = lambda w: np.linalg.svd(freq(A, B, C, D, np.exp(1j * w * Ts) if Ts else 1j * w), compute_uv=False)[0]
    vals = np.array([sv(w) for w in ws[::10]])
    k = int(np.argmax(vals)) * 10
    lo, hi = ws[max(k - 10, 0)], ws[min(k + 10, len(ws) - 1)]
    r = minimize_scalar(lambda w: -sv(w), bounds=(lo, hi), method='bounded', options={'xatol': 1e-13})
    best = max([(sv(lo), lo), (sv(hi), hi), (-r.fun, r.x)])
    return best[0], best[1]


def step_y(A, B, C, D, t):
    n = A.shape[0]
    return (C @ np.linalg.solve(A, (la.expm(A * t) - np.eye(n)) @ B) + D)[0, 0]


def stepinfo(a):
    A, B, C = M(a['A']), M(a['B']), M(a['C'])
    D = D_of(a, C, B)
    y = lambda t: step_y(A, B, C, D, t)
    yf = (D - C @ np.linalg.solve(A, B))[0, 0]
    T = 50.0
    ts = np.linspace(0, T, 50001)
    ys = np.array([y(t) for t in ts])
    k = int(np.argmax(ys))
    r = minimize_scalar(lambda t: -y(t), bounds=(ts[max(k - 1, 0)], ts[k + 1]), method='bounded', options={'xatol': 1e-13})
    tp, ypk = r.x, -r.fun
    first = lambda lev: int(np.argmax(ys >= lev))
    t10 = brentq(lambda t: y(t) - 0.1 * yf, ts[first(0.1 * yf) - 1], ts[first(0.1 * yf)], xtol=1e-14)
    t90 = brentq(lambda t: y(t) - 0.9 * yf, ts[first(0.9 * yf) - 1], ts[first(0.9 * yf)], xtol=1e-14)
    outside = np.where(np.abs(ys - yf) > 0.02 * abs(yf))[0][-1]
    band = lambda t: abs(y(t) - yf) - 0.02 * abs(yf)
    tset = brentq(band, ts[outside], ts[outside + 1], xtol=1e-14)
    return {'overshoot_pct': 100 * (ypk - yf) / yf, 'peak_time': tp, 'rise_time': t90 - t10, 'settling_time': tset}


def lq_check(K, ref, what):
    if not np.allclose(K, ref, rtol=1e-8, atol=1e-10):
        raise AssertionError(f'{what}: scipy and python-control disagree: {K} vs {ref}')


def ref(tool, a):
    if tool in ('eig', 'analyse'):
        A = M(a['A'])
        Ts = a.get('Ts', 0) or 0
        ev = pairs(np.linalg.eigvals(A))
        out = {'eigenvalues': ev, 'modes': modes(ev, Ts)}
        if 'B' in a:
            B = M(a['B'])
            out['controllability'] = {'rank': int(np.linalg.matrix_rank(control.ctrb(A, B))), 'uncontrollable': pbh(A, B, True)}
        if 'C' in a:
            C = M(a['C'])
            out['observability'] = {'rank': int(np.linalg.matrix_rank(control.obsv(A, C))), 'unobservable': pbh(A, C, False)}
        return out
    if tool == 'ctrb_rank':
        return {'rank': int(np.linalg.matrix_rank(control.ctrb(M(a['A']), M(a['B']))))}
    if tool == 'obsv_rank':
        return {'rank': int(np.linalg.matrix_rank(control.obsv(M(a['A']), M(a['C']))))}
    if tool in ('lqr', 'care'):
        A, B, Q, R = M(a['A']), M(a['B']), M(a['Q']), M(a['R'])
        N = M(a['N']) if 'N' in a else np.zeros((A.shape[0], B.shape[1]))
        X = la.solve_continuous_are(A, B, Q, R, s=N)
        K = la.solve(R, B.T @ X + N.T)
        lq_check(K, control.lqr(A, B, Q, R, N)[0], f'lqr {a}')
        return {'K': K, 'X': X, 'poles': pairs(np.linalg.eigvals(A - B @ K))}
    if tool in ('dlqr', 'dare'):
        A, B, Q, R = M(a['A']), M(a['B']), M(a['Q']), M(a['R'])
        N = M(a['N']) if 'N' in a else np.zeros((A.shape[0], B.shape[1]))
        X = la.solve_discrete_are(A, B, Q, R, s=N)
        K = la.solve(R + B.T @ X @ B, B.T @ X @ A + N.T)
        lq_check(K, control.dlqr(A, B, Q, R, N)[0], f'dlqr {a}')
        return {'K': K, 'X': X, 'poles': pairs(np.linalg.eigvals(A - B @ K))}
    if tool in ('lqe', 'kalman'):
        A, G, C, Qn, Rn = M(a['A']), M(a['G']), M(a['C']), M(a['Qn']), M(a['Rn'])
        GN = G @ M(a['N']) if 'N' in a else np.zeros((A.shape[0], C.shape[0]))
        if (a.get('Ts', 0) or 0) > 0:
            P = la.solve_discrete_are(A.T, C.T, G @ Qn @ G.T, Rn, s=GN)
            S = C @ P @ C.T + Rn
            Mg = P @ C.T @ np.linalg.inv(S)
            return {'P': P, 'M': Mg, 'L': (A @ P @ C.T + GN) @ np.linalg.inv(S), 'Z': P - Mg @ C @ P}
        P = la.solve_continuous_are(A.T, C.T, G @ Qn @ G.T, Rn, s=GN)
        L = (P @ C.T + GN) @ np.linalg.inv(Rn)
        if 'N' not in a:
            lq_check(L, control.lqe(A, G, C, Qn, Rn)[0], f'lqe {a}')
        return {'P': P, 'L': L, 'poles': pairs(np.linalg.eigvals(A - L @ C))}
    if tool == 'place':
        A, B = M(a['A']), M(a['B'])
        if B.shape[1] != 1:
            return None  # multi-input gains are not unique; not scored
        p = [complex(*x) if isinstance(x, list) else complex(x) for x in a['poles']]
        n = A.shape[0]
        Cm = np.hstack([np.linalg.matrix_power(A, i) @ B for i in range(n)])
        c = np.real(np.poly(p))
        phi = sum(c[i] * np.linalg.matrix_power(A, n - i) for i in range(n + 1))
        K = np.eye(n)[-1:] @ np.linalg.solve(Cm, phi)
        return {'K': K, 'Acl': A - B @ K, 'poles': pairs(np.linalg.eigvals(A - B @ K))}
    if tool == 'c2d':
        A, B, C = M(a['A']), M(a['B']), M(a['C'])
        m = {'tustin': 'bilinear'}.get(a.get('method', 'zoh'), a.get('method', 'zoh'))
        Ad, Bd, Cd, Dd, _ = sig.cont2discrete((A, B, C, D_of(a, C, B)), a['Ts'], method=m)
        return {'Ad': Ad, 'Bd': Bd, 'Cd': Cd, 'Dd': Dd}
    if tool == 'lyap':
        return {'X': la.solve_continuous_lyapunov(M(a['A']), -M(a['Q']))}
    if tool == 'dlyap':
        return {'X': la.solve_discrete_lyapunov(M(a['A']), M(a['Q']))}
    if tool == 'h2norm':
        A, B, C = M(a['A']), M(a['B']), M(a['C'])
        Ts = a.get('Ts', 0) or 0
        P = la.solve_discrete_lyapunov(A, B @ B.T) if Ts else la.solve_continuous_lyapunov(A, -B @ B.T)
        D = D_of(a, C, B)
        return {'h2': np.sqrt(np.trace(C @ P @ C.T + (D @ D.T if Ts else 0)))}
    if tool == 'hinfnorm':
        A, B, C = M(a['A']), M(a['B']), M(a['C'])
        g, w = sigma_peak(A, B, C, D_of(a, C, B), a.get('Ts', 0) or 0)
        return {'hinf': g, 'fpeak': w}
    if tool == 'margins':
        return margins(a)
    if tool == 'freqresp':
        A, B, C = M(a['A']), M(a['B']), M(a['C'])
        H = [freq(A, B, C, D_of(a, C, B), 1j * w)[0, 0] for w in a['w']]
        return {'mag_db': [20 * np.log10(abs(h)) for h in H], 'phase_deg': list(np.unwrap(np.angle(H)) * 180 / np.pi)}
    if tool == 'ss2tf':
        A, B, C = M(a['A']), M(a['B']), M(a['C'])
        nn, dd = sig.ss2tf(A, B, C, D_of(a, C, B))
        return {'num': list(nn[0]), 'den': list(dd)}
    if tool == 'poles_zeros':
        num, den = tf_of(a)
        return {'poles': pairs(np.roots(den)), 'zeros': pairs(np.roots(np.trim_zeros(num, 'f')))}
    if tool == 'dcgain':
        A, B, C = M(a['A']), M(a['B']), M(a['C'])
        return {'gain': D_of(a, C, B) - C @ np.linalg.solve(A, B)}
    if tool == 'step':
        A, B, C = M(a['A']), M(a['B']), M(a['C'])
        return {'y': [step_y(A, B, C, D_of(a, C, B), t) for t in a['t']]}
    if tool == 'impulse':
        A, B, C = M(a['A']), M(a['B']), M(a['C'])
        return {'y': [(C @ la.expm(A * t) @ B)[0, 0] for t in a['t']]}
    if tool == 'stepinfo':
        return stepinfo(a)
    return None


def expects(q):
    if q.get('turns'):
        return [t['expect'] for t in q['turns']]
    return [q['expect']]


def main():
    values, missing, cache = {}, [], {}
    for line in open(os.path.join(HERE, 'controlbench.jsonl')):
        q = json.loads(line)
        for e in expects(q):
            for n in e.get('numbers', []):
                if n.get('ref'):
                    continue  # design family: the value is design_ref.json's (design_ref.py)
                src, path = n['source'], n['path']
                if src not in cache:
                    tool, a = parse(src)
                    cache[src] = ref(tool, a)
                r = cache[src]
                try:
                    v = get(r, path) if r is not None else None
                except (KeyError, IndexError, TypeError):
                    v = None
                if v is None or not np.isfinite(v):
                    missing.append({'id': q['id'], 'name': n['name'], 'reason': 'no independent route in reference.py'})
                    continue
                values.setdefault(src, {})[path] = float(v)
    out = {
        'generated_by': 'benchmarks/reference.py',
        'versions': {'numpy': np.__version__, 'scipy': scipy.__version__, 'control': control.__version__},
        'count': sum(len(v) for v in values.values()),
        'not_computed': missing,
        'values': values,
    }
    with open(os.path.join(HERE, 'reference.json'), 'w') as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write('\n')
    print(f"{out['count']} numbers recomputed from {len(values)} source commands; not computed: {len(missing)}")
    for m in missing:
        print('  ', m)


if __name__ == '__main__':
    main()
