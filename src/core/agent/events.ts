/**
 * A turn of @control is a typed event sequence. Every front end renders the same sequence
 * (the chat pane as Markdown and progress lines, the CLI as Markdown or JSONL), and golden
 * fixtures pin it: a change in the sequence is a change in behaviour.
 */
import type { Verification } from '../verify/index.js';

export type TurnEvent =
  | { type: 'text'; text: string }
  /**
   * How the request was read, before anything else: the exact call and where each argument
   * came from ("Computed `c2d(A, B, C, D, Ts = 0.05, method = 'tustin')`; A, B, C, D from
   * turn 2, Ts from '50 ms', method from 'tustin'."). One per call a model makes, too.
   */
  | { type: 'reading'; tool: string; markdown: string; origins: Record<string, string> }
  /** a question back instead of a guess, with the candidate readings as follow-up prompts */
  | { type: 'ask'; question: string; candidates: { label: string; prompt: string; command?: string }[] }
  /**
   * The calls a request would make, shown before anything runs (/plan, `control ask --plan`):
   * each step's tool and its arguments as text (a value, or where it will come from).
   */
  | { type: 'plan'; title: string; steps: { tool: string; title?: string; why?: string; args: Record<string, string> }[]; markdown: string }
  | { type: 'thinking'; text: string }
  | { type: 'tool_call'; id: string; tool: string; args: Record<string, unknown> }
  | {
      type: 'tool_result';
      id: string;
      tool: string;
      /** full-precision result; absent when the tool refused */
      result?: Record<string, unknown>;
      /** the refusal or error message a user reads */
      error?: string;
      verification?: Verification;
      /** the result rendered for people */
      markdown: string;
      /** a step a plan needed but the user did not ask for (tf2ss realising a transfer function for /step): shown, with no code or plot offered for it */
      intermediate?: true;
    }
  | { type: 'reference'; title: string; uri: string; range?: { startLine: number; endLine: number } }
  | { type: 'metrics'; engine: string; ms: number; toolCalls: number; [k: string]: unknown }
  | { type: 'error'; message: string }
  | { type: 'done' };

export type TurnEventType = TurnEvent['type'];

/** the Markdown a non-streaming consumer (CLI, LM provider) shows for a finished turn */
export function eventsToMarkdown(events: readonly TurnEvent[]): string {
  // consecutive text events are one streamed paragraph; blocks are separated by blank lines
  const parts: string[] = [];
  let prev: TurnEvent['type'] | undefined;
  for (const e of events) {
    if (e.type === 'text') {
      if (prev === 'text') parts[parts.length - 1] += e.text;
      else parts.push(e.text);
    } else if (e.type === 'tool_result') parts.push(e.markdown);
    else if (e.type === 'reading' || e.type === 'plan') parts.push(e.markdown);
    else if (e.type === 'ask')
      parts.push([e.question, ...e.candidates.map((c, i) => `${i + 1}. ${c.label}: \`${c.command ? '/' + c.command + ' ' : ''}${c.prompt}\``)].join('\n'));
    else if (e.type === 'error') parts.push(`**Error:** ${e.message}`);
    else continue;
    prev = e.type;
  }
  return parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join('\n\n');
}
