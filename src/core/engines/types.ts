/**
 * The engine contract: what the agent loop needs from a language model, whichever it is
 * (a local GGUF through node-llama-cpp, the model the user picked in VS Code, an
 * OpenAI-compatible server, or a scripted engine in tests). An engine only generates: it
 * streams text, proposes tool calls and reports token accounting. The agent loop validates
 * and runs the calls through the one tool table, and decides when the turn ends.
 */
import type { JsonSchema } from '../tools/types.js';

export type Role = 'system' | 'user' | 'assistant' | 'tool';

export interface ToolCallRequest {
  /** engine-assigned id, echoed in the tool message that answers it */
  id: string;
  name: string;
  /** parsed arguments, or the raw text when the engine could not parse them */
  arguments: Record<string, unknown> | string;
}

export interface ChatMessage {
  role: Role;
  content: string;
  /** assistant messages: the calls it made */
  toolCalls?: ToolCallRequest[];
  /** tool messages: the call answered */
  toolCallId?: string;
  /** tool messages: the tool's name */
  name?: string;
}

/** a tool as every engine sees it, generated from the tool table */
export interface EngineToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema;
}

export interface GenerateOptions {
  tools: readonly EngineToolSpec[];
  /** stops generation promptly; the engine then ends its stream */
  signal?: AbortSignal;
  /** cap on generated tokens for this step */
  maxTokens?: number;
  /** cap on tokens inside a reasoning model's <think> block (closed by hand on overrun) */
  thinkBudget?: number;
}

export interface Usage {
  /** tokens of the prompt for this step */
  promptTokens: number;
  /** prompt tokens actually evaluated this step (the rest came from a reused KV-cache prefix) */
  evaluatedTokens: number;
  /** tokens generated this step */
  outputTokens: number;
}

export type EngineEvent =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string }
  | { type: 'tool_call'; call: ToolCallRequest }
  | { type: 'usage'; usage: Usage }
  /** the first streamed token of this step reached us (for time-to-first-token) */
  | { type: 'first_token' };

export interface Engine {
  /** 'llama' | 'vscode' | 'openai' | 'scripted' */
  readonly id: string;
  /** for status bars and metrics: "Qwen3-4B-Instruct Q4_K_M (local)" */
  readonly label: string;
  /**
   * One generation step on the whole conversation so far. Streams text as it is produced
   * (never tool-call markup), then the tool calls it proposes (if any), then usage.
   * Must end promptly when `signal` aborts.
   */
  generate(messages: readonly ChatMessage[], opts: GenerateOptions): AsyncIterable<EngineEvent>;
  /** optional warm-up: evaluate the fixed prefix (system prompt + tools) ahead of the first turn */
  prewarm?(system: string, tools: readonly EngineToolSpec[], signal?: AbortSignal): Promise<void>;
  dispose?(): Promise<void>;
}
