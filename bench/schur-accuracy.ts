// Companion of bench/schur-accuracy.py (which writes the matrices and compares with numpy):
// reads { name, A }[] from argv[2], writes for each matrix and each QR iteration (dlahqr,
// aed = laqr0) the Schur form's eigenvalues (diagonal blocks of T), its backward error
// ‖A - Z T Z'‖F / ‖A‖F and orthogonality ‖Z'Z - I‖F, and the balanced eigenvalues (eig's path)
// into argv[3].
import { readFileSync, writeFileSync } from 'node:fs';
import { fromRows } from '../src/core/linalg/dense.js';
import { realSchur, eigvalsRaw, schurEigenvalues, type QrMethod } from '../src/core/linalg/schur.js';

const input = JSON.parse(readFileSync(process.argv[2], 'utf8')) as { name: string; A: number[][] }[];
const out = input.map(({ name, A }) => {
  const n = A.length;
  const res: Record<string, unknown> = { name, n };
  for (const method of ['dlahqr', 'aed'] as QrMethod[]) {
    const { T, Z } = realSchur(fromRows(A), method);
    let orth = 0,
      back = 0,
      nA = 0;
    const ZT = new Float64Array(n * n); // Z T
    for (let i = 0; i < n; i++)
      for (let k = 0; k < n; k++) {
        const z = Z.d[i * n + k];
        if (z !== 0) for (let j = 0; j < n; j++) ZT[i * n + j] += z * T.d[k * n + j];
      }
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        let s = 0,
          r = 0;
        for (let k = 0; k < n; k++) {
          s += Z.d[k * n + i] * Z.d[k * n + j];
          r += ZT[i * n + k] * Z.d[j * n + k];
        }
        orth += (s - (i === j ? 1 : 0)) ** 2;
        back += (A[i][j] - r) ** 2;
        nA += A[i][j] ** 2;
      }
    res[method] = { eig: schurEigenvalues(T), orth: Math.sqrt(orth), back: Math.sqrt(back / nA) };
    const ev = eigvalsRaw(fromRows(A), true, method);
    res[method + 'Balanced'] = Array.from(ev.wr, (re, i) => [re, ev.wi[i]]);
  }
  return res;
});
writeFileSync(process.argv[3], JSON.stringify(out));
