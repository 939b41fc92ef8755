"""Ackermann's formula in exact rational arithmetic, shared by the independent reference scripts
(design_ref.py, turns_ref.py): sympy, not @control's solver."""
import numpy as np
import sympy as sp


def acker_exact(A, B, poles):
    """Ackermann's formula in exact rational arithmetic (sympy)"""
    A, B = sp.Matrix(A).applyfunc(sp.nsimplify), sp.Matrix(B).applyfunc(sp.nsimplify)
    n = A.shape[0]
    s = sp.symbols('s')
    charp = sp.Poly(sp.expand(sp.prod([s - sp.nsimplify(p) for p in poles])), s).all_coeffs()
    phi = sp.zeros(n, n)
    for k, c in enumerate(charp):
        phi += sp.re(sp.expand(c)) * A ** (n - k)
    Cm = sp.Matrix.hstack(*[A ** k * B for k in range(n)])
    e = sp.zeros(1, n)
    e[n - 1] = 1
    return np.array((e * Cm.inv() * phi).evalf(30), dtype=float)
