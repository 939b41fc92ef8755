// The notes workspace the retrieval tests index (test/unit/retrieval-store.test.ts and
// test/slow/retrieval-store.test.ts): n Markdown notes over six control topics, in a temp folder.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TOPICS: Record<string, string> = {
  lqr: 'The lqr regulator chooses the weight matrices of a quadratic cost; the riccati equation gives the gain.',
  bode: 'The bode plot shows gain and phase against frequency; the gain margin and phase margin are read at crossover.',
  kalman: 'The kalman filter weighs the model against noisy measurements using the noise covariance to estimate the state.',
  pid: 'A pid controller adds proportional, integral and derivative action; integral windup appears under actuator saturation.',
  sensitivity: 'The sensitivity integral says that disturbance attenuation at low frequency is paid for at high frequency: the waterbed.',
  lyapunov: 'A lyapunov function is an energy that decreases along trajectories; the lyapunov equation certifies stability.',
};

export function workspace(n = 6): string {
  const dir = mkdtempSync(join(tmpdir(), 'control-ws-'));
  const names = Object.keys(TOPICS);
  for (let i = 0; i < n; i++) {
    const t = names[i % names.length];
    mkdirSync(join(dir, 'notes'), { recursive: true });
    writeFileSync(join(dir, 'notes', `${t}-${i}.md`), `# ${t} note ${i}\n\n${TOPICS[t]} ${TOPICS[t]}\n\n## More\n\n${TOPICS[t]}\n`);
  }
  return dir;
}

export const idx = () => mkdtempSync(join(tmpdir(), 'control-idx-'));
