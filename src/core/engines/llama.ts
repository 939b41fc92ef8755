/**
 * The local engine: a GGUF model run in-process by node-llama-cpp (pinned 3.21.1), CPU only.
 *
 * One model, one context, ONE persistent sequence for the whole process: the KV cache holds
 * the system prompt + tool schemas once, and every later step evaluates only the tokens that
 * differ from what the cache already holds (node-llama-cpp compares the rendered prompt with
 * the sequence's tokens and keeps the common prefix). Turns are serialised by a mutex, since
 * they share that cache. A tool step re-renders the turn with the exact tokens the model
 * generated (raw call text, thought segment), so it pays only for the tool result.
 *
 * The engine only generates: it streams text, reports the function calls the model makes
 * (parsed by node-llama-cpp's grammar) and token accounting; it never runs a tool.
 *
 * node-llama-cpp is ESM-only with top-level await: it cannot be `require`d (esbuild bundles
 * the extension as CommonJS), so it is loaded with a dynamic `import()` and only types are
 * imported statically.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { basename } from 'node:path';
import type * as NLC from 'node-llama-cpp';
import type { ChatHistoryItem, ChatModelFunctions, LlamaChat, LlamaContext, LlamaContextSequence, LlamaModel, Token, TokenBias } from 'node-llama-cpp';
import { ControlError } from '../errors.js';
import type { JsonSchema } from '../tools/types.js';
import { stripNulls, toChatFunctions, toChatHistory, type StepRecord } from './llamaFormat.js';
import type { ChatMessage, Engine, EngineEvent, EngineToolSpec, GenerateOptions, ToolCallRequest } from './types.js';

/**
 * The model suggested when none is configured (downloaded only with the user's consent, by
 * the front end through `resolveModel`): Qwen3 4B Instruct (2507, non-thinking), Q4_K_M,
 * about 2.5 GB. On 2 CPU cores a 4B Q4 model prefills ~54 tokens/s and decodes ~5 tokens/s.
 */
export const DEFAULT_MODEL_SPEC = 'hf:unsloth/Qwen3-4B-Instruct-2507-GGUF:Q4_K_M';

export interface LlamaSampling {
  /** default 0.7 (Qwen3 instruct's recommendation); 0 = greedy */
  temperature?: number;
  /** default 0.8 */
  topP?: number;
  /** default 20 */
  topK?: number;
  /** default 0 (off) */
  minP?: number;
  /**
   * Presence penalty over the last 64 generated tokens, 0..1 (default 0.3). There is
   * deliberately NO flat repetition penalty: it punishes exactly the `[`, `0`, `,` tokens
   * that matrices and JSON arguments repeat. (node-llama-cpp applies a 1.1 repetition
   * penalty by default; this engine turns it off.)
   */
  presencePenalty?: number;
  seed?: number;
}

export type LlamaBias = { text: string; bias: number | 'never' } | { token: number; bias: number | 'never' };

export interface LlamaEngineOptions {
  /** absolute path of the .gguf file (see `resolveModel` for `hf:` URIs) */
  modelPath: string;
  /** shown in the status bar and metrics; default: the file name + " (local)" */
  label?: string;
  /**
   * CPU threads; default `os.availableParallelism()`. node-llama-cpp's own default is at
   * least 4, which on a 2-core machine runs 20-400 times slower.
   */
  threads?: number;
  /** context window in tokens (default 8192, capped at the model's training context) */
  contextSize?: number;
  /** prompt evaluation batch (default 512) */
  batchSize?: number;
  /** memory-map the weights (default true; false halves RSS as counted, loads slower) */
  useMmap?: boolean;
  sampling?: LlamaSampling;
  /** default cap on tokens inside <think> for reasoning models (default 1024; per step: GenerateOptions.thinkBudget) */
  thinkBudget?: number;
  /** default cap on generated tokens per step (default 1024; per step: GenerateOptions.maxTokens) */
  maxTokens?: number;
  /**
   * Persist the prefilled prefix (system prompt + tool schemas) to this file after `prewarm`
   * and reload it at the next start when the model file and the prefix are unchanged, so a
   * restart does not pay the prefill again. A `<stateFile>.json` sidecar records what it holds.
   */
  stateFile?: string;
  /**
   * Token biases for every step, by text (special tokens such as `<tool_call>` allowed) or
   * token id: `bias` is added to the token's logit (+30 all but forces it, -30 all but
   * forbids it), `'never'` forbids it. End-of-generation tokens (EOS/EOT) cannot be biased:
   * node-llama-cpp 3.21.1 silently skips them. Either a fixed list, or a function of the
   * position in this step (how many tokens it has sampled so far), called before each token
   * is sampled: a test can walk a random-weight model through a chat format's function-call
   * prefix, after which node-llama-cpp's grammar completes a real call. For tests and steering.
   */
  tokenBias?: readonly LlamaBias[] | ((position: number) => readonly LlamaBias[]);
  /** at most this many function calls per step (default 2) */
  maxParallelFunctionCalls?: number;
}

