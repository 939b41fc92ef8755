// Routing with consent (agent/route.ts, issue 15 item 4): a model turn that fails for a reason
// another model may get past ends with one question naming the fallback and where it runs;
// "Send" replays that same turn there, "Don't send" sends nothing; both are a `route` event.
// Scripted engines stand in for both models; the CLI test runs `control ask` in-process
// against a loopback OpenAI-compatible server as the fallback.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { collectTurn, type TurnOptions } from '../../src/core/agent/turn.js';
import { runAgentTurn } from '../../src/core/agent/loop.js';
import { eventsToMarkdown, type TurnEvent } from '../../src/core/agent/events.js';
import { DECLINE_PROMPT, FALLBACK_HINT, routeAnswer, SEND_PROMPT, type Fallback } from '../../src/core/agent/route.js';
import { ScriptedEngine, type ScriptStep } from '../../src/core/engines/scripted.js';
import { createEngine, parseFallbackFlag, serverWhere } from '../../src/core/engines/index.js';
import { Conversation } from '../../src/core/reader/index.js';
import { ControlError } from '../../src/core/errors.js';
import { goldenText } from './_golden.js';

/** a request the reader leaves to a model */
const PROMPT = 'Which controller structure suits the attitude loop of a small quadrotor?';
const GARBLED = '<tool_call>{"name": "lqr", "arguments": "A = [0 1; 0 0] and B = [0; 1]"}</tool_call>';
const UNKNOWN = '<tool_call>{"name": "design_everything", "arguments": {}}</tool_call>';
const LQR = '<tool_call>{"name": "lqr", "arguments": {"A": [[0,1],[0,0]], "B": [[0],[1]], "Q": [[1,0],[0,1]], "R": [[1]]}}</tool_call>';

type Ask = Extract<TurnEvent, { type: 'ask' }>;
type Route = Extract<TurnEvent, { type: 'route' }>;
type Err = Extract<TurnEvent, { type: 'error' }>;
const of = <T extends TurnEvent['type']>(ev: TurnEvent[], type: T) => ev.filter((e) => e.type === type) as Extract<TurnEvent, { type: T }>[];

/** a fallback whose engine is a scripted one; `created` counts how often anything was sent there */
function scriptedFallback(script: ScriptStep[], name = 'gpt-4o-mini', where = 'at https://api.example.com/v1 (leaves this machine)') {
  const engine = new ScriptedEngine(script, `${name} (scripted)`);
  const fb: Fallback & { created: number; engine: ScriptedEngine } = {
    name,
    where,
    created: 0,
    engine,
    create: () => {
      fb.created++;
      return engine;
    },
  };
  return fb;
}

/** the conversation as the chat's metadata and the CLI's session file carry it */
const roundTrip = (c: Conversation) => Conversation.fromJSON(JSON.parse(JSON.stringify(c.toJSON())));

test('the failure reasons are typed: garbled twice, tokens, time and steps are routable; a cancel and a refusal are not', async () => {
  const reasonOf = async (script: ScriptStep[], opts: Parameters<typeof runAgentTurn>[2] = {}) => {
    const ev: TurnEvent[] = [];
    for await (const e of runAgentTurn(new ScriptedEngine(script), PROMPT, opts)) ev.push(e);
    return of(ev, 'error')[0]?.reason;
  };
  assert.equal(await reasonOf([GARBLED, UNKNOWN]), 'garbled');
  assert.equal(await reasonOf([LQR, LQR, LQR, LQR], { maxSteps: 2, maxCallsPerTool: 9 }), 'steps');
  // 2 generated tokens: the scripted engine counts its chunks as tokens
  assert.equal(await reasonOf([LQR, 'done'], { maxOutputTokens: 2 }), 'tokens');
  let t = 0;
  assert.equal(await reasonOf([LQR, 'done'], { now: () => (t += 1000), timeoutMs: 1500 }), 'time');
  const ac = new AbortController();
  ac.abort();
  assert.equal(await reasonOf(['an answer'], { signal: ac.signal }), 'cancelled');
  // a solver's refusal is a result the model explains, not a failure of the turn
  const refusal = '<tool_call>{"name": "lqr", "arguments": {"A": [[1,0],[0,1]], "B": [[0],[0]], "Q": [[1,0],[0,1]], "R": [[1]]}}</tool_call>';
  assert.equal(await reasonOf([refusal, 'The pair (A, B) is not stabilisable, so no LQR gain exists.']), undefined);
});

