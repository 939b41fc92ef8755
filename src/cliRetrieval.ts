/**
 * What `control ask "/search ..."` and `control index search` search: the same as the chat
 * (src/vscode/retrieval.ts). The bundled notes are always searchable: their index is built on
 * first use (a few seconds) into the cache folder (~/.cache/control/notes-index, or
 * --notes-index DIR) and only checked for changes afterwards. A workspace index (built by
 * `control index build <folder>`, default ./.control-index, or --index DIR) is searched with
 * them when it exists. Nothing is opened until the first search: `ask "/lqr ..."` never
 * touches an index.
 */
import { dirname, resolve } from 'node:path';
import { MultiRetriever, type Grounding, type Retriever } from './core/agent/grounding.js';
import { ControlError } from './core/errors.js';
import { IndexStore } from './core/retrieval/store.js';
import { defaultNotesIndexDir, findBundledNotes, openNotesIndex } from './core/retrieval/sources.js';

export interface CliRetrievalOptions {
  /** the workspace index folder; default ./.control-index (searched only when built) */
  index?: string;
  /** true when --index was given: a missing index there is an error, not "none yet" */
  indexExplicit?: boolean;
  /** where the bundled notes' index is kept (default ~/.cache/control/notes-index) */
  notesIndex?: string;
  /** false: the workspace index only (--no-notes) */
  notes?: boolean;
  /** an ONNX embedder folder for hybrid search */
  embedder?: string;
  /** where to look for the bundled notes (default: beside this bundle) */
  notesRoot?: string;
}

export interface SourceInfo {
  name: 'notes' | 'workspace';
  dir: string;
  root: string;
  chunks: number;
}

function here(): string {
  return typeof __dirname === 'string' ? __dirname : process.cwd();
}

export function bundledNotes(o: CliRetrievalOptions = {}): string | undefined {
  return o.notesRoot ?? findBundledNotes(here());
}

/** the chat's retriever, for the terminal: lazily opened, closed with close() */
export class CliRetriever implements Retriever {
  private opened?: Promise<{ multi?: MultiRetriever; sources: SourceInfo[]; notes: string[] }>;
  private readonly stores: IndexStore[] = [];
  /** warnings the indexes gave (a repair at open, a damaged shard found by a search), not yet returned with a search */
  private said: string[] = [];

  constructor(private readonly o: CliRetrievalOptions = {}) {}

  private warnInto(name: string): (message: string) => void {
    return (message) => this.said.push(`the ${name} index: ${message}`);
  }

  private open() {
    this.opened ??= (async () => {
      const o = this.o;
      const list: { name: SourceInfo['name']; root: string; store: IndexStore; dir: string }[] = [];
      const notes: string[] = [];
      const problems: string[] = [];
      if (o.notes !== false) {
        const root = bundledNotes(o);
        const dir = resolve(o.notesIndex ?? defaultNotesIndexDir());
        if (!root) problems.push('the bundled notes (corpus/) are missing from this installation: reinstall @control (npm ci && npm run build in a checkout)');
        else {
          try {
            const { store } = await openNotesIndex(dir, root, { embedder: o.embedder, threads: 2, onWarning: this.warnInto('bundled notes') });
            this.stores.push(store);
            list.push({ name: 'notes', root, store, dir });
          } catch (e) {
            problems.push(`the bundled notes could not be indexed in ${dir}: ${(e as Error).message} (pass --notes-index DIR, a writable folder)`);
          }
        }
      }
      const wdir = resolve(o.index ?? '.control-index');
      const build = `run \`control index build <folder> --index ${wdir}\``;
      // decided on the index as the store has it after opening, repairs done: a manifest lost,
      // cut or ill-typed is rebuilt from the shards (said with the next search), and what it
      // no longer records (the folder, the build time) does not make a built index unsearchable
      if (IndexStore.exists(wdir)) {
        const store = await IndexStore.open(wdir, { embedder: o.embedder, threads: 2, onWarning: this.warnInto('workspace') });
        this.stores.push(store);
        const st = store.stats();
        if (st.chunks) {
          // the folder its paths are relative to, for the links: lost with a damaged manifest
          // until the next build records it again; meanwhile the folder the index sits in
          // (where `control index build <folder>` puts it: <folder>/.control-index)
          const root = st.root ?? dirname(wdir);
          if (!st.root)
            notes.push(
              `the workspace index in ${wdir} does not record the folder it indexes (its manifest was lost or repaired): links are given under ${root}; ${build} to record it again`,
            );
          list.push({ name: 'workspace', root, store, dir: wdir });
        } else if (o.indexExplicit) {
          const n = st.reindexPending ?? 0;
          if (n)
            problems.push(
              `the index in ${wdir} holds no passages until ${n === 1 ? 'a file' : `${n} files`} whose stored copy was damaged ${n === 1 ? 'is' : 'are'} re-read: ${build}`,
            );
          else if (st.builtAt) problems.push(`the index in ${wdir} holds no passages: ${build} on a folder with notes, PDFs or code`);
          else problems.push(`no index in ${wdir}: ${build} first`);
        }
      } else if (o.indexExplicit) problems.push(`no index in ${wdir}: ${build} first`);
      if (!list.length) throw new ControlError(`Nothing to search: ${problems.join('; ')}.`, 'invalid');
      notes.push(...problems);
      return {
        multi: new MultiRetriever(list.map((s) => ({ name: s.name, root: s.root, store: s.store }))),
        sources: list.map((s) => ({ name: s.name, dir: s.dir, root: s.root, chunks: s.store.stats().chunks })),
        notes,
      };
    })();
    return this.opened;
  }

  /** the indexes searched (opens them) */
  async sources(): Promise<SourceInfo[]> {
    return (await this.open()).sources;
  }

  async search(query: string, k = 4): Promise<Grounding> {
    const { multi, notes } = await this.open();
    const g = await multi!.search(query, k);
    return { ...g, notes: [...g.notes, ...notes, ...this.said.splice(0)] };
  }

  async close(): Promise<void> {
    await Promise.all(this.stores.map((s) => s.close().catch(() => undefined)));
  }
}