export interface LlamaLoadInfo {
  /** ms to load the native binary, the weights and create the context */
  loadMs: number;
  /** the parts of loadMs: import of node-llama-cpp, native runtime, weights, context */
  phasesMs: { import: number; runtime: number; model: number; context: number };
  /** the chat format node-llama-cpp resolved from the model's template ("Qwen", "Jinja", ...) */
  chatWrapper: string;
  contextSize: number;
  threads: number;
  trainContextSize: number;
}

interface Loaded {
  llama: NLC.Llama;
  lib: typeof NLC;
  model: LlamaModel;
  context: LlamaContext;
  sequence: LlamaContextSequence;
  chat: LlamaChat;
  info: LlamaLoadInfo;
}

// ---------------------------------------------------------------------------------------

/** a FIFO mutex: one generation or prewarm at a time on the one KV cache */
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  async lock(signal?: AbortSignal): Promise<() => void> {
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const prev = this.tail;
    this.tail = prev.then(() => mine);
    if (signal) {
      if (signal.aborted) {
        release();
        throw abortError(signal);
      }
      let onAbort!: () => void;
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(abortError(signal));
        signal.addEventListener('abort', onAbort, { once: true });
      });
      try {
        await Promise.race([prev, aborted]);
      } catch (e) {
        // give our slot up once the previous holder is done
        void prev.then(release);
        throw e;
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    } else await prev;
    return release;
  }
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError');
}

function isAbort(e: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (e instanceof Error && (e.name === 'AbortError' || e === signal.reason));
}

/** push/pull bridge from node-llama-cpp's callbacks to an async iterator */
class EventQueue<T> {
  private items: T[] = [];
  private waiting?: () => void;
  private ended = false;
  private failure: unknown;
  push(item: T): void {
    this.items.push(item);
    this.wake();
  }
  end(error?: unknown): void {
    this.ended = true;
    this.failure = error;
    this.wake();
  }
  private wake(): void {
    const w = this.waiting;
    this.waiting = undefined;
    w?.();
  }
  async *drain(): AsyncGenerator<T> {
    for (;;) {
      if (this.items.length > 0) {
        yield this.items.shift()!;
        continue;
      }
      if (this.ended) {
        if (this.failure !== undefined) throw this.failure;
        return;
      }
      await new Promise<void>((r) => (this.waiting = r));
    }
  }
}

function fileIdentity(path: string): { path: string; size: number; mtimeMs: number } {
  const s = statSync(path);
  return { path, size: s.size, mtimeMs: Math.round(s.mtimeMs) };
}

function hashTokens(tokens: readonly number[]): string {
  return createHash('sha256').update(Uint32Array.from(tokens)).digest('hex');
}

function noModelError(path: string): ControlError {
  return new ControlError(`no model file at ${path}: set control.model.path or run Control: Select Model`, 'unsupported');
}

/** throws a clear ControlError unless `path` is an existing GGUF file */
export function checkModelFile(path: string): void {
  if (!path || !existsSync(path)) throw noModelError(path);
  const st = statSync(path);
  if (!st.isFile()) throw noModelError(path);
  const magic = Buffer.alloc(4);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, magic, 0, 4, 0);
  } finally {
    closeSync(fd);
  }
  if (magic.toString('latin1') !== 'GGUF')
    throw new ControlError(
      `${path} is not a GGUF model file (llama.cpp models end in .gguf and start with "GGUF"): set control.model.path to a .gguf file or run Control: Select Model`,
      'unsupported',
    );
}

