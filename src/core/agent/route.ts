/**
 * Routing with consent (issue 15 item 4). When the configured model cannot finish a turn for a
 * reason another model could get past (it could not be loaded, its tool calls were unusable
 * twice, it ran out of tokens, time or tool steps: the error event's typed `reason`), and a
 * fallback engine is configured, the turn ends with one question: send this turn to the
 * fallback, named and with where it runs? The failed turn is kept in the conversation
 * (`Conversation.route`, which travels with it as the playbook checkpoint does), so "Send"
 * replays the same message (with the same fenced context and passages, and the same earlier
 * turns) on the fallback. The decision and its outcome are a `route` event of that turn.
 *
 * Invariant (ARCHITECTURE.md 10): nothing goes to another model without the user's explicit
 * answer to that question. Asked once: the answer (either way) or any other message ends the
 * offer; a fallback that fails too is not offered anything further.
 *
 * Only types and the failure texts are imported: the conversation (reader/) imports this module.
 */
import type { ChatMessage, Engine } from '../engines/types.js';
import { FAILURE_TEXT, type FailureReason, type TurnEvent } from './events.js';

/** the engine offered when the configured one fails: named, with where it runs; created only on consent */
export interface Fallback {
  /** "gpt-4o-mini", "GPT-4o (copilot), the model picked in VS Code" */
  name: string;
  /** "at https://api.example.com/v1 (leaves this machine)" */
  where: string;
  create(): Engine | Promise<Engine>;
}

/** a failed model turn waiting for the user's answer: what its route event will say (who failed, why, where it would go) and the turn to replay */
export interface PendingRoute extends Omit<Extract<TurnEvent, { type: 'route' }>, 'type' | 'decision' | 'outcome'> {
  /** the message exactly as the model was sent it (fenced context and passages included) */
  user: string;
  /** the earlier turns the model was given */
  history: { role: 'user' | 'assistant'; content: string }[];
}

/** failures of the model itself, which another model may get past; a cancel is the user's */
export const ROUTABLE: ReadonlySet<FailureReason> = new Set<FailureReason>(['load', 'engine', 'garbled', 'tokens', 'time', 'steps']);

/** the buttons' messages (typed answers are read by routeAnswer too) */
export const SEND_PROMPT = 'send this turn to the fallback model';
export const DECLINE_PROMPT = "don't send this turn";

/** said with a routable failure when no fallback is configured */
export const FALLBACK_HINT =
  'To be offered another model when this happens, set **control.model.fallback** in VS Code (`openai` with control.model.fallbackUrl, or `vscode`), or pass `--fallback openai --fallback-url URL --fallback-model NAME` to `control ask`/`chat`; nothing is sent there without your consent.';

const SEND =
  /^\s*(?:(?:yes|ok(?:ay)?|sure)\b[,.!]?\s*)?(?:(?:please\s+)?send(?:\s+(?:it|this(?:\s+turn)?|the\s+turn))?(?:\s+to\s+(?:the\s+)?(?:fallback|other|remote)(?:\s+model)?)?)?\s*[.!]?\s*$/i;
