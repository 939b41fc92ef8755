/**
 * A language-model chat provider of our own. VS Code's chat pane calls a participant only
 * when some language model is selected, so without Copilot `@control` would be unreachable.
 * This "model" is honest about what it is: it runs the deterministic solver path on the
 * last user message (slash commands and well-formed requests) and says so otherwise.
 */
import * as vscode from 'vscode';
import { collectTurn } from '../core/agent/turn.js';
import { eventsToMarkdown } from '../core/agent/events.js';
import { mathEnabled, maxStates } from './render.js';

export const LM_VENDOR = 'control';

const MODEL: vscode.LanguageModelChatInformation = {
  id: 'control-solvers',
  name: '@control solvers (no language model)',
  family: 'control-deterministic',
  version: '1',
  tooltip: 'Deterministic control solvers: answers slash commands and requests that name a computation and give matrices. Not a conversational model.',
  detail: 'deterministic, offline',
  maxInputTokens: 200_000,
  maxOutputTokens: 200_000,
  capabilities: {},
};

function messageText(m: vscode.LanguageModelChatRequestMessage): string {
  return m.content
    .map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : ''))
    .join('');
}

export function registerLanguageModelProvider(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  const provider: vscode.LanguageModelChatProvider = {
    provideLanguageModelChatInformation: () => [MODEL],
    async provideLanguageModelChatResponse(_model, messages, _options, progress, token) {
      const last = [...messages].reverse().find((m) => m.role === vscode.LanguageModelChatMessageRole.User);
      let text = last ? messageText(last).trim() : '';
      let command: string | undefined;
      const m = /^\/(\w+)\s*/.exec(text);
      if (m) {
        command = m[1];
        text = text.slice(m[0].length);
      }
      log.info(`language-model provider request (${text.length} chars)`);
      const events = await collectTurn({ prompt: text, command }, { math: mathEnabled(), maxN: maxStates() });
      if (!token.isCancellationRequested) progress.report(new vscode.LanguageModelTextPart(eventsToMarkdown(events)));
    },
    async provideTokenCount(_model, text) {
      const s = typeof text === 'string' ? text : messageText(text);
      return Math.ceil(s.length / 4);
    },
  };
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider(LM_VENDOR, provider));
}
