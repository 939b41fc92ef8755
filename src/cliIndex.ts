/**
 * `control index`: build and search the retrieval index from the terminal.
 *
 *   control index build <folder> [--index DIR] [--embedder DIR] [--include GLOB]... [--exclude GLOB]... [--json]
 *   control index search "<query>" [--index DIR] [--notes-index DIR] [--no-notes] [--embedder DIR] [--k N] [--json]
 *   control index stats [--index DIR] [--json]
 *   control index calibrate [--index DIR] --embedder DIR [--json]
 *   control index download-embedder [--dir DIR] [--mirror URL] [--json]
 */
import { join, resolve } from 'node:path';
import { formatRange, IndexStore } from './core/retrieval/index.js';
import { cacheDir } from './core/retrieval/sources.js';

const USAGE = `Usage:
  control index build <folder> [--index DIR] [--embedder DIR] [--include GLOB] [--exclude GLOB] [--json]
      Index the notes, PDFs, notebooks and code under <folder> (default index: <folder>/.control-index).
      Only changed files are re-read; an interrupted build resumes. --embedder: a local ONNX
      embedding model folder (config.json, tokenizer.json, onnx/model.onnx) for hybrid search.
  control index search "<query>" [--index DIR] [--notes-index DIR] [--no-notes] [--embedder DIR] [--k N] [--json]
      The best passages with source, chunk id and range, or none, from the bundled control
      notes (always; indexed on first use into ~/.cache/control/notes-index or --notes-index
      DIR) and the workspace index (./.control-index or --index DIR) when it is built: what
      "/search" in the chat searches. --no-notes: the workspace index only.
  control index stats [--index DIR] [--json]
  control index calibrate --embedder DIR [--index DIR] [--json]
      Set the cosine gate from built-in in-domain and off-domain probe questions.
  control index download-embedder [--dir DIR] [--mirror URL] [--json]
      Download the default embedding model (bge-small-en-v1.5, int8 ONNX, about 35 MB) from
      Hugging Face (or the mirror in --mirror / HF_ENDPOINT) into DIR (default
      ~/.cache/control/embedders/bge-small-en-v1.5), verified; resumes an interrupted
      download. Then pass --embedder DIR to build and search.`;

interface Args {
  positional: string[];
  index?: string;
  embedder?: string;
  k?: number;
  json: boolean;
  include: string[];
  exclude: string[];
  dir?: string;
  mirror?: string;
  notesIndex?: string;
  notes: boolean;
}