function memoryError(e: unknown, path: string): ControlError | undefined {
  const msg = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  if (/InsufficientMemory|out of memory|too large for the available|failed to allocate|alloc|bad_alloc|ENOMEM/i.test(msg))
    return new ControlError(
      `not enough memory to run ${basename(path)} (${msg.replace(/^\w*Error: /, '')}): choose a smaller model or quantisation, or lower control.model.contextSize`,
      'unsupported',
    );
  return undefined;
}

async function importLib(): Promise<typeof NLC> {
  try {
    return await import('node-llama-cpp');
  } catch (e) {
    throw new ControlError(`the local model runtime (node-llama-cpp) could not be loaded: ${(e as Error).message}`, 'unsupported');
  }
}

// ---------------------------------------------------------------------------------------

export class LlamaEngine implements Engine {
  readonly id = 'llama';
  readonly label: string;
  private readonly opts: LlamaEngineOptions;
  private loading?: Promise<Loaded>;
  private readonly mutex = new Mutex();
  /** steps this engine generated, by tool-call id (to replay their exact tokens) */
  private readonly records = new Map<string, StepRecord>();
  private callCounter = 0;
  private readonly functionsCache = new WeakMap<readonly EngineToolSpec[], ChatModelFunctions>();
  private disposed = false;

  constructor(opts: LlamaEngineOptions) {
    this.opts = opts;
    this.label = opts.label ?? `${basename(opts.modelPath).replace(/\.gguf$/i, '')} (local)`;
  }

  get threads(): number {
    return this.opts.threads ?? os.availableParallelism();
  }

  /** loads the runtime, the model and the context (once; a failed load is retried next time) */
  load(): Promise<LlamaLoadInfo> {
    return this.ensureLoaded().then((l) => l.info);
  }

  /** the sequence's token meter and state, for tests and benches */
  async inspect(): Promise<{ contextTokens: number; inputTokens: number; outputTokens: number }> {
    const l = await this.ensureLoaded();
    return {
      contextTokens: l.sequence.nextTokenIndex,
      inputTokens: l.sequence.tokenMeter.usedInputTokens,
      outputTokens: l.sequence.tokenMeter.usedOutputTokens,
    };
  }

  /** forgets the KV cache (the next step evaluates its whole prompt): for benches */
  async resetCache(): Promise<void> {
    const l = await this.ensureLoaded();
    const release = await this.mutex.lock();
    try {
      await l.sequence.clearHistory();
    } finally {
      release();
    }
  }

  private ensureLoaded(): Promise<Loaded> {
    if (this.disposed) return Promise.reject(new ControlError('the local model was unloaded', 'unsupported'));
    this.loading ??= this.doLoad().catch((e) => {
      this.loading = undefined;
      throw e;
    });
    return this.loading;
  }

  private async doLoad(): Promise<Loaded> {
    const path = this.opts.modelPath;
    checkModelFile(path);
    const t0 = performance.now();
    const lib = await importLib();
    const t1 = performance.now();
    const threads = this.threads;
    let llama: NLC.Llama;
    try {
      llama = await lib.getLlama({ gpu: false, maxThreads: threads, logLevel: lib.LlamaLogLevel.error, progressLogs: false });
    } catch (e) {
      throw new ControlError(`the local model runtime has no usable CPU build for this machine: ${(e as Error).message}`, 'unsupported');
    }
    const t2 = performance.now();
    let model: LlamaModel;
    try {
      model = await llama.loadModel({ modelPath: path, useMmap: this.opts.useMmap ?? true, gpuLayers: 0 });
    } catch (e) {
      throw memoryError(e, path) ?? new ControlError(`could not load ${path}: ${(e as Error).message}`, 'unsupported');
    }
    const t3 = performance.now();
    const trainContextSize = model.trainContextSize;
    const contextSize = Math.min(this.opts.contextSize ?? 8192, trainContextSize);
    let context: LlamaContext;
    try {
      context = await model.createContext({
        contextSize,
        sequences: 1,
        threads,
        batchSize: this.opts.batchSize ?? 512,
      });
    } catch (e) {
      await model.dispose();
      throw memoryError(e, path) ?? new ControlError(`could not create a context for ${path}: ${(e as Error).message}`, 'unsupported');
    }
    const t4 = performance.now();
    const sequence = context.getSequence();
    const chat = new lib.LlamaChat({ contextSequence: sequence });
    const info: LlamaLoadInfo = {
      loadMs: Math.round(performance.now() - t0),
      phasesMs: { import: Math.round(t1 - t0), runtime: Math.round(t2 - t1), model: Math.round(t3 - t2), context: Math.round(t4 - t3) },
      chatWrapper: chat.chatWrapper.wrapperName,
      contextSize: context.contextSize,
      threads,
      trainContextSize,
    };
    return { llama, lib, model, context, sequence, chat, info };
  }

