/** Streams a core turn into a chat response: the one place events meet the chat API. */
import * as vscode from 'vscode';
import type { TurnEvent } from '../core/agent/events.js';
import { offerPlots } from './plots.js';
import { offerCode } from './codeInsert.js';

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
}

export async function streamTurn(
  events: AsyncIterable<TurnEvent>,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  log: vscode.LogOutputChannel,
): Promise<StreamSummary> {
  const summary: StreamSummary = { toolCalls: [], textChunks: 0, references: [], citations: [] };
  const calls = new Map<string, Record<string, unknown>>();
  const plotted = new Set<string>(); // plot buttons already offered in this answer
  for await (const e of events) {
    if (token.isCancellationRequested) break;
    switch (e.type) {
      case 'text':
        // model text streams in small pieces: pass them on as they are (no paragraph breaks)
        stream.markdown(e.text);
        summary.textChunks++;
        break;
      case 'thinking':
        break;
      case 'tool_call':
        calls.set(e.id, e.args);
        stream.progress(`Solving with ${e.tool}…`);
        log.info(`tool call ${e.tool} ${JSON.stringify(e.args)}`);
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
        if (e.error === undefined && !e.intermediate) offerPlots(stream, e.tool, calls.get(e.id) ?? {}, e.result, plotted);
        if (e.error === undefined && !e.intermediate) offerCode(stream, e.tool, calls.get(e.id) ?? {}, e.result, e.verification, log);
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
        stream.markdown(`**Error:** ${e.message}\n\n`);
        summary.error = e.message;
        log.warn(e.message);
        break;
      case 'metrics':
        summary.metrics = e;
        log.info(`turn: ${e.engine}, ${e.ms} ms, ${e.toolCalls} tool call(s)`);
        break;
      case 'done':
        break;
    }
  }
  return summary;
}

/** whether the chat renders LaTeX (VS Code's chat.math.enabled), unless overridden */
export function mathEnabled(): boolean {
  const mode = vscode.workspace.getConfiguration('control').get<string>('math', 'auto');
  if (mode === 'latex') return true;
  if (mode === 'text') return false;
  return vscode.workspace.getConfiguration('chat.math').get<boolean>('enabled', false);
}

export function maxStates(): number {
  return vscode.workspace.getConfiguration('control').get<number>('maxStates', 200);
}
