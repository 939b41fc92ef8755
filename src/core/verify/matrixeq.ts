/**
 * Independent checks of the Sylvester and square-root Lyapunov results (solvers/matrixeq.ts):
 * the residual of the equation as given, formed here with ml-matrix from the arguments (not
 * from any Schur form), normalised by the sum of its terms' norms and judged by the shared
 * residual rule of verify/index.ts (1e-8, or the floor that the exact solution rounded to
 * double precision leaves). lyapchol's R: X = RᵀR is formed here, and R must be upper
 * triangular with a non-negative diagonal (the Cholesky factor's definition); with E, the
 * generalised equation's residual with E as given (the solver reduced it by E⁻¹).
 *
 * The residual helpers are passed in by verify/index.ts (this module imports nothing from it
 * at run time, so loading either first cannot meet the other half-initialised).
 */
import { Matrix as M } from 'ml-matrix';
import type { Matrix } from '../types.js';
import type { Check } from './index.js';
import { froNorm, sci } from './numeric.js';

export interface ResidualRule {
  residualCheck(label: string, res: number, floor?: number): Check;
  residualFloor(n: number, opNorm: number, xNorm: number, den: number): number;
  symmetryCheck(X: M, name: string): Check;
}

type Checker = (args: Record<string, any>, result: Record<string, any>) => Check[];

export function matrixEqChecks(rule: ResidualRule): Record<'sylvester' | 'dsylvester' | 'lyapchol' | 'dlyapchol', Checker> {
  const fro = (A: M) => froNorm(A);
  /** A X + X B + C (continuous) or A X B − X + C (discrete), normalised */
  const sylvester =
    (discrete: boolean): Checker =>
    (args, result) => {
      const a = new M(args.A as Matrix),
        b = new M(args.Bs as Matrix),
        c = new M(args.Cs as Matrix),
        x = new M(result.X as Matrix);
      if (x.rows !== a.rows || x.columns !== b.rows)
        return [{ name: 'Sylvester residual', ok: false, detail: `X is ${x.rows}x${x.columns} but must be ${a.rows}x${b.rows}` }];
      const t1 = discrete ? a.mmul(x).mmul(b) : a.mmul(x);
      const t2 = discrete ? x.clone().mul(-1) : x.mmul(b);
      const res = fro(t1.clone().add(t2).add(c)) / Math.max(fro(t1) + fro(t2) + fro(c), 1e-300);
      const na = fro(a),
        nb = fro(b);
      const op = discrete ? na * nb + 1 : na + nb;
      return [
        rule.residualCheck(
          discrete ? 'discrete Sylvester' : 'Sylvester',
          res,
          rule.residualFloor(Math.max(a.rows, b.rows), op, fro(x), fro(t1) + fro(t2) + fro(c)),
        ),
      ];
    };
  /**
   * X = RᵀR, then A X + X Aᵀ + B Bᵀ (or A X Aᵀ − X + B Bᵀ), with E when given: A X Eᵀ + E X Aᵀ + B Bᵀ
   * (or A X Aᵀ − E X Eᵀ + B Bᵀ), E as given (the solver reduced by E⁻¹); R upper triangular, diagonal ≥ 0
   */
  const chol =
    (discrete: boolean): Checker =>
    (args, result) => {
      const a = new M(args.A as Matrix),
        b = new M(args.B as Matrix),
        r = new M(result.R as Matrix);
      const e = Array.isArray(args.E) && args.E.length ? new M(args.E as Matrix) : undefined;
      const n = a.rows;
      if (r.rows !== n || r.columns !== n) return [{ name: 'Cholesky factor', ok: false, detail: `R is ${r.rows}x${r.columns} but must be ${n}x${n}` }];
      let below = 0,
        negDiag = 0;
      for (let i = 0; i < n; i++) {
        if (r.get(i, i) < 0) negDiag++;
        for (let j = 0; j < i; j++) below = Math.max(below, Math.abs(r.get(i, j)));
      }
      const x = r.transpose().mmul(r);
      const bbt = b.mmul(b.transpose());
      let t1: M, t2: M;
      if (!e) {
        t1 = discrete ? a.mmul(x).mmul(a.transpose()) : a.mmul(x);
        t2 = discrete ? x.clone().mul(-1) : x.mmul(a.transpose());
      } else {
        t1 = discrete ? a.mmul(x).mmul(a.transpose()) : a.mmul(x).mmul(e.transpose());
        t2 = discrete ? e.mmul(x).mmul(e.transpose()).mul(-1) : e.mmul(x).mmul(a.transpose());
      }
      const den = fro(t1) + fro(t2) + fro(bbt);
      const res = fro(t1.clone().add(t2).add(bbt)) / Math.max(den, 1e-300);
      const na = fro(a);
      const ne = e ? fro(e) : 0;
      return [
        {
          name: 'upper triangular',
          ok: below === 0 && negDiag === 0,
          value: below,
          detail:
            below === 0 && negDiag === 0
              ? 'R is upper triangular with a non-negative diagonal'
              : `R is not a Cholesky factor (largest entry below the diagonal ${sci(below)}, ${negDiag} negative diagonal entr${negDiag === 1 ? 'y' : 'ies'})`,
        },
        rule.residualCheck(
          `${e ? 'generalised ' : ''}${discrete ? 'Stein' : 'Lyapunov'} (X = RᵀR${e ? ', E as given' : ''})`,
          res,
          rule.residualFloor(n, e ? (discrete ? na * na + ne * ne : 2 * na * ne) : discrete ? na * na + 1 : 2 * na, fro(x), den),
        ),
      ];
    };
  return { sylvester: sylvester(false), dsylvester: sylvester(true), lyapchol: chol(false), dlyapchol: chol(true) };
}
