/**
 * One @control turn as an event stream. Today this is the deterministic path (no language
 * model): a well-formed request is solved, verified and rendered; anything else gets an
 * honest answer saying what works without a model.
 */
import { isControlError } from '../errors.js';
import { renderToolResult } from '../render/answer.js';
import type { RenderOptions } from '../render/markdown.js';
import type { RunOptions } from '../tools/runner.js';
import { errorMessage } from '../tools/batch.js';
import { executePlan, Later, previewPlan, type PlanEvent } from './deterministic.js';
import { playbookFor, playbookPlan, resumeCandidate, runPlaybook, valueText, type Checkpoint, type Playbook, type PlaybookStep } from './playbooks.js';
import {
  Conversation,
  describeReading,
  originText,
  readTurn,
  recordOutputs,
  recordResult,
  type CallReading,
  type DefineReading,
  type Reading,
} from '../reader/index.js';
import { getTool } from '../tools/table.js';
import { frequenciesInHz, polyText } from '../render/results.js';
import type { TurnEvent } from './events.js';
import type { ChatMessage, Engine } from '../engines/types.js';
import { runAgentTurn, type AgentOptions } from './loop.js';
import { hitsMarkdown, passagesBlock, referenceEvents, type Grounding, type Retriever } from './grounding.js';
import { fenceData } from './fence.js';
import { answerRoute, offerRoute, routeAnswer, type Fallback } from './route.js';
import { compactHistory } from './compact.js';

export interface TurnRequest {
  /** the user's words, without the participant name or slash command */
  prompt: string;
  /** the slash command, without '/' */
  command?: string;
  /** text the request refers to (an editor selection), searched for matrix assignments */
  context?: { text: string; label?: string };
  /**
   * what a model is shown as fenced data, when it differs from `context` (the chat passes
   * its attached references here, and earlier turns as the agent's history instead)
   */
  modelContext?: { text: string; label?: string };
  /** the conversation so far (systems, the system in use, the last call); updated by the turn */
  conversation?: Conversation;
}

export interface TurnOptions extends RunOptions, Partial<RenderOptions> {
  /**
   * the language model for requests that are not well formed; none: the honest no-model answer.
   * A function loads it only when a request needs it: its failure is then the turn's (and may be routed)
   */
  engine?: Engine | (() => Promise<Engine | undefined>);
  /** the engine offered, with the user's consent, when the model fails a turn (agent/route.ts) */
  fallback?: Fallback;
  /** agent-loop budgets and the conversation so far */
  agent?: Omit<AgentOptions, keyof RunOptions | keyof RenderOptions>;
  /** the corpus and workspace indexes; absent: no grounding (and /search says how to get it) */
  retriever?: Retriever;
  /** passages to attach to a model's turn (default 4) */
  passages?: number;
}

export const NO_MODEL_MESSAGE = [
  'This request needs a language model, and none is configured. In VS Code, run **Control: Select Model** (a local GGUF file, the model picked in the chat, or an OpenAI-compatible server); in the terminal, pass `--model path/to/model.gguf`. Without a model, I solve requests that name the computation and give the matrices, for example:',
  '',
  '- `/lqr A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1`',
  '- `/analyse A=[0 1; -2 -3], B=[0;1], C=[1 0]`',
  '- `design an LQR for A=[0 1; 0 0], B=[0;1], Q=eye(2), R=1`',
  '- right-click a selection of `A = ...`, `B = ...` in a MATLAB or Python file and choose **Control: Analyse State-Space Model**, or click the **Analyse** code lens above it.',
  '',
  'Matrices may be written as in MATLAB (`[0 1; -2 -3]`, `eye(2)`), NumPy (`np.array([[0,1],[-2,-3]])`) or JSON.',
].join('\n');

let callCounter = 0;

