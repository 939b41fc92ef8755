/**
 * Earlier turns as compaction keeps them (agent/compact.ts): the calls of a finished turn as
 * small digests (the call with its small arguments, key results at the 6 significant figures
 * the model read, the name saved under), built from the turn's events by the front ends (the
 * chat keeps them in each answer's metadata, the CLI in its session file).
 */
import { ANSWER_LIMIT, type CallDigest, type HistoryTurn } from './compact.js';
import { eventsToMarkdown, type TurnEvent } from './events.js';
import { compactForModel } from './loop.js';

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1).trimEnd()}…` : s);

/** result keys whose [re, im] pairs are complex numbers (a 2-column matrix otherwise) */
const COMPLEX_KEY = /pole|eig|zero|root|lambda|spectrum/i;

/** a small value as text (numbers at 6 significant figures, as the model read them); undefined when too big */
function smallValue(v: unknown, key: string): string | undefined {
  const c = compactForModel(v);
  if (typeof c === 'number' || typeof c === 'boolean') return String(c);
  if (typeof c === 'string') return c.length <= 40 ? `'${c}'` : undefined;
  if (!Array.isArray(c)) return undefined;
  if (c.length <= 6 && c.every((x) => typeof x === 'number')) return `[${c.join(' ')}]`;
  const numRows = c.every((r) => Array.isArray(r) && r.every((x) => typeof x === 'number'));
  if (!numRows) return undefined;
  const rows = c as number[][];
  if (COMPLEX_KEY.test(key) && rows.length <= 6 && rows.every((r) => r.length === 2))
    return `[${rows.map(([re, im]) => (im === 0 ? String(re) : `${re}${im! < 0 ? '' : '+'}${im}j`)).join(', ')}]`;
  if (rows.length === 1 && rows[0]!.length === 1) return String(rows[0]![0]);
  // a small matrix, rows by ';'
  if (rows.reduce((s, r) => s + r.length, 0) <= 9) return `[${rows.map((r) => r.join(' ')).join('; ')}]`;
  return undefined;
}

/** fields as `k = v` up to `limit` characters; the others named in "(also: …)" */
function fields(o: Record<string, unknown>, limit: number): string {
  const shown: string[] = [];
  const others: string[] = [];
  let len = 0;
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined || v === null) continue;
    const s = smallValue(v, k);
    const item = s === undefined ? undefined : `${k} = ${s}`;
    if (item && len + item.length <= limit) {
      shown.push(item);
      len += item.length + 2;
    } else others.push(k);
  }
  return [shown.join('; '), others.length ? `(also: ${others.join(', ')})` : ''].filter(Boolean).join(' ');
}

/** a call as the summary shows it: small arguments with their values, the others by name */
export function digestCall(tool: string, args: Record<string, unknown>, result?: Record<string, unknown>, error?: string, saved?: string): CallDigest {
  const shown = Object.entries(args)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => {
      const s = smallValue(v, k);
      return s === undefined ? k : `${k} = ${s}`;
    });
  const call = cut(`${tool}(${shown.join(', ')})`, 200);
  return {
    tool,
    call,
    ...(result ? { result: fields(result, 240) } : {}),
    ...(error !== undefined ? { error: cut(oneLine(error), 160) } : {}),
    ...(saved ? { saved } : {}),
  };
}

/** the calls of a finished turn, from its events (a "Saved as **X**" line after a result names X) */
export function digestEvents(events: readonly TurnEvent[]): CallDigest[] {
  const args = new Map<string, Record<string, unknown>>();
  const out: CallDigest[] = [];
  for (const e of events) {
    if (e.type === 'tool_call') args.set(e.id, e.args);
    else if (e.type === 'tool_result') out.push(digestCall(e.tool, args.get(e.id) ?? {}, e.result, e.error));
    else if (e.type === 'text' && out.length) {
      const m = /^\s*Saved as \*\*([^*]+)\*\*/.exec(e.text);
      if (m) out[out.length - 1]!.saved = m[1];
    }
  }
  return out;
}

/** an earlier turn from its request and events (the CLI; the chat builds it from its history) */
export function historyTurn(user: string, events: readonly TurnEvent[]): HistoryTurn {
  const answer = eventsToMarkdown(events);
  return { user, answer: answer.length > ANSWER_LIMIT ? answer.slice(0, ANSWER_LIMIT) + '…' : answer, calls: digestEvents(events) };
}
