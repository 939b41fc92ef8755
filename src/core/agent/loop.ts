/**
 * The agent loop: a language model decides which tools to call; every call goes through the
 * one tool table (coercion, ajv validation, size limit, solver, verifier); results go back
 * to the model rounded and with the verifier's verdict; the turn streams as typed events.
 *
 * Governance: at most `maxSteps` tool steps and `maxCallsPerTool` calls of one tool per
 * turn, token and wall-clock budgets, prompt cancellation. A garbled call is rescued when it
 * parses unambiguously (gate.ts); otherwise the model gets one retry with a nudge naming the
 * error, and after that the turn ends with an honest message.
 */
import { isControlError } from '../errors.js';
import { renderToolResult } from '../render/answer.js';
import type { RenderOptions } from '../render/markdown.js';
import { errorMessage } from '../tools/batch.js';
import { callTool, type RunOptions } from '../tools/runner.js';
import { getTool } from '../tools/table.js';
import type { Verification } from '../verify/index.js';
import type { ChatMessage, Engine, EngineToolSpec, ToolCallRequest, Usage } from '../engines/types.js';
import type { FailureReason, TurnEvent } from './events.js';
import { rescueJson } from '../engines/gate.js';
import { callSignature } from '../reader/values.js';
import { engineTools, findTools, MORE_TOOLS, SYSTEM_PROMPT, USE_TOOL } from './prompt.js';
import { GREP_RESULT, isResultLookup, lookupResult, READ_RESULT, RESULT_READS_PER_TURN, spillResult, type ResultStore } from './spill.js';
import { compactHistory, type Compacted, type CompactionOptions, type HistoryTurn } from './compact.js';

export interface AgentOptions extends RunOptions, Partial<RenderOptions> {
  maxSteps?: number;
  maxCallsPerTool?: number;
  /** generated tokens across the turn */
  maxOutputTokens?: number;
  /** wall-clock budget of the turn in ms */
  timeoutMs?: number;
  signal?: AbortSignal;
  tools?: readonly EngineToolSpec[];
  /** earlier turns of the conversation (user and assistant text) */
  history?: readonly ChatMessage[];
  /** earlier turns with their calls: sent compacted past a threshold (agent/compact.ts); replaces `history` */
  turns?: readonly HistoryTurn[];
  /** `turns` as the caller already compacted them (turn.ts keeps the messages for a replay): not compacted again */
  compacted?: Compacted;
  compaction?: CompactionOptions;
  /** injectable clock for tests */
  now?: () => number;
  /** where long results are spilled (spill.ts); absent: they go to the model cut to their ends */
  results?: ResultStore;
  /** a tool message longer than this (characters) is spilled (default SPILL_CHARS) */
  spillChars?: number;
  /** read_result and grep_result calls per turn (default RESULT_READS_PER_TURN) */
  maxResultReads?: number;
}

export const AGENT_DEFAULTS = { maxSteps: 3, maxCallsPerTool: 2, maxOutputTokens: 2048, timeoutMs: 120_000 };

/** 6 significant figures, long arrays cut to their ends with the length said */
export function compactForModel(v: unknown, depth = 0): unknown {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
    return v === 0 ? 0 : Number(v.toPrecision(6));
  }
  if (Array.isArray(v)) {
    const LIMIT = 24;
    if (v.length > LIMIT && depth === 0) {
      const head = v.slice(0, 8).map((x) => compactForModel(x, depth + 1));
      const tail = v.slice(-4).map((x) => compactForModel(x, depth + 1));
      return [...head, `… ${v.length - 12} more of ${v.length} …`, ...tail];
    }
    return v.map((x) => compactForModel(x, depth + 1));
  }
  if (v && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = compactForModel(x, depth);
    return o;
  }
  return v;
}

/** a call's arguments: an object, or text rescued into one when it parses unambiguously, else the text */
function readArgs(a: Record<string, unknown> | string): Record<string, unknown> | string {
  if (typeof a !== 'string') return a;
  const parsed = rescueJson(a);
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : a;
}