export async function* runTurn(req: TurnRequest, opts: TurnOptions = {}): AsyncGenerator<TurnEvent> {
  const t0 = performance.now();
  const render: RenderOptions = { math: opts.math ?? false, digits: opts.digits };
  let toolCalls = 0;
  const finish = function* (): Generator<TurnEvent> {
    yield { type: 'metrics', engine: 'deterministic', ms: Math.round((performance.now() - t0) * 10) / 10, toolCalls };
    yield { type: 'done' };
  };

  if (req.command === 'search') {
    yield* searchTurn(req.prompt, opts.retriever, opts.passages ?? 6);
    yield* finish();
    return;
  }

  const conv = req.conversation ?? new Conversation();
  // a replayed turn (route) is sent exactly the history the failed one was: no turns to compact again
  const agentOptions = (history?: readonly ChatMessage[]): AgentOptions => ({
    ...opts.agent,
    ...(history ? { history, turns: undefined } : {}),
    maxN: opts.maxN,
    timeoutS: opts.timeoutS,
    signal: opts.signal,
    math: opts.math,
    digits: opts.digits,
  });
  // the answer to "send this turn to the fallback?" (agent/route.ts); any other message ends the offer
  const routed = conv.route && !req.command ? routeAnswer(req.prompt) : undefined;
  if (routed) {
    yield* answerRoute(conv, routed, opts.fallback, (engine, user, history) => runAgentTurn(engine, user, agentOptions(history)), finish);
    return;
  }
  conv.route = undefined;
  if (req.command === 'plan') {
    yield* planTurn(req, conv);
    yield* finish();
    return;
  }
  let reading: Reading;
  try {
    reading = readTurn(conv, req.prompt, { command: req.command, selection: req.context });
  } catch (e) {
    yield { type: 'error', message: errorMessage(e) };
    yield* finish();
    return;
  }
  // a model takes what the reader cannot read as a computation (questions, open requests)
  let engine: Engine | undefined;
  let loadError: unknown;
  if (opts.engine && (reading.kind === 'none' || (reading.kind === 'define' && (reading.fromSelectionOnly || reading.question)))) {
    if (typeof opts.engine !== 'function') engine = opts.engine;
    else
      try {
        engine = await opts.engine();
      } catch (e) {
        loadError = e;
      }
  }
  if (engine || loadError !== undefined) {
    const data = req.modelContext ?? req.context;
    const grounding = await ground(opts.retriever, req.prompt, opts.passages ?? 4);
    yield* referenceEvents(grounding?.hits ?? []);
    const parts = [req.prompt];
    if (data?.text) parts.push(fenceData(data.text, data.label));
    if (grounding?.hits.length) parts.push(passagesBlock(grounding.hits, fenceData));
    const user = parts.join('\n\n');
    // the earlier turns compacted once: the model is sent these messages, and a replay on the fallback the same
    const compacted = opts.agent?.turns ? compactHistory(opts.agent.turns, opts.agent.compaction) : undefined;
    // a model that could not be loaded fails the turn as one that fails in it does: typed, and offered to a fallback
    const events = engine
      ? runAgentTurn(engine, user, { ...agentOptions(), compacted })
      : (async function* (): AsyncGenerator<TurnEvent> {
          yield { type: 'error', message: `The configured language model could not be loaded: ${errorMessage(loadError)}`, reason: 'load' };
          yield* finish();
        })();
    const from = engine?.label ?? 'the configured language model';
    yield* offerRoute(events, { conv, from, user, history: compacted?.messages ?? opts.agent?.history ?? [], fallback: opts.fallback });
    return;
  }
  if (reading.kind === 'none') {
    const noted = reading.defined?.length
      ? `Nothing computed: ${reading.reason}. Noted ${reading.defined.map((d) => `**${d.label}** (${sysText(d.sys)})`).join(', ')} for the next requests.\n\n`
      : '';
    const why = noted + (reading.problems.length ? `I could not read: ${reading.problems.join('; ')}.\n\n` : '');
    yield { type: 'text', text: why + NO_MODEL_MESSAGE };
    // without a model, the passages that match are still worth showing
    const grounding = await ground(opts.retriever, req.prompt, 3);
    if (grounding?.hits.length) {
      yield* referenceEvents(grounding.hits);
      yield {
        type: 'text',
        text: `\n\n**Passages that may help** (${grounding.mode} search over your files and the bundled notes):\n\n${hitsMarkdown(grounding.hits)}`,
      };
    }
    yield* finish();
    return;
  }
  if (reading.kind === 'ask') {
    yield { type: 'ask', question: reading.question, candidates: reading.candidates };
    yield* finish();
    return;
  }
  if (reading.kind === 'define') {
    yield { type: 'text', text: defineText(reading) };
    const next = nextSteps(reading);
    if (next.length) yield { type: 'ask', question: `What should I compute with ${reading.defined.length > 1 ? 'them' : 'it'}?`, candidates: next };
    else yield { type: 'text', text: '\n\nSay what to compute with these, for example `/lqr A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1`.' };
    yield* finish();
    return;
  }
  const name = reading.tool;
  yield {
    type: 'reading',
    tool: name,
    markdown: describeReading(reading),
    origins: Object.fromEntries(Object.entries(reading.origins).map(([k, o]) => [k, originText(o)])),
  };
  const pb = reading.plan === 'playbook' ? playbookFor(name) : undefined;
  // the tool's intro facet: what it computes, as a textbook states it (null: its title alone)
  const def = getTool(name);
  const intro = { type: 'text' as const, text: def?.intro ?? `**${def?.title ?? name}.**` };
  // a call that builds the system first (the closed loop of step(feedback(G, 1))) comes before the tool's intro
  let introduced = !reading.pre?.length || !!pb;
  if (introduced && !pb) yield intro;

  // the id of the call in flight: its own, not the module counter, which another turn running
  // meanwhile (solves are awaited) may have moved on
  let id = '';
  /** one call of a plan as turn events; false: the plan cannot go on */
  const onPlanEvent = function* (ev: PlanEvent, savesResult = false): Generator<TurnEvent, boolean> {
    const step = ev.step;
    if (ev.kind === 'failed' && !ev.started) {
      yield { type: 'error', message: errorMessage(ev.error) };
      return false;
    }
    if (ev.kind === 'start') {
      if (!introduced && !step.pre) {
        introduced = true;
        yield { ...intro, text: `\n\n${intro.text}` };
      }
      toolCalls++;
      id = `call-${++callCounter}`;
      yield { type: 'tool_call', id, tool: step.tool, args: ev.args };
      return true;
    }
    if (ev.kind === 'done') {
      const { args: valid, result, verification } = ev.call;
      // the request's own result, or the system a call before it built (the closed loop of step(feedback(G, 1)))
      const saved = step.pre
        ? recordResult(conv, { ...reading, tool: step.pre.tool, output: step.pre.output, system: step.pre.text }, result)
        : (step.tool === name || savesResult) && !step.intermediate
          ? recordResult(conv, reading, result)
          : undefined;
      yield {
        type: 'tool_result',
        id,
        tool: step.tool,
        result,
        verification,
        markdown: renderToolResult(step.tool, valid, result, verification, render),
        ...(step.intermediate ? { intermediate: true as const } : {}),
      };
      // "in Hz": the request's own result's frequencies converted, after it
      if (reading.freqUnit && result && !step.pre && step.tool === name && !step.intermediate)
        yield { type: 'text', text: `\n\n${frequenciesInHz(result, render.digits)}` };
      // K = lqr(…): the call's matrix outputs are kept under their names, and said
      const kept = !step.pre && step.tool === name && !step.intermediate ? recordOutputs(conv, reading, result) : [];
      if (kept.length) yield { type: 'text', text: `\n\nSaved ${kept.map((k) => `**${k}**`).join(', ')} for the next requests.` };
      // a result that is a system is kept under a name later requests can use
      if (saved) {
        // a reg/lqg compensator: its positive-feedback convention is part of what is saved, and said
        const entry = conv.systems[conv.named(saved) ?? -1];
        const plant = entry?.feedback?.plant !== undefined ? conv.systems[entry.feedback.plant]?.name : undefined;
        yield {
          type: 'text',
          text: entry?.feedback
            ? `\n\nSaved as **${saved}**, a compensator from y to u for **positive** feedback (MATLAB's convention for reg and lqg: u = −Kx̂ carries the sign): the closed loop is feedback(${plant ?? 'plant'}, ${saved}, +1), which "close the loop" uses.`
            : `\n\nSaved as **${saved}**: later requests can name it (e.g. "step response of ${saved}").`,
        };
      }
      return true;
    }
    const message = errorMessage(ev.error);
    if (step.optional) {
      yield { type: 'tool_result', id, tool: step.tool, error: message, markdown: `_${step.tool} does not apply here: ${message}_` };
      return true;
    }
    const refused = isControlError(ev.error);
    const label = isControlError(ev.error) && ev.error.code === 'cancelled' ? 'Stopped' : refused ? 'Cannot solve' : 'Solver error';
    yield {
      type: 'tool_result',
      id,
      tool: step.tool,
      error: message,
      markdown: `**${label}:** ${message}`,
      ...(step.intermediate ? { intermediate: true as const } : {}),
    };
    return false;
  };

  if (pb) {
    yield* playbookTurn(pb, reading, conv, opts, onPlanEvent);
    yield* finish();
    return;
  }
  for await (const ev of executePlan(name, reading.args, reading.plan, opts, reading.pre, reading.spec)) {
    if (!(yield* onPlanEvent(ev))) break;
  }
  yield* finish();
}

