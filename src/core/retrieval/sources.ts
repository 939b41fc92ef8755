/**
 * What @control searches, the same in every front end: the bundled control notes (`corpus/`,
 * shipped beside `dist/`) are always searchable, indexed incrementally on first use into an
 * index folder of their own (VS Code: global storage `corpus-index/`; the CLI: the user's cache
 * folder, `~/.cache/control/notes-index`); a workspace index is added when one has been built
 * (VS Code: Control: Rebuild Index; the CLI: `control index build <folder>`).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { BuildSummary } from './types.js';
import type { IndexStore, OpenOptions } from './store.js';

/** how the bundled notes are built: every note, no .gitignore (the folder is ours) */
export const NOTES_BUILD = { gitignore: false } as const;

/**
 * The bundled notes folder: `corpus/` beside the `package.json` of @control, looked for from
 * `from` upwards (dist/ in the bundles and the .vsix, src/ under tsx).
 */
export function findBundledNotes(from: string): string | undefined {
  let dir = from;
  for (let i = 0; i < 5; i++) {
    const c = join(dir, 'corpus');
    if (existsSync(join(dir, 'package.json')) && existsSync(c) && statSync(c).isDirectory()) return c;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

/** the notes in a notes folder (Markdown files), for reports */
export function countNotes(root: string): number {
  try {
    return readdirSync(root).filter((f) => f.endsWith('.md') && f !== 'README.md').length;
  } catch {
    return 0;
  }
}

/** @control's cache folder for the CLI: $XDG_CACHE_HOME/control, else ~/.cache/control */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'control');
}

/** the CLI's index of the bundled notes */
export function defaultNotesIndexDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheDir(env), 'notes-index');
}

/**
 * Open the bundled notes' index and bring it up to date (only new or changed notes are read:
 * a second call costs a folder scan). The store is closed again if the build fails.
 */
export async function openNotesIndex(indexDir: string, notesRoot: string, opts: OpenOptions = {}): Promise<{ store: IndexStore; summary: BuildSummary }> {
  // loaded on use: the extension imports this module at activation, the store only when searching
  const { IndexStore } = await import('./store.js');
  const store = await IndexStore.open(indexDir, opts);
  try {
    const summary = await store.build(notesRoot, NOTES_BUILD);
    return { store, summary };
  } catch (e) {
    await store.close().catch(() => undefined);
    throw e;
  }
}