test('a model file that cannot be loaded is a load failure of the turn', async () => {
  const engine = await createEngine({ provider: 'local', modelPath: join(tmpdir(), 'no-such-model-for-route-test.gguf') });
  const ev: TurnEvent[] = [];
  for await (const e of runAgentTurn(engine!, PROMPT)) ev.push(e);
  const err = of(ev, 'error')[0];
  assert.equal(err.reason, 'load');
  assert.match(err.message, /no model file at/);
});

test('garbled twice: the turn ends with one question naming the fallback and where it runs; nothing is sent', async () => {
  const conv = new Conversation();
  const fb = scriptedFallback(['unused']);
  const ev = await collectTurn({ prompt: PROMPT, conversation: conv }, { engine: new ScriptedEngine([GARBLED, UNKNOWN], 'Qwen3-4B (local)'), fallback: fb });
  assert.equal(of(ev, 'error')[0].reason, 'garbled');
  const asks = of(ev, 'ask');
  assert.equal(asks.length, 1, 'asked once');
  assert.match(asks[0].question, /^\*\*Qwen3-4B \(local\) made tool calls that could not be used, twice in a row\.\*\*/);
  assert.match(asks[0].question, /Send this turn to \*\*gpt-4o-mini\*\* at https:\/\/api\.example\.com\/v1 \(leaves this machine\)\?/);
  assert.deepEqual(
    asks[0].candidates.map((c) => c.prompt),
    [SEND_PROMPT, DECLINE_PROMPT],
  );
  assert.deepEqual(
    ev.slice(-2).map((e) => e.type),
    ['ask', 'done'],
    'the question is the last thing before done (its buttons last)',
  );
  assert.equal(fb.created, 0, 'no fallback engine without consent');
  assert.equal(conv.route?.reason, 'garbled');
  assert.equal(conv.route?.to, 'gpt-4o-mini');
});

test('Send replays the same turn on the fallback (same message, same context, same earlier turns); the route event says it answered', async () => {
  const conv = new Conversation();
  const local = new ScriptedEngine([GARBLED, UNKNOWN], 'Qwen3-4B (local)');
  const history = [
    { role: 'user' as const, content: 'I am tuning a quadrotor.' },
    { role: 'assistant' as const, content: 'Noted.' },
  ];
  const fb = scriptedFallback([LQR, 'Use a cascaded loop; an LQR on the double integrator gives K = [1, 1.73205].']);
  const opts: TurnOptions = { engine: local, fallback: fb, agent: { history } };
  await collectTurn({ prompt: PROMPT, conversation: conv, modelContext: { text: 'J = diag(0.01, 0.01, 0.02)', label: 'quad.m:3-3' } }, opts);
  // the next turn starts from the conversation as the chat's metadata carried it
  const next = roundTrip(conv);
  const untouched = new ScriptedEngine(['must not be called']);
  const ev = await collectTurn({ prompt: SEND_PROMPT, conversation: next }, { engine: untouched, fallback: fb, agent: { history: [] } });
  assert.equal(fb.created, 1);
  assert.equal(untouched.stepsTaken, 0, 'the consent turn does not run the failed model');
  // the fallback saw exactly what the local model saw in the failed turn's first step
  assert.deepEqual(fb.engine.seen[0], local.seen[0]);
  assert.deepEqual(
    fb.engine.seen[0].slice(1, 3).map((m) => m.content),
    ['I am tuning a quadrotor.', 'Noted.'],
  );
  assert.match(fb.engine.seen[0].at(-1)!.content, /<data source="quad\.m:3-3">\nJ = diag/);
  const route = of(ev, 'route');
  assert.equal(route.length, 1);
  assert.deepEqual(
    { ...route[0], failure: undefined },
    {
      type: 'route',
      turn: 1,
      from: 'Qwen3-4B (local)',
      to: 'gpt-4o-mini',
      where: 'at https://api.example.com/v1 (leaves this machine)',
      reason: 'garbled',
      failure: undefined,
      decision: 'sent',
      outcome: 'answered',
    },
  );
  assert.match(route[0].failure, /could not be used twice in a row/);
  assert.equal(of(ev, 'tool_result')[0].tool, 'lqr');
  assert.equal(of(ev, 'error').length, 0);
  const md = eventsToMarkdown(ev);
  assert.match(md, /^Sending turn 1 to \*\*gpt-4o-mini\*\* at https:\/\/api\.example\.com\/v1 \(leaves this machine\), as you agreed\./);
  assert.match(
    md,
    /_Sent to gpt-4o-mini at https:\/\/api\.example\.com\/v1 \(leaves this machine\) with your consent, after Qwen3-4B \(local\) .* \(turn 1\); it answered\._$/,
  );
  assert.equal(next.route, undefined, 'the offer is used up');
});