/**
 * A design playbook (agent/playbooks.ts) as turn events: a heading per step (what it is for),
 * its calls as any plan's, the report; the checkpoint in the conversation after each step, and
 * on a failure or cancellation a Resume button that goes on from that step.
 */
async function* playbookTurn(
  pb: Playbook,
  reading: CallReading,
  conv: Conversation,
  opts: TurnOptions,
  onPlanEvent: (ev: PlanEvent, savesResult?: boolean) => Generator<TurnEvent, boolean>,
): AsyncGenerator<TurnEvent> {
  const resumed = reading.resume && conv.checkpoint?.playbook === pb.id ? conv.checkpoint : undefined;
  const cp: Checkpoint = resumed ?? { playbook: pb.id, args: reading.args, turn: conv.turn, done: {} };
  conv.checkpoint = cp;
  const steps = pb.steps(cp.args);
  const titles = steps.map((s) => s.title);
  yield {
    type: 'text',
    text: `\n\n**${pb.title}**, ${titles.length} steps and a report: ${titles.join(' → ')} → report. Each step is one verified call; its result is kept, so a step that fails or is cancelled can be resumed.`,
  };
  let stopped: { step: PlaybookStep; message: string; gate: boolean } | undefined;
  for await (const ev of runPlaybook(pb, cp, conv.turn, opts)) {
    if (ev.kind === 'step') {
      const head = `\n\n### Step ${ev.index} of ${ev.total}: ${ev.step.title}\n\n_${ev.step.why}._`;
      yield {
        type: 'text',
        text: ev.reused
          ? `${head}\n\nDone in turn ${ev.reused.turn} (\`${ev.reused.tool}\`, ${ev.reused.verified ? 'verified' : ev.reused.verified === false ? 'not verified' : 'not independently verified'}); reused, not run again.`
          : head,
      };
    } else if (ev.kind === 'call') {
      // the step whose result the request asked for (the LQG compensator by reg) is saved as the request's (rlqg)
      yield* onPlanEvent(ev.event, !!ev.step.saves && ev.event.step.tool === ev.step.tool && !ev.event.step.intermediate);
    } else if (ev.kind === 'gate') stopped = { step: ev.step, message: ev.reason, gate: true };
    else if (ev.kind === 'failed') stopped = { step: ev.step, message: ev.message, gate: false };
    else {
      conv.checkpoint = undefined;
      yield {
        type: 'text',
        text: `\n\n### Report\n\n${ev.markdown}\n\nEvery number above comes from the verified call of its step; the report only quotes them.`,
      };
    }
  }
  if (!stopped) return;
  const k = steps.findIndex((s) => s.id === stopped!.step.id) + 1;
  if (stopped.gate) {
    conv.checkpoint = undefined;
    yield {
      type: 'text',
      text: `\n\n**The ${pb.title} stops at step ${k} (${stopped.step.title}):** ${stopped.message}. The later steps cannot apply, so nothing more is computed.`,
    };
    return;
  }
  yield {
    type: 'ask',
    question: `The ${pb.title} stopped at step ${k} of ${steps.length} (${stopped.step.title}: \`${stopped.step.tool}\`). ${k === 1 ? 'Nothing before it was done' : k === 2 ? 'Step 1 is kept' : `Steps 1–${k - 1} are kept`}. Resume from step ${k} when the cause is fixed (a longer solve time limit, for instance)?`,
    candidates: [resumeCandidate(cp)!],
  };
}

