// `control mcp` end to end: the CLI bundled as `npm run build` does (build.config.mjs), run as
// a child process, spoken to over stdio as an MCP client (Claude Code, Cursor) does.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCliBundle } from '../unit/_cliBundle.js';
import { McpServer, PROTOCOL_VERSIONS } from '../../src/core/mcp/server.js';
import { describeInvocation } from '../../src/core/mcp/invoke.js';
import { TOOLS } from '../../src/core/tools/table.js';

const cli = join(mkdtempSync(join(tmpdir(), 'control-mcp-')), 'cli.js');
let child: ChildProcessWithoutNullStreams;
let stderr = '';
const pending: ((line: string) => void)[] = [];
const lines: string[] = [];

before(async () => {
  await buildCliBundle(cli);
  child = spawn(process.execPath, [cli, 'mcp'], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  let buf = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    buf += d;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      const w = pending.shift();
      if (w) w(line);
      else lines.push(line);
    }
  });
});

after(() => {
  if (child && child.exitCode === null) child.kill();
});

function nextLine(ms = 10_000): Promise<string> {
  const queued = lines.shift();
  if (queued !== undefined) return Promise.resolve(queued);
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no answer from control mcp within ${ms} ms; stderr:\n${stderr}`)), ms);
    pending.push((l) => {
      clearTimeout(t);
      resolve(l);
    });
  });
}

function send(msg: unknown): void {
  child.stdin.write((typeof msg === 'string' ? msg : JSON.stringify(msg)) + '\n');
}

let nextId = 1;
async function request(method: string, params?: unknown): Promise<any> {
  const id = nextId++;
  send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
  const msg = JSON.parse(await nextLine());
  assert.equal(msg.jsonrpc, '2.0');
  assert.equal(msg.id, id, `answer to request ${id} expected, got ${JSON.stringify(msg)}`);
  return msg;
}

const DOUBLE_INTEGRATOR = {
  A: [
    [0, 1],
    [0, 0],
  ],
  B: [[0], [1]],
  Q: [
    [1, 0],
    [0, 1],
  ],
  R: [[1]],
};

test('initialize negotiates the protocol version and declares tools', async () => {
  const r = await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } });
  assert.equal(r.result.protocolVersion, '2025-06-18');
  assert.equal(r.result.serverInfo.name, 'control');
  assert.ok(r.result.serverInfo.version);
  assert.ok(r.result.capabilities.tools, 'capabilities.tools missing');
  send({ jsonrpc: '2.0', method: 'notifications/initialized' }); // no answer to a notification
  const ping = await request('ping');
  assert.deepEqual(ping.result, {});
});

test('tools/list is the tool table: lqr with its schema, read-only', async () => {
  const r = await request('tools/list', {});
  const tools = r.result.tools as { name: string; description: string; inputSchema: any; annotations: any }[];
  assert.deepEqual(
    tools.map((t) => t.name),
    TOOLS.map((t) => t.name),
  );
  const lqr = tools.find((t) => t.name === 'lqr')!;
  assert.deepEqual(lqr.inputSchema, TOOLS.find((t) => t.name === 'lqr')!.parameters);
  assert.equal(lqr.inputSchema.type, 'object');
  assert.deepEqual(lqr.inputSchema.required, ['A', 'B', 'Q', 'R']);
  assert.match(lqr.description, /u = -Kx/);
  assert.equal(lqr.annotations.readOnlyHint, true);
});

test('tools/call lqr on the double integrator gives K = [1, √3] (closed form), verified', async () => {
  const r = await request('tools/call', { name: 'lqr', arguments: DOUBLE_INTEGRATOR });
  assert.equal(r.result.isError, false);
  const K = r.result.structuredContent.result.K;
  assert.ok(Math.abs(K[0][0] - 1) < 1e-12 && Math.abs(K[0][1] - Math.sqrt(3)) < 1e-12, JSON.stringify(K));
  assert.equal(r.result.structuredContent.verification.ok, true);
  const text = r.result.content[0];
  assert.equal(text.type, 'text');
  assert.match(text.text, /1\.73205/);
  assert.match(text.text, /✔ Verified: Riccati residual/);
  // the same structured result as JSON text, for clients that read only text
  assert.deepEqual(JSON.parse(r.result.content[1].text), r.result.structuredContent);
});

test('a refusal is a result with isError and the reason, not a JSON-RPC error', async () => {
  const unstab = await request('tools/call', {
    name: 'lqr',
    arguments: {
      ...DOUBLE_INTEGRATOR,
      A: [
        [1, 0],
        [0, -1],
      ],
    },
  });
  assert.equal(unstab.error, undefined);
  assert.equal(unstab.result.isError, true);
  assert.match(unstab.result.content[0].text, /not stabilisable/);
  const shape = await request('tools/call', { name: 'lqr', arguments: { ...DOUBLE_INTEGRATOR, B: [[0], [1], [2]] } });
  assert.equal(shape.result.isError, true);
  assert.match(shape.result.content[0].text, /B has 3 rows/);
  const missing = await request('tools/call', { name: 'lqr', arguments: { A: [[0]] } });
  assert.equal(missing.result.isError, true);
  assert.match(missing.result.content[0].text, /needs argument B/);
});

test('non-finite results come back as strings in structuredContent', async () => {
  // an integrator in the loop with no phase crossover: gain margin infinite
  const r = await request('tools/call', { name: 'margins', arguments: { num: [1], den: [1, 1, 0] } });
  assert.equal(r.result.isError, false, r.result.content[0].text);
  assert.equal(r.result.structuredContent.result.gm, 'Infinity');
});

test('garbage gets -32700, unknown methods -32601, unknown tools -32602; the server keeps serving', async () => {
  send('this is not json {');
  const parse = JSON.parse(await nextLine());
  assert.equal(parse.error.code, -32700);
  assert.equal(parse.id, null);
  const unknown = await request('resources/frobnicate', {});
  assert.equal(unknown.error.code, -32601);
  const tool = await request('tools/call', { name: 'nope', arguments: {} });
  assert.equal(tool.error.code, -32602);
  assert.match(tool.error.message, /Unknown tool: nope/);
  const again = await request('tools/call', {
    name: 'eig',
    arguments: {
      A: [
        [0, 1],
        [-2, -3],
      ],
    },
  });
  assert.equal(again.result.isError, false);
  const ev = again.result.structuredContent.result.eigenvalues.map((z: number[]) => z[0]).sort((a: number, b: number) => a - b);
  assert.ok(Math.abs(ev[0] + 2) < 1e-12 && Math.abs(ev[1] + 1) < 1e-12, JSON.stringify(ev));
});

test('stdin closing ends the server with exit code 0', async () => {
  const code = await new Promise<number | null>((resolve) => {
    child.once('exit', (c) => resolve(c));
    child.stdin.end();
  });
  assert.equal(code, 0, stderr);
});

test('in-process: an unknown protocol version gets the newest; notifications and blank lines get no answer', async () => {
  const s = new McpServer();
  const init = JSON.parse((await s.handleLine(JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'initialize', params: { protocolVersion: '1999-01-01' } })))!);
  assert.equal(init.result.protocolVersion, PROTOCOL_VERSIONS[0]);
  assert.equal(init.id, 'a');
  assert.equal(await s.handleLine('{"jsonrpc":"2.0","method":"notifications/initialized"}'), undefined);
  assert.equal(s.isInitialized, true);
  assert.equal(await s.handleLine('   '), undefined);
  const bad = JSON.parse((await s.handleLine('{"jsonrpc":"2.0","id":5}'))!);
  assert.equal(bad.error.code, -32600);
  const batch = JSON.parse((await s.handleLine('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/cancelled"}]'))!);
  assert.deepEqual(batch, [{ jsonrpc: '2.0', id: 1, result: {} }]);
});

test('progress lines say what is being solved and for what size', () => {
  assert.equal(describeInvocation('lqr', DOUBLE_INTEGRATOR), 'Solving continuous-time LQR for a 2-state, 1-input model');
  assert.equal(describeInvocation('margins', { num: [1], den: [1, 3, 3, 1] }), 'Solving gain and phase margins for a transfer function of order 3');
  assert.match(describeInvocation('dlqr', { ...DOUBLE_INTEGRATOR, Ts: 0.1 }), /discrete time, Ts = 0\.1 s/);
  assert.equal(describeInvocation('eig', 'garbage'), 'Solving eigenvalues');
  // the article as the number is read aloud: an eight, an eleven, an eighteen, an eight hundred
  const eye = (n: number) => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  for (const [n, a] of [
    [8, 'an'],
    [11, 'an'],
    [18, 'an'],
    [80, 'an'],
    [800, 'an'],
    [1, 'a'],
    [12, 'a'],
    [100, 'a'],
    [110, 'a'],
    [180, 'a'],
  ] as const)
    assert.equal(describeInvocation('eig', { A: eye(n) }), `Solving eigenvalues for ${a} ${n}-state model`);
  // an unknown name is the caller's text: a short quote of it, never 1 MB in a progress line
  const long = describeInvocation('x'.repeat(1_000_000), {});
  assert.ok(long.length < 120, `${long.length} characters`);
  assert.match(long, /\(1000000 characters\)$/);
});
