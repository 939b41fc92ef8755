/**
 * What one eigenvalue means as a mode: natural frequency, damping ratio, time constant (and,
 * in discrete time, |z| and the equivalent continuous eigenvalue ln(z)/Ts). Used by analyse,
 * damp and the renderers of closed-loop poles.
 */
import type { Complex } from '../types.js';

export interface ModeInfo {
  value: Complex;
  /** continuous: natural frequency |λ| (rad/s) and damping −Re λ/|λ|; discrete: from the equivalent s = ln(z)/Ts */
  wn?: number;
  zeta?: number;
  /** time constant −1/Re λ of a stable mode (of the envelope, for an oscillatory one) */
  tau?: number;
  /** discrete: |z|, the factor the mode shrinks or grows by per sample */
  magnitude?: number;
}

export function modeInfo(z: Complex, discrete: boolean, Ts: number): ModeInfo {
  let [re, im] = z;
  const magnitude = discrete ? Math.hypot(re, im) : undefined;
  if (discrete) {
    // equivalent continuous eigenvalue s = ln(z) / Ts
    if (magnitude === 0) return { value: z, magnitude };
    [re, im] = [Math.log(magnitude!) / Ts, Math.atan2(im, re) / Ts];
  }
  const wn = Math.hypot(re, im);
  const info: ModeInfo = { value: z, wn };
  if (magnitude !== undefined) info.magnitude = magnitude;
  if (wn > 0) info.zeta = -re / wn;
  if (re < 0) info.tau = -1 / re;
  return info;
}