/**
 * /plan (and `control ask --plan`): how the request is read and the calls it would make, with
 * their arguments, before anything runs; a button runs it. The conversation is not changed.
 */
async function* planTurn(req: TurnRequest, conv: Conversation): AsyncGenerator<TurnEvent> {
  const scratch = Conversation.fromJSON(JSON.parse(JSON.stringify(conv.toJSON())));
  let reading: Reading;
  try {
    reading = readTurn(scratch, req.prompt, { selection: req.context });
  } catch (e) {
    yield { type: 'error', message: errorMessage(e) };
    return;
  }
  if (reading.kind === 'ask') {
    yield { type: 'ask', question: reading.question, candidates: reading.candidates.map((c) => (c.command ? c : { ...c, prompt: c.prompt, command: 'plan' })) };
    return;
  }
  if (reading.kind !== 'call') {
    yield {
      type: 'text',
      text:
        reading.kind === 'define'
          ? `Nothing to plan: the message defines ${reading.defined.map((d) => `**${d.label}**`).join(', ') || 'values'} and asks for no computation.`
          : `Nothing to plan: ${reading.reason}. /plan shows the calls of requests I can read without a model; choosing tools for this one needs a language model, and /plan runs none.`,
    };
    return;
  }
  yield {
    type: 'reading',
    tool: reading.tool,
    markdown: describeReading(reading).replace(/^Computed /, 'Would compute '),
    origins: Object.fromEntries(Object.entries(reading.origins).map(([k, o]) => [k, originText(o)])),
  };
  const pb = reading.plan === 'playbook' ? playbookFor(reading.tool) : undefined;
  const steps = pb
    ? playbookPlan(pb, reading.args)
    : (await previewPlan(reading.tool, reading.args, reading.plan, reading.pre, reading.spec)).map((s) => ({
        tool: s.tool,
        title: s.intermediate ? 'a means: realises the system' : s.optional ? 'if it applies' : undefined,
        args: Object.fromEntries(Object.entries(s.args).map(([k, v]) => [k, v instanceof Later ? `← ${v.text}` : valueText(v)])),
      }));
  const title = pb ? `${pb.title}: ${steps.length} steps and a report` : `${steps.length} call${steps.length === 1 ? '' : 's'}`;
  const lines = steps.map((s, i) => {
    const args = Object.entries(s.args)
      .map(([k, v]) => `${k} = ${v}`)
      .join('; ');
    const head = 'why' in s && s.why ? `**${s.title}**: ${s.why}. ` : s.title ? `(${s.title}) ` : '';
    return `${i + 1}. ${head}\`${s.tool}\`${args ? ` with ${args}` : ''}`;
  });
  if (pb) lines.push(`${steps.length + 1}. **Report**: each step's result quoted, with its verification.`);
  yield { type: 'plan', title, steps, markdown: `**Plan** (${title}; nothing has run yet):\n\n${lines.join('\n')}` };
  yield { type: 'ask', question: 'Run this plan?', candidates: [{ label: 'Run it', prompt: req.prompt }] };
}

