/**
 * The reader's lexicon: which tool a message names. Built from each tool's `words`
 * (src/core/tools/types.ts), so a new tool brings its own vocabulary.
 *
 * Matching is on words, not characters: the message and each phrase are split into lower-case
 * words; a phrase matches a run of message words where every word is equal, or, for words of
 * 5 or more letters, within a small edit distance (1 for 5-7 letters, 2 for 8 or more:
 * "controlability", "obsevability", "discretise"/"discretize"). Adjacent message words are
 * also tried joined ("eigen values" -> "eigenvalues").
 *
 * Written by hand: the fuzzy phrase match is ~60 lines and needs word-level positions and
 * per-word tolerance that a general fuzzy-search library (which scores whole strings) does not
 * give.
 */
import { TOOLS } from '../tools/table.js';

export interface PhraseHit {
  tool: string;
  phrase: string;
  /** 3: a call name or the tool's own name, 2: a phrase, 1: a weak word */
  strength: number;
  /** word span in the message */
  start: number;
  end: number;
  /** the message words matched */
  text: string;
  /** an edit was needed (a typo or another spelling) */
  fuzzy: boolean;
}

/** lower-case words with their character offsets; hyphens and underscores split words */
export function words(text: string): { w: string; at: number }[] {
  const out: { w: string; at: number }[] = [];
  const re = /[\p{L}0-9∞]+/giu;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) out.push({ w: m[0].toLowerCase(), at: m.index });
  return out;
}

/** Damerau-Levenshtein distance (adjacent transpositions count 1), capped at `max` + 1 */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    let rowMin = Infinity;
    for (let j = 1; j <= b.length; j++) {
      const c = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + c);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      rowMin = Math.min(rowMin, d[i][j]);
    }
    if (rowMin > max) return max + 1;
  }
  return d[a.length][b.length];
}

/** words that are real words of their own and must not be read as typos of a phrase word */
const NOT_TYPOS = new Set([
  'discrete',
  'discretely',
  'stage',
  'states',
  'state',
  'steps',
  'places',
  'plant',
  'plants',
  'model',
  'modes',
  'zero',
  'gains',
  'range',
  'margin',
  'errors',
  'impulses',
  'stability',
]);

function wordMatches(msg: string, phrase: string): { ok: boolean; fuzzy: boolean } {
  if (msg === phrase) return { ok: true, fuzzy: false };
  // plurals and simple endings: "margins"/"margin", "poles"/"pole"
  if (msg === phrase + 's' || phrase === msg + 's') return { ok: true, fuzzy: false };
  // a 4-letter word typed with two letters swapped ("stpe" for "step")
  if (
    phrase.length === 4 &&
    msg.length === 4 &&
    msg[0] === phrase[0] &&
    editDistance(msg, phrase, 1) === 1 &&
    [...msg].sort().join('') === [...phrase].sort().join('')
  )
    return { ok: true, fuzzy: true };
  if (phrase.length < 5 || msg.length < 4) return { ok: false, fuzzy: false };
  if (NOT_TYPOS.has(msg)) return { ok: false, fuzzy: false };
  const max = phrase.length >= 8 ? 2 : 1;
  // the first letter is rarely mistyped; requiring it keeps "stable"/"table" apart
  if (msg[0] !== phrase[0]) return { ok: false, fuzzy: false };
  return editDistance(msg, phrase, max) <= max ? { ok: true, fuzzy: true } : { ok: false, fuzzy: false };
}

interface Entry {
  tool: string;
  phrase: string;
  parts: string[];
  strength: number;
}

let entries: Entry[] | undefined;

function lexicon(): Entry[] {
  if (entries) return entries;
  entries = [];
  for (const t of TOOLS) {
    const add = (phrase: string, strength: number) => {
      const parts = words(phrase).map((x) => x.w);
      if (parts.length) entries!.push({ tool: t.name, phrase, parts, strength });
    };
    if (t.words.name !== 'call-only') add(t.name.replace(/_/g, ' '), 3);
    for (const p of t.words.phrases) add(p, words(p).length === 1 && p.toLowerCase() === t.name ? 3 : 2);
    for (const p of t.words.weak ?? []) add(p, 1);
  }
  return entries;
}

/** every phrase of every tool found in the text */
export function findPhrases(text: string): PhraseHit[] {
  const ws = words(text);
  const hits: PhraseHit[] = [];
  for (const e of lexicon()) {
    for (let i = 0; i < ws.length; i++) {
      // a count of steps ("for 30 steps", "a 20-step horizon": the number right before it) names no step response
      if (/^steps?$/.test(ws[i].w) && i > 0 && /^\d+$/.test(ws[i - 1].w) && /^[\s-]*$/.test(text.slice(ws[i - 1].at + ws[i - 1].w.length, ws[i].at))) continue;
      // try the phrase on the words from i, each phrase word against one message word or two joined
      let j = i;
      let fuzzy = false;
      let ok = true;
      for (const part of e.parts) {
        if (j >= ws.length) {
          ok = false;
          break;
        }
        const one = wordMatches(ws[j].w, part);
        if (one.ok) {
          fuzzy ||= one.fuzzy;
          j++;
          continue;
        }
        if (j + 1 < ws.length && ws[j].w.length >= 3 && ws[j + 1].w.length >= 3) {
          // two words joined ("eigen values") must match exactly: "step into" is no "stepinfo"
          const two = wordMatches(ws[j].w + ws[j + 1].w, part);
          if (two.ok && !two.fuzzy) {
            fuzzy ||= two.fuzzy;
            j += 2;
            continue;
          }
        }
        ok = false;
        break;
      }
      if (ok) {
        const endChar = ws[j - 1].at + ws[j - 1].w.length;
        hits.push({ tool: e.tool, phrase: e.phrase, strength: e.strength, start: i, end: j, text: text.slice(ws[i].at, endChar), fuzzy });
      }
    }
  }
  return hits;
}

/**
 * The tools a message names, strongest first. A hit inside a longer hit of another tool is
 * dropped ("discrete lqr" wins over "lqr"; "step response characteristics" over "step").
 */
export function namedTools(text: string): { tool: string; strength: number; hits: PhraseHit[] }[] {
  const hits = findPhrases(text);
  const kept = hits.filter((h) => !hits.some((o) => o !== h && o.tool !== h.tool && o.start <= h.start && o.end >= h.end && o.end - o.start > h.end - h.start));
  const byTool = new Map<string, PhraseHit[]>();
  for (const h of kept) byTool.set(h.tool, [...(byTool.get(h.tool) ?? []), h]);
  return [...byTool.entries()]
    .map(([tool, hs]) => ({ tool, strength: Math.max(...hs.map((h) => h.strength + (h.fuzzy ? -0.5 : 0))), hits: hs }))
    .sort((a, b) => b.strength - a.strength);
}

/** every call name of every tool, lower case -> tools with that name */
export function callNames(): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const t of TOOLS)
    for (const f of t.words.calls)
      for (const n of f.names) {
        const k = n.toLowerCase();
        if (!m.get(k)?.includes(t.name)) m.set(k, [...(m.get(k) ?? []), t.name]);
      }
  return m;
}
