/**
 * Retrieval inspects itself: the embedder folder (the files loadEmbedder needs), the bundled
 * notes (always searchable) and the workspace index folder (searched with them when built).
 * Asked by the Doctor (core/doctor.ts). Reads only, never builds or writes.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fixFor, type DoctorCheck, type InspectOptions } from '../inspection.js';
import { EMBEDDER_FILES, EMBEDDER_ONNX } from './embedder.js';
import { countNotes } from './sources.js';

export const NOTES_CAPABILITY = 'Retrieval: bundled notes';
export const WORKSPACE_INDEX_CAPABILITY = 'Retrieval: workspace index';

export function embedderCheck(dir: string | undefined, o: InspectOptions = {}): DoctorCheck {
  const surface = o.surface ?? 'cli';
  const capability = 'Embedder';
  if (!dir)
    return {
      capability,
      status: 'info',
      detail: 'no embedder folder configured',
      fix: fixFor(
        surface,
        'Optional, for hybrid search: run Control: Download Embedding Model… (about 35 MB, asks first), or set control.embedder.path to an ONNX sentence-embedding model folder.',
        'Optional, for hybrid search: control index download-embedder, then --embedder DIR (or any folder with config.json, tokenizer.json, onnx/model.onnx).',
      ),
    };
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    return {
      capability,
      status: 'fail',
      detail: `${dir} is not a folder`,
      fix: `Point the embedder setting at the folder of an ONNX embedding model (config.json, tokenizer.json, onnx/model.onnx), or download the model into ${dir}.`,
    };
  const missing = EMBEDDER_FILES.filter((f) => !existsSync(join(dir, f)));
  const onnx = EMBEDDER_ONNX.find((f) => existsSync(join(dir, 'onnx', f)));
  if (!onnx) missing.push(join('onnx', 'model.onnx'));
  if (missing.length)
    return {
      capability,
      status: 'fail',
      detail: `${dir} lacks ${missing.join(', ')}`,
      fix: `Download the model's ${missing.join(', ')} into ${dir} (an ONNX export, as on Hugging Face: config.json, tokenizer.json, onnx/model.onnx).`,
    };
  const mb = statSync(join(dir, 'onnx', onnx!)).size / 1e6;
  return { capability, status: 'ok', detail: `${dir}: config.json, tokenizer.json, onnx/${onnx} (${mb.toFixed(1)} MB)` };
}

function dirSize(dir: string, budget = { files: 20000 }): { bytes: number; files: number; newest: number } {
  let bytes = 0;
  let files = 0;
  let newest = 0;
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return { bytes, files, newest };
  }
  for (const e of entries) {
    if (budget.files-- <= 0) break;
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      const s = dirSize(p, budget);
      bytes += s.bytes;
      files += s.files;
      newest = Math.max(newest, s.newest);
    } else if (e.isFile()) {
      try {
        const st = statSync(p);
        bytes += st.size;
        files++;
        newest = Math.max(newest, st.mtimeMs);
      } catch {
        /* vanished meanwhile */
      }
    }
  }
  return { bytes, files, newest };
}

function humanBytes(n: number): string {
  if (n < 1e3) return `${n} B`;
  if (n < 1e6) return `${(n / 1e3).toFixed(1)} kB`;
  if (n < 1e9) return `${(n / 1e6).toFixed(1)} MB`;
  return `${(n / 1e9).toFixed(2)} GB`;
}

/** what a stats file says, read tolerantly (the index format is not final): numbers only */
function statsSummary(file: string): string {
  try {
    const text = readFileSync(file, 'utf8');
    let obj: unknown;
    try {
      obj = JSON.parse(text);
    } catch {
      return text.trim().split(/\r?\n/)[0]?.slice(0, 120) ?? '';
    }
    if (!obj || typeof obj !== 'object') return '';
    return Object.entries(obj as Record<string, unknown>)
      .flatMap(([k, v]): string[] => {
        if (typeof v === 'number' || (typeof v === 'string' && v.length < 40)) return [`${k} ${v}`];
        if (Array.isArray(v)) return [`${k} ${v.length}`];
        // a manifest's per-file map: its size is the number of files
        if (v && typeof v === 'object' && /^(files|chunks|skipped|shards)$/.test(k)) return [`${k} ${Object.keys(v).length}`];
        return [];
      })
      .slice(0, 6)
      .join(', ');
  } catch {
    return '';
  }
}