function sysText(sys: DefineReading['defined'][number]['sys']): string {
  if (sys.kind === 'tf') {
    const v = sys.variable ?? (sys.Ts ? 'z' : 's');
    return `(${polyText(sys.num, v)}) / (${polyText(sys.den, v)})${sys.Ts ? `, Ts = ${sys.Ts} s` : v === 'z' ? ' (discrete)' : ''}`;
  }
  const n = sys.A.length;
  const m = sys.B?.[0]?.length;
  const p = sys.C?.length;
  // a MIMO transfer matrix (reader/mimo.ts): its entries as written, and the order of its minimal realisation
  if (sys.tfm) {
    const v = sys.tfm.variable ?? (sys.Ts ? 'z' : 's');
    const entry = (i: number, j: number) => {
      const num = sys.tfm!.num[i][j],
        den = sys.tfm!.den[i][j];
      const wrap = (t: string) => (/\s[-+]\s/.test(t) ? `(${t})` : t);
      return num.every((c) => c === 0) ? '0' : den.length === 1 && den[0] === 1 ? polyText(num, v) : `${wrap(polyText(num, v))}/${wrap(polyText(den, v))}`;
    };
    const rows = sys.tfm.num.map((r, i) => r.map((_, j) => entry(i, j)).join(', ')).join('; ');
    return `${p}x${m} transfer matrix [${rows}]${sys.Ts ? `, Ts = ${sys.Ts} s` : v === 'z' ? ' (discrete)' : ''}; a minimal realisation has ${n} state${n === 1 ? '' : 's'}`;
  }
  return `state space, ${n} state${n === 1 ? '' : 's'}${m !== undefined ? `, ${m} input${m === 1 ? '' : 's'}` : ''}${p !== undefined ? `, ${p} output${p === 1 ? '' : 's'}` : ''}${sys.Ts ? `, discrete (Ts = ${sys.Ts} s)` : ''}`;
}

