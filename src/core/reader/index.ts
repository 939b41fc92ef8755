/**
 * The request reader: message + conversation (+ selection) -> a reading (a call with every
 * argument's origin, a question back, a definition, or "needs a model"), the calls it runs,
 * and the line that says how it was read.
 */
import { executePlan, type PreCall } from '../agent/deterministic.js';
import { errorMessage } from '../tools/batch.js';
import type { RunOptions } from '../tools/runner.js';
import { Conversation, systemLabel, type Origin } from './conversation.js';
import { readRequest, recordOutputs, recordResult, resolveCommand, type CallReading, type ReadOptions, type Reading } from './read.js';
import { callSignature } from './values.js';
import { PLAYBOOKS } from '../agent/playbooks.js';
import { otherPoles } from './quantities.js';

export { Conversation, systemLabel, type Origin, type System, type SystemEntry, type ConversationState } from './conversation.js';
export {
  readRequest,
  recordOutputs,
  recordResult,
  resolveCommand,
  type Reading,
  type CallReading,
  type AskReading,
  type DefineReading,
  type NoneReading,
  type Candidate,
  type ReadOptions,
} from './read.js';

/** reads a message and records it in the conversation (definitions, the system in use, the call) */
export function readTurn(conv: Conversation, text: string, opts: ReadOptions = {}): Reading {
  // "/series G1 = …" typed where no front end split the command off (a pasted line, a test): the same command
  const slash = !opts.command ? /^\s*\/(\w+)\s+/.exec(text) : null;
  if (slash && resolveCommand(slash[1])) return readTurn(conv, text.slice(slash[0].length), { ...opts, command: slash[1] });
  // "resume", "retry", "continue the LQG design": a playbook that stopped goes on from its checkpoint
  if (!opts.command && conv.checkpoint?.failed && RESUME.test(text) && !/=/.test(text)) {
    conv.candidates = undefined;
    return resumeReading(conv);
  }
  // "the second one", "2", "G2's": an answer to the last question back reads as that candidate
  const pick = !opts.command ? (pickCandidate(text, conv.candidates) ?? completeAsked(text, conv.candidates)) : undefined;
  const r = pick ? readRequest(pick.prompt, conv, { ...opts, command: pick.command }) : readRequest(text, conv, opts);
  conv.candidates = r.kind === 'ask' && r.candidates.length ? r.candidates : undefined;
  return r;
}

const RESUME = /^\s*(?:please\s+|ok(?:ay)?,?\s+)?(?:resume|retry|continue|go on|try again)\b[^.?!]{0,60}[.?!]?\s*$/i;

/** the playbook of the checkpoint again, from the step that stopped; its arguments and the steps done come from their turns */
function resumeReading(conv: Conversation): CallReading {
  const cp = conv.checkpoint!;
  const pb = PLAYBOOKS[cp.playbook];
  conv.turn += 1;
  conv.lastKind = 'call';
  const steps = pb.steps(cp.args);
  const at = steps.findIndex((s) => s.id === cp.failed?.step);
  const done = steps.filter((s) => cp.done[s.id]).length;
  return {
    kind: 'call',
    tool: pb.tool,
    args: cp.args,
    origins: Object.fromEntries(Object.keys(cp.args).map((k) => [k, { from: 'turn', turn: cp.turn } as Origin])),
    plan: 'playbook',
    unused: [],
    notes: [
      `resumed the ${pb.title} of turn ${cp.turn} at step ${at + 1} (${steps[at]?.title ?? cp.failed?.step})` +
        (done
          ? `; ${done === 1 ? 'step 1 is' : `steps 1–${done} are`} reused from the turns that computed and verified ${done === 1 ? 'it' : 'them'}, not run again`
          : ''),
    ],
    via: 'follow-up',
    resume: true,
  };
}

const ORDINALS: Record<string, number> = {
  first: 1,
  '1st': 1,
  one: 1,
  second: 2,
  '2nd': 2,
  two: 2,
  third: 3,
  '3rd': 3,
  three: 3,
  fourth: 4,
  '4th': 4,
  last: -1,
};

