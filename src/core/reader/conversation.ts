/**
 * The conversation as the reader sees it: the systems defined so far (named or not, state
 * space or transfer function, continuous or discrete), the matrices assigned by name, the
 * system in use, and the last call. It lives in the core so that the chat, `control chat`
 * and `control ask --session FILE` follow the same rules; it serialises to JSON (the chat
 * keeps it in each answer's metadata, the CLI in the session file).
 *
 * Rules (applied in read.ts):
 * - a follow-up ("now with R=10", "same plant, Ts = 0.05", "and its step response") reuses the
 *   system in use and, for the same tool, the last call's arguments, and says so;
 * - a message that gives its own system never mixes in matrices from earlier turns;
 * - a continuous request never inherits a discrete Ts, and a transfer-function request never
 *   picks up earlier A, B, C, D (both follow from the rule above: Ts and matrices belong to a
 *   system);
 * - when two systems could be meant, the reader asks.
 */
import type { Matrix } from '../types.js';
import type { Checkpoint } from '../agent/playbooks.js';
import { pendingRouteFrom, type PendingRoute } from '../agent/route.js';

export type System =
  | {
      kind: 'ss';
      A: Matrix;
      B?: Matrix;
      C?: Matrix;
      D?: Matrix;
      Ts?: number;
      discrete?: boolean;
      /** a MIMO transfer matrix as written (p x m coefficient lists); A..D are then its minimal realisation, the reading's view only (reader/mimo.ts) */
      tfm?: { num: number[][][]; den: number[][][]; variable?: 's' | 'z' };
    }
  | { kind: 'tf'; num: number[]; den: number[]; Ts?: number; variable?: 's' | 'z' };

/** where an argument's value came from; shown in the answer's first line */
export type Origin =
  | { from: 'message'; text: string }
  | { from: 'selection'; text: string; label?: string }
  | { from: 'turn'; turn: number; text?: string }
  | { from: 'system'; name: string; turn: number }
  | { from: 'default'; text: string };

export interface SystemEntry {
  /** the user's name (G, sys, plant) or undefined for matrices given without one */
  name?: string;
  sys: System;
  /** the turn (1-based) that defined it */
  turn: number;
  /** given by the user, or the result of a call (c2d's discrete model) */
  role: 'given' | 'result';
  /** how it was written, short */
  text: string;
  /**
   * A compensator from y to u that MATLAB connects with positive feedback (reg, lqg: u = −Kx̂
   * already carries the minus sign, closed loop feedback(sys, C, +1)): the sign, and the index of
   * the plant it was designed for. "Close the loop" with it uses this sign, said.
   */
  feedback?: { sign: 1; plant?: number };
}

export interface LastCall {
  tool: string;
  args: Record<string, unknown>;
  origins: Record<string, Origin>;
  /** index into `systems` of the system the call used */
  system?: number;
  turn: number;
  /** the command or plan it ran under (bode) */
  plan?: string;
}

export interface ConversationState {
  turn: number;
  systems: SystemEntry[];
  vars: Record<string, { value: Matrix; turn: number; text: string }>;
  current?: number;
  /** systems the last turn produced or defined (c2d's result, several definitions) */
  recent: number[];
  lastCall?: LastCall;
  /** what the last turn was: a definition keeps the systems of earlier definitions in scope */
  lastKind?: 'call' | 'define' | 'ask' | 'none';
  /** the last call of each tool ("the lqr again with R = 5") */
  calls?: Record<string, LastCall>;
  /** the candidates of the last question back ("the second one" picks one) */
  candidates?: { label: string; prompt: string; command?: string; base?: string }[];
  /** a design playbook that stopped before its end (failed or cancelled): "resume" goes on from there */
  checkpoint?: Checkpoint;
  /** a model turn that failed, kept while the user is asked whether to send it to the fallback (agent/route.ts) */
  route?: PendingRoute;
}

