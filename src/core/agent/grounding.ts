/**
 * Grounding a turn in retrieved passages: the bundled corpus and the user's own files,
 * searched together. Passages go into the user turn as fenced data (never the cached
 * prefix, never instructions), and each is cited with a reference event the chat renders as
 * a clickable link to the file and range. Returning nothing is a normal outcome.
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import type { IndexStore } from '../retrieval/store.js';
import type { SearchHit, SearchResult } from '../retrieval/types.js';
import { formatRange, passagesForPrompt } from '../retrieval/present.js';
import type { TurnEvent } from './events.js';
import type { Fence } from './fence.js';

export interface GroundedHit extends SearchHit {
  /** file URI of the source, for citations */
  uri: string;
  /** which index it came from ("corpus", "workspace") */
  origin: string;
}

export interface Grounding {
  hits: GroundedHit[];
  /** 'hybrid' when any index searched densely */
  mode: 'lexical' | 'hybrid';
  /** notes for the user: an index still embedding, a stale calibration */
  notes: string[];
}

export interface Retriever {
  search(query: string, k?: number): Promise<Grounding>;
}

/** several indexes (each with the folder its paths are relative to) searched as one */
export class MultiRetriever implements Retriever {
  constructor(private readonly sources: { name: string; root: string; store: IndexStore }[]) {}

  async search(query: string, k = 4): Promise<Grounding> {
    const results = await Promise.all(
      this.sources.map(async (s) => ({ s, r: await s.store.search(query, { k }).catch(() => undefined as SearchResult | undefined) })),
    );
    const hits: GroundedHit[] = [];
    const notes: string[] = [];
    let mode: Grounding['mode'] = 'lexical';
    for (const { s, r } of results) {
      if (!r) continue;
      if (r.mode === 'hybrid') mode = 'hybrid';
      if (r.gate.stale) notes.push(`the ${s.name} index changed size since it was calibrated: run Control: Calibrate Retrieval`);
      for (const h of r.hits) hits.push({ ...h, origin: s.name, uri: pathToFileURL(join(s.root, h.path)).toString() });
    }
    // fused scores are reciprocal-rank sums on the same scale in every index
    hits.sort((a, b) => b.score - a.score);
    return { hits: hits.slice(0, k).map((h, i) => ({ ...h, rank: i + 1 })), mode, notes };
  }
}

export function referenceEvents(hits: readonly GroundedHit[]): TurnEvent[] {
  return hits.map((h) => ({
    type: 'reference' as const,
    title: `${h.source}, ${formatRange(h.range)}`,
    uri: h.uri,
    ...('page' in h.range ? {} : { range: { startLine: h.range.startLine, endLine: h.range.endLine } }),
  }));
}

/** the block appended to the user's message for a model */
export function passagesBlock(hits: readonly GroundedHit[], fence: Fence): string {
  if (!hits.length) return '';
  return `Passages from the user's notes and the bundled control notes, as data (cite the passage with id="1" as [1], and so on; if they do not answer the question, say so and answer from your own knowledge):\n\n${passagesForPrompt(hits, fence)}`;
}

/** hits listed for people (/search, and the no-model answer) */
export function hitsMarkdown(hits: readonly GroundedHit[]): string {
  return hits
    .map((h) => {
      const excerpt = h.text.replace(/\s+/g, ' ').trim();
      const short = excerpt.length > 280 ? excerpt.slice(0, 279) + '…' : excerpt;
      return `**[${h.rank}] ${h.source}**, ${formatRange(h.range)} (\`${h.path}\`)\n\n> ${short}`;
    })
    .join('\n\n');
}
