#!/usr/bin/env python3
"""Accuracy of our real Schur form, dlahqr-style Francis QR against aggressive early deflation
(laqr0), beside numpy (LAPACK dgeev) on seeded random, stiff, badly scaled, defective and graded
matrices. Run from the repository root:

    python3 bench/schur-accuracy.py > bench/schur-accuracy.txt

For each matrix and each iteration: backward error ||A - Z T Z'||F/||A||F, orthogonality
||Z'Z - I||F (from bench/schur-accuracy.ts), and the eigenvalues of T matched one to one with
numpy's (linear_sum_assignment on |lambda - mu|): the largest difference relative to ||A||F
(normwise) and relative to |mu| (componentwise, what grading and scaling put at risk). 'bal' is
the balanced eigenvalue path (eig's), compared the same way.
"""
import json
import subprocess
import sys
import tempfile

import numpy as np
from scipy.optimize import linear_sum_assignment
from scipy.stats import ortho_group


def matrices():
    rng = np.random.default_rng(20261201)
    out = []
    for n in (30, 100, 200, 300):
        out.append((f"random n={n}", rng.standard_normal((n, n))))
    for n in (100, 200):
        # stiff: eigenvalues (real and complex pairs) with magnitudes 1e-6 .. 1e6, mildly non-normal basis
        mags = np.logspace(-6, 6, n // 2)
        B = np.zeros((n, n))
        for k in range(n // 2):
            i = 2 * k
            if k % 2 == 0:
                B[i, i], B[i + 1, i + 1] = -mags[k], -1.5 * mags[k]
            else:
                B[i : i + 2, i : i + 2] = [[-mags[k], mags[k]], [-mags[k], -mags[k]]]
        S = ortho_group.rvs(n, random_state=rng) + 0.3 * rng.standard_normal((n, n)) / np.sqrt(n)
        out.append((f"stiff n={n}", S @ B @ np.linalg.inv(S)))
    for n in (100, 200):
        # badly scaled: D R D^-1, D = diag(2^linspace(-30, 30)) (entries 1e-18 .. 1e18, same eigenvalues as R)
        d = 2.0 ** np.round(np.linspace(-30, 30, n))
        out.append((f"badly scaled n={n}", (d[:, None] * rng.standard_normal((n, n))) / d[None, :]))
    for n in (100, 200):
        # defective: orthogonal similarity of Jordan blocks of sizes 1..4
        J = np.zeros((n, n))
        i = 0
        while i < n:
            k = min(int(rng.integers(1, 5)), n - i)
            lam = rng.uniform(-2, 2)
            for j in range(k):
                J[i + j, i + j] = lam
                if j + 1 < k:
                    J[i + j, i + j + 1] = 1
            i += k
        Q = ortho_group.rvs(n, random_state=rng)
        out.append((f"defective n={n}", Q @ J @ Q.T))
    for n in (100, 200):
        # graded: D R D, D = diag(10^-(0 .. 8)) (entries 1 down to 1e-16 along the diagonal)
        d = 10.0 ** -np.linspace(0, 8, n)
        out.append((f"graded n={n}", d[:, None] * rng.standard_normal((n, n)) * d[None, :]))
    return out


def compare(ours, ref, scale):
    a = np.array([complex(re, im) for re, im in ours])
    cost = np.abs(a[:, None] - ref[None, :])
    r, c = linear_sum_assignment(cost)
    d = np.abs(a[r] - ref[c])
    rel = d / np.maximum(np.abs(ref[c]), np.finfo(float).tiny)
    return d.max() / scale, rel.max()


def main():
    mats = matrices()
    with tempfile.TemporaryDirectory() as tmp:
        inp, outp = f"{tmp}/in.json", f"{tmp}/out.json"
        with open(inp, "w") as f:
            json.dump([{"name": name, "A": A.tolist()} for name, A in mats], f)
        subprocess.run(["node", "--import", "tsx", "bench/schur-accuracy.ts", inp, outp], check=True)
        with open(outp) as f:
            res = json.load(f)
    print("numpy", np.__version__)
    print("| matrix | iteration | ||A-ZTZ'||/||A|| | ||Z'Z-I|| | eig vs numpy (normwise) | (componentwise) | balanced eig vs numpy (normwise) | (componentwise) | dlahqr vs aed eig (normwise) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    worst = 0.0
    for (name, A), r in zip(mats, res):
        ref = np.linalg.eigvals(A)
        scale = np.linalg.norm(A)
        ours_ref = np.array([complex(re, im) for re, im in r["dlahqr"]["eig"]])
        for m in ("dlahqr", "aed"):
            s = r[m]
            nw, cw = compare(s["eig"], ref, scale)
            bnw, bcw = compare(r[m + "Balanced"], ref, scale)
            cross = compare(s["eig"], ours_ref, scale)[0] if m == "aed" else 0.0
            print(f"| {name} | {m} | {s['back']:.1e} | {s['orth']:.1e} | {nw:.1e} | {cw:.1e} | {bnw:.1e} | {bcw:.1e} | {cross:.1e} |")
            worst = max(worst, s["back"] / r["n"], s["orth"] / r["n"])
    print(f"largest backward error or orthogonality per n: {worst:.1e} (n * eps = {np.finfo(float).eps:.1e} * n)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
