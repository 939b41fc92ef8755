/**
 * Streams a core turn into a chat response: the one place events meet the chat API.
 *
 * Layout rule (VS Code 1.139, `chat.agent.collapseCompletedResponses`, on by default): when a
 * response completes, everything before its last run of consecutive Markdown parts is folded
 * into a collapsed "Completed N steps" block. A progress part or a button between two pieces of
 * Markdown therefore hides the Markdown before it (the reading, the realisation, the step
 * table). So an answer is Markdown only, in order (the reading first), with no progress parts
 * (a deterministic turn takes milliseconds; a model's tool calls run as soon as they are read),
 * and every button (plots, code) comes after the last Markdown.
 */
import * as vscode from 'vscode';
import { routeLine, type TurnEvent } from '../core/agent/events.js';
import type { CallDigest } from '../core/agent/compact.js';
import { digestEvents } from '../core/agent/history.js';
import { offerPlots } from './plots.js';
import { offerCode } from './codeInsert.js';
import { describeInvocation } from '../core/mcp/invoke.js';
import { quoteInput } from '../core/errors.js';
import { delayedSolveProgress, type SolveProgress } from './solveProgress.js';
import { setting } from './settings.js';

/** a question's candidate readings, offered as follow-up buttons under the answer */
export interface FollowupCandidate {
  label: string;
  prompt: string;
  command?: string;
}

export interface StreamSummary {
  toolCalls: { tool: string; ok: boolean; n?: number; m?: number }[];
  error?: string;
  metrics?: Extract<TurnEvent, { type: 'metrics' }>;
  /** how many pieces of text reached the chat (more than one: it streamed) */
  textChunks: number;
  /** the URIs cited */
  references: string[];
  /** their labels: "Source, p. 3" / "Source, lines 12–30" */
  citations: string[];
  /** how each call was read ("Computed `lqr(A, B, Q, R = 10)`; ..."), in order */
  readings: string[];
  /** the question asked back, if any */
  question?: string;
  /** its candidate readings (the participant's followupProvider returns them) */
  followups: FollowupCandidate[];
  /** the solves that ran long enough to show progress ("Solving … for a 200-state model") */
  progress: string[];
  /** the calls as later turns' model history keeps them (core/agent/history.ts) */
  calls: CallDigest[];
}

