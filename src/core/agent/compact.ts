/**
 * Compaction of long conversations (issue 15): when the earlier turns a model would be sent
 * exceed a token threshold, the oldest turns are folded into ONE summary message and the
 * recent tail is kept byte-identical. The summary is written here, deterministically, from
 * what the folded turns contain (no model writes it): per turn the user's request (cut) and
 * each call made with its key results and the name it was saved under, every number as the
 * tool returned it (6 significant figures, as the model saw it), so no number is invented.
 *
 * Prefix stability (why the fold points are chosen as they are). A local engine keeps the
 * tokens of the last prompt in its KV cache and evaluates only what differs from them
 * (engines/llama.ts). A prompt is [system + tools][summary][tail turns][this message]. If the
 * summary or the start of the tail changed every turn (a sliding window that re-summarises
 * each time the oldest kept turn falls out), every turn would re-evaluate everything after
 * the fixed prefix. So:
 * - folding is in chunks: when the history crosses `maxTokens`, older halves of the unfolded
 *   turns are folded at once until at most half the threshold is left (at least `keepTurns`
 *   stay), so the next several turns only append to the tail;
 * - the fold point is a function of the history's turns in order: it is replayed turn by turn
 *   (each fold decided when the turn that crossed the threshold was added, from the turns up
 *   to it only), so a later turn never moves an earlier fold and nothing needs storing;
 * - the summary is a function of the folded turns only (no "of N turns", no dates) and its
 *   lines are appended in turn order, so a later fold extends the earlier summary's text
 *   (until the summary outgrows its own budget: then its oldest lines are shortened, once
 *   per fold, and that fold pays for the whole summary).
 * Between folds the prompt of turn n+1 starts with the whole prompt of turn n through its
 * request, so the engine evaluates only turn n's answer and the new request; the turn that
 * folds pays once for its new summary lines and the tail (measured: bench/compaction.ts).
 *
 * Tokens are estimated here (estimateTokens, no tokenizer in the product); the unit tests
 * calibrate the estimate against the real Qwen3 tokenizer (the default model's family).
 */
import type { ChatMessage } from '../engines/types.js';

/** one call of an earlier turn, as the summary needs it (small: kept in chat metadata and session files) */
export interface CallDigest {
  tool: string;
  /** the call with its small arguments: lqr(A = [0 1; 0 0], B = [0; 1], Q, R = 1) */
  call: string;
  /** key results: K = [1 1.73205]; stable = true (also: S) */
  result?: string;
  /** the refusal or error message, cut */
  error?: string;
  /** the name the result was saved under (sysd, linsys) */
  saved?: string;
}

/** an earlier turn of the conversation */
export interface HistoryTurn {
  /** the user's message as written (with its slash command) */
  user: string;
  /** the answer as the user read it (Markdown) */
  answer: string;
  /** the calls the turn made, in order */
  calls: CallDigest[];
}

export interface CompactionOptions {
  /** estimated tokens of the earlier turns above which the oldest are folded (default 3000) */
  maxTokens?: number;
  /** turns always kept whole (default 2) */
  keepTurns?: number;
  /** the summary's own budget; its oldest lines are shortened beyond it (default maxTokens / 4) */
  maxSummaryTokens?: number;
  /**
   * 'chunked' (the product): fold the older half when over, fold points fixed;
   * 'sliding': keep as many recent turns as fit, re-folding every turn (the naive policy the
   * bench and the real-engine test compare with; it loses the KV cache)
   */
  policy?: 'chunked' | 'sliding';
}

export interface Compacted {
  messages: ChatMessage[];
  /** turns folded into the summary (0: the history as is) */
  folded: number;
  /** turns kept whole */
  kept: number;
  /** estimated tokens of the whole history, and of what is sent */
  tokensBefore: number;
  tokensAfter: number;
  /** this turn moved the fold point (the summary grew) */
  refolded: boolean;
}

/** the longest answer kept for a model (the chat has always cut there) */
export const ANSWER_LIMIT = 4000;

export const COMPACTION_DEFAULTS = { maxTokens: 3000, keepTurns: 2 };

/**
 * A cheap estimate of Qwen-family (byte-level BPE) tokens: each digit is a token of its own
 * (Qwen's pre-tokenizer splits numbers into digits), a word is about one token per 6 letters,
 * a run of punctuation about one per 2 characters, a line break one. Calibrated against the
 * Qwen3 tokenizer on conversation text in test/unit/compact.test.ts.
 */
export function estimateTokens(text: string): number {
  let n = 0;
  for (const m of text.matchAll(/\p{N}|\p{L}+|[^\s\p{L}\p{N}]+|\n+/gu)) {
    const s = m[0];
    if (/^\p{N}$/u.test(s)) n += 1;
    else if (/^\p{L}/u.test(s)) n += Math.ceil(s.length / 6);
    else if (s[0] === '\n') n += 1;
    else n += Math.ceil(s.length / 2);
  }
  return n;
}