test("Don't send: a route event, nothing sent; asked once, so a later 'send it' sends nothing either", async () => {
  const conv = new Conversation();
  const fb = scriptedFallback(['unused']);
  await collectTurn({ prompt: PROMPT, conversation: conv }, { engine: new ScriptedEngine([GARBLED, UNKNOWN]), fallback: fb });
  const ev = await collectTurn({ prompt: DECLINE_PROMPT, conversation: conv }, { fallback: fb });
  const route = of(ev, 'route');
  assert.equal(route.length, 1);
  assert.equal(route[0].decision, 'declined');
  assert.equal(route[0].outcome, 'not sent');
  assert.match(
    eventsToMarkdown(ev),
    /^_Not sent to gpt-4o-mini at https:\/\/api\.example\.com\/v1 \(leaves this machine\): you declined after scripted engine .*; nothing was sent\._$/,
  );
  assert.equal(conv.route, undefined);
  const again = await collectTurn({ prompt: 'send it', conversation: conv }, { fallback: fb });
  assert.equal(of(again, 'route').length, 0);
  assert.equal(of(again, 'ask').length, 0);
  assert.equal(fb.created, 0, 'never sent');
});

test('any other message lets the offer lapse; the fallback that fails too is not asked about again', async () => {
  const conv = new Conversation();
  const fb = scriptedFallback([GARBLED, UNKNOWN]);
  const engine = () => new ScriptedEngine([GARBLED, UNKNOWN]);
  await collectTurn({ prompt: PROMPT, conversation: conv }, { engine: engine(), fallback: fb });
  await collectTurn({ prompt: '/lqr A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1', conversation: conv }, { fallback: fb });
  assert.equal(conv.route, undefined, 'a slash command is not an answer: the offer lapsed');
  const lapsed = await collectTurn({ prompt: 'send it', conversation: conv }, { fallback: fb });
  assert.equal(of(lapsed, 'route').length + fb.created, 0);
  // a new failure asks again (a new turn); the fallback fails too: said, and no second question
  await collectTurn({ prompt: PROMPT, conversation: conv }, { engine: engine(), fallback: fb });
  const ev = await collectTurn({ prompt: 'yes, send it', conversation: conv }, { fallback: fb });
  assert.equal(fb.created, 1);
  assert.equal(of(ev, 'route')[0].outcome, 'failed');
  assert.equal(of(ev, 'ask').length, 0);
  assert.equal(conv.route, undefined);
});

test('a model that cannot be loaded (the engine factory throws) is offered to the fallback', async () => {
  const conv = new Conversation();
  const fb = scriptedFallback(['A PID cascade: rate loop inside, attitude loop outside.']);
  const load = () =>
    Promise.reject(new ControlError('no model file at /models/missing.gguf: set control.model.path or run Control: Select Model', 'unsupported'));
  const ev = await collectTurn({ prompt: PROMPT, conversation: conv }, { engine: load, fallback: fb });
  const err = of(ev, 'error')[0];
  assert.equal(err.reason, 'load');
  assert.match(err.message, /could not be loaded: no model file at \/models\/missing\.gguf/);
  assert.match(of(ev, 'ask')[0].question, /^\*\*The configured language model could not be loaded or reached\.\*\*/);
  // a request that needs no model never loads it
  const lqr = await collectTurn({ prompt: '/lqr A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1', conversation: new Conversation() }, { engine: load, fallback: fb });
  assert.equal(of(lqr, 'error').length, 0);
  assert.equal(of(lqr, 'tool_result')[0].error, undefined);
  const sent = await collectTurn({ prompt: SEND_PROMPT, conversation: conv }, { engine: load, fallback: fb });
  assert.equal(of(sent, 'route')[0].outcome, 'answered');
  assert.equal(fb.engine.seen[0].at(-1)!.content, PROMPT);
});

