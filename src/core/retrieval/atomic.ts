/**
 * Atomic writes: to a temp file beside the target, then a rename over it, so readers see the
 * old file or the new one, never half of one. A module of its own (no other imports) so the
 * lexical build thread's bundle stays small.
 */
import { closeSync, openSync, renameSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';

let tmpSeq = 0;

const tempFor = (path: string) => `${path}.tmp-${process.pid}-${tmpSeq++}`;

/** a temp file of writeAtomic / writeAtomicStream, with the id of the process that wrote it */
export const TEMP_NAME = /\.tmp-(\d+)-\d+$/;

function discard(tmp: string): void {
  try {
    unlinkSync(tmp);
  } catch {
    /* nothing to clean */
  }
}

export function writeAtomic(path: string, data: string | Uint8Array): void {
  const tmp = tempFor(path);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (e) {
    discard(tmp);
    throw e;
  }
}

/** the same for content written in pieces (`write` may be called any number of times): no one large string */
export function writeAtomicStream(path: string, fill: (write: (s: string | Uint8Array) => void) => void): void {
  const tmp = tempFor(path);
  const fd = openSync(tmp, 'w');
  try {
    fill((s) => {
      if (typeof s === 'string') writeSync(fd, s);
      else for (let at = 0; at < s.length;) at += writeSync(fd, s, at, s.length - at);
    });
    closeSync(fd);
    renameSync(tmp, path);
  } catch (e) {
    try {
      closeSync(fd);
    } catch {
      /* closed */
    }
    discard(tmp);
    throw e;
  }
}