  private makeBias(l: Loaded, list: readonly LlamaBias[]): TokenBias | undefined {
    if (list.length === 0) return undefined;
    const tb = new l.lib.TokenBias(l.model.tokenizer);
    for (const b of list) {
      const tokens = 'token' in b ? [b.token as Token] : l.model.tokenize(b.text, true);
      for (const t of tokens) tb.set(t, b.bias === 'never' ? 'never' : { logit: b.bias });
    }
    return tb;
  }

  /** the option as node-llama-cpp takes it (a dynamic bias sees this step's generated tokens) */
  private biasFor(l: Loaded): TokenBias | (() => TokenBias) | undefined {
    const spec = this.opts.tokenBias;
    if (!spec) return undefined;
    if (typeof spec !== 'function') return this.makeBias(l, spec);
    const meter = l.sequence.tokenMeter;
    const startOut = meter.usedOutputTokens;
    const empty = new l.lib.TokenBias(l.model.tokenizer);
    return () => {
      // called before each sampled token; node-llama-cpp counts an output token when it
      // starts sampling it. (The context tokens cannot tell what was generated: the token
      // sampled last is evaluated only after the next sampler is configured.)
      const position = Math.max(0, meter.usedOutputTokens - startOut - 1);
      return this.makeBias(l, spec(position)) ?? empty;
    };
  }

  /** tokenizes with the loaded model (special tokens recognised): for tests and benches */
  async tokenize(text: string): Promise<number[]> {
    const l = await this.ensureLoaded();
    return l.model.tokenize(text, true);
  }

  private functionsFor(tools: readonly EngineToolSpec[]): ChatModelFunctions | undefined {
    if (tools.length === 0) return undefined;
    let f = this.functionsCache.get(tools);
    if (!f) {
      f = toChatFunctions(tools);
      this.functionsCache.set(tools, f);
    }
    return f;
  }

  /** tokens of the fixed prefix: what every prompt with this system text and tools starts with */
  private prefixTokens(l: Loaded, system: string, tools: readonly EngineToolSpec[]): Token[] {
    const functions = this.functionsFor(tools);
    const render = (user: string) =>
      l.chat.chatWrapper
        .generateContextState({
          chatHistory: [
            { type: 'system', text: system },
            { type: 'user', text: user },
            { type: 'model', response: [] },
          ],
          availableFunctions: functions,
          documentFunctionParams: true,
        })
        .contextText.tokenize(l.model.tokenizer);
    // two different user turns: their common token prefix is the cacheable part
    const a = render('a');
    const b = render('z');
    let n = 0;
    while (n < a.length && n < b.length && a[n] === b[n]) n++;
    return a.slice(0, n);
  }

  async prewarm(system: string, tools: readonly EngineToolSpec[], signal?: AbortSignal): Promise<void> {
    const l = await this.ensureLoaded();
    const release = await this.mutex.lock(signal);
    try {
      const prefix = this.prefixTokens(l, system, tools);
      const seq = l.sequence;
      if (seq.compareContextTokens(prefix).firstDifferentIndex >= prefix.length) return; // already cached
      const stateFile = this.opts.stateFile;
      const meta = {
        model: fileIdentity(this.opts.modelPath),
        prefix: hashTokens(prefix),
        tokens: prefix.length,
        runtime: 'node-llama-cpp',
        version: await l.lib.getModuleVersion(),
      };
      if (stateFile && seq.nextTokenIndex === 0 && existsSync(stateFile) && existsSync(stateFile + '.json')) {
        try {
          const saved = JSON.parse(readFileSync(stateFile + '.json', 'utf8'));
          if (JSON.stringify(saved) === JSON.stringify(meta) && prefix.length <= seq.contextSize) {
            await seq.loadStateFromFile(stateFile, { acceptRisk: true });
            if (seq.compareContextTokens(prefix).firstDifferentIndex >= prefix.length) return;
            await seq.clearHistory(); // not what we expected: evaluate it instead
          }
        } catch {
          await seq.clearHistory();
        }
      }
      // evaluate in chunks so an abort stops the prefill promptly
      const start = seq.compareContextTokens(prefix).firstDifferentIndex;
      if (start < seq.nextTokenIndex) await seq.eraseContextTokenRanges([{ start, end: seq.nextTokenIndex }]);
      for (let i = start; i < prefix.length; i += 128) {
        if (signal?.aborted) throw abortError(signal);
        await seq.evaluateWithoutGeneratingNewTokens(prefix.slice(i, Math.min(prefix.length, i + 128)));
      }
      if (stateFile) {
        await seq.saveStateToFile(stateFile);
        writeFileSync(stateFile + '.json', JSON.stringify(meta));
      }
    } finally {
      release();
    }
  }