export async function streamTurn(
  events: AsyncIterable<TurnEvent>,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  log: vscode.LogOutputChannel,
  /** stops the turn (its solver thread included): offered on a long solve's progress */
  cancel?: () => void,
): Promise<StreamSummary> {
  const summary: StreamSummary = { toolCalls: [], textChunks: 0, references: [], citations: [], readings: [], followups: [], progress: [], calls: [] };
  const seen: TurnEvent[] = [];
  const calls = new Map<string, Record<string, unknown>>();
  const plotted = new Set<string>(); // plot buttons already offered in this answer
  // buttons wait for the end of the answer (see the layout rule above)
  const buttons: { tool: string; command: vscode.Command }[] = [];
  const later = (tool: string): Pick<vscode.ChatResponseStream, 'button'> => ({ button: (command) => void buttons.push({ tool, command }) });
  // a solve that runs long shows progress with Cancel (ended by its result or the turn's end)
  let progress: SolveProgress | undefined;
  try {
    for await (const e of events) {
      progress?.end();
      progress = undefined;
      if (token.isCancellationRequested) break;
      seen.push(e);
      switch (e.type) {
        case 'reading':
          // how the request was read: the first thing in the answer, never folded away
          stream.markdown('\n\n' + e.markdown + '\n\n');
          summary.readings.push(e.markdown);
          log.info(`reading: ${e.markdown}`);
          break;
        case 'plan':
          // the calls a /plan request would make, before anything runs
          stream.markdown('\n\n' + e.markdown + '\n\n');
          log.info(`plan: ${e.title}`);
          break;
        case 'ask':
          // a block of its own (a definition's text before it ends without a newline)
          stream.markdown('\n\n' + e.question + '\n\n');
          summary.question = e.question;
          summary.followups.push(...e.candidates);
          log.info(`asked back: ${e.question} (${e.candidates.length} candidate(s))`);
          break;
        case 'text':
          // model text streams in small pieces: pass them on as they are (no paragraph breaks)
          stream.markdown(e.text);
          summary.textChunks++;
          break;
        case 'thinking':
          break;
        case 'compaction':
          // the earlier turns the model was sent, summarised (said in the answer when the fold moves)
          if (e.refolded)
            stream.markdown(
              `\n\n_The model was sent turns 1–${e.folded} of this conversation as a summary and the last ${e.kept} in full (about ${e.tokensAfter} tokens instead of ${e.tokensBefore})._\n\n`,
            );
          log.info(`history compacted: ${e.folded} turn(s) folded, ${e.kept} kept, ~${e.tokensBefore} -> ~${e.tokensAfter} tokens`);
          break;
        case 'tool_call':
          calls.set(e.id, e.args);
          log.info(`tool call ${e.tool} ${quoteInput(JSON.stringify(e.args), 2000)}`);
          progress = delayedSolveProgress(describeInvocation(e.tool, e.args), cancel, log, (t) => summary.progress.push(t));
          break;
        case 'tool_result':
          stream.markdown('\n\n' + e.markdown + '\n\n');
          {
            const args = calls.get(e.id) ?? {};
            const A = args.A as unknown[] | undefined;
            const B = args.B as unknown[][] | undefined;
            summary.toolCalls.push({ tool: e.tool, ok: e.error === undefined, n: A?.length, m: B?.[0]?.length });
          }
          // an intermediate step (tf2ss inside /step) is shown, but the buttons belong to what was asked
          if (e.error === undefined && !e.intermediate) offerPlots(later(e.tool), e.tool, calls.get(e.id) ?? {}, e.result, plotted);
          if (e.error === undefined && !e.intermediate) offerCode(later(e.tool), e.tool, calls.get(e.id) ?? {}, e.result, e.verification, log);
          if (e.error !== undefined) log.warn(`${e.tool} refused: ${e.error}`);
          else log.info(`${e.tool} solved; verification ${e.verification ? (e.verification.ok ? 'passed' : 'FAILED') : 'n/a'}`);
          break;
        case 'reference': {
          // a clickable citation to the file and, for text sources, the line range (1-based in the core)
          const uri = vscode.Uri.parse(e.uri);
          stream.reference(e.range ? new vscode.Location(uri, new vscode.Range(e.range.startLine - 1, 0, e.range.endLine - 1, 0)) : uri);
          summary.references.push(e.uri);
          summary.citations.push(e.title);
          break;
        }
        case 'error':
          // shown once, here, in the answer's Markdown (not also as the result's errorDetails box):
          // it stays in order after the reading line it explains, it is copied with the answer, and
          // the next turn's model history (historyTurns reads Markdown parts) still sees it
          stream.markdown(`\n\n**Error:** ${e.message}\n\n`);
          summary.error = e.message;
          log.warn(e.message);
          break;
        case 'route':
          // the turn sent to the fallback (or kept from it) with the user's answer: one line
          stream.markdown(`\n\n${routeLine(e)}\n\n`);
          log.info(`route: ${e.from} -> ${e.to} ${e.where} (${e.reason}): ${e.decision}, ${e.outcome}`);
          break;
        case 'metrics':
          summary.metrics = e;
          log.info(`turn: ${e.engine}, ${e.ms} ms, ${e.toolCalls} tool call(s)`);
          break;
        case 'done':
          break;
      }
    }
  } finally {
    progress?.end();
    summary.calls = digestEvents(seen);
    // together at the end, two tools' "Insert MATLAB code" (step and stepinfo in /step) would
    // read the same: such titles say their tool
    const count = new Map<string, number>();
    for (const b of buttons) count.set(b.command.title, (count.get(b.command.title) ?? 0) + 1);
    for (const b of buttons) stream.button((count.get(b.command.title) ?? 0) > 1 ? { ...b.command, title: `${b.command.title} (${b.tool})` } : b.command);
  }
  return summary;
}

/** whether the chat renders LaTeX (VS Code's chat.math.enabled), unless overridden */
export function mathEnabled(): boolean {
  const mode = setting('math');
  if (mode === 'latex') return true;
  if (mode === 'text') return false;
  return vscode.workspace.getConfiguration('chat.math').get<boolean>('enabled', false);
}

export function maxStates(): number {
  return setting('maxStates');
}

/** seconds one solver call may take (machine-scoped: a workspace cannot raise it) */
export function solveTimeoutSeconds(): number {
  return setting('solveTimeoutSeconds');
}

/** heap budget of a solver thread in MB (machine-scoped) */
export function solveMemoryMB(): number {
  return setting('solveMemoryMB');
}