function defineText(r: DefineReading): string {
  const lines = r.defined.map((d) => `- **${d.label}**: ${sysText(d.sys)}`);
  const asked = r.question ? `I have no solver for “${r.question}” yet, so nothing is computed. ` : '';
  const head =
    asked +
    (r.defined.length
      ? `Noted ${r.defined.length === 1 ? 'this system' : `these ${r.defined.length} systems`} for the next requests${asked ? '' : ' (nothing computed yet)'}:`
      : `Noted these values for the next requests${asked ? '' : ' (nothing computed yet)'}.`);
  return [head, ...lines, ...r.notes.map((n) => `_${n}_`)].join('\n');
}

/** what an engineer usually asks next about a system just defined */
function nextSteps(r: DefineReading): { label: string; prompt: string; command?: string }[] {
  const out: { label: string; prompt: string; command?: string }[] = [];
  // the newest first; each labelled with its system when there are several
  for (const d of [...r.defined].reverse().slice(0, 2)) {
    const named = /^[A-Za-z_]\w*$/.test(d.label);
    const ref = named ? d.label : 'it';
    const of = r.defined.length > 1 && named ? ` of ${d.label}` : '';
    if (d.sys.kind === 'ss' && d.sys.tfm)
      out.push(
        { label: `Step response${of}`, prompt: `step response of ${ref}` },
        { label: `Singular values${of}`, prompt: `sigma(${ref})` },
        { label: `State-space realisation${of}`, prompt: `tf2ss(${ref})` },
      );
    else if (d.sys.kind === 'tf')
      out.push(
        { label: `Step response${of}`, prompt: `step response of ${ref}` },
        { label: `Bode plot and margins${of}`, prompt: `bode of ${ref}` },
        { label: `Poles and zeros${of}`, prompt: `poles and zeros of ${ref}` },
      );
    else
      out.push(
        { label: `Analyse${of} (stability, controllability, observability)`, prompt: `analyse ${ref}` },
        ...(d.sys.B && d.sys.C ? [{ label: `Step response${of}`, prompt: `step response of ${ref}` }] : []),
      );
  }
  return out;
}

async function ground(retriever: Retriever | undefined, query: string, k: number): Promise<Grounding | undefined> {
  if (!retriever) return undefined;
  try {
    return await retriever.search(query, k);
  } catch {
    return undefined; // a broken index must not break the answer; the Doctor reports it
  }
}

/** /search: the hits themselves, with citations; no model, no solver */
async function* searchTurn(query: string, retriever: Retriever | undefined, k: number): AsyncGenerator<TurnEvent> {
  if (!query.trim()) {
    yield { type: 'error', message: '/search needs words to look for, e.g. `/search Bode sensitivity integral`.' };
    return;
  }
  if (!retriever) {
    yield { type: 'error', message: 'There is no index to search yet: run **Control: Rebuild Index** (or `control index build <folder>` in a terminal).' };
    return;
  }
  const g = await retriever.search(query, k);
  yield* referenceEvents(g.hits);
  const notes = g.notes.length ? `\n\n_${g.notes.join('; ')}._` : '';
  yield {
    type: 'text',
    text: g.hits.length
      ? `**${g.hits.length} passage${g.hits.length > 1 ? 's' : ''}** for “${query.trim()}” (${g.mode} search):\n\n${hitsMarkdown(g.hits)}${notes}`
      : `Nothing in your files or the bundled notes matches “${query.trim()}” closely enough (${g.mode} search).${notes}`,
  };
}

/** collects a whole turn (CLI, tests, the language-model provider) */
export async function collectTurn(req: TurnRequest, opts: TurnOptions = {}): Promise<TurnEvent[]> {
  const out: TurnEvent[] = [];
  for await (const e of runTurn(req, opts)) out.push(e);
  return out;
}