test('a cancel is the user stopping, not a failure: no question', async () => {
  const conv = new Conversation();
  const fb = scriptedFallback(['unused']);
  const ac = new AbortController();
  const engine = new ScriptedEngine([{ chunks: ['thinking ', 'about ', 'it'], delayMs: 20 }]);
  setTimeout(() => ac.abort(), 5);
  const ev = await collectTurn({ prompt: PROMPT, conversation: conv }, { engine, fallback: fb, signal: ac.signal });
  assert.equal(of(ev, 'error')[0].reason, 'cancelled');
  assert.equal(of(ev, 'ask').length, 0);
  assert.equal(conv.route, undefined);
});

test('without a fallback the failure says how to configure one', async () => {
  const conv = new Conversation();
  const ev = await collectTurn({ prompt: PROMPT, conversation: conv }, { engine: new ScriptedEngine([GARBLED, UNKNOWN]) });
  const err = of(ev, 'error')[0] as Err;
  assert.ok(err.message.endsWith(FALLBACK_HINT));
  assert.match(err.message, /control\.model\.fallback/);
  assert.match(err.message, /--fallback openai/);
  assert.equal(of(ev, 'ask').length, 0);
  assert.equal(conv.route, undefined);
  // a message without a full stop gets one before the hint
  const load = await collectTurn(
    { prompt: PROMPT },
    { engine: () => Promise.reject(new ControlError('no model file at /m.gguf: run Control: Select Model', 'unsupported')) },
  );
  assert.match(of(load, 'error')[0].message, /run Control: Select Model\. To be offered another model/);
  // a cancel gets no hint: nothing failed
  const ac = new AbortController();
  ac.abort();
  const cancelled = await collectTurn({ prompt: PROMPT }, { engine: new ScriptedEngine(['x']), signal: ac.signal });
  assert.ok(!of(cancelled, 'error')[0].message.includes('fallback'));
});

test('consent is for the destination named: a fallback changed since is asked about again, nothing sent', async () => {
  const conv = new Conversation();
  const first = scriptedFallback(['unused']);
  await collectTurn({ prompt: PROMPT, conversation: conv }, { engine: new ScriptedEngine([GARBLED, UNKNOWN]), fallback: first });
  const other = scriptedFallback(['an answer'], 'llama-70b', 'at http://127.0.0.1:8080/v1 (a server on this machine)');
  const ev = await collectTurn({ prompt: SEND_PROMPT, conversation: conv }, { fallback: other });
  assert.equal(first.created + other.created, 0);
  const ask = of(ev, 'ask')[0] as Ask;
  assert.match(ask.question, /^The fallback is now \*\*llama-70b\*\* at http:\/\/127\.0\.0\.1:8080\/v1 \(a server on this machine\), not gpt-4o-mini/);
  const sent = await collectTurn({ prompt: SEND_PROMPT, conversation: conv }, { fallback: other });
  assert.equal(other.created, 1);
  assert.equal((of(sent, 'route')[0] as Route).to, 'llama-70b');
  // and with no fallback configured any more: nothing sent, said with the way to configure one
  await collectTurn({ prompt: PROMPT, conversation: conv }, { engine: new ScriptedEngine([GARBLED, UNKNOWN]), fallback: first });
  const none = await collectTurn({ prompt: SEND_PROMPT, conversation: conv }, {});
  assert.match(of(none, 'error')[0].message, /^No fallback model is configured any more, so turn \d+ was not sent/);
  assert.equal(first.created, 0);
});

test('answers: the buttons and what people type; other requests are not answers', () => {
  for (const s of [SEND_PROMPT, 'send it', 'Send', 'yes', 'Yes, send it.', 'ok send this turn', 'please send it to the fallback'])
    assert.equal(routeAnswer(s), 'send', s);
  for (const s of [DECLINE_PROMPT, "Don't send", 'no', 'No, do not send it.', 'keep it local']) assert.equal(routeAnswer(s), 'decline', s);
  for (const s of ['send the step response of G', 'bode of G', 'no thanks, plot it instead', '', '...', 'yes'.repeat(50)])
    assert.equal(routeAnswer(s), undefined, s);
});

