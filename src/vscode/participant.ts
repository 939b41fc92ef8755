/** The @control chat participant: a thin adapter from the chat API to a core turn. */
import * as vscode from 'vscode';
import { runTurn } from '../core/agent/turn.js';
import { mathEnabled, maxStates, streamTurn } from './render.js';

export const PARTICIPANT_ID = 'control.chat';

/** text of the references the user attached (#selection, #file), searched for matrices */
async function referenceText(refs: readonly vscode.ChatPromptReference[]): Promise<{ text: string; label?: string } | undefined> {
  const parts: string[] = [];
  const labels: string[] = [];
  for (const r of refs) {
    const v = r.value;
    if (typeof v === 'string') parts.push(v);
    else if (v instanceof vscode.Location) {
      const doc = await vscode.workspace.openTextDocument(v.uri);
      parts.push(doc.getText(v.range));
      labels.push(`${vscode.workspace.asRelativePath(v.uri)}:${v.range.start.line + 1}-${v.range.end.line + 1}`);
    } else if (v instanceof vscode.Uri) {
      const doc = await vscode.workspace.openTextDocument(v);
      parts.push(doc.getText());
      labels.push(vscode.workspace.asRelativePath(v));
    }
  }
  return parts.length ? { text: parts.join('\n'), label: labels.join(', ') || undefined } : undefined;
}

/**
 * Matrices given earlier in the conversation stay in force ("now design an LQR for it"):
 * earlier @control prompts are searched first, then references, and the current prompt
 * overrides both (parseIntent reads the context before the prompt).
 */
async function conversationContext(
  chatContext: vscode.ChatContext,
  refs: { text: string; label?: string } | undefined,
): Promise<{ text: string; label?: string } | undefined> {
  const earlier = chatContext.history
    .filter((t): t is vscode.ChatRequestTurn => t instanceof vscode.ChatRequestTurn && t.participant === PARTICIPANT_ID)
    .map((t) => t.prompt);
  const text = [...earlier, refs?.text ?? ''].join('\n').trim();
  return text ? { text, label: refs?.label } : undefined;
}

export function registerParticipant(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  const handler: vscode.ChatRequestHandler = async (request, chatContext, stream, token) => {
    log.info(`@control ${request.command ? '/' + request.command + ' ' : ''}${request.prompt.slice(0, 200)}`);
    const contextRef = await conversationContext(chatContext, await referenceText(request.references));
    const summary = await streamTurn(
      runTurn({ prompt: request.prompt, command: request.command, context: contextRef }, { math: mathEnabled(), maxN: maxStates() }),
      stream,
      token,
      log,
    );
    return {
      metadata: { toolCalls: summary.toolCalls, metrics: summary.metrics },
      ...(summary.error ? { errorDetails: { message: summary.error } } : {}),
    };
  };
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, handler);
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'control.svg');
  participant.followupProvider = {
    provideFollowups(result) {
      const calls = (result.metadata?.toolCalls ?? []) as { tool: string; ok: boolean; n?: number; m?: number }[];
      const a = calls.find((c) => c.tool === 'analyse' && c.ok && c.n && c.m);
      if (!a) return [];
      // the matrices come from the earlier turn (see conversationContext)
      return [{ prompt: `Q=eye(${a.n}), R=eye(${a.m})`, label: 'Design an LQR with Q = I, R = I', command: 'lqr' }];
    },
  };
  context.subscriptions.push(participant);
}