const DECLINE =
  /^\s*(?:no\b[,.!]?\s*)?(?:(?:don'?t|do\s+not)\s+send(?:\s+(?:it|this(?:\s+turn)?|the\s+turn))?(?:\s+to\s+(?:the\s+)?(?:fallback|other|remote)(?:\s+model)?)?|keep\s+it\s+local)?\s*[.!]?\s*$/i;

/** the user's answer to the question, or undefined for any other message */
export function routeAnswer(text: string): 'send' | 'decline' | undefined {
  if (!/[a-z]/i.test(text) || text.length > 120) return undefined;
  if (DECLINE.test(text)) return 'decline';
  if (SEND.test(text)) return 'send';
  return undefined;
}

/** the conversation's pending route read back from JSON (chat metadata, a session file), or undefined */
export function pendingRouteFrom(v: unknown): PendingRoute | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const r = v as Partial<PendingRoute>;
  const strings = [r.from, r.to, r.where, r.failure, r.user].every((s) => typeof s === 'string');
  const history = Array.isArray(r.history) && r.history.every((m) => m && (m.role === 'user' || m.role === 'assistant') && typeof m.content === 'string');
  if (!strings || !history || typeof r.turn !== 'number' || !ROUTABLE.has(r.reason as FailureReason)) return undefined;
  return r as PendingRoute;
}

/** the one question: who failed and how, where the turn would go, Send / Don't send */
export function routeAsk(p: PendingRoute, changed?: string): Extract<TurnEvent, { type: 'ask' }> {
  return {
    type: 'ask',
    question:
      (changed ?? `**${p.from.replace(/^the /, 'The ')} ${FAILURE_TEXT[p.reason]}.** `) +
      `Send this turn to **${p.to}** ${p.where}? It gets your message as the model got it (with any attached context) and the earlier turns. I ask once; nothing is sent unless you choose Send.`,
    candidates: [
      { label: `Send to ${p.to}`, prompt: SEND_PROMPT },
      { label: "Don't send", prompt: DECLINE_PROMPT },
    ],
  };
}

/**
 * A model turn's events, passed on; when it ends with a routable failure, either the question
 * (a fallback is configured: the turn is kept in `conv.route`) or the failure says how to
 * configure one. The question comes just before `done`.
 */
export async function* offerRoute(
  events: AsyncIterable<TurnEvent>,
  at: { conv: { turn: number; route?: PendingRoute }; from: string; user: string; history: readonly ChatMessage[]; fallback?: Fallback },
): AsyncGenerator<TurnEvent> {
  let failed: { reason: FailureReason; message: string } | undefined;
  for await (const e of events) {
    if (e.type === 'error' && e.reason && ROUTABLE.has(e.reason)) {
      failed ??= { reason: e.reason, message: e.message };
      if (!at.fallback) {
        yield { ...e, message: `${e.message}${/[.!?]\s*$/.test(e.message) ? '' : '.'} ${FALLBACK_HINT}` };
        continue;
      }
    }
    if (e.type === 'done' && failed && at.fallback) {
      const p: PendingRoute = {
        turn: at.conv.turn,
        from: at.from,
        to: at.fallback.name,
        where: at.fallback.where,
        reason: failed.reason,
        failure: failed.message,
        user: at.user,
        history: at.history
          .filter((m) => m.role === 'user' || m.role === 'assistant')
          .map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content })),
      };
      at.conv.route = p;
      yield routeAsk(p);
    }
    yield e;
  }
}

/**
 * The answer to the question: declined, a `route` event and nothing sent; consented, the kept
 * turn runs on the fallback (`run`: the agent loop) and the `route` event says how it ended.
 * The offer is used up either way. `finish` closes a turn that ran no model.
 */
export async function* answerRoute(
  conv: { turn: number; route?: PendingRoute },
  answer: 'send' | 'decline',
  fallback: Fallback | undefined,
  run: (engine: Engine, user: string, history: readonly ChatMessage[]) => AsyncIterable<TurnEvent>,
  finish: () => Generator<TurnEvent>,
): AsyncGenerator<TurnEvent> {
  const p = conv.route!;
  conv.route = undefined;
  conv.turn += 1;
  const route = (decision: 'sent' | 'declined', outcome: 'answered' | 'failed' | 'not sent'): TurnEvent => ({
    type: 'route',
    turn: p.turn,
    from: p.from,
    to: p.to,
    where: p.where,
    reason: p.reason,
    failure: p.failure,
    decision,
    outcome,
  });
  if (answer === 'decline') {
    yield route('declined', 'not sent');
    yield* finish();
    return;
  }
  if (!fallback) {
    yield { type: 'error', message: `No fallback model is configured any more, so turn ${p.turn} was not sent. ${FALLBACK_HINT}` };
    yield* finish();
    return;
  }
  if (fallback.name !== p.to || fallback.where !== p.where) {
    // the consent was for the destination named in the question, not for whatever is configured now
    conv.route = { ...p, to: fallback.name, where: fallback.where };
    yield routeAsk(conv.route, `The fallback is now **${fallback.name}** ${fallback.where}, not ${p.to} ${p.where} as I asked, so nothing was sent. `);
    yield* finish();
    return;
  }
  let engine: Engine;
  try {
    engine = await fallback.create();
  } catch (e) {
    yield { type: 'error', message: `${fallback.name}: ${e instanceof Error ? e.message : String(e)}` };
    yield route('sent', 'failed');
    yield* finish();
    return;
  }
  yield { type: 'text', text: `Sending turn ${p.turn} to **${p.to}** ${p.where}, as you agreed.\n\n` };
  let failed = false;
  for await (const e of run(engine, p.user, p.history)) {
    if (e.type === 'error') failed = true;
    if (e.type === 'done') yield route('sent', failed ? 'failed' : 'answered');
    yield e;
  }
}