/** the reading line of a model's tool call: the call as made, each argument chosen by the model */
export function modelReading(tool: string, args: Record<string, unknown>): Extract<TurnEvent, { type: 'reading' }> {
  const keys = Object.keys(args);
  return {
    type: 'reading',
    tool,
    markdown: `Computed ${callSignature(tool, args)}${keys.length ? `; ${keys.join(', ')} chosen by the model from your message` : ''}.`,
    origins: Object.fromEntries(keys.map((k) => [k, 'model'])),
  };
}

function verdict(v: Verification | undefined): string {
  if (!v) return 'not independently verified';
  return v.ok
    ? `verified: ${v.checks.map((c) => c.detail).join('; ')}`
    : `VERIFICATION FAILED: ${v.checks
        .filter((c) => !c.ok)
        .map((c) => c.detail)
        .join('; ')}`;
}

/** the tool message the model reads */
export function toolMessageContent(tool: string, result: Record<string, unknown>, v: Verification | undefined): string {
  return JSON.stringify({ tool, result: compactForModel(result), verification: verdict(v) });
}

class Budget {
  readonly start: number;
  constructor(
    private readonly now: () => number,
    private readonly timeoutMs: number,
  ) {
    this.start = now();
  }
  get elapsed(): number {
    return this.now() - this.start;
  }
  get expired(): boolean {
    return this.elapsed > this.timeoutMs;
  }
}

/**
 * Runs one model-driven turn. `user` is the user's message (with fenced context already
 * attached by the caller); the system prompt and tool schemas are fixed.
 */
