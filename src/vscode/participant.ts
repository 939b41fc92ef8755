/** The @control chat participant: a thin adapter from the chat API to a core turn. */
import * as vscode from 'vscode';
import { runTurn } from '../core/agent/turn.js';
import type { ChatMessage } from '../core/engines/types.js';
import { engineFor } from './model.js';
import type { RetrievalService } from './retrieval.js';
import { mathEnabled, maxStates, streamTurn } from './render.js';
import { turnLog } from './report.js';

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

/** earlier @control turns as plain user/assistant messages for a model */
function historyMessages(chatContext: vscode.ChatContext): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const t of chatContext.history) {
    if (t instanceof vscode.ChatRequestTurn && t.participant === PARTICIPANT_ID) out.push({ role: 'user', content: t.prompt });
    else if (t instanceof vscode.ChatResponseTurn && t.participant === PARTICIPANT_ID) {
      const text = t.response
        .map((p) => (p instanceof vscode.ChatResponseMarkdownPart ? p.value.value : ''))
        .join('')
        .trim();
      if (text) out.push({ role: 'assistant', content: text.length > 4000 ? text.slice(0, 4000) + '…' : text });
    }
  }
  return out.slice(-8);
}

export function registerParticipant(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, retrieval: RetrievalService): void {
  const handler: vscode.ChatRequestHandler = async (request, chatContext, stream, token) => {
    log.info(`@control ${request.command ? '/' + request.command + ' ' : ''}${request.prompt.slice(0, 200)}`);
    const refs = await referenceText(request.references);
    const contextRef = await conversationContext(chatContext, refs);
    let engine;
    try {
      engine = await engineFor(request);
    } catch (e) {
      stream.markdown(`**The configured language model is not available:** ${(e as Error).message}\n\nRun **Control: Select Model** to choose another; slash commands such as \`/lqr\` work without one.`);
      return { errorDetails: { message: (e as Error).message } };
    }
    const ac = new AbortController();
    const sub = token.onCancellationRequested(() => ac.abort());
    const cfg = vscode.workspace.getConfiguration('control');
    const retriever = await retrieval.retriever();
    const turn = () => streamTurn(
      // recorded for Control: Export Design Report (the last turns, in memory only)
      turnLog.record(runTurn(
        { prompt: request.prompt, command: request.command, context: contextRef, modelContext: refs },
        {
          math: mathEnabled(),
          maxN: maxStates(),
          engine,
          retriever,
          agent: {
            signal: ac.signal,
            history: historyMessages(chatContext),
            maxSteps: cfg.get<number>('agent.maxToolSteps', 3),
            maxCallsPerTool: cfg.get<number>('agent.maxCallsPerTool', 2),
            maxOutputTokens: cfg.get<number>('agent.maxOutputTokens', 2048),
          },
        },
      ), request.prompt, request.command),
      stream,
      token,
      log,
    );
    // a local model shares the cores with background embedding: pause it for the turn
    const summary = await (engine?.id === 'llama' ? retrieval.pausedWhile(turn) : turn()).finally(() => sub.dispose());
    return {
      metadata: { toolCalls: summary.toolCalls, metrics: summary.metrics, textChunks: summary.textChunks, references: summary.references, citations: summary.citations },
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
