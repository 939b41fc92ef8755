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
  /**
   * The earlier turns a model was sent were compacted (agent/compact.ts): `folded` oldest turns
   * as one summary, `kept` turns byte-identical; estimated tokens before and after; `refolded`
   * when this turn moved the fold point (said once in the answer), else the same fold as before.
   */
  | { type: 'compaction'; folded: number; kept: number; tokensBefore: number; tokensAfter: number; refolded: boolean }
  | { type: 'metrics'; engine: string; ms: number; toolCalls: number; [k: string]: unknown }
  /**
   * why a model turn ended in failure, typed (agent/loop.ts, agent/route.ts): load, engine,
   * garbled, tokens, time and steps are the model's failures a fallback may be offered for;
   * cancelled is the user's own stop. Absent: any other error (a refusal, a request not read).
   */
  | { type: 'error'; message: string; reason?: FailureReason }
  /**
   * a turn sent to (or kept from) the fallback engine after the user was asked
   * (agent/route.ts): who failed and why, where the turn went, the user's decision and
   * how it ended. One visible line (routeLine).
   */
  | {
      type: 'route';
      /** the turn that failed (the conversation's turn number) */
      turn: number;
      from: string;
      to: string;
      /** where the fallback runs: "at https://api.example.com (leaves this machine)" */
      where: string;
      reason: FailureReason;
      /** the failure's message as the user read it */
      failure: string;
      decision: 'sent' | 'declined';
      outcome: 'answered' | 'failed' | 'not sent';
    }
  | { type: 'done' };

export type FailureReason = 'load' | 'engine' | 'garbled' | 'tokens' | 'time' | 'steps' | 'cancelled';

/** what the model did, for the consent question and the route line */
export const FAILURE_TEXT: Record<FailureReason, string> = {
  load: 'could not be loaded or reached',
  engine: 'failed while answering',
  garbled: 'made tool calls that could not be used, twice in a row',
  tokens: 'used up its budget of generated tokens',
  time: 'ran over the time budget of the turn',
  steps: 'used up its tool steps without an answer',
  cancelled: 'was stopped',
};

/** the one line a route event reads as */
export function routeLine(e: Extract<TurnEvent, { type: 'route' }>): string {
  const after = `after ${e.from} ${FAILURE_TEXT[e.reason]} (turn ${e.turn})`;
  return e.decision === 'declined'
    ? `_Not sent to ${e.to} ${e.where}: you declined ${after}; nothing was sent._`
    : `_Sent to ${e.to} ${e.where} with your consent, ${after}; ${e.outcome === 'answered' ? 'it answered' : 'it failed too'}._`;
}

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
    else if (e.type === 'route') parts.push(routeLine(e));
    else if (e.type === 'compaction' && e.refolded)
      parts.push(
        `_The model was sent turns 1–${e.folded} of this conversation as a summary (each request and its calls with their results) and the last ${e.kept} in full: about ${e.tokensAfter} tokens instead of ${e.tokensBefore}._`,
      );
    else continue;
    prev = e.type;
  }
  return parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join('\n\n');
}
