/**
 * MIMO transfer functions and zero-pole-gain systems as a request writes them (issue 13):
 * the arguments of zpk2tf/zpk2ss read from MATLAB literals (z = [-1], p = [-2 -3], k = 5 come
 * in as one-row matrices: each is a list of roots, k a number).
 */

const isNum = (x: unknown): x is number => typeof x === 'number';

/** a MATLAB row vector of roots written as a literal ([[-2, -3]]) is the list [-2, -3]; k = [[5]] is 5 */
export function zpkArgsFromLiterals(args: Record<string, unknown>): void {
  for (const key of ['z', 'p']) {
    const v = args[key];
    if (Array.isArray(v) && v.length === 1 && Array.isArray(v[0]) && (v[0] as unknown[]).every(isNum)) args[key] = v[0];
    else if (Array.isArray(v) && v.length > 1 && v.every((r) => Array.isArray(r) && r.length === 1 && isNum(r[0])))
      args[key] = v.map((r) => (r as number[])[0]);
  }
  const k = args.k;
  if (Array.isArray(k) && k.length === 1 && Array.isArray(k[0]) && k[0].length === 1 && isNum(k[0][0])) args.k = k[0][0];
}