  generate(messages: readonly ChatMessage[], opts: GenerateOptions): AsyncIterable<EngineEvent> {
    return {
      [Symbol.asyncIterator]: () => this.run(messages, opts),
    };
  }

  private async *run(messages: readonly ChatMessage[], opts: GenerateOptions): AsyncGenerator<EngineEvent> {
    // one controller for this step: the caller's signal, or the consumer leaving the loop
    const ctl = new AbortController();
    const onOuterAbort = () => ctl.abort(opts.signal?.reason);
    if (opts.signal?.aborted) return;
    opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
    const queue = new EventQueue<EngineEvent>();
    let release: (() => void) | undefined;
    try {
      const l = await this.ensureLoaded();
      try {
        release = await this.mutex.lock(ctl.signal);
      } catch (e) {
        if (isAbort(e, ctl.signal)) return;
        throw e;
      }
      const task = this.step(l, messages, opts, ctl.signal, queue).then(
        () => queue.end(),
        (e) => queue.end(e),
      );
      try {
        yield* queue.drain();
      } finally {
        // the consumer may stop early (break/return): stop generating, then free the cache
        ctl.abort();
        await task;
      }
    } finally {
      release?.();
      opts.signal?.removeEventListener('abort', onOuterAbort);
    }
  }

  private async step(l: Loaded, messages: readonly ChatMessage[], opts: GenerateOptions, signal: AbortSignal, queue: EventQueue<EngineEvent>): Promise<void> {
    const seq = l.sequence;
    const meter = seq.tokenMeter.getState();
    const history: ChatHistoryItem[] = toChatHistory(messages, this.records);
    const functions = this.functionsFor(opts.tools);
    const s = this.opts.sampling ?? {};
    let first = true;
    let text = '';
    const firstToken = () => {
      if (first) {
        first = false;
        queue.push({ type: 'first_token' });
      }
    };
    let response: Awaited<ReturnType<LlamaChat['generateResponse']>> | undefined;
    try {
      response = await l.chat.generateResponse(history, {
        ...(functions ? { functions, documentFunctionParams: true, maxParallelFunctionCalls: this.opts.maxParallelFunctionCalls ?? 2 } : {}),
        signal,
        stopOnAbortSignal: true,
        maxTokens: opts.maxTokens ?? this.opts.maxTokens ?? 1024,
        temperature: s.temperature ?? 0.7,
        topP: s.topP ?? 0.8,
        topK: s.topK ?? 20,
        minP: s.minP ?? 0,
        ...(s.seed !== undefined ? { seed: s.seed } : {}),
        repeatPenalty: { penalty: 1, frequencyPenalty: 0, presencePenalty: s.presencePenalty ?? 0.3, lastTokens: 64, penalizeNewLine: false },
        tokenBias: this.biasFor(l),
        budgets: { thoughtTokens: opts.thinkBudget ?? this.opts.thinkBudget ?? 1024 },
        onTextChunk: (chunk) => {
          if (!chunk) return;
          firstToken();
          text += chunk;
          queue.push({ type: 'text', text: chunk });
        },
        onResponseChunk: (chunk) => {
          if (chunk.type === 'segment' && chunk.text) {
            firstToken();
            if (chunk.segmentType === 'thought') queue.push({ type: 'thinking', text: chunk.text });
          }
        },
        onFunctionCallParamsChunk: () => firstToken(),
      });
    } catch (e) {
      if (!isAbort(e, signal)) {
        if (e instanceof Error && /did not return a history that fits the context size/.test(e.message))
          throw new ControlError(
            `the conversation does not fit in the model's context of ${seq.contextSize} tokens (the system prompt and tool schemas alone may be too long): start a new chat, offer fewer tools or raise control.model.contextSize`,
            'limit',
          );
        throw memoryError(e, this.opts.modelPath) ?? e;
      }
    }

    const calls: ToolCallRequest[] = [];
    if (response?.functionCalls?.length && !signal.aborted) {
      const items: StepRecord['items'] = [];
      const byName = new Map(opts.tools.map((t) => [t.name, t.parameters as JsonSchema]));
      // keep the generated response as is (text, thoughts, raw call tokens) for the next step
      let k = 0;
      for (const it of response.fullResponse) {
        if (typeof it === 'string') items.push(it);
        else items.push({ type: 'segment', segmentType: it.segmentType, text: it.text, ended: it.ended, raw: it.raw });
      }
      for (const fc of response.functionCalls) {
        const args = stripNulls(fc.params ?? {}, byName.get(fc.functionName));
        const call: ToolCallRequest = {
          id: `llama-${++this.callCounter}`,
          name: fc.functionName,
          arguments: args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : JSON.stringify(fc.params),
        };
        calls.push(call);
        items.push({
          type: 'functionCall',
          name: fc.functionName,
          params: fc.params,
          result: undefined,
          rawCall: fc.raw,
          ...(k++ === 0 ? { startsNewChunk: true } : {}),
        });
      }
      const record: StepRecord = { text, items, calls };
      for (const c of calls) this.records.set(c.id, record);
      // a turn rarely has more than a few steps; keep the memory bounded
      while (this.records.size > 64) this.records.delete(this.records.keys().next().value!);
      for (const c of calls) queue.push({ type: 'tool_call', call: c });
    }
    const used = seq.tokenMeter.diff(meter);
    const outputTokens = used.usedOutputTokens;
    queue.push({
      type: 'usage',
      usage: {
        // the prompt is what the sequence holds minus what this step generated
        promptTokens: Math.max(0, seq.nextTokenIndex - outputTokens),
        evaluatedTokens: Math.max(0, used.usedInputTokens),
        outputTokens,
      },
    });
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const loading = this.loading;
    this.loading = undefined;
    if (!loading) return;
    const l = await loading.catch(() => undefined);
    if (!l) return;
    const release = await this.mutex.lock();
    try {
      l.chat.dispose();
      await l.context.dispose();
      await l.model.dispose();
    } finally {
      release();
    }
  }
}