export async function* runAgentTurn(engine: Engine, user: string, opts: AgentOptions = {}): AsyncGenerator<TurnEvent> {
  const o = { ...AGENT_DEFAULTS, ...opts };
  const now = opts.now ?? (() => performance.now());
  const budget = new Budget(now, o.timeoutMs);
  const render: RenderOptions = { math: opts.math ?? false, digits: opts.digits };
  const tools = opts.tools ?? engineTools();
  const offered = new Set(tools.map((t) => t.name));
  // earlier turns: past the threshold, the oldest folded into one summary, the tail as it was
  const compacted = opts.compacted ?? (opts.turns ? compactHistory(opts.turns, opts.compaction) : undefined);
  if (compacted?.folded) {
    const { folded, kept, tokensBefore, tokensAfter, refolded } = compacted;
    yield { type: 'compaction', folded, kept, tokensBefore, tokensAfter, refolded };
  }
  const history = compacted?.messages ?? opts.history ?? [];
  const messages: ChatMessage[] = [{ role: 'system', content: SYSTEM_PROMPT }, ...history, { role: 'user', content: user }];

  // timeouts and the caller's signal both stop the engine
  const abort = new AbortController();
  const onAbort = () => abort.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => abort.abort(), o.timeoutMs);

  const perTool = new Map<string, number>();
  const stepUsage: Usage[] = [];
  let toolCalls = 0;
  let outputTokens = 0;
  let ttft: number | undefined;
  let nudged = false;
  let steps = 0;
  /** tool steps that count against maxSteps (all but lookup-only steps) */
  let counted = 0;
  let resultReads = 0;
  let ended: string | undefined;
  /** why the turn ended early, typed for routing (agent/route.ts) */
  let reason: FailureReason | undefined;
  /** whether the engine produced anything (a throw before that is a load failure) */
  let heard = false;
  let genMs = 0;

  try {
    for (let step = 0; ; step++) {
      const calls: ToolCallRequest[] = [];
      let text = '';
      const t0 = now();
      for await (const ev of engine.generate(messages, { tools, signal: abort.signal, maxTokens: Math.max(1, o.maxOutputTokens - outputTokens) })) {
        heard = true;
        if (ev.type === 'first_token') {
          ttft ??= now() - budget.start;
        } else if (ev.type === 'text') {
          ttft ??= now() - budget.start;
          text += ev.text;
          yield { type: 'text', text: ev.text };
        } else if (ev.type === 'thinking') {
          yield { type: 'thinking', text: ev.text };
        } else if (ev.type === 'tool_call') {
          calls.push(ev.call);
        } else if (ev.type === 'usage') {
          stepUsage.push(ev.usage);
          outputTokens += ev.usage.outputTokens;
        }
      }
      genMs += now() - t0;
      if (opts.signal?.aborted) {
        ended = 'cancelled';
        reason = 'cancelled';
        break;
      }
      // the timer's abort is the budget too (a timer may fire a fraction of a millisecond before the clock says so)
      if (budget.expired || abort.signal.aborted) {
        ended = `stopped: the turn ran over its time budget of ${Math.round(o.timeoutMs / 1000)} s`;
        reason = 'time';
        break;
      }
      if (!calls.length) break; // the final answer
      // a step that only looks tools up (more_tools, within its per-tool cap) computes nothing:
      // it does not count against maxSteps, so "find c2d, call it, answer" fits the default 3
      // (read_result and grep_result likewise, within their own cap: spill.ts)
      const lookupOnly = calls.every(
        (c) =>
          (c.name === MORE_TOOLS && (perTool.get(MORE_TOOLS) ?? 0) < o.maxCallsPerTool) ||
          (isResultLookup(c) && resultReads < (o.maxResultReads ?? RESULT_READS_PER_TURN)),
      );
      if (!lookupOnly && counted >= o.maxSteps) {
        ended = `stopped after ${o.maxSteps} tool steps without a final answer; ask again more specifically, or use a slash command such as /lqr.`;
        reason = 'steps';
        break;
      }
      if (outputTokens >= o.maxOutputTokens) {
        ended = `stopped: the turn used its budget of ${o.maxOutputTokens} generated tokens.`;
        reason = 'tokens';
        break;
      }
      steps++;
      if (!lookupOnly) counted++;
      messages.push({ role: 'assistant', content: text, toolCalls: calls });

      let badCall: string | undefined;
      for (const call of calls) {
        const id = call.id;
        let name = call.name;
        let args = readArgs(call.arguments);
        let problem: string | undefined;
        // use_tool {name, arguments}: the named tool's call, on the same path as a direct one
        if (name === USE_TOOL && typeof args !== 'string') {
          const inner = args.name;
          const innerArgs = args.arguments === undefined ? {} : readArgs(args.arguments as Record<string, unknown> | string);
          if (typeof inner !== 'string' || !inner) problem = 'use_tool needs the name of a tool (more_tools lists them)';
          else if (typeof innerArgs === 'string' || Array.isArray(innerArgs) || innerArgs === null)
            problem = `the arguments of ${inner} must be a JSON object: ${String(args.arguments).slice(0, 200)}`;
          else {
            name = inner;
            args = innerArgs;
          }
        }
        if (!problem && name === MORE_TOOLS && typeof args !== 'string') {
          const n = (perTool.get(name) ?? 0) + 1;
          perTool.set(name, n);
          const query = typeof args.query === 'string' ? args.query : '';
          const found = n > o.maxCallsPerTool ? [] : findTools(query);
          if (n <= o.maxCallsPerTool) yield { type: 'thinking', text: `Looked up tools for "${query}": ${found.map((t) => t.name).join(', ') || 'none'}.` };
          const content =
            n > o.maxCallsPerTool
              ? { error: `more_tools was already called ${o.maxCallsPerTool} times this turn; use a tool it found or answer.` }
              : found.length
                ? { tools: found, call: 'use_tool {"name": <tool>, "arguments": {...}}' }
                : { tools: [], note: `no tool matches "${query}"; try other words (a method or MATLAB name)` };
          messages.push({ role: 'tool', toolCallId: id, name, content: JSON.stringify(content) });
          continue;
        }
        // read_result / grep_result: a slice of a spilled result (spill.ts), computed from nothing
        if (!problem && (name === READ_RESULT || name === GREP_RESULT) && typeof args !== 'string') {
          const over = ++resultReads > (o.maxResultReads ?? RESULT_READS_PER_TURN);
          const r = over
            ? { content: JSON.stringify({ error: `stored results were already read ${resultReads - 1} times this turn; answer with what you have.` }) }
            : lookupResult(o.results, name, args, compactForModel);
          if ('note' in r && r.note) yield { type: 'thinking', text: r.note };
          messages.push({ role: 'tool', toolCallId: id, name, content: r.content });
          continue;
        }
        // any tool of the table may run (a model may know eig without being shown it); the
        // offered list is what the prompt advertises
        if (!problem && (!name || !getTool(name)))
          problem = name
            ? `there is no tool "${name}"; the tools are ${[...offered].join(', ')} (more_tools finds the others)`
            : 'the tool call could not be read (no tool name)';
        else if (!problem && typeof args === 'string') problem = `the arguments of ${name} are not valid JSON: ${args.slice(0, 200)}`;
        if (problem || typeof args === 'string') {
          problem ??= `the arguments of ${name} are not valid JSON`;
          badCall ??= problem;
          messages.push({ role: 'tool', toolCallId: id, name: name || 'unknown', content: JSON.stringify({ error: problem }) });
          continue;
        }
        const n = (perTool.get(name) ?? 0) + 1;
        perTool.set(name, n);
        if (n > o.maxCallsPerTool) {
          messages.push({
            role: 'tool',
            toolCallId: id,
            name,
            content: JSON.stringify({ error: `${name} was already called ${o.maxCallsPerTool} times this turn; answer with the results you have.` }),
          });
          continue;
        }
        toolCalls++;
        // how this call was read: every argument was chosen by the model from the message
        yield modelReading(name, args as Record<string, unknown>);
        yield { type: 'tool_call', id, tool: name, args: args as Record<string, unknown> };
        try {
          // the turn's budget and the user's cancel both stop a long solve
          const { args: valid, result, verification } = await callTool(name, args as Record<string, unknown>, { ...o, signal: abort.signal });
          yield { type: 'tool_result', id, tool: name, result, verification, markdown: renderToolResult(name, valid, result, verification, render) };
          // a long result is stored and the model reads an excerpt with a pointer (spill.ts)
          const spilled = o.results ? spillResult(o.results, name, result, verdict(verification), compactForModel, o.spillChars) : undefined;
          if (spilled?.note) yield { type: 'thinking', text: spilled.note };
          messages.push({ role: 'tool', toolCallId: id, name, content: spilled?.content ?? toolMessageContent(name, result, verification) });
        } catch (e) {
          // a stopped solve ends the turn (said once, below), it is not a result to explain
          if (isControlError(e) && e.code === 'cancelled' && abort.signal.aborted) throw e;
          const message = errorMessage(e);
          yield { type: 'tool_result', id, tool: name, error: message, markdown: `**${name} ${isControlError(e) ? 'refused' : 'failed'}:** ${message}` };
          // a refusal is an answer the model explains; a bad argument is a call to fix
          const invalid = isControlError(e) && e.code === 'invalid';
          messages.push({ role: 'tool', toolCallId: id, name, content: JSON.stringify({ error: message }) });
          if (invalid) badCall ??= `${name}: ${message}`;
        }
      }
      if (badCall) {
        if (nudged) {
          ended = `the model's tool call could not be used twice in a row (${badCall}). Try a slash command such as /lqr, which needs no model.`;
          reason = 'garbled';
          break;
        }
        nudged = true;
        messages.push({
          role: 'user',
          content: `The tool call failed: ${badCall}. Fix the call (matrices are arrays of rows) and try once more, or answer without it.`,
        });
      }
    }
  } catch (e) {
    if (abort.signal.aborted && opts.signal?.aborted) ended = 'cancelled';
    else yield { type: 'error', message: `${engine.label}: ${errorMessage(e)}`, reason: abort.signal.aborted ? 'time' : heard ? 'engine' : 'load' };
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
  if (ended === 'cancelled') yield { type: 'error', message: 'Cancelled.', reason: 'cancelled' };
  else if (ended) yield { type: 'error', message: ended, ...(reason ? { reason } : {}) };
  const evaluated = stepUsage.map((u) => u.evaluatedTokens);
  yield {
    type: 'metrics',
    engine: engine.id,
    model: engine.label,
    ms: Math.round(budget.elapsed * 10) / 10,
    toolCalls,
    toolSteps: steps,
    ttftMs: ttft === undefined ? null : Math.round(ttft * 10) / 10,
    outputTokens,
    tokensPerSecond: genMs > 0 ? Math.round((outputTokens / (genMs / 1000)) * 10) / 10 : null,
    promptTokensPerStep: stepUsage.map((u) => u.promptTokens),
    evaluatedTokensPerStep: evaluated,
  };
  yield { type: 'done' };
}
