/**
 * How hits are shown: a citation label for a range, and the passages as fenced data for a
 * model's user turn (workspace text is data, never instructions).
 */
import type { ChunkRange, SearchHit } from './types.js';

/** `p. 3`, `lines 12–30`, `cell 4, lines 1–9` */
export function formatRange(r: ChunkRange): string {
  if ('page' in r) return `p. ${r.page}`;
  const lines = r.startLine === r.endLine ? `line ${r.startLine}` : `lines ${r.startLine}–${r.endLine}`;
  return r.cell !== undefined ? `cell ${r.cell + 1}, ${lines}` : lines;
}

/**
 * The passages as one block of fenced data for the user turn, each fence numbered (the
 * number it is cited by, `<data id="1" …>`) and labelled with its source and range; `fence`
 * is the agent's `fenceData` (passed in so this module stays free of the agent), which
 * escapes the label and defuses tag look-alikes in it and in the text. Empty when there are
 * no hits: the model then answers from its own knowledge.
 */
export function passagesForPrompt(hits: readonly SearchHit[], fence: (text: string, source?: string, id?: number) => string): string {
  return hits.map((h, i) => fence(h.text, `${h.source}, ${formatRange(h.range)} (${h.path})`, i + 1)).join('\n\n');
}
