/**
 * Rank fusion, the cosine gate and its calibration: pure functions, no I/O.
 */
import type { CalibrationResult } from './types.js';

export const RRF_K = 60;

/**
 * Reciprocal rank fusion: score(d) = Σ over rankings of 1 / (k + rank(d)), ranks 1-based.
 * Rankings are lists of keys, best first; a key missing from a ranking gets nothing from it.
 * Returns keys by fused score, best first (ties: the order first seen).
 */
export function rrf<T>(rankings: readonly (readonly T[])[], k = RRF_K): { key: T; score: number }[] {
  const score = new Map<T, number>();
  for (const r of rankings) r.forEach((key, i) => score.set(key, (score.get(key) ?? 0) + 1 / (k + i + 1)));
  return [...score].map(([key, s]) => ({ key, score: s })).sort((a, b) => b.score - a.score);
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/**
 * The threshold that separates in-domain from off-domain probes by their best-match cosine:
 * the midpoint of the gap when they separate, else the threshold with the most probes on the
 * right side (ties: the middle of the tied range when it scores as well, else the lowest).
 */
export function calibrateThreshold(inBest: number[], offBest: number[], chunks: number): CalibrationResult {
  if (!inBest.length || !offBest.length) throw new Error('calibration needs in-domain and off-domain probes');
  const inWorst = Math.min(...inBest);
  const offMax = Math.max(...offBest);
  const total = inBest.length + offBest.length;
  const correct = (t: number) => inBest.filter((x) => x >= t).length + offBest.filter((x) => x < t).length;
  let threshold: number;
  if (inWorst > offMax) threshold = (inWorst + offMax) / 2;
  else {
    const cands = [...new Set([...inBest, ...offBest.map((x) => x + 1e-9)])].sort((a, b) => a - b);
    const best = Math.max(...cands.map(correct));
    const tied = cands.filter((t) => correct(t) === best);
    // the middle of the tied range when it scores as well (no needless lean either way)
    const mid = (tied[0] + tied[tied.length - 1]) / 2;
    threshold = correct(mid) === best ? mid : tied[0];
  }
  return {
    threshold,
    inWorst,
    offBest: offMax,
    separable: inWorst > offMax,
    accuracy: correct(threshold) / total,
    chunks,
    at: new Date().toISOString(),
  };
}

/** default probes for *Control: Calibrate Retrieval*: control questions, and questions from elsewhere */
export const IN_DOMAIN_PROBES = [
  'How do I choose the weighting matrices Q and R in LQR design?',
  'What does the Bode sensitivity integral say about disturbance attenuation?',
  'How is the gain margin read from a Bode plot?',
  'When is a linear system controllable?',
  'What is the separation principle in LQG control?',
  'How does anti-windup prevent integrator windup under actuator saturation?',
  'How do I discretise a continuous-time state-space model with zero-order hold?',
  'What is the Nyquist stability criterion?',
  'How do I tune a PID controller?',
  'What is a Lyapunov function and how does it prove stability?',
  'How does a Kalman filter estimate the state from noisy measurements?',
  'What limits performance when the plant has a right-half-plane zero?',
  'How do I place the closed-loop poles with state feedback?',
  'What is the H-infinity norm of a transfer function?',
  'How does model predictive control handle constraints?',
  'What does the Routh-Hurwitz test decide?',
];

export const OFF_DOMAIN_PROBES = [
  'What is a good recipe for sourdough bread?',
  'Who won the football world cup in 1998?',
  'How do I repot an orchid?',
  'What is the capital of Australia?',
  'Recommend a novel for a long train journey.',
  'How do I remove a red wine stain from a carpet?',
  'What are the rules of chess castling?',
  'How many calories are in a banana?',
  'Which paint colour suits a small bedroom?',
  'How do I knit a scarf for beginners?',
  'What time zone is Tokyo in?',
  'How should I prepare for a job interview?',
];
