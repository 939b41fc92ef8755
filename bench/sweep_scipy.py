"""
The SciPy side of the size sweep (bench/sweep.ts): one python3 process for all cases,

  python3 bench/sweep_scipy.py OUTDIR IN1.json [IN2.json ...]

Each IN.json is {"id", "tool", "reps", "budget_s", "fill_s", "max_calls", "problems": [{"n", "args"}]}
as sweep.ts writes it; the answers go to OUTDIR/<basename of IN>.scipy.json. Each problem is
timed with perf_counter around the call, the minimum over calls after a warm-up on the first
problem: at least `reps`, more (up to `max_calls`) while they take under `fill_s` seconds
together, none after `budget_s` seconds (at least one). SciPy has no
control toolbox, so several cases are the usual composition of SciPy/NumPy calls (said in
COMPOSED below and in bench/RESULTS.md); where that would mean writing the algorithm itself
(margins, H-infinity norm, stepinfo) there is no SciPy column. Matrices are written as
{"s": shape, "v": real column-major, "im": imag}, as the Octave side writes them.
"""
import json
import os
import sys
import time
import warnings

import numpy as np
import scipy
import scipy.linalg as la
import scipy.signal as sg

warnings.simplefilter('ignore')

# no SciPy function, and a composition would be an implementation of its own
NONE = {
    'margins': 'no SciPy function (gain/phase margins need crossover finding: an implementation of its own)',
    'hinfnorm': 'no SciPy function (the H-infinity norm needs a level-set iteration: an implementation of its own)',
    'stepinfo': 'no SciPy function',
}
# SciPy's place_poles (YT) is O(n^5) a sweep: n = 64 would take minutes to hours
MAX_N = {'place (1 input)': 32, 'place (2 inputs)': 32}


def mx(x):
    x = np.asarray(x)
    if x.ndim == 0:
        x = x.reshape(1, 1)
    elif x.ndim == 1:
        x = x.reshape(-1, 1)
    f = x.ravel(order='F')
    return {'s': list(x.shape), 'v': np.real(f).tolist(), 'im': np.imag(f).tolist()}


def arr(v):
    return np.array(v, dtype=float)


def ctrb(A, B):
    blocks = [B]
    for _ in range(A.shape[0] - 1):
        blocks.append(A @ blocks[-1])
    return np.hstack(blocks)