// ---------------------------------------------------------------------------------------

export interface ResolveModelOptions {
  /** where `hf:`/URL models are looked up and downloaded to (the extension's global storage) */
  directory: string;
  /** download progress, for the front end's notification */
  onProgress?: (p: { totalSize: number; downloadedSize: number }) => void;
  signal?: AbortSignal;
  /**
   * Download when the file is not already there. Default false: the front end asks the
   * user first and passes true only with their consent.
   */
  download?: boolean;
}

/**
 * A model spec (a local path, an `hf:owner/repo:quant` URI or a URL) -> a local .gguf path.
 * Local paths come back unchanged (after checking they are GGUF files). Nothing is
 * downloaded unless `download` is true.
 */
export async function resolveModel(spec: string, opts: ResolveModelOptions): Promise<string> {
  const isRemote = /^(hf:|huggingface:|https?:)/i.test(spec);
  if (!isRemote) {
    checkModelFile(spec);
    return spec;
  }
  const lib = await importLib();
  try {
    const path = await lib.resolveModelFile(spec, {
      directory: opts.directory,
      download: opts.download ? 'auto' : false,
      cli: false,
      ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    checkModelFile(path);
    return path;
  } catch (e) {
    if (e instanceof ControlError) throw e;
    if (opts.signal?.aborted) throw new ControlError(`download of ${spec} cancelled`, 'unsupported');
    const msg = (e as Error).message;
    throw new ControlError(
      opts.download
        ? `could not download ${spec}: ${msg}`
        : `${spec} is not in ${opts.directory} (${msg}): run Control: Select Model to download it or pick a .gguf file`,
      'unsupported',
    );
  }
}
