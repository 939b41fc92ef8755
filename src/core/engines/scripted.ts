/**
 * A scripted engine: plays back a fixed script, one entry per generation step. It drives
 * the agent loop in tests and the eval harness's self-test with no model at all, through
 * exactly the same path a real engine takes (including the stream gate for raw text).
 */
import { gateText } from './gate.js';
import type { ChatMessage, Engine, EngineEvent, GenerateOptions } from './types.js';

/**
 * One step of a script: raw model text (tool calls as `<tool_call>{...}</tool_call>`, cut
 * into chunks to exercise streaming), a list of events, or a function of the conversation.
 */
export type ScriptStep =
  string | { chunks: string[]; delayMs?: number } | { events: EngineEvent[] } | ((messages: readonly ChatMessage[]) => string | EngineEvent[]);

export class ScriptedEngine implements Engine {
  readonly id = 'scripted';
  private step = 0;
  /** the messages each step saw, for assertions */
  readonly seen: ChatMessage[][] = [];

  constructor(
    private readonly script: ScriptStep[],
    readonly label = 'scripted engine',
  ) {}

  get stepsTaken(): number {
    return this.step;
  }

  async *generate(messages: readonly ChatMessage[], opts: GenerateOptions): AsyncGenerator<EngineEvent> {
    this.seen.push(messages.map((m) => ({ ...m })));
    let entry = this.script[this.step++];
    if (entry === undefined) entry = 'I have nothing more to add.';
    if (typeof entry === 'function') {
      const r = entry(messages);
      entry = typeof r === 'string' ? r : { events: r };
    }
    const promptTokens = messages.reduce((s, m) => s + Math.ceil(m.content.length / 4), 0);
    let out = 0;
    if (typeof entry === 'object' && 'events' in entry) {
      for (const e of entry.events) {
        if (opts.signal?.aborted) return;
        yield e;
      }
    } else {
      const chunks = typeof entry === 'string' ? chunk(entry) : entry.chunks;
      const delay = typeof entry === 'string' ? 0 : (entry.delayMs ?? 0);
      const signal = opts.signal;
      async function* source(): AsyncGenerator<string> {
        for (const c of chunks) {
          if (signal?.aborted) return;
          if (delay) await new Promise((r) => setTimeout(r, delay));
          if (signal?.aborted) return;
          out++;
          yield c;
        }
      }
      let first = true;
      for await (const e of gateText(source())) {
        if (first) {
          first = false;
          yield { type: 'first_token' };
        }
        yield e;
      }
    }
    yield { type: 'usage', usage: { promptTokens, evaluatedTokens: promptTokens, outputTokens: out } };
  }
}

/** splits text into small chunks (about 4 characters, like tokens) */
export function chunk(text: string, size = 4): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
