/**
 * The lexical index's build thread (a worker_threads entry, bundled as dist/lexicalWorker.js).
 * The store starts it for large builds (see LexicalBuilder): the chunks it is sent are added
 * to a flexsearch index of its own (started empty or from the store's snapshot), it answers
 * lexical searches while the build runs, and at the end it writes the new snapshot and exits.
 *
 * Why a thread: flexsearch's `add` grows its arrays by reallocation, so a build leaves about
 * twice the index's size as garbage in the heap that did the adding (100k chunks: 530 MB used,
 * 177 MB live), and V8 keeps the pages it grew into. Built here, that garbage goes with the
 * thread's heap when it exits, and the store loads the compact snapshot. It also lets the
 * ingestion (read, parse, chunk, shard writes) on the main thread overlap the indexing here.
 *
 * Messages in: {t:'add', ids, texts} (answered {t:'ack'}), {t:'search', seq, q, limit}
 * (answered {t:'hits', seq, ids}), {t:'finish', target, ranges} (answered {t:'done', size, addMs});
 * any failure is answered {t:'error', message}.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { LexicalIndex, loadSnapshot, saveSnapshot, type LexicalConfig } from './lexical.js';

type Message =
  | { t: 'add'; ids: number[]; texts: string[] }
  | { t: 'search'; seq: number; q: string; limit: number }
  | { t: 'finish'; target: string; ranges: Record<string, [number, number]> };

const port = parentPort;
if (port) {
  const { config, base } = workerData as { config: LexicalConfig; base?: string };
  let index: LexicalIndex | undefined;
  /** time spent in flexsearch `add`, reported with 'done' (the build's index time) */
  let addMs = 0;
  try {
    index = base ? loadSnapshot(base, config).index : new LexicalIndex(config);
    port.postMessage({ t: 'ready', size: index.size });
  } catch (e) {
    port.postMessage({ t: 'error', message: `the snapshot to extend could not be read: ${(e as Error).message}` });
  }
  port.on('message', (m: Message) => {
    if (!index) return;
    try {
      if (m.t === 'add') {
        const t = performance.now();
        for (let i = 0; i < m.ids.length; i++) index.add(m.ids[i], m.texts[i]);
        addMs += performance.now() - t;
        port.postMessage({ t: 'ack' });
      } else if (m.t === 'search') {
        port.postMessage({ t: 'hits', seq: m.seq, ids: index.search(m.q, m.limit) });
      } else if (m.t === 'finish') {
        saveSnapshot(index, m.target, { config, size: index.size, ranges: m.ranges });
        port.postMessage({ t: 'done', size: index.size, addMs });
        index = undefined;
        port.close();
      }
    } catch (e) {
      port.postMessage({ t: 'error', message: (e as Error).message });
    }
  });
}
