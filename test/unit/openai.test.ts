// The OpenAI-compatible engine against a local mock server (loopback only): SSE streaming,
// native tool calls assembled from deltas, text tool calls through the gate, errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAIEngine } from '../../src/core/engines/openai.js';
import { runAgentTurn } from '../../src/core/agent/loop.js';
import type { TurnEvent } from '../../src/core/agent/events.js';

type Handler = (body: any, res: ServerResponse) => void;

async function server(handlers: Handler[]): Promise<{ url: string; requests: any[]; close: () => Promise<void> }> {
  const requests: any[] = [];
  const srv = createServer((req: IncomingMessage, res: ServerResponse) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const body = JSON.parse(data);
      requests.push(body);
      const h = handlers[Math.min(requests.length - 1, handlers.length - 1)];
      h(body, res);
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/v1`, requests, close: () => new Promise((r) => srv.close(() => r())) };
}

function sse(res: ServerResponse, deltas: unknown[], usage?: unknown): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const d of deltas) res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: d }] })}\n\n`);
  if (usage) res.write(`data: ${JSON.stringify({ choices: [], usage })}\n\n`);
  res.end('data: [DONE]\n\n');
}

async function collect(gen: AsyncGenerator<TurnEvent>): Promise<TurnEvent[]> {
  const out: TurnEvent[] = [];
  for await (const e of gen) out.push(e);
  return out;
}

test('native tool calls split across deltas run through the table; usage is reported', async () => {
  const s = await server([
    (_b, res) =>
      sse(
        res,
        [
          { role: 'assistant', content: 'Computing. ' },
          { tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'lqr', arguments: '{"A": [[0,1],[0,0]], "B": [[0],[1]],' } }] },
          { tool_calls: [{ index: 0, function: { arguments: ' "Q": [[1,0],[0,1]], "R": [[1]]}' } }] },
        ],
        { prompt_tokens: 900, completion_tokens: 40, prompt_tokens_details: { cached_tokens: 850 } },
      ),
    (_b, res) => sse(res, [{ content: 'K = [1, 1.73205].' }], { prompt_tokens: 1000, completion_tokens: 10 }),
  ]);
  try {
    const engine = new OpenAIEngine({ baseUrl: s.url, model: 'test-model' });
    const ev = await collect(runAgentTurn(engine, 'lqr for a double integrator'));
    const r = ev.find((e) => e.type === 'tool_result') as Extract<TurnEvent, { type: 'tool_result' }>;
    assert.ok(r?.result, JSON.stringify(ev));
    assert.ok(Math.abs((r.result as { K: number[][] }).K[0][1] - Math.sqrt(3)) < 1e-12);
    // the second request carries the assistant's call and the tool result
    const msgs = s.requests[1].messages;
    assert.equal(msgs.at(-2).tool_calls[0].function.name, 'lqr');
    assert.equal(msgs.at(-1).role, 'tool');
    assert.equal(msgs.at(-1).tool_call_id, 'c1');
    assert.ok(s.requests[0].tools.some((t: any) => t.function.name === 'lqr'));
    const m = ev.find((e) => e.type === 'metrics') as Record<string, unknown>;
    assert.deepEqual(m.evaluatedTokensPerStep, [50, 1000]);
  } finally {
    await s.close();
  }
});

test('tool calls written as text go through the gate', async () => {
  const s = await server([
    (_b, res) => sse(res, [{ content: 'Sure. <tool_' }, { content: 'call>{"name": "eig", "arguments": {"A": [[0,1],[-2,-3]]}}</tool_call>' }]),
    (_b, res) => sse(res, [{ content: 'The eigenvalues are -1 and -2.' }]),
  ]);
  try {
    const ev = await collect(runAgentTurn(new OpenAIEngine({ baseUrl: s.url, model: 'm' }), 'eig'));
    assert.ok(ev.some((e) => e.type === 'tool_result' && e.result));
    const text = ev
      .filter((e) => e.type === 'text')
      .map((e) => (e as { text: string }).text)
      .join('');
    assert.ok(!text.includes('tool_call'), text);
  } finally {
    await s.close();
  }
});

test('an unreachable server or an HTTP error is a clear error event, not a crash', async () => {
  const dead = await server([
    (_b, res) => {
      res.writeHead(500);
      res.end('model not loaded');
    },
  ]);
  try {
    const ev = await collect(runAgentTurn(new OpenAIEngine({ baseUrl: dead.url, model: 'm' }), 'hi'));
    assert.match((ev.find((e) => e.type === 'error') as { message: string }).message, /answered 500: model not loaded/);
  } finally {
    await dead.close();
  }
  const ev = await collect(runAgentTurn(new OpenAIEngine({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }), 'hi'));
  assert.match((ev.find((e) => e.type === 'error') as { message: string }).message, /cannot reach the model server/);
  assert.equal(ev.at(-1)!.type, 'done');
});
