/**
 * An OpenAI-compatible chat-completions server (llama.cpp server, vLLM, Ollama, LM Studio)
 * at a configured URL, for teams that serve a bigger model on a GPU box. Streams by SSE;
 * native tool calls are accumulated from `delta.tool_calls`; servers or models that write
 * tool calls as text (`<tool_call>…</tool_call>`) go through the same stream gate.
 */
import { ControlError } from '../errors.js';
import { StreamGate } from './gate.js';
import type { ChatMessage, Engine, EngineEvent, GenerateOptions, ToolCallRequest } from './types.js';

export interface OpenAIOptions {
  /** base URL including /v1, e.g. http://127.0.0.1:8080/v1 */
  baseUrl: string;
  model: string;
  apiKey?: string;
  temperature?: number;
  /** extra request fields (e.g. presence_penalty) */
  extra?: Record<string, unknown>;
}

function toWire(m: ChatMessage): Record<string, unknown> {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  if (m.role === 'assistant' && m.toolCalls?.length)
    return {
      role: 'assistant',
      content: m.content || null,
      tool_calls: m.toolCalls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
      })),
    };
  return { role: m.role, content: m.content };
}

/** the data payloads of a server-sent-events byte stream */
async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    let i;
    while ((i = buf.search(/\r?\n\r?\n/)) >= 0) {
      const event = buf.slice(0, i);
      buf = buf.slice(i).replace(/^\r?\n\r?\n/, '');
      const data = event
        .split(/\r?\n/)
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n');
      if (data) yield data;
    }
  }
}

export class OpenAIEngine implements Engine {
  readonly id = 'openai';
  readonly label: string;

  constructor(private readonly o: OpenAIOptions) {
    this.label = `${o.model} at ${o.baseUrl}`;
  }

  async *generate(messages: readonly ChatMessage[], opts: GenerateOptions): AsyncGenerator<EngineEvent> {
    const body = {
      model: this.o.model,
      messages: messages.map(toWire),
      stream: true,
      stream_options: { include_usage: true },
      ...(opts.tools.length ? { tools: opts.tools.map((t) => ({ type: 'function', function: t })) } : {}),
      ...(opts.maxTokens ? { max_tokens: opts.maxTokens } : {}),
      ...(this.o.temperature !== undefined ? { temperature: this.o.temperature } : {}),
      ...this.o.extra,
    };
    let res: Response;
    try {
      res = await fetch(`${this.o.baseUrl.replace(/\/$/, '')}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.o.apiKey ? { authorization: `Bearer ${this.o.apiKey}` } : {}) },
        body: JSON.stringify(body),
        signal: opts.signal,
      });
    } catch (e) {
      if (opts.signal?.aborted) return;
      throw new ControlError(
        `cannot reach the model server at ${this.o.baseUrl}: ${(e as Error).message}. Check control.openai.url and that the server runs.`,
        'unsupported',
      );
    }
    if (!res.ok || !res.body) {
      const text = await res.text().catch(() => '');
      throw new ControlError(`the model server at ${this.o.baseUrl} answered ${res.status}: ${text.slice(0, 300)}`, 'unsupported');
    }
    const gate = new StreamGate('text-call');
    const pending = new Map<number, { id: string; name: string; args: string }>();
    let first = true;
    let usage: { prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } } | undefined;
    let outChunks = 0;
    try {
      for await (const data of sseData(res.body)) {
        if (data === '[DONE]') break;
        let j: any;
        try {
          j = JSON.parse(data);
        } catch {
          continue;
        }
        if (j.usage) usage = j.usage;
        const delta = j.choices?.[0]?.delta;
        if (!delta) continue;
        if (first && (delta.content || delta.tool_calls || delta.reasoning_content)) {
          first = false;
          yield { type: 'first_token' };
        }
        if (delta.reasoning_content) yield { type: 'thinking', text: delta.reasoning_content };
        if (delta.content) {
          outChunks++;
          yield* gate.push(delta.content);
        }
        for (const tc of delta.tool_calls ?? []) {
          const k = tc.index ?? 0;
          const p = pending.get(k) ?? { id: tc.id ?? `call-${k + 1}`, name: '', args: '' };
          if (tc.id) p.id = tc.id;
          if (tc.function?.name) p.name += tc.function.name;
          if (tc.function?.arguments) p.args += tc.function.arguments;
          pending.set(k, p);
        }
      }
    } catch (e) {
      if (opts.signal?.aborted) return;
      throw e;
    }
    yield* gate.end();
    for (const p of pending.values()) {
      let args: Record<string, unknown> | string = p.args;
      try {
        args = p.args.trim() ? JSON.parse(p.args) : {};
      } catch {
        /* the loop rescues or nudges */
      }
      const call: ToolCallRequest = { id: p.id, name: p.name, arguments: args };
      yield { type: 'tool_call', call };
    }
    const prompt = usage?.prompt_tokens ?? 0;
    yield {
      type: 'usage',
      usage: {
        promptTokens: prompt,
        evaluatedTokens: prompt - (usage?.prompt_tokens_details?.cached_tokens ?? 0),
        outputTokens: usage?.completion_tokens ?? outChunks,
      },
    };
  }
}