/**
 * A typed reply that completes the asked message instead of picking a button: after "where
 * should the other pole go?" (a place from specifications), "the other pole at -20" reads as
 * the asked request with it, so the specification is read (and checked) again.
 */
function completeAsked(text: string, candidates: Conversation['candidates']): { prompt: string; command?: string } | undefined {
  const base = candidates?.[0]?.base;
  if (!base) return undefined;
  const o = otherPoles(text);
  // only the poles: a reply that brings its own system or call is read on its own
  if (!o || /[=[\]]|\b(?:place|acker|lqr)\b/i.test(text)) return undefined;
  return { prompt: `${base}, ${text.trim().replace(/[.?!\s]+$/, '')}`, command: candidates![0].command };
}

function pickCandidate(text: string, candidates: Conversation['candidates']): { prompt: string; command?: string } | undefined {
  if (!candidates?.length) return undefined;
  const m = text
    .trim()
    .toLowerCase()
    .match(/^(?:the\s+)?(first|second|third|fourth|last|1st|2nd|3rd|4th|one|two|three|\d)(?:\s+(?:one|option|choice))?\s*[.!]?$/);
  if (!m) return undefined;
  const n = /^\d$/.test(m[1]) ? Number(m[1]) : ORDINALS[m[1]];
  const c = n === -1 ? candidates[candidates.length - 1] : candidates[n - 1];
  return c ? { prompt: c.prompt, command: c.command } : undefined;
}

export interface ExecutedCall {
  tool: string;
  args: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: string;
  intermediate?: boolean;
  optional?: boolean;
  /** a call that built the system the request ran on */
  pre?: PreCall;
}

/** runs a call reading's plan through the verified call path; never throws (failures are entries) */
export async function executeReading(r: Reading, opts: RunOptions = {}): Promise<ExecutedCall[]> {
  if (r.kind !== 'call') return [];
  const out: ExecutedCall[] = [];
  for await (const ev of executePlan(r.tool, r.args, r.plan, opts, r.pre, r.spec)) {
    const flags = { ...(ev.step.intermediate ? { intermediate: true } : {}), ...(ev.step.optional ? { optional: true } : {}) };
    if (ev.kind === 'done')
      out.push({
        tool: ev.step.tool,
        args: ev.call.args,
        result: ev.call.result,
        ...(ev.step.intermediate ? { intermediate: true } : {}),
        ...(ev.step.pre ? { pre: ev.step.pre } : {}),
      });
    else if (ev.kind === 'failed') out.push({ tool: ev.step.tool, args: ev.started ? ev.args : r.args, error: errorMessage(ev.error), ...flags });
  }
  return out;
}

/** "'50 ms'", "turn 2", "G (turn 1)", "the default" */
export function originText(o: Origin): string {
  switch (o.from) {
    case 'message':
      return `'${short(o.text)}'`;
    case 'selection':
      return o.label ? `the selection (${o.label})` : 'the selection';
    case 'turn':
      // "(A, B) of turn 4" says nothing more than "turn 4"
      return `turn ${o.turn}${o.text && !/ of turn \d+$/.test(o.text) ? ` (${short(o.text)})` : ''}`;
    case 'system':
      return `${o.name} (turn ${o.turn})`;
    case 'default':
      return `the default: ${o.text}`;
  }
}

function short(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 48 ? t.slice(0, 45) + '…' : t;
}

const ORDER = ['sys1', 'sys2', 'systems', 'sign', 'num', 'den', 'A', 'B', 'C', 'D', 'G', 'Q', 'R', 'N', 'Qn', 'Rn', 'poles', 'k', 'w', 't', 'Ts', 'method'];

/**
 * The first line of every answer: the exact call, then where each argument came from, e.g.
 * "Computed `c2d(A, B, C, D, Ts = 0.05, method = 'tustin')`; A, B, C, D from turn 2, Ts from
 * '50 ms', method from 'tustin'."
 */
