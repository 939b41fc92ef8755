// Process helpers shared by the host test runners (run.mjs, vsix.mjs).
import { createServer } from 'node:net';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** a free TCP port on the loopback interface */
export function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.unref();
    s.on('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

/**
 * Ends a detached child's whole process group (code-server with its extension host and
 * other children): SIGTERM, up to 2 s to exit, then SIGKILL repeatedly (a child may be
 * forked while the server shuts down) for up to `killTries` × 100 ms. Returns whether
 * anything survived.
 */
export async function killGroup(pid, killTries = 50) {
  const group = -pid;
  const alive = () => {
    try {
      process.kill(group, 0);
      return true;
    } catch {
      return false;
    }
  };
  try {
    process.kill(group, 'SIGTERM');
  } catch {}
  for (let i = 0; i < 20 && alive(); i++) await sleep(100);
  for (let i = 0; i < killTries && alive(); i++) {
    try {
      process.kill(group, 'SIGKILL');
    } catch {}
    await sleep(100);
  }
  return alive();
}