test('--fallback: the server named with where it runs; the main key never goes to another host', () => {
  assert.equal(serverWhere('https://api.example.com/v1'), 'at https://api.example.com/v1 (leaves this machine)');
  assert.equal(serverWhere('http://127.0.0.1:8080/v1'), 'at http://127.0.0.1:8080/v1 (a server on this machine)');
  assert.equal(serverWhere('http://[::1]:8080/v1'), 'at http://[::1]:8080/v1 (a server on this machine)');
  assert.equal(parseFallbackFlag(undefined, {}), undefined);
  assert.equal(parseFallbackFlag('none', {}), undefined);
  const fb = parseFallbackFlag('openai', { CONTROL_FALLBACK_URL: 'https://api.example.com/v1', CONTROL_FALLBACK_MODEL: 'gpt-4o-mini' })!;
  assert.deepEqual([fb.name, fb.where], ['gpt-4o-mini', 'at https://api.example.com/v1 (leaves this machine)']);
  assert.equal(parseFallbackFlag(undefined, { CONTROL_FALLBACK: 'local.gguf' })!.where, 'on this machine (a local GGUF file)');
  assert.throws(() => parseFallbackFlag('openai', {}), /--fallback-url/);
  assert.throws(() => parseFallbackFlag('claude', {}), /--fallback takes openai, a \.gguf file, or none/);
});

// --- the golden fixture: the two turns' event sequence -----------------------------------------

test('golden: a failed turn asks, the consent turn is answered by the fallback', async (t) => {
  const file = 'test/fixtures/golden/route.json';
  const golden = JSON.parse(readFileSync(file, 'utf8')) as { prompt: string; local: string[]; fallback: string[]; asked: unknown[]; sent: unknown[] };
  const conv = new Conversation();
  const fb = scriptedFallback(golden.fallback);
  const shape = (ev: TurnEvent[]) =>
    ev
      .map((e) =>
        e.type === 'tool_call' || e.type === 'reading'
          ? { type: e.type, tool: e.tool }
          : e.type === 'tool_result'
            ? { type: e.type, tool: e.tool, ok: e.error === undefined }
            : e.type === 'error'
              ? { type: e.type, reason: e.reason }
              : e.type === 'ask'
                ? { type: e.type, candidates: e.candidates.map((c) => c.prompt) }
                : e.type === 'route'
                  ? { type: e.type, from: e.from, to: e.to, reason: e.reason, decision: e.decision, outcome: e.outcome }
                  : { type: e.type },
      )
      .filter((e, i, a) => e.type !== 'text' || a[i - 1]?.type !== 'text');
  const asked = shape(
    await collectTurn({ prompt: golden.prompt, conversation: conv }, { engine: new ScriptedEngine(golden.local, 'Qwen3-4B (local)'), fallback: fb }),
  );
  const sent = shape(await collectTurn({ prompt: SEND_PROMPT, conversation: roundTrip(conv) }, { fallback: fb }));
  if (process.env.UPDATE_GOLDEN === '1' && !isDeepStrictEqual({ asked, sent }, { asked: golden.asked, sent: golden.sent })) {
    writeFileSync(file, goldenText({ ...golden, asked, sent }));
    t.diagnostic(`UPDATE_GOLDEN=1: ${file} rewritten with the events these turns give; review its diff`);
    return;
  }
  assert.deepEqual(asked, golden.asked);
  assert.deepEqual(sent, golden.sent);
});

// --- the CLI: `control ask` asks; the same command with --session and "send it" consents ---------

type Handler = (body: any, res: ServerResponse) => void;

async function server(handlers: Handler[]): Promise<{ url: string; requests: any[]; close: () => Promise<void> }> {
  const requests: any[] = [];
  const srv = createServer((req: IncomingMessage, res: ServerResponse) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      requests.push(JSON.parse(data));
      handlers[Math.min(requests.length - 1, handlers.length - 1)](requests.at(-1), res);
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1`, requests, close: () => new Promise((r) => srv.close(() => r())) };
}

function sse(res: ServerResponse, deltas: unknown[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const d of deltas) res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: d }] })}\n\n`);
  res.end('data: [DONE]\n\n');
}