export function describeReading(r: CallReading): string {
  const keys = Object.keys(r.args).sort((a, b) => (ORDER.indexOf(a) + 1 || 99) - (ORDER.indexOf(b) + 1 || 99));
  const name = r.plan === 'bode' ? 'bode' : r.tool;
  const groups = new Map<string, string[]>();
  for (const k of keys) {
    const o = r.origins[k];
    // "A = [...]" written in the message is plainly the message's A
    const plain = o?.from === 'message' && new RegExp(`(^|[\\s,;])${k}\\s*=`).test(o.text);
    const where = !o ? 'your message' : plain ? 'your message' : originText(o);
    groups.set(where, [...(groups.get(where) ?? []), k]);
  }
  const from = [...groups.entries()].map(([where, ks]) => `${ks.join(', ')} from ${where}`);
  // a system operand (feedback(sys1 = G, sys2 = C)) is shown by its name
  const labels: Record<string, string> = {};
  for (const k of keys) {
    const o = r.origins[k];
    const v = r.args[k];
    if (v === null || typeof v !== 'object' || Array.isArray(v)) continue;
    if (o?.from === 'system') labels[k] = o.name;
    else if (o?.from === 'message' && o.text.length <= 30) labels[k] = o.text;
  }
  // step(feedback(G, 1)): the closed loop is computed (and verified) first, then the tool on it;
  // its system arguments are that result (the reader's own view of them is not shown)
  if (r.pre?.length) for (const k of ['num', 'den', 'A', 'B', 'C', 'D']) if (k in r.args) labels[k] = '';
  // step(G) of a transfer matrix: tf2ss(G) first; the tool runs on its A, B, C, D (reader/mimo.ts)
  const realised = r.pre?.some((p) => p.tool === 'tf2ss') && Array.isArray(r.args.num) && !('A' in r.args);
  const shown = realised ? [...['A', 'B', 'C', 'D'], ...keys.filter((k) => k !== 'num' && k !== 'den')] : keys;
  if (realised) {
    const via = `A, B, C, D from ${r.pre!.filter((p) => p.tool === 'tf2ss').map((p) => '`' + p.text + '`')[0]}`;
    for (const [where, ks] of [...groups]) {
      const rest = ks.filter((k) => k !== 'num' && k !== 'den');
      if (rest.length) groups.set(where, rest);
      else groups.delete(where);
    }
    from.splice(0, from.length, via, ...[...groups.entries()].map(([where, ks]) => `${ks.join(', ')} from ${where}`));
  }
  const pre = r.pre?.length ? `${r.pre.map((p) => '`' + (p.output ? `${p.output} = ` : '') + p.text + '`').join(', then ')}, then ` : '';
  const parts = [`Computed ${pre}${callSignature(name, r.args, shown, labels)}`];
  if (from.length) parts.push(from.join('; '));
  let line = parts.join('; ') + '.';
  if (r.unused.length) line += ` Not used by ${r.tool}: ${r.unused.join(', ')}.`;
  if (r.notes.length)
    line +=
      ' ' +
      r.notes
        // a sentence starts with a capital, but a symbol stays itself (α = 1 is not Α = 1)
        .map((n) => (/^[a-z]/.test(n) ? n[0].toUpperCase() + n.slice(1) : n))
        .map((n) => (/[.!?)]$/.test(n) ? n : n + '.'))
        .join(' ');
  return line;
}

/** the conversation after a call ran (c2d's result becomes a system later turns can name) */
export function recordExecution(conv: Conversation, r: Reading, calls: ExecutedCall[]): void {
  if (r.kind !== 'call') return;
  for (const c of calls) if (c.pre && c.result) recordResult(conv, { ...r, tool: c.pre.tool, output: c.pre.output, system: c.pre.text }, c.result);
  const main = [...calls].reverse().find((c) => c.tool === r.tool && c.result && !c.pre);
  recordResult(conv, r, main?.result);
  recordOutputs(conv, r, main?.result);
}

export { systemLabel as labelOf };
