/**
 * Types shared by the retrieval engine (ingestion, lexical and dense index, the store).
 *
 * Ranges are 1-based and inclusive, as people read them (`notes.md:12-30`, `book.pdf p. 3`);
 * an editor front end subtracts 1 for its 0-based positions.
 */

/** where a chunk sits in its file: lines (text formats), a page (PDF), lines within a notebook cell */
export type ChunkRange = { startLine: number; endLine: number; cell?: number } | { page: number };

export interface Chunk {
  /**
   * unique and stable: the file's workspace-relative path, `#`, a page or cell qualifier where
   * the format has one, and the chunk's ordinal within it (`book.pdf#p3:c2`, `notes.md#c4`,
   * `nb.ipynb#cell2:c0`). Same file content gives the same ids.
   */
  id: string;
  /** workspace-relative path with forward slashes */
  path: string;
  /** the human name of the source, for citations (front-matter title, PDF title, cleaned file name) */
  source: string;
  range: ChunkRange;
  /** the passage as shown to people and models */
  text: string;
  /** the section path the chunk sits under ("Title > Section"), indexed with the text */
  heading?: string;
}

export interface IngestResult {
  /** the human source name for the whole file */
  source: string;
  chunks: Chunk[];
  /** chunks dropped as low value (index pages, tables of contents, bibliographies), by reason */
  dropped: Record<string, number>;
  /** whether broken symbol-font text (ToUnicode mojibake) was detected and repaired */
  repaired?: number;
  /** pages (PDF) or cells (notebook) in the file, when the format has them */
  units?: number;
}

export type RetrievalMode = 'lexical' | 'hybrid';

export interface SearchHit {
  chunkId: string;
  source: string;
  path: string;
  range: ChunkRange;
  text: string;
  heading?: string;
  /** the fused score: reciprocal rank fusion (k = 60) over the lexical and dense rankings */
  score: number;
  /** 1-based rank in this result */
  rank: number;
  /** cosine similarity to the query (hybrid mode, chunk embedded) */
  cosine?: number;
  /** 1-based rank in the lexical candidate list, when the chunk was a lexical candidate */
  lexicalRank?: number;
  /** 1-based rank among all embedded chunks by cosine, when it was a dense candidate */
  denseRank?: number;
}

export interface GateInfo {
  kind: 'cosine' | 'lexical-coverage';
  threshold: number;
  /** whether the cosine threshold came from `calibrate` (false: the embedder's default) */
  calibrated: boolean;
  /** the corpus changed size by more than a fifth since calibration: calibrate again */
  stale?: boolean;
}

export interface SearchResult {
  mode: RetrievalMode;
  hits: SearchHit[];
  gate: GateInfo;
  /** candidates the gate examined and removed (lexical mode stops examining after a few in a row fail) */
  gated: number;
  /** embedded chunks out of all chunks (hybrid mode searches the embedded ones densely) */
  embedded: { done: number; total: number };
  ms: number;
}

export interface BuildProgress {
  phase: 'scan' | 'ingest' | 'embed' | 'done';
  done: number;
  total: number;
  path?: string;
}

export interface BuildOptions {
  /** globs relative to the folder (minimatch); default: every supported file type */
  include?: string[];
  exclude?: string[];
  signal?: AbortSignal;
  onProgress?: (p: BuildProgress) => void;
  /** also honour .gitignore files (default true) */
  gitignore?: boolean;
  /**
   * where the lexical index is built: 'auto' (default) uses the build thread when the new or
   * changed files reach WORKER_MIN_BYTES or a large index needs compacting
   */
  lexicalThread?: 'auto' | 'worker' | 'main';
}

export interface BuildSummary {
  /** supported files found (after .gitignore and globs) */
  files: number;
  /** chunks in the index after the build */
  chunks: number;
  /** files with at least one chunk in the index */
  filesIndexed: number;
  /** files found but not indexed (binary, too large, unreadable, no text), see `skipped` */
  filesSkipped: number;
  /** files (re-)ingested by this build; the others were unchanged */
  filesChanged: number;
  filesRemoved: number;
  skipped: { path: string; reason: string }[];
  ms: number;
  /** the build stopped early (signal); the work done so far is kept and a new build resumes */
  cancelled: boolean;
  /** where the lexical index was built: its own thread (a large build) or the calling one */
  lexicalThread?: 'worker' | 'main';
  /** what was said since the last build summary (or the open): a build thread that failed, a repair */
  warnings?: string[];
  /** where the build's time went, in ms (the parts do not add up to `ms`: yields, progress) */
  timings?: BuildTimings;
}

export interface BuildTimings {
  /** finding the files (directory walk, stat, .gitignore, globs) */
  walkMs: number;
  /** reading the files and hashing their content */
  readHashMs: number;
  /** parsing and chunking (formats, low-value filter, ids) */
  parseMs: number;
  /** encoding and writing the shards */
  writeMs: number;
  /** adding the chunks to the lexical index (flexsearch add, our encoder); on the build thread, its time there (in parallel with the rest) */
  indexMs: number;
  /** with a build thread: batching and sending it the chunks */
  sendMs?: number;
  /** with a build thread: this thread waiting for it (backpressure, then the last batches) */
  waitMs?: number;
  /** manifest checkpoints */
  checkpointMs: number;
  /** the lexical snapshot at the end */
  snapshotMs: number;
}

export interface IndexStats {
  files: number;
  chunks: number;
  filesIndexed: number;
  filesSkipped: number;
  /** chunks with an embedding for the current embedder */
  embedded: number;
  mode: RetrievalMode;
  /** the embedder's name (folder name), when one is configured and loaded */
  embedder?: string;
  /** a note when an embedder was asked for but could not be loaded */
  embedderError?: string;
  gate: GateInfo;
  droppedLowValue: Record<string, number>;
  /** the folder last built */
  root?: string;
  builtAt?: string;
  /** where the lexical index was last built or extended in bulk in this session (a build, files re-added at open) */
  lexicalThread?: 'worker' | 'main';
  /**
   * what was said since the index was opened: a build thread that failed (the index was then
   * built on the calling thread), a repair (a damaged manifest, lexical snapshot or shard,
   * rebuilt or dropped; see ARCHITECTURE.md invariant 11)
   */
  warnings?: string[];
  /** files that left the index because their stored copy failed a check: the next build re-reads them */
  reindexPending?: number;
}

export interface CalibrationResult {
  threshold: number;
  /** lowest best-match cosine over the in-domain probes */
  inWorst: number;
  /** highest best-match cosine over the off-domain probes */
  offBest: number;
  /** in-domain and off-domain best matches do not overlap */
  separable: boolean;
  /** probes on the right side of the threshold */
  accuracy: number;
  chunks: number;
  at: string;
}
