// MCP cancellation (issue 11): notifications/cancelled stops the tools/call it names while its
// solver thread computes, in-process on PassThrough streams. The transport's other edges:
// test/unit/mcp-transport.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { serveStdio } from '../../src/core/mcp/server.js';
import { ping, serve } from '../unit/mcp-serve.js';

test('notifications/cancelled ends the tools/call it names at once: no response for it, the next request answered', async () => {
  // an n = 200 care: seconds on a solver thread
  const n = 200;
  const args = {
    A: Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? -2 : j === i + 1 ? 1 : 0))),
    B: Array.from({ length: n }, () => [1]),
    Q: Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))),
    R: [[1]],
  };
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: { at: number; msg: { id?: unknown } }[] = [];
  const t0 = performance.now();
  output.setEncoding('utf8').on('data', (d: string) => {
    for (const l of d.split('\n').filter(Boolean)) lines.push({ at: performance.now() - t0, msg: JSON.parse(l) });
  });
  const done = serveStdio(input, output);
  input.write(JSON.stringify({ jsonrpc: '2.0', id: 'big', method: 'tools/call', params: { name: 'care', arguments: args } }) + '\n');
  // soon after the request: the call is queued or running (a whole care takes seconds)
  await new Promise((r) => setTimeout(r, 300));
  const tCancel = performance.now() - t0;
  input.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'big', reason: 'user stopped it' } }) + '\n');
  input.write(ping('"after"') + '\n');
  // the ping is answered once the cancelled call has ended
  while (!lines.some((l) => l.msg.id === 'after')) await new Promise((r) => setTimeout(r, 20));
  const answered = lines.find((l) => l.msg.id === 'after')!.at;
  input.end();
  await done;
  assert.deepEqual(
    lines.map((l) => l.msg.id),
    ['after'],
    'the cancelled call got no response; the ping got one',
  );
  // the same care run to the end takes far longer than the cancel took to take effect
  const solo = performance.now();
  await serve([JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'care', arguments: args } }) + '\n']);
  const full = performance.now() - solo;
  assert.ok(answered - tCancel < full / 2, `the ping came ${(answered - tCancel).toFixed(0)} ms after the cancel; a whole care takes ${full.toFixed(0)} ms`);
});