/**
 * An index folder, read tolerantly (the retrieval format is young): exists, holds files, has
 * a stats or manifest file. `rebuild` overrides the fix (default: Control: Rebuild Index).
 */
export function indexCheck(dir: string | undefined, o: InspectOptions = {}, capability = WORKSPACE_INDEX_CAPABILITY, rebuildFix?: string): DoctorCheck {
  const surface = o.surface ?? 'cli';
  const rebuild =
    rebuildFix ?? fixFor(surface, 'Run Control: Rebuild Index.', 'Run control index build . (in the folder to index; --index DIR for another place).');
  // without a workspace index, search still covers the bundled notes: say so, as /search does
  const notesOnly = o.notes ? '; /search covers the bundled notes only' : '';
  if (!dir)
    return {
      capability,
      status: 'info',
      detail: `no workspace folder open${notesOnly}`,
      fix: fixFor(surface, 'Open a workspace folder, then run Control: Rebuild Index.', 'Optional: --index DIR to check an index folder.'),
    };
  if (!existsSync(dir)) return { capability, status: 'info', detail: `no index yet (${dir} does not exist)${notesOnly}`, fix: rebuild };
  if (!statSync(dir).isDirectory())
    return { capability, status: 'fail', detail: `${dir} is a file, not an index folder`, fix: `Move or delete ${dir}, then: ${rebuild}` };
  const { bytes, files, newest } = dirSize(dir);
  if (files === 0) return { capability, status: 'info', detail: `no index yet (${dir} is empty)${notesOnly}`, fix: rebuild };
  const stats = ['stats.json', 'stats', 'manifest.json'].map((f) => join(dir, f)).find((f) => existsSync(f));
  const when = newest ? `, updated ${new Date(newest).toISOString().replace('T', ' ').slice(0, 16)} UTC` : '';
  if (!stats)
    return {
      capability,
      status: 'info',
      detail: `${dir}: ${files} files, ${humanBytes(bytes)}${when}, but no stats or manifest file (an unfinished or older index)`,
      fix: rebuild,
    };
  const summary = statsSummary(stats);
  return { capability, status: 'ok', detail: `${dir}: ${files} files, ${humanBytes(bytes)}${when}${summary ? `; ${summary}` : ''}` };
}

/**
 * The bundled notes: always searchable (their index is built on first use, or in the
 * background after VS Code starts, and kept current), so this check fails only when the notes
 * themselves are missing from the installation. Reads, never builds.
 */
export function notesCheck(root: string | undefined, indexDir: string, o: InspectOptions = {}): DoctorCheck {
  const surface = o.surface ?? 'cli';
  const capability = NOTES_CAPABILITY;
  const n = root ? countNotes(root) : 0;
  if (!root || n === 0)
    return {
      capability,
      status: 'fail',
      detail: root ? `${root} holds no notes` : 'the bundled notes (corpus/) are missing from this installation',
      fix: fixFor(
        surface,
        'Reinstall the @control extension.',
        'Reinstall @control (in a checkout: npm ci && npm run build); the notes ship in corpus/ beside dist/.',
      ),
    };
  const manifest = readJson(join(indexDir, 'manifest.json')) as { root?: string; builtAt?: string; files?: Record<string, unknown> } | undefined;
  const built = manifest?.builtAt && manifest.root === root;
  const when = (iso: string) => iso.replace('T', ' ').slice(0, 16) + ' UTC';
  const state = built
    ? `indexed in ${indexDir} (${Object.keys(manifest!.files ?? {}).length} files, built ${when(manifest!.builtAt!)}; changed notes are re-read at the next search)`
    : surface === 'vscode'
      ? `being indexed into ${indexDir} (in the background after start-up, a few seconds)`
      : `indexed into ${indexDir} at the first search (a second or two)`;
  return { capability, status: 'ok', detail: `${n} notes in ${root}, always searched by /search and a model's answers; ${state}` };
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}
