/**
 * The `vscode` engine: the model the user picked in the chat pane (Copilot's or any
 * registered one), driven through vscode.lm with our tool schemas. It only generates; the
 * core agent loop runs the tools.
 */
import * as vscode from 'vscode';
import type { ChatMessage, Engine, EngineEvent, GenerateOptions } from '../core/engines/types.js';

/** core messages -> vscode.lm messages (the API has no system role: it leads as a user message) */
export function toLmMessages(messages: readonly ChatMessage[]): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  for (const m of messages) {
    if (m.role === 'system' || m.role === 'user') out.push(vscode.LanguageModelChatMessage.User(m.content));
    else if (m.role === 'assistant') {
      const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] = [];
      if (m.content) parts.push(new vscode.LanguageModelTextPart(m.content));
      for (const c of m.toolCalls ?? [])
        parts.push(new vscode.LanguageModelToolCallPart(c.id, c.name, typeof c.arguments === 'string' ? { text: c.arguments } : c.arguments));
      out.push(vscode.LanguageModelChatMessage.Assistant(parts));
    } else {
      out.push(
        vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(m.toolCallId ?? '', [new vscode.LanguageModelTextPart(m.content)])]),
      );
    }
  }
  return out;
}

export class VsCodeEngine implements Engine {
  readonly id = 'vscode';
  readonly label: string;

  constructor(private readonly model: vscode.LanguageModelChat) {
    this.label = `${model.name} (${model.vendor})`;
  }

  async *generate(messages: readonly ChatMessage[], opts: GenerateOptions): AsyncGenerator<EngineEvent> {
    const cts = new vscode.CancellationTokenSource();
    const onAbort = () => cts.cancel();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const lm = toLmMessages(messages);
      const res = await this.model.sendRequest(
        lm,
        { tools: opts.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.parameters })) },
        cts.token,
      );
      let first = true;
      let chars = 0;
      for await (const part of res.stream) {
        if (first) {
          first = false;
          yield { type: 'first_token' };
        }
        if (part instanceof vscode.LanguageModelTextPart) {
          chars += part.value.length;
          yield { type: 'text', text: part.value };
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          yield { type: 'tool_call', call: { id: part.callId, name: part.name, arguments: part.input as Record<string, unknown> } };
        }
      }
      // vscode.lm reports no usage: estimate, and say nothing about cache reuse
      let prompt = 0;
      for (const m of lm) prompt += await Promise.resolve(this.model.countTokens(m, cts.token)).catch(() => 0);
      yield { type: 'usage', usage: { promptTokens: prompt, evaluatedTokens: prompt, outputTokens: Math.ceil(chars / 4) } };
    } catch (e) {
      if (opts.signal?.aborted) return;
      if (e instanceof vscode.LanguageModelError) throw new Error(`${this.label}: ${e.message} (${e.code})`);
      throw e;
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
      cts.dispose();
    }
  }
}
