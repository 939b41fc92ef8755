/**
 * The MCP stdio transport and JSON-RPC edges (issue 11): lines split once per chunk with a
 * length limit (a 50 MB line took 18.7 s, quadratic, and memory was unbounded), ids above 2^53
 * echoed byte-identical (they were parsed as doubles and altered), ids that are neither a
 * string, a number nor null refused (they were silently replaced by null), and errors that
 * quote at most a short prefix of the input (a 1 MB method name came back in full).
 * In-process, on PassThrough streams: no build, no child process. Cancellation of a running
 * call (a solver thread stopped): test/slow/mcp-transport.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineSplitter, McpServer, MAX_LINE_CHARS } from '../../src/core/mcp/server.js';
import { invokeTool } from '../../src/core/mcp/invoke.js';
import { runTool } from '../../src/core/tools/call.js';
import { TOOLS } from '../../src/core/tools/table.js';
import { quoteInput } from '../../src/core/errors.js';
import { ping, serve } from './mcp-serve.js';

test('lines: split at \\n and \\r\\n across any chunk boundary, several per chunk, the last without a newline', async () => {
  const text = `${ping('1')}\r\n${ping('2')}\n\n${ping('3')}\n${ping('4')}`;
  for (const size of [1, 2, 7, 64, text.length]) {
    const chunks: string[] = [];
    for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
    const lines = await serve(chunks);
    assert.deepEqual(
      lines.map((l) => JSON.parse(l).id),
      [1, 2, 3, 4],
      `chunks of ${size}`,
    );
  }
});

test('lines: a UTF-8 character split between two chunks arrives whole', async () => {
  const msg = Buffer.from(`{"jsonrpc":"2.0","id":"ω→∞","method":"ping"}\n`, 'utf8');
  const cut = msg.indexOf(Buffer.from('ω')) + 1;
  const lines = await serve([msg.subarray(0, cut), msg.subarray(cut)]);
  assert.equal(JSON.parse(lines[0]).id, 'ω→∞');
});

test('LineSplitter hands each line over once and keeps only the unfinished one', () => {
  const got: string[] = [];
  const s = new LineSplitter(
    100,
    (l) => got.push(l),
    () => got.push('TOO LONG'),
  );
  s.push('ab');
  s.push('c\nde');
  s.push('f\n\ng');
  assert.deepEqual(got, ['abc', 'def', '']);
  assert.equal(s.pending, 1);
  s.end();
  assert.deepEqual(got, ['abc', 'def', '', 'g']);
});

test('a line over the limit is a JSON-RPC error (-32600) said once, its text is dropped, and the next line is answered', async () => {
  const long = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(5000)}"}}`;
  const chunks = [ping('0') + '\n', ...long.match(/.{1,300}/gs)!, '\n', ping('2') + '\n', 'y'.repeat(3000)];
  const lines = (await serve(chunks, { maxLineChars: 1000 })).map((l) => JSON.parse(l));
  assert.equal(lines.length, 4, JSON.stringify(lines));
  assert.deepEqual(lines[0], { jsonrpc: '2.0', id: 0, result: {} });
  assert.equal(lines[1].error.code, -32600);
  assert.equal(lines[1].id, null);
  assert.match(lines[1].error.message, /5\d{3} characters.*limit of 1000/);
  assert.deepEqual(lines[2], { jsonrpc: '2.0', id: 2, result: {} });
  // the unterminated last line at the end of input: over the limit too
  assert.equal(lines[3].error.code, -32600);
  assert.ok(MAX_LINE_CHARS >= 32 * 1024 * 1024, 'the default leaves room for the largest valid call');
});

test('LineSplitter never holds more than the limit while it drops an over-long line', () => {
  let tooLong = 0;
  const s = new LineSplitter(
    1000,
    () => {},
    (n) => (tooLong = n),
  );
  for (let i = 0; i < 100; i++) {
    s.push('z'.repeat(999));
    assert.ok(s.pending <= 1000, `holds ${s.pending}`);
  }
  s.push('\n');
  assert.equal(tooLong, 99_900);
  assert.equal(s.pending, 0);
});

test('ids above 2^53 (and any number a double cannot hold) come back byte-identical', async () => {
  const s = new McpServer();
  for (const raw of [
    '9007199254740993',
    '12345678901234567890123',
    '-9007199254740993',
    '1e400',
    '0.1000000000000000055511151231257827',
    '1.5',
    '9007199254740993.0',
  ]) {
    const out = (await s.handleLine(ping(raw)))!;
    assert.ok(out.startsWith(`{"jsonrpc":"2.0","id":${raw},`), out);
    assert.deepEqual(JSON.parse(out).result, {});
  }
  // the id key anywhere among the members, nested "id" keys and escaped keys not confused with it
  const out = (await s.handleLine(`{"params":{"id":1,"x":["}",{"id":2}]},"jsonrpc":"2.0","method":"tools/call","\\u0069d":9007199254740993}`))!;
  assert.match(out, /^\{"jsonrpc":"2\.0","id":9007199254740993,/);
  // errors too, and each member of a batch
  assert.match((await s.handleLine('{"jsonrpc":"2.0","id":9007199254740995,"method":"nope"}'))!, /"id":9007199254740995,"error"/);
  const batch = (await s.handleLine(`[${ping('9007199254740997')},{"jsonrpc":"2.0","method":"x"},${ping('3')},${ping('18014398509481985')}]`))!;
  assert.equal(
    batch,
    `[{"jsonrpc":"2.0","id":9007199254740997,"result":{}},{"jsonrpc":"2.0","id":3,"result":{}},{"jsonrpc":"2.0","id":18014398509481985,"result":{}}]`,
  );
  // small integers and strings as before
  assert.equal(await s.handleLine(ping('7')), '{"jsonrpc":"2.0","id":7,"result":{}}');
  assert.equal(await s.handleLine(ping('"9007199254740993"')), '{"jsonrpc":"2.0","id":"9007199254740993","result":{}}');
});

test('an id that is an object, an array or a boolean is an Invalid Request (-32600) with id null, and nothing runs', async () => {
  for (const id of ['{"a":1}', '[1]', 'true', 'false']) {
    let ran = false;
    const s = new McpServer({ log: (l) => (ran ||= l.startsWith('tools/call')) });
    const r = JSON.parse((await s.handleLine(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"eig","arguments":{"A":[[1]]}}}`))!);
    assert.equal(r.error.code, -32600, id);
    assert.equal(r.id, null);
    assert.match(r.error.message, /"id" must be a string, a number or null/);
    assert.equal(ran, false, `${id}: the call ran`);
  }
  const s = new McpServer();
  assert.deepEqual(JSON.parse((await s.handleLine(ping('null')))!), { jsonrpc: '2.0', id: null, result: {} });
});

const MB = 1_000_000;
const big = 'q'.repeat(MB);

test('quoteInput keeps short text and cuts long text to 200 characters with the length said', () => {
  assert.equal(quoteInput('abc'), 'abc');
  const q = quoteInput(big);
  assert.equal(q, `${'q'.repeat(200)}… (1000000 characters)`);
});

test('MCP errors quote at most a short prefix of a 1 MB input', async () => {
  const logs: string[] = [];
  const s = new McpServer({ log: (l) => logs.push(l) });
  const lines = [
    `{"jsonrpc":"2.0","id":1,"method":"${big}"}`,
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${big}"}}`,
    `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"${big}","clientInfo":{"name":"${big}","version":"${big}"}}}`,
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"eig","arguments":{"${big}":1,"A":[[1]]}}}`,
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"eig","arguments":{"A":"${big}"}}}`,
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"c2d","arguments":{"A":[[1]],"B":[[1]],"C":[[1]],"Ts":1,"method":"${big}"}}}`,
    `${big} not json`,
    `{"jsonrpc":"${big}","id":1,"method":"ping"}`,
  ];
  for (const line of lines) {
    const out = (await s.handleLine(line))!;
    assert.ok(out.length < 2000, `${out.length} characters: ${out.slice(0, 300)}`);
  }
  for (const l of logs) assert.ok(l.length < 2000, `log line of ${l.length} characters`);
});

test('tool refusals quote at most a short prefix of a 1 MB argument, key or tool name, for every tool and argument', async () => {
  const problems: string[] = [];
  const reasonOf = async (name: string, args: unknown) => {
    const r = await invokeTool(name, args);
    return r.ok ? '' : r.reason;
  };
  const values = [big, `[1 ${big}]`, `${big}(1)`, [[big]], [big], `foo_${big}`, `[1, 2; 3, "${big}"]`];
  for (const tool of TOOLS) {
    for (const k of Object.keys(tool.parameters.properties))
      for (const v of values) {
        const reason = await reasonOf(tool.name, { [k]: v });
        if (reason.length > 1000) problems.push(`${tool.name}.${k} = ${String(v).slice(0, 10)}…: ${reason.length} characters`);
      }
    const reason = await reasonOf(tool.name, { [big]: 1, ...Object.fromEntries((tool.parameters.required ?? []).map((k) => [k, [[1]]])) });
    if (reason.length > 1000) problems.push(`${tool.name} with a 1 MB argument name: ${reason.length} characters`);
  }
  assert.deepEqual(problems, []);
  assert.throws(
    () => runTool(big, {}),
    (e: Error) => e.message.length < 1000 && e.message.includes('(1000000 characters)'),
  );
});
