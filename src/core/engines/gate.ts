/**
 * Stream gate and tool-call rescue for engines that write tool calls as text
 * (`<tool_call>{"name": ..., "arguments": {...}}</tool_call>`, the Qwen/Hermes convention):
 * prose is released as soon as it cannot be the start of a tool call, so it reaches the chat
 * at once and a tool call never leaks into it.
 */
import type { EngineEvent, ToolCallRequest } from './types.js';

export const OPEN = '<tool_call>';
export const CLOSE = '</tool_call>';

/** length of the longest suffix of `s` that is a proper prefix of `tag` */
function partialTagSuffix(s: string, tag: string): number {
  for (let k = Math.min(tag.length - 1, s.length); k > 0; k--) if (s.endsWith(tag.slice(0, k))) return k;
  return 0;
}

export class StreamGate {
  private buf = '';
  private inCall = false;
  private calls = 0;

  constructor(private readonly idPrefix = 'call') {}

  /** feeds a chunk; returns the events it releases */
  push(chunk: string): EngineEvent[] {
    this.buf += chunk;
    const out: EngineEvent[] = [];
    for (;;) {
      if (!this.inCall) {
        const i = this.buf.indexOf(OPEN);
        if (i >= 0) {
          if (i > 0) out.push({ type: 'text', text: this.buf.slice(0, i) });
          this.buf = this.buf.slice(i + OPEN.length);
          this.inCall = true;
          continue;
        }
        const keep = partialTagSuffix(this.buf, OPEN);
        const release = this.buf.slice(0, this.buf.length - keep);
        if (release) out.push({ type: 'text', text: release });
        this.buf = this.buf.slice(this.buf.length - keep);
        return out;
      }
      const j = this.buf.indexOf(CLOSE);
      if (j < 0) return out;
      out.push({ type: 'tool_call', call: parseCallBody(this.buf.slice(0, j), `${this.idPrefix}-${++this.calls}`) });
      this.buf = this.buf.slice(j + CLOSE.length);
      this.inCall = false;
    }
  }

  /** end of stream: an unterminated call is still offered (rescue may parse it), else text */
  end(): EngineEvent[] {
    const rest = this.buf;
    this.buf = '';
    if (this.inCall) {
      this.inCall = false;
      return rest.trim() ? [{ type: 'tool_call', call: parseCallBody(rest, `${this.idPrefix}-${++this.calls}`) }] : [];
    }
    return rest ? [{ type: 'text', text: rest }] : [];
  }
}

/** a call body `{"name": ..., "arguments": ...}`; unparseable bodies keep their raw text */
export function parseCallBody(body: string, id: string): ToolCallRequest {
  const obj = rescueJson(body);
  if (obj && typeof obj === 'object' && !Array.isArray(obj)) {
    const o = obj as Record<string, unknown>;
    const name = typeof o.name === 'string' ? o.name : typeof o.tool === 'string' ? o.tool : undefined;
    let args = o.arguments ?? o.args ?? o.parameters ?? {};
    if (typeof args === 'string') args = rescueJson(args) ?? args;
    if (name && (typeof args === 'object' || typeof args === 'string')) return { id, name, arguments: args as Record<string, unknown> | string };
  }
  return { id, name: '', arguments: body.trim() };
}

/**
 * Parses JSON as local models write it, where the intent is unambiguous: code fences,
 * trailing commas, single-quoted strings, unquoted keys, Python's True/False/None.
 * Returns undefined when it still does not parse (the caller nudges the model once).
 */
export function rescueJson(text: string): unknown {
  let t = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  const tryParse = (s: string) => {
    try {
      return { ok: true as const, v: JSON.parse(s) };
    } catch {
      return { ok: false as const };
    }
  };
  let r = tryParse(t);
  if (r.ok) return r.v;
  // the outermost object only (a model may add prose after it)
  const first = t.indexOf('{');
  const last = t.lastIndexOf('}');
  if (first >= 0 && last > first) t = t.slice(first, last + 1);
  const repaired = t
    .replace(/,\s*([}\]])/g, '$1')
    .replace(/'([^'\\]*(?:\\.[^'\\]*)*)'/g, (_, s: string) => JSON.stringify(s))
    .replace(/([{,]\s*)([A-Za-z_][A-Za-z0-9_]*)\s*:/g, '$1"$2":')
    .replace(/\bTrue\b/g, 'true')
    .replace(/\bFalse\b/g, 'false')
    .replace(/\bNone\b/g, 'null');
  r = tryParse(repaired);
  return r.ok ? r.v : undefined;
}

/** turns a raw text stream with tool-call markup into engine events */
export async function* gateText(chunks: AsyncIterable<string>, idPrefix = 'call'): AsyncGenerator<EngineEvent> {
  const gate = new StreamGate(idPrefix);
  for await (const c of chunks) yield* gate.push(c);
  yield* gate.end();
}
