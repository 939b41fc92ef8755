/**
 * Retrieval over a workspace-local index: ingestion of notes, papers and code into cited
 * chunks, a lexical (flexsearch) and dense (local ONNX embedder) index fused by RRF, a
 * calibrated cosine gate, atomic incremental storage. No vscode here: the extension and the
 * CLI both drive `IndexStore`.
 */
export { IndexStore, MAX_FILE_BYTES, LEXICAL_COVERAGE, type OpenOptions, type SearchOptions } from './store.js';
export { ingestFile, isSupported, SUPPORTED_EXTENSIONS } from './ingest/index.js';
export { rrf, calibrateThreshold, IN_DOMAIN_PROBES, OFF_DOMAIN_PROBES, RRF_K } from './fusion.js';
export type { Embedder, EmbedderConventions } from './embedder.js';
export { formatRange, passagesForPrompt } from './present.js';
export * from './types.js';
