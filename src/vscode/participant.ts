/** The @control chat participant: a thin adapter from the chat API to a core turn. */
import * as vscode from 'vscode';
import { runTurn } from '../core/agent/turn.js';
import { resumeCandidate } from '../core/agent/playbooks.js';
import { DirectoryResultStore } from '../core/agent/spill.js';
import type { CallDigest, HistoryTurn } from '../core/agent/compact.js';
import { ANSWER_LIMIT } from '../core/agent/compact.js';
import { Conversation, type ConversationState } from '../core/reader/index.js';
import { engineFor, fallbackFor } from './model.js';
import type { Engine } from '../core/engines/types.js';
import type { RetrievalService } from './retrieval.js';
import { mathEnabled, maxStates, solveTimeoutSeconds, streamTurn, type FollowupCandidate } from './render.js';
import { turnLog } from './report.js';
import { setting } from './settings.js';

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
 * The conversation so far (systems defined, the system in use, the last call) as the core
 * reader keeps it: each @control answer carries it in its result metadata, so the newest
 * answer that has it is the state this turn starts from. Nothing is re-read from earlier
 * prompts: a request that gives its own system never picks up an earlier turn's matrices.
 */
function conversationFrom(chatContext: vscode.ChatContext): Conversation {
  for (let i = chatContext.history.length - 1; i >= 0; i--) {
    const t = chatContext.history[i];
    if (!(t instanceof vscode.ChatResponseTurn) || t.participant !== PARTICIPANT_ID) continue;
    const state = t.result.metadata?.conversation as ConversationState | undefined;
    // a copy: the turn updates its conversation in place, and the earlier answer's state must
    // stay as it was (a retried or edited request starts from it again)
    if (state && typeof state === 'object') return Conversation.fromJSON(JSON.parse(JSON.stringify(state)) as ConversationState);
  }
  return new Conversation();
}

/**
 * Earlier @control turns for a model: each request, its answer's Markdown and the digests of
 * its calls (kept in the answer's metadata). All of them: the agent loop compacts a long
 * history (core/agent/compact.ts: the oldest folded into a summary, the tail kept as is).
 */
function historyTurns(chatContext: vscode.ChatContext): HistoryTurn[] {
  const out: HistoryTurn[] = [];
  let user: string | undefined;
  for (const t of chatContext.history) {
    if (t instanceof vscode.ChatRequestTurn && t.participant === PARTICIPANT_ID) {
      if (user !== undefined) out.push({ user, answer: '', calls: [] });
      user = t.command ? `/${t.command} ${t.prompt}` : t.prompt;
    } else if (t instanceof vscode.ChatResponseTurn && t.participant === PARTICIPANT_ID) {
      const text = t.response
        .map((p) => (p instanceof vscode.ChatResponseMarkdownPart ? p.value.value : ''))
        .join('')
        .trim();
      const calls = t.result.metadata?.calls;
      out.push({
        user: user ?? '',
        answer: text.length > ANSWER_LIMIT ? text.slice(0, ANSWER_LIMIT) + '…' : text,
        calls: Array.isArray(calls) ? (calls as CallDigest[]) : [],
      });
      user = undefined;
    }
  }
  if (user !== undefined) out.push({ user, answer: '', calls: [] });
  return out;
}