def run_case(cid, a):
    A = arr(a['A']) if 'A' in a else None
    if cid == 'eig':
        return {'e': mx(la.eigvals(A))}
    if cid == 'ctrb_rank':
        M = ctrb(A, arr(a['B']))
        return {'rank': int(np.linalg.matrix_rank(M)), 'matrix': mx(M)}
    if cid == 'obsv_rank':
        M = ctrb(A.T, arr(a['C']).T).T
        return {'rank': int(np.linalg.matrix_rank(M)), 'matrix': mx(M)}
    if cid == 'analyse':
        B, C = arr(a['B']), arr(a['C'])
        e = la.eigvals(A)
        return {'e': mx(e), 'stable': bool(np.all(e.real < 0)), 'nc': int(np.linalg.matrix_rank(ctrb(A, B))), 'no': int(np.linalg.matrix_rank(ctrb(A.T, C.T)))}
    if cid == 'damp':
        p = la.eigvals(A)
        wn = np.abs(p)
        return {'wn': mx(wn), 'zeta': mx(-p.real / wn)}
    if cid == 'poles_zeros':
        B, C, D = arr(a['B']), arr(a['C']), arr(a['D'])
        n, m = B.shape
        p = C.shape[0]
        # invariant zeros: the finite generalized eigenvalues of the Rosenbrock pencil
        S = np.block([[A, B], [C, D]])
        T = np.block([[np.eye(n), np.zeros((n, m))], [np.zeros((p, n)), np.zeros((p, m))]])
        z = la.eigvals(S, T)
        z = z[np.isfinite(z) & (np.abs(z) < 1e10)]
        return {'poles': mx(la.eigvals(A)), 'zeros': mx(z)}
    if cid == 'lyap':
        return {'X': mx(la.solve_continuous_lyapunov(A, -arr(a['Q'])))}
    if cid == 'dlyap':
        return {'X': mx(la.solve_discrete_lyapunov(A, arr(a['Q'])))}
    if cid in ('care', 'lqr'):
        B, Q, R = arr(a['B']), arr(a['Q']), arr(a['R'])
        X = la.solve_continuous_are(A, B, Q, R)
        K = la.solve(R, B.T @ X)
        return {'X': mx(X), 'K': mx(K), 'poles': mx(la.eigvals(A - B @ K))}
    if cid in ('dare', 'dlqr'):
        B, Q, R = arr(a['B']), arr(a['Q']), arr(a['R'])
        X = la.solve_discrete_are(A, B, Q, R)
        K = la.solve(R + B.T @ X @ B, B.T @ X @ A)
        return {'X': mx(X), 'K': mx(K), 'poles': mx(la.eigvals(A - B @ K))}
    if cid == 'lqe':
        G, C, Qn, Rn = arr(a['G']), arr(a['C']), arr(a['Qn']), arr(a['Rn'])
        P = la.solve_continuous_are(A.T, C.T, G @ Qn @ G.T, Rn)
        L = la.solve(Rn, C @ P).T
        return {'L': mx(L), 'P': mx(P), 'poles': mx(la.eigvals(A - L @ C))}
    if cid == 'kalman':
        G, C, Qn, Rn = arr(a['G']), arr(a['C']), arr(a['Qn']), arr(a['Rn'])
        P = la.solve_discrete_are(A.T, C.T, G @ Qn @ G.T, Rn)
        M = la.solve(C @ P @ C.T + Rn, C @ P).T
        L = A @ M
        return {'L': mx(L), 'P': mx(P), 'poles': mx(la.eigvals(A - L @ C))}
    if cid in ('place (1 input)', 'place (2 inputs)'):
        poles = np.array([complex(re, im) for re, im in a['poles']])
        return {'K': mx(sg.place_poles(A, arr(a['B']), poles).gain_matrix)}
    if cid in ('c2d (zoh)', 'c2d (tustin)'):
        method = 'bilinear' if a['method'] == 'tustin' else a['method']
        Ad, Bd, Cd, Dd, _ = sg.cont2discrete((A, arr(a['B']), arr(a['C']), arr(a['D'])), a['Ts'], method=method)
        return {'Ad': mx(Ad), 'Bd': mx(Bd), 'Cd': mx(Cd), 'Dd': mx(Dd)}
    if cid == 'tf2ss':
        A2, B2, C2, D2 = sg.tf2ss(a['num'], a['den'])
        return {'A': mx(A2), 'B': mx(B2), 'C': mx(C2), 'D': mx(D2)}
    if cid == 'ss2tf':
        num, den = sg.ss2tf(A, arr(a['B']), arr(a['C']), arr(a['D']))
        return {'num': mx(num[0]), 'den': mx(den)}
    if cid == 'dcgain':
        return {'gain': mx(arr(a['D']) - arr(a['C']) @ la.solve(A, arr(a['B'])))}
    if cid == 'freqresp':
        B, C, D = arr(a['B']), arr(a['C']), arr(a['D'])
        w = arr(a['w'])
        n = A.shape[0]
        # one batched solve over the frequencies: H[k] = C (jw_k I - A)^-1 B + D
        X = np.linalg.solve(1j * w[:, None, None] * np.eye(n)[None] - A[None], np.broadcast_to(B, (len(w),) + B.shape))
        H = C[None] @ X + D[None]
        return {'H': mx(np.transpose(H, (1, 2, 0)))}
    if cid == 'nyquist':
        _, H = sg.freqresp((A, arr(a['B']), arr(a['C']), arr(a['D'])), w=arr(a['w']))
        return {'H': mx(H)}
    if cid == 'rlocus':
        B, C = arr(a['B']), arr(a['C'])
        ks = arr(a['k'])
        P = np.array([np.sort_complex(la.eigvals(A - k * B @ C)) for k in ks]).T
        return {'poles': mx(P), 'gains': mx(ks)}
    if cid == 'h2norm':
        B, C = arr(a['B']), arr(a['C'])
        P = la.solve_continuous_lyapunov(A, -B @ B.T)
        return {'h2': float(np.sqrt(np.trace(C @ P @ C.T)))}
    if cid in ('step', 'impulse'):
        B, C, D = arr(a['B']), arr(a['C']), arr(a['D'])
        t = arr(a['t'])
        f = sg.step if cid == 'step' else sg.impulse
        ys = [f((A, B[:, [j]], C, D[:, [j]]), T=t)[1] for j in range(B.shape[1])]
        return {'y': mx(np.stack(ys, axis=2))}
    raise ValueError(f'no case {cid}')


