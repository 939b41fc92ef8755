// Real Schur form kernel timing (issue 12 item 3): realSchur (T and Z) and eigvalsRaw
// (eigenvalues only) at n = 16 ... 200 on the seeded problems of bench/kernel-time.ts (the
// continuous A: R/sqrt(n) shifted to spectral abscissa -1), with the accuracy beside it:
// ‖Z'Z - I‖F and ‖A - Z T Z'‖F / ‖A‖F.
//
//   node --import tsx bench/schur-time.ts [--sizes 32,64] [--reps 7] [--methods dlahqr,aed,auto] [--base FILE.ts]
//
// --methods: the QR iterations of the current schur.ts to time (dlahqr: Francis double shift;
// aed: aggressive early deflation, laqr0; auto: what realSchur/eigvalsRaw choose by order).
// --base: another copy of schur.ts (e.g. `git show REV:src/core/linalg/schur.ts` with its
// imports made absolute) timed beside the current one in the same process, for a before/after
// under the same load. CPU time (process.cpuUsage) per call over batches of >= 2 ms, the
// minimum of `reps` batches after a warm-up of >= 20 calls and 300 ms.
import { EigenvalueDecomposition, Matrix as MlMatrix } from 'ml-matrix';
import { mulberry32 } from '../test/fixtures/rng.js';
import { fromRows, type Mat } from '../src/core/linalg/dense.js';
import * as current from '../src/core/linalg/schur.js';
import type { QrMethod } from '../src/core/linalg/schur.js';

const argv = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const SIZES = (opt('--sizes') ?? '16,32,48,64,96,128,200').split(',').map(Number);
const REPS = Number(opt('--reps') ?? 7);

function problem(n: number): number[][] {
  const rnd = mulberry32(7919 * n + 3);
  const u = () => 2 * rnd() - 1;
  const R = Array.from({ length: n }, () => Array.from({ length: n }, u));
  const M = R.map((r) => r.map((v) => v / Math.sqrt(n)));
  const abscissa = Math.max(...new EigenvalueDecomposition(new MlMatrix(M)).realEigenvalues);
  return M.map((r, i) => r.map((v, j) => (i === j ? v - (abscissa + 1) : v)));
}

/** CPU time per call of each of fs, batches interleaved (so that changing load hits all alike) */
function cpuMs(fs: (() => void)[]): number[] {
  const batches = fs.map((f) => {
    for (let r = 0, t0 = performance.now(); r < 20 || performance.now() - t0 < 300; r++) {
      f();
      if (performance.now() - t0 > 3000) break;
    }
    let batch = 1;
    for (;;) {
      const c0 = process.cpuUsage();
      for (let b = 0; b < batch; b++) f();
      const c1 = process.cpuUsage(c0);
      if ((c1.user + c1.system) / 1000 >= 2 || batch >= 4096) break;
      batch *= 2;
    }
    return batch;
  });
  const best = fs.map(() => Infinity);
  for (let r = 0; r < REPS; r++)
    fs.forEach((f, i) => {
      const c0 = process.cpuUsage();
      for (let b = 0; b < batches[i]; b++) f();
      const c1 = process.cpuUsage(c0);
      best[i] = Math.min(best[i], (c1.user + c1.system) / 1000 / batches[i]);
    });
  return best;
}

interface Impl {
  realSchur(A: Mat): { T: Mat; Z: Mat };
  eigvalsRaw(A: Mat): unknown;
}
function accuracy(impl: Impl, rows: number[][]): { orth: number; back: number } {
  const n = rows.length;
  const { T, Z } = impl.realSchur(fromRows(rows));
  let orth = 0,
    back = 0,
    nA = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += Z.d[k * n + i] * Z.d[k * n + j];
      orth += (s - (i === j ? 1 : 0)) ** 2;
      let r = 0;
      for (let k = 0; k < n; k++) {
        let zt = 0;
        for (let l = 0; l < n; l++) zt += T.d[k * n + l] * Z.d[j * n + l];
        r += Z.d[i * n + k] * zt;
      }
      back += (rows[i][j] - r) ** 2;
      nA += rows[i][j] ** 2;
    }
  return { orth: Math.sqrt(orth), back: Math.sqrt(back / nA) };
}

async function main(): Promise<void> {
  const impls: [string, Impl][] = [];
  if (opt('--base')) impls.push(['base', (await import(opt('--base')!)) as Impl]);
  for (const m of (opt('--methods') ?? 'dlahqr,aed,auto').split(',') as QrMethod[])
    impls.push([m, { realSchur: (A: Mat) => current.realSchur(A, m), eigvalsRaw: (A: Mat) => current.eigvalsRaw(A, true, m) }]);

  console.log("| n | impl | realSchur [ms] | eigvals [ms] | ‖Z'Z - I‖ | ‖A - ZTZ'‖/‖A‖ |");
  console.log('|---:|---|---:|---:|---:|---:|');
  for (const n of SIZES) {
    const rows = problem(n);
    const A = fromRows(rows);
    const ts = cpuMs(
      impls.map(
        ([, impl]) =>
          () =>
            impl.realSchur(A),
      ),
    );
    const te = cpuMs(
      impls.map(
        ([, impl]) =>
          () =>
            impl.eigvalsRaw(A),
      ),
    );
    impls.forEach(([name, impl], i) => {
      const { orth, back } = accuracy(impl, rows);
      console.log(`| ${n} | ${name} | ${ts[i].toFixed(3)} | ${te[i].toFixed(3)} | ${orth.toExponential(1)} | ${back.toExponential(1)} |`);
    });
  }
}
void main();