function parse(argv: string[]): Args {
  const a: Args = { positional: [], json: false, include: [], exclude: [], notes: true };
  for (let i = 0; i < argv.length; i++) {
    const f = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${f} needs a value`);
      return v;
    };
    if (f === '--json') a.json = true;
    else if (f === '--index') a.index = value();
    else if (f === '--notes-index') a.notesIndex = value();
    else if (f === '--no-notes') a.notes = false;
    else if (f === '--embedder') a.embedder = value();
    else if (f === '--dir') a.dir = value();
    else if (f === '--mirror') a.mirror = value();
    else if (f === '--include') a.include.push(value());
    else if (f === '--exclude') a.exclude.push(value());
    else if (f === '--k') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1) throw new Error('--k takes a positive whole number');
      a.k = n;
    } else if (f.startsWith('--')) throw new Error(`unknown option ${f}`);
    else a.positional.push(f);
  }
  return a;
}

export async function main(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  let a: Args;
  try {
    a = parse(rest);
  } catch (e) {
    console.error(`control index: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (!sub || sub === '--help' || sub === 'help') {
    console.log(USAGE);
    return sub ? 0 : 2;
  }
  const indexDir = resolve(a.index ?? join(sub === 'build' && a.positional[0] ? a.positional[0] : '.', '.control-index'));
  let store: IndexStore | undefined;
  try {
    if (sub === 'build') {
      const folder = a.positional[0];
      if (!folder) throw new UsageError('build needs a folder');
      store = await IndexStore.open(indexDir, { embedder: a.embedder, threads: 2 });
      const s = await store.build(folder, { include: a.include, exclude: a.exclude });
      const st0 = store.stats();
      if (a.embedder && !st0.embedderError) await store.startEmbedding();
      const st = store.stats();
      if (a.json) {
        console.log(
          JSON.stringify({
            files: s.files,
            chunks: s.chunks,
            filesIndexed: s.filesIndexed,
            filesSkipped: s.filesSkipped,
            ms: s.ms,
            filesChanged: s.filesChanged,
            lexicalThread: s.lexicalThread,
            embedded: st.embedded,
            mode: st.mode,
            skipped: s.skipped,
            ...(st.embedderError ? { embedderError: st.embedderError } : {}),
            ...(s.warnings ? { warnings: s.warnings } : {}),
          }),
        );
      } else {
        console.log(
          `Indexed ${s.filesIndexed} of ${s.files} files (${s.chunks} chunks; ${s.filesChanged} re-read, ${s.filesRemoved} removed) in ${s.ms} ms into ${indexDir}.`,
        );
        for (const w of s.warnings ?? []) console.log(`Warning: ${w}.`);
        if (s.filesSkipped) console.log(`Skipped ${s.filesSkipped}: ${s.skipped.map((x) => `${x.path} (${x.reason})`).join('; ')}`);
        console.log(
          st.mode === 'hybrid'
            ? `Hybrid search: ${st.embedded} of ${st.chunks} chunks embedded with ${st.embedder}.`
            : `Lexical search only${st.embedderError ? ` (${st.embedderError})` : ' (no --embedder)'}.`,
        );
      }
      return 0;
    }
    if (sub === 'search') {
      const q = a.positional.join(' ');
      if (!q.trim()) throw new UsageError('search needs a query');
      // what the chat's /search searches: the bundled notes and, when built, the workspace index
      const { CliRetriever } = await import('./cliRetrieval.js');
      const r = new CliRetriever({
        index: indexDir,
        indexExplicit: a.index !== undefined || !a.notes,
        notesIndex: a.notesIndex,
        notes: a.notes,
        embedder: a.embedder,
      });
      try {
        const t0 = performance.now();
        const g = await r.search(q, a.k ?? 5);
        const ms = Math.round(performance.now() - t0);
        const sources = await r.sources();
        if (a.json) {
          console.log(JSON.stringify({ mode: g.mode, ms, sources, notes: g.notes, hits: g.hits }));
        } else {
          const over = sources.map((s) => (s.name === 'notes' ? `the bundled notes (${s.chunks} passages)` : `${s.root} (${s.chunks} passages)`)).join(' and ');
          console.log(
            `${g.mode} search over ${over}, ${g.hits.length} hit${g.hits.length === 1 ? '' : 's'} (${ms} ms)${g.hits.length ? '' : ': nothing in the index answers this.'}`,
          );
          for (const n of g.notes) console.log(`Note: ${n}.`);
          for (const h of g.hits) {
            const snippet = h.text.replace(/\s+/g, ' ').slice(0, 160);
            console.log(
              `\n${h.rank}. ${h.source} — ${formatRange(h.range)}  [${h.origin}: ${h.chunkId}]  score ${h.score.toFixed(4)}${h.cosine !== undefined ? `, cosine ${h.cosine.toFixed(3)}` : ''}\n   ${snippet}${h.text.length > 160 ? '…' : ''}`,
            );
          }
        }
      } finally {
        await r.close();
      }
      return 0;
    }
    if (sub === 'stats') {
      store = await IndexStore.open(indexDir, { embedder: a.embedder });
      const st = store.stats();
      console.log(
        a.json
          ? JSON.stringify(st)
          : `${st.filesIndexed} files indexed of ${st.files} (${st.filesSkipped} skipped), ${st.chunks} chunks, ${st.embedded} embedded, ${st.mode} mode.`,
      );
      if (!a.json) {
        // repairs done at this open (a damaged manifest, snapshot or shard), and what waits for a build
        for (const w of st.warnings ?? []) console.log(`Warning: ${w}.`);
        if (st.reindexPending) console.log(`${st.reindexPending} file${st.reindexPending === 1 ? '' : 's'} to re-read: run \`control index build <folder>\`.`);
      }
      return 0;
    }
    if (sub === 'download-embedder') {
      const { DEFAULT_EMBEDDER, downloadEmbedder } = await import('./core/retrieval/embedderDownload.js');
      const dest = resolve(a.dir ?? join(cacheDir(), 'embedders', DEFAULT_EMBEDDER.name));
      const mirror = a.mirror ?? process.env.HF_ENDPOINT;
      if (!a.json)
        console.error(
          `Downloading ${DEFAULT_EMBEDDER.repo} (about ${DEFAULT_EMBEDDER.approxMB} MB) from ${mirror || 'https://huggingface.co'} into ${dest} ...`,
        );
      let last = 0;
      const { dim } = await downloadEmbedder(DEFAULT_EMBEDDER, {
        dest,
        mirror,
        onProgress: (p) => {
          if (a.json || !process.stderr.isTTY || Date.now() - last < 500) return;
          last = Date.now();
          process.stderr.write(`\r  ${(p.done / 1e6).toFixed(1)} of ${(p.total / 1e6).toFixed(1)} MB: ${p.file}        `);
        },
      });
      if (a.json) console.log(JSON.stringify({ path: dest, model: DEFAULT_EMBEDDER.repo, dim }));
      else console.log(`${process.stderr.isTTY ? '\n' : ''}Ready: ${dest} (${dim} dimensions). Use it with --embedder ${JSON.stringify(dest)}.`);
      return 0;
    }
    if (sub === 'calibrate') {
      if (!a.embedder) throw new UsageError('calibrate needs --embedder DIR');
      store = await IndexStore.open(indexDir, { embedder: a.embedder, threads: 2 });
      const st = store.stats();
      if (st.embedderError) throw new Error(st.embedderError);
      await store.startEmbedding();
      const r = await store.calibrate();
      console.log(
        a.json
          ? JSON.stringify(r)
          : `Cosine gate ${r.threshold.toFixed(3)}: in-domain worst best-match ${r.inWorst.toFixed(3)}, off-domain best ${r.offBest.toFixed(3)} (${r.separable ? 'separable' : 'overlapping'}, ${(r.accuracy * 100).toFixed(0)}% of probes on the right side).`,
      );
      return 0;
    }
    throw new UsageError(`unknown index subcommand "${sub}"`);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`control index: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    console.error(`control index: ${(e as Error).message}`);
    return 1;
  } finally {
    await store?.close();
  }
}

class UsageError extends Error {}