# what each composed case computes, for the write-up
COMPOSED = {
    'ctrb_rank': 'numpy: [B, AB, ...] and matrix_rank',
    'obsv_rank': 'numpy: [C; CA; ...] and matrix_rank',
    'analyse': 'eigvals, and matrix_rank of the controllability and observability matrices',
    'damp': 'eigvals, then |p| and -Re p/|p|',
    'poles_zeros': 'eigvals, and the finite generalized eigenvalues of the Rosenbrock pencil (QZ)',
    'lqr': 'solve_continuous_are, K = R^-1 B\'X, eig(A - BK)',
    'dlqr': 'solve_discrete_are, K = (R + B\'XB)^-1 B\'XA, eig(A - BK)',
    'care': 'solve_continuous_are, K, eig(A - BK)',
    'dare': 'solve_discrete_are, K, eig(A - BK)',
    'lqe': 'solve_continuous_are of the dual, L = P C\' Rn^-1, eig(A - LC)',
    'kalman': 'solve_discrete_are of the dual, M = P C\'(C P C\' + Rn)^-1, L = A M, eig(A - LC)',
    'dcgain': 'D - C solve(A, B)',
    'freqresp': 'one batched numpy.linalg.solve over the frequencies',
    'rlocus': 'eigvals(A - k B C) at each gain',
    'nyquist': 'signal.freqresp, which goes through the zeros, poles and gain of the transfer function (so it loses accuracy as n grows)',
    'h2norm': 'solve_continuous_lyapunov, sqrt(trace(C P C\'))',
    'step': 'signal.step once per input',
    'impulse': 'signal.impulse once per input',
}


def main():
    outdir = sys.argv[1]
    for path in sys.argv[2:]:
        with open(path) as f:
            S = json.load(f)
        cid = S['id']
        out = []
        if cid in NONE:
            out = [{'n': q['n'], 'none': NONE[cid]} for q in S['problems']]
        else:
            P = S['problems']
            for _ in range(2):
                try:
                    run_case(cid, P[0]['args'])
                except Exception:
                    pass
            for q in P:
                if q['n'] > MAX_N.get(cid, 10**9):
                    out.append({'n': q['n'], 'none': f'not run above n = {MAX_N[cid]} (place_poles YT is O(n^5) a sweep)'})
                    continue
                o = {'n': q['n']}
                try:
                    ts = []
                    t_all = time.perf_counter()
                    while True:
                        t0 = time.perf_counter()
                        r = run_case(cid, q['args'])
                        ts.append(time.perf_counter() - t0)
                        spent = time.perf_counter() - t_all
                        if spent > S['budget_s'] or len(ts) >= S['max_calls'] or (len(ts) >= S['reps'] and spent > S['fill_s']):
                            break
                    o.update(ms=1000 * min(ts), reps=len(ts), result=r)
                except Exception as e:  # a refusal is a result of the comparison too
                    o['error'] = f'{type(e).__name__}: {e}'
                out.append(o)
        base = os.path.basename(path)[:-5]
        with open(os.path.join(outdir, base + '.scipy.json'), 'w') as f:
            json.dump({'versions': {'scipy': scipy.__version__, 'numpy': np.__version__, 'python': sys.version.split()[0]}, 'composed': COMPOSED.get(cid), 'results': out}, f)
        print(f'scipy {cid}: done', file=sys.stderr, flush=True)


if __name__ == '__main__':
    main()
