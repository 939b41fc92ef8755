/**
 * Language models of our own in VS Code's model picker. The chat pane calls a participant
 * only when some model is selected, so without Copilot `@control` would be unreachable:
 * - "@control solvers (no language model)" is honest about what it is: it runs the
 *   deterministic solver path on the last user message, in the conversation the earlier user
 *   messages built (as @control does), and says so otherwise;
 * - when a local GGUF file is configured, that model is offered too, so other participants
 *   and agent mode can use it (raw generation with their tools; nothing leaves the machine).
 */
import * as vscode from 'vscode';
import { collectTurn } from '../core/agent/turn.js';
import { Conversation, executeReading, readTurn, recordExecution } from '../core/reader/index.js';
import { eventsToMarkdown } from '../core/agent/events.js';
import { createEngine } from '../core/engines/index.js';
import type { ChatMessage, EngineToolSpec } from '../core/engines/types.js';
import { mathEnabled, maxStates } from './render.js';
import { affectsSetting, setting } from './settings.js';

export const LM_VENDOR = 'control';
export const LOCAL_MODEL_ID = 'control-local';

const SOLVERS: vscode.LanguageModelChatInformation = {
  id: 'control-solvers',
  name: '@control solvers (no language model)',
  family: 'control-deterministic',
  version: '1',
  tooltip: 'Deterministic control solvers: answers slash commands and requests that name a computation and give matrices. Not a conversational model.',
  detail: 'deterministic, offline',
  maxInputTokens: 200_000,
  maxOutputTokens: 200_000,
  // The chat pane's default (Agent) mode lists only models that declare tool calling, and
  // without a listed model `@control` is unreachable. Tools sent to this provider are
  // ignored: it answers with the deterministic path, as its name says.
  capabilities: { toolCalling: true },
};

function localPath(): string {
  return setting('model.provider') === 'local' ? setting('model.path') : '';
}

function localInfo(path: string): vscode.LanguageModelChatInformation {
  return {
    id: LOCAL_MODEL_ID,
    name: `${path
      .split(/[\\/]/)
      .pop()!
      .replace(/\.gguf$/i, '')} (local)`,
    family: 'gguf',
    version: '1',
    tooltip: `Local GGUF model run by node-llama-cpp inside VS Code: ${path}`,
    detail: 'local, offline',
    maxInputTokens: 8192,
    maxOutputTokens: 2048,
    capabilities: { toolCalling: true },
  };
}

/** "/c2d A=..." -> command c2d and the rest */
function splitCommand(text: string): { prompt: string; command?: string } {
  const m = /^\/(\w+)\s*/.exec(text);
  return m ? { prompt: text.slice(m[0].length), command: m[1] } : { prompt: text };
}

/** earlier user messages replayed: at most this many, the newest */
const REPLAYED = 12;

/**
 * The conversation the earlier user messages of this request built, read again by the core
 * reader (each call's plan rerun, so c2d's discrete model is a system later turns can name).
 * The provider keeps no state between requests; the chat sends the whole exchange, so the
 * follow-ups a question back offers ("margins of G1") work here as in @control. Turn numbers
 * count every earlier user message, replayed or not.
 */
async function replayConversation(earlier: string[], maxN: number): Promise<Conversation> {
  const conv = new Conversation();
  const skipped = Math.max(0, earlier.length - REPLAYED);
  conv.turn = skipped;
  for (const text of earlier.slice(skipped)) {
    const { prompt, command } = splitCommand(text);
    try {
      const r = readTurn(conv, prompt, { command });
      if (r.kind === 'call') recordExecution(conv, r, await executeReading(r, { maxN }));
    } catch {
      conv.turn++; // unreadable then, unreadable now: it still was a turn
    }
  }
  return conv;
}

function partsText(m: vscode.LanguageModelChatRequestMessage): string {
  return m.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

/** vscode.lm request messages -> core messages (tool calls and results kept) */
function toCore(messages: readonly vscode.LanguageModelChatRequestMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    const calls = m.content.filter((p): p is vscode.LanguageModelToolCallPart => p instanceof vscode.LanguageModelToolCallPart);
    const results = m.content.filter((p): p is vscode.LanguageModelToolResultPart => p instanceof vscode.LanguageModelToolResultPart);
    for (const r of results)
      out.push({ role: 'tool', toolCallId: r.callId, content: r.content.map((c) => (c instanceof vscode.LanguageModelTextPart ? c.value : '')).join('') });
    const text = partsText(m);
    if (m.role === vscode.LanguageModelChatMessageRole.Assistant)
      out.push({
        role: 'assistant',
        content: text,
        toolCalls: calls.map((c) => ({ id: c.callId, name: c.name, arguments: c.input as Record<string, unknown> })),
      });
    else if (text || !results.length) out.push({ role: 'user', content: text });
  }
  return out;
}

export function registerLanguageModelProvider(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  const changed = new vscode.EventEmitter<void>();
  context.subscriptions.push(
    changed,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsSetting(e, 'model')) changed.fire();
    }),
  );
  const provider: vscode.LanguageModelChatProvider = {
    onDidChangeLanguageModelChatInformation: changed.event,
    provideLanguageModelChatInformation: () => {
      const path = localPath();
      return path ? [SOLVERS, localInfo(path)] : [SOLVERS];
    },
    async provideLanguageModelChatResponse(model, messages, options, progress, token) {
      if (model.id === LOCAL_MODEL_ID) {
        const engine = await createEngine({ provider: 'local', modelPath: localPath() });
        if (!engine) throw new Error('no local model configured');
        const ac = new AbortController();
        const sub = token.onCancellationRequested(() => ac.abort());
        try {
          const tools: EngineToolSpec[] = (options.tools ?? []).map((t) => ({
            name: t.name,
            description: t.description,
            parameters: (t.inputSchema ?? { type: 'object', properties: {} }) as EngineToolSpec['parameters'],
          }));
          for await (const ev of engine.generate(toCore(messages), { tools, signal: ac.signal })) {
            if (ev.type === 'text') progress.report(new vscode.LanguageModelTextPart(ev.text));
            else if (ev.type === 'tool_call')
              progress.report(
                new vscode.LanguageModelToolCallPart(
                  ev.call.id,
                  ev.call.name,
                  typeof ev.call.arguments === 'string' ? { text: ev.call.arguments } : ev.call.arguments,
                ),
              );
          }
        } finally {
          sub.dispose();
        }
        return;
      }
      const users = messages
        .filter((m) => m.role === vscode.LanguageModelChatMessageRole.User)
        .map((m) => partsText(m).trim())
        .filter(Boolean);
      const { prompt, command } = splitCommand(users.pop() ?? '');
      log.info(`language-model provider request (${prompt.length} chars, ${users.length} earlier message(s))`);
      const conversation = await replayConversation(users, maxStates());
      const events = await collectTurn({ prompt, command, conversation }, { math: mathEnabled(), maxN: maxStates() });
      if (!token.isCancellationRequested) progress.report(new vscode.LanguageModelTextPart(eventsToMarkdown(events)));
    },
    async provideTokenCount(_model, text) {
      const s = typeof text === 'string' ? text : partsText(text);
      return Math.ceil(s.length / 4);
    },
  };
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider(LM_VENDOR, provider));
  // VS Code asks a provider for its models only when someone selects models: do it once so
  // the chat pane has a model to offer even in a fresh profile without Copilot
  void Promise.resolve(vscode.lm.selectChatModels({ vendor: LM_VENDOR })).catch(() => undefined);
}