/** the messages a model is sent for an earlier turn, uncompacted: its request and its answer */
export function turnMessages(t: HistoryTurn): ChatMessage[] {
  const out: ChatMessage[] = [{ role: 'user', content: t.user }];
  if (t.answer) out.push({ role: 'assistant', content: t.answer });
  return out;
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1).trimEnd()}…` : s);

export const SUMMARY_HEAD = 'Earlier turns of this conversation, summarised (oldest first; every number as its tool returned it):';

/** one folded turn's line */
function summaryLine(t: HistoryTurn, i: number): string {
  const request = `"${cut(oneLine(t.user), 160)}"`;
  if (!t.calls.length) {
    // the answer's start, without our own italic notes (a compaction note, "nothing computed")
    const prose = t.answer
      .split(/\n\s*\n/)
      .filter((p) => !/^\s*_[^]*_\s*$/.test(p))
      .join(' ');
    const a = oneLine(prose.replace(/[*_`#]/g, ''));
    return `- turn ${i}: ${request} → answered without a calculation${a ? `: "${cut(a, 120)}"` : ''}`;
  }
  const calls = t.calls.map(
    (c) => `${c.call} → ${c.error !== undefined ? `refused: ${c.error}` : c.result || 'done'}${c.saved ? `; saved as ${c.saved}` : ''}`,
  );
  return `- turn ${i}: ${request} → ${calls.join(' | ')}`;
}

/** a line shortened to what was asked and the tools called (no numbers), for a summary over its budget */
function shortLine(t: HistoryTurn, i: number): string {
  const tools = [...new Set(t.calls.map((c) => c.tool + (c.saved ? ` (saved as ${c.saved})` : '')))];
  return `- turn ${i}: "${cut(oneLine(t.user), 60)}"${tools.length ? ` → ${tools.join(', ')}` : ''}`;
}

/**
 * The summary of the first `folded` turns: a function of those turns only, lines in turn
 * order. Over its budget, the oldest lines are shortened (request and tool names), then the
 * oldest shortened lines are left out with their turn numbers said.
 */
export function summaryText(turns: readonly HistoryTurn[], folded: number, maxSummaryTokens: number): string {
  const full = turns.slice(0, folded).map((t, i) => summaryLine(t, i + 1));
  const lines = [...full];
  const size = () => estimateTokens(SUMMARY_HEAD) + lines.reduce((s, l) => s + estimateTokens(l) + 1, 0);
  for (let i = 0; i < lines.length && size() > maxSummaryTokens; i++) lines[i] = shortLine(turns[i]!, i + 1);
  let dropped = 0;
  const note = () => `- turns 1–${dropped}: left out (the conversation is long)`;
  while (size() + (dropped ? estimateTokens(note()) + 1 : 0) > maxSummaryTokens && lines.length > 1) {
    lines.shift();
    dropped++;
  }
  if (dropped) lines.unshift(note());
  return [SUMMARY_HEAD, ...lines].join('\n');
}

/**
 * The history a model is sent for the next turn: the earlier turns as they are, or, past the
 * threshold, [summary of the folded turns, the tail byte-identical]. See the module comment
 * for why the fold points are replayed and chunked.
 */
export function compactHistory(turns: readonly HistoryTurn[], opts: CompactionOptions = {}): Compacted {
  const maxTokens = opts.maxTokens ?? COMPACTION_DEFAULTS.maxTokens;
  const keep = Math.max(1, opts.keepTurns ?? COMPACTION_DEFAULTS.keepTurns);
  const maxSummary = opts.maxSummaryTokens ?? Math.floor(maxTokens / 4);
  const cost = turns.map((t) => turnMessages(t).reduce((s, m) => s + estimateTokens(m.content), 0));
  const summaries = new Map<number, { text: string; tokens: number }>();
  const summary = (b: number) => {
    let s = summaries.get(b);
    if (!s) {
      const text = summaryText(turns, b, maxSummary);
      s = { text, tokens: estimateTokens(text) };
      summaries.set(b, s);
    }
    return s;
  };
  const size = (b: number, k: number) => (b ? summary(b).tokens : 0) + cost.slice(b, k).reduce((s, c) => s + c, 0);
  const n = turns.length;
  let b = 0;
  let refoldedAt = -1;
  if (opts.policy === 'sliding') {
    // naive: as many recent turns as fit, decided afresh for this turn
    const fit = (k: number) => {
      let x = 0;
      while (x < k - keep && size(x, k) > maxTokens) x++;
      return x;
    };
    b = fit(n);
    if (b !== fit(n - 1)) refoldedAt = n;
  } else {
    // replay: the history of k turns, k = 1..n; a fold is decided when turn k is added
    for (let k = 1; k <= n; k++) {
      if (size(b, k) <= maxTokens) continue;
      // over: fold older halves until at most half the threshold is left, so that the next
      // several turns fit without another fold
      while (b < k - keep && size(b, k) > maxTokens / 2) b = Math.min(k - keep, b + Math.ceil((k - b) / 2));
      refoldedAt = k;
    }
  }
  const tokensBefore = size(0, n);
  if (b === 0) return { messages: turns.flatMap(turnMessages), folded: 0, kept: n, tokensBefore, tokensAfter: tokensBefore, refolded: false };
  return {
    messages: [{ role: 'user', content: summary(b).text }, ...turns.slice(b).flatMap(turnMessages)],
    folded: b,
    kept: n - b,
    tokensBefore,
    tokensAfter: size(b, n),
    refolded: refoldedAt === n,
  };
}