export class Conversation implements ConversationState {
  turn = 0;
  systems: SystemEntry[] = [];
  vars: Record<string, { value: Matrix; turn: number; text: string }> = {};
  current?: number;
  recent: number[] = [];
  lastCall?: LastCall;
  lastKind?: 'call' | 'define' | 'ask' | 'none';
  calls: Record<string, LastCall> = {};
  candidates?: { label: string; prompt: string; command?: string; base?: string }[];
  checkpoint?: Checkpoint;
  route?: PendingRoute;

  static fromJSON(s: Partial<ConversationState> | undefined): Conversation {
    const c = new Conversation();
    if (!s || typeof s !== 'object') return c;
    c.turn = typeof s.turn === 'number' ? s.turn : 0;
    c.systems = Array.isArray(s.systems) ? s.systems : [];
    c.vars = s.vars && typeof s.vars === 'object' ? s.vars : {};
    c.current = typeof s.current === 'number' && s.current < c.systems.length ? s.current : undefined;
    c.recent = Array.isArray(s.recent) ? s.recent.filter((i) => typeof i === 'number' && i < c.systems.length) : [];
    c.lastCall = s.lastCall;
    c.lastKind = s.lastKind;
    c.calls = s.calls && typeof s.calls === 'object' ? s.calls : {};
    c.candidates = Array.isArray(s.candidates) ? s.candidates : undefined;
    const cp = s.checkpoint;
    c.checkpoint =
      cp && typeof cp === 'object' && typeof cp.playbook === 'string' && cp.args && typeof cp.args === 'object' && cp.done && typeof cp.done === 'object'
        ? cp
        : undefined;
    c.route = pendingRouteFrom(s.route);
    return c;
  }

  toJSON(): ConversationState {
    return {
      turn: this.turn,
      systems: this.systems,
      vars: this.vars,
      current: this.current,
      recent: this.recent,
      lastCall: this.lastCall,
      lastKind: this.lastKind,
      calls: this.calls,
      ...(this.candidates ? { candidates: this.candidates } : {}),
      ...(this.checkpoint ? { checkpoint: this.checkpoint } : {}),
      ...(this.route ? { route: this.route } : {}),
    };
  }

  /** adds a system (or finds the same one already there) and returns its index */
  addSystem(e: SystemEntry): number {
    if (e.name) {
      // the same name again: the same system is refreshed, another one is added (the old stays for "the first loop")
      const i = this.named(e.name);
      if (i !== undefined && JSON.stringify(this.systems[i].sys) === JSON.stringify(e.sys)) {
        this.systems[i] = { ...this.systems[i], turn: e.turn };
        return i;
      }
    }
    const same = this.systems.findIndex((s) => !s.name && !e.name && JSON.stringify(s.sys) === JSON.stringify(e.sys));
    if (same >= 0) {
      this.systems[same] = { ...this.systems[same], turn: e.turn };
      return same;
    }
    this.systems.push(e);
    return this.systems.length - 1;
  }

  /** the newest system with that name */
  named(name: string): number | undefined {
    for (let i = this.systems.length - 1; i >= 0; i--) if (this.systems[i].name === name) return i;
    return undefined;
  }
}

/** how a system is named in an answer: "G", "sysd", "(A, B, C, D) of turn 2" */
export function systemLabel(e: SystemEntry): string {
  if (e.name) return e.name;
  const ss = e.sys.kind === 'ss' ? e.sys : undefined;
  const what = !ss
    ? 'the transfer function'
    : ss.tfm
      ? 'the transfer matrix'
      : e.role === 'result'
        ? 'the discrete model'
        : `(${(['A', 'B', 'C', 'D'] as const).filter((k) => ss[k] !== undefined).join(', ')})`;
  return `${what} of turn ${e.turn}`;
}

export function isDiscrete(s: System): boolean {
  // a model used by a discrete design (dlqr, dare, dlyap) is discrete even without a Ts
  return (typeof s.Ts === 'number' && s.Ts > 0) || (s.kind === 'tf' && s.variable === 'z') || (s.kind === 'ss' && s.discrete === true);
}