/** runs `control ask …` in this process; stdout and stderr as text */
async function controlAsk(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const { main } = await import('../../src/cliAssist.js');
  const out: string[] = [];
  const err: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (...a: unknown[]) => void out.push(a.join(' '));
  console.error = (...a: unknown[]) => void err.push(a.join(' '));
  try {
    const code = await main('ask', args);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    console.log = log;
    console.error = error;
  }
}

test('control ask: the question printed, the reply with --session sends the same turn to the fallback', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'control-route-'));
  const s = await server([(_b, res) => sse(res, [{ role: 'assistant', content: 'A cascaded PID: a fast rate loop inside the attitude loop.' }])]);
  const session = join(dir, 'session.json');
  // the notes index cannot be built under a file: retrieval fails quietly and grounds nothing
  writeFileSync(join(dir, 'file'), '');
  const common = [
    '--model',
    join(dir, 'missing.gguf'),
    '--fallback',
    'openai',
    '--fallback-url',
    s.url,
    '--fallback-model',
    'big-model',
    '--notes-index',
    join(dir, 'file', 'x'),
  ];
  try {
    const asked = await controlAsk([PROMPT, ...common, '--session', session]);
    assert.equal(asked.code, 1);
    assert.match(asked.out, /^\*\*Error:\*\* missing \(local\): no model file at .*missing\.gguf/);
    assert.match(asked.out, /\*\*missing \(local\) could not be loaded or reached\.\*\*/);
    assert.match(asked.out, /Send this turn to \*\*big-model\*\* at http:\/\/127\.0\.0\.1:\d+\/v1 \(a server on this machine\)\?/);
    assert.match(asked.out, /1\. Send to big-model: `send this turn to the fallback model`\n2\. Don't send: `don't send this turn`/);
    assert.equal(s.requests.length, 0, 'nothing sent before the answer');
    const sent = await controlAsk(['send it', ...common, '--session', session]);
    assert.equal(sent.code, 0, sent.err);
    assert.equal(s.requests.length, 1);
    const user = s.requests[0].messages.at(-1);
    assert.deepEqual([user.role, user.content], ['user', PROMPT]);
    assert.match(sent.out, /A cascaded PID/);
    assert.match(
      sent.out,
      /_Sent to big-model at http:\/\/127\.0\.0\.1:\d+\/v1 \(a server on this machine\) with your consent, after missing \(local\) could not be loaded or reached \(turn 1\); it answered\._/,
    );
    // without --session the answer could not find the turn: said on stderr
    const lost = await controlAsk([PROMPT, ...common]);
    assert.match(lost.err, /--session FILE/);
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a turn sent with compacted earlier turns is replayed on the fallback with the same history, not the turns as they stand at the reply', async () => {
  // three long earlier turns and a threshold that folds the oldest (agent/compact.ts)
  const turns = [1, 2, 3].map((i) => ({ user: `turn ${i}: ${'design notes '.repeat(60)}`, answer: `answer ${i}: ${'K = [1 2] '.repeat(40)}`, calls: [] }));
  const opts = { agent: { turns, compaction: { maxTokens: 600, keepTurns: 1 } } };
  const local = new ScriptedEngine([GARBLED, UNKNOWN]);
  const fb = scriptedFallback(['Use a cascaded PID on attitude rate and angle.']);
  const conv = new Conversation();
  const ev = await collectTurn({ prompt: PROMPT, conversation: conv }, { engine: local, fallback: fb, ...opts });
  assert.equal(of(ev, 'ask').length, 1);
  const firstSent = local.seen[0];
  // the reply comes with the failed turn now among the earlier ones: the replay must not use them
  const later = { agent: { turns: [...turns, { user: PROMPT, answer: 'failed', calls: [] }], compaction: { maxTokens: 600, keepTurns: 1 } } };
  const sent = await collectTurn({ prompt: SEND_PROMPT, conversation: roundTrip(conv) }, { engine: local, fallback: fb, ...later });
  assert.equal(of(sent, 'route')[0]?.decision, 'sent');
  const replay = fb.engine.seen[0];
  // the same messages after the fallback's system prompt: the compacted history and the turn itself
  assert.deepEqual(
    replay.slice(1).map((m) => m.content),
    firstSent.slice(1).map((m) => m.content),
  );
  assert.match(firstSent[1].content, /turn 1/);
});