export function registerParticipant(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, retrieval: RetrievalService): void {
  // a model's long tool results, kept for it to read back (agent/spill.ts): in global storage, which
  // exists with no folder open (storageUri does not) and holds no workspace data (a result is
  // computed from the chat), so one bounded store serves every window
  const results = new DirectoryResultStore(vscode.Uri.joinPath(context.globalStorageUri, 'results').fsPath);
  const handler: vscode.ChatRequestHandler = async (request, chatContext, stream, token) => {
    log.info(`@control ${request.command ? '/' + request.command + ' ' : ''}${request.prompt.slice(0, 200)}`);
    // attached references (#selection, #file) are this turn's context only. What VS Code attaches
    // by itself (the editor's selection or file, ids vscode.implicit.*) counts only when the message
    // points at it ("analyse this", "the selected model"): otherwise an open file would replace the
    // system of a follow-up such as "now with R=10".
    const pointsAtEditor = /\b(this|these|selection|selected|highlighted|the file|this file|here|my (?:model|code|script))\b/i.test(request.prompt);
    const refs = await referenceText(request.references.filter((r) => !r.id.startsWith('vscode.implicit') || pointsAtEditor));
    const conversation = conversationFrom(chatContext);
    // a model that cannot be had fails only a turn that needs one (slash commands need none),
    // as a typed load failure the core may offer to the fallback (agent/route.ts)
    let engine: Engine | undefined;
    let loadError: unknown;
    try {
      engine = await engineFor(request);
    } catch (e) {
      loadError = e;
    }
    const fallback = fallbackFor(request);
    const ac = new AbortController();
    const sub = token.onCancellationRequested(() => ac.abort());
    const retriever = await retrieval.retriever();
    const turn = () =>
      streamTurn(
        // recorded for Control: Export Design Report (the last turns, in memory only)
        turnLog.record(
          runTurn(
            { prompt: request.prompt, command: request.command, context: refs, modelContext: refs, conversation },
            {
              math: mathEnabled(),
              maxN: maxStates(),
              timeoutS: solveTimeoutSeconds(),
              // the chat's stop button (and the progress notification's Cancel) end a running solve
              signal: ac.signal,
              engine: loadError !== undefined ? () => Promise.reject(loadError) : engine,
              fallback,
              retriever,
              agent: {
                turns: historyTurns(chatContext),
                maxSteps: setting('agent.maxToolSteps'),
                maxCallsPerTool: setting('agent.maxCallsPerTool'),
                maxOutputTokens: setting('agent.maxOutputTokens'),
                results,
              },
            },
          ),
          request.prompt,
          request.command,
        ),
        stream,
        token,
        log,
        () => ac.abort(),
      );
    // a local model shares the cores with background embedding: pause it for the turn
    const summary = await (engine?.id === 'llama' ? retrieval.pausedWhile(turn) : turn()).finally(() => sub.dispose());
    // the chat's stop button ended a design playbook mid-step: its checkpoint stands, offer to resume
    const resume = token.isCancellationRequested ? resumeCandidate(conversation.checkpoint) : undefined;
    if (resume && !summary.followups.some((f) => f.prompt === resume.prompt)) summary.followups.push(resume);
    // the error is already in the answer's Markdown: no errorDetails box repeating it
    return {
      metadata: {
        toolCalls: summary.toolCalls,
        metrics: summary.metrics,
        textChunks: summary.textChunks,
        references: summary.references,
        citations: summary.citations,
        readings: summary.readings,
        question: summary.question,
        followups: summary.followups,
        progress: summary.progress,
        error: summary.error,
        // the calls, small, for a later turn's model history (historyTurns)
        calls: summary.calls,
        // the next turn starts from this (see conversationFrom)
        conversation: conversation.toJSON(),
      },
    };
  };
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, handler);
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'control.svg');
  participant.followupProvider = {
    provideFollowups(result) {
      // a question back: each candidate reading is a button that sends it as the next request
      const asked = (result.metadata?.followups ?? []) as FollowupCandidate[];
      if (asked.length) return asked.map((c) => ({ prompt: c.prompt, label: c.label, ...(c.command ? { command: c.command } : {}) }));
      const calls = (result.metadata?.toolCalls ?? []) as { tool: string; ok: boolean; n?: number; m?: number }[];
      // after an analysis asked for itself (not the first step of a design playbook)
      const a = calls.length === 1 ? calls.find((c) => c.tool === 'analyse' && c.ok && c.n && c.m) : undefined;
      if (!a) return [];
      // A and B come from the analysed system, the one in use in the conversation
      return [{ prompt: `Q=eye(${a.n}), R=eye(${a.m})`, label: 'Design an LQR with Q = I, R = I', command: 'lqr' }];
    },
  };
  context.subscriptions.push(participant);
}
