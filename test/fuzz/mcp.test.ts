// Fuzz: hostile traffic to `control mcp` over stdio (issue 11, item 7). A spawned server gets
// hundreds of generated messages in one stream: malformed JSON, a wrong or missing "jsonrpc",
// ids of every JSON type (strings, numbers, floats, null, above 2^53, booleans, arrays,
// objects), unknown methods (hostile names among them), tools/call with bad names and bad
// arguments (wrong types, MATLAB text, NaN as text, extra and missing arguments), params of
// the wrong type, client responses, notifications, JSON-RPC batch arrays, blank lines, CRLF,
// a long valid line and one over the line limit.
//
// The expected responses follow the JSON-RPC 2.0 specification, written out here: a request
// (an id of string, number or null) gets exactly one response carrying its id (a number a
// double cannot hold echoed as written); a notification and a client's response get none; a
// line that is not JSON gets -32700 and a message that is not a request -32600, with id null;
// a batch gets one array of the responses of its requests (none when all are notifications).
// Asserted: exactly those responses and no others, no "internal error" (nor -32603) anywhere,
// the server still answers ping at the end and exits cleanly, peak RSS bounded.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { TOOLS } from '../../src/core/tools/table.js';
import { buildCli, fuzzSeed, HOSTILE_NAMES, hostileText, nest, Rng, unicodeText, validArgs, wrongValue, type Cli, removeTemps } from './_fuzz.js';

const SEED = fuzzSeed('mcp.test.ts');
const RSS_LIMIT = 2 * 1024 ** 3;
/** the server's documented line limit (MAX_LINE_CHARS in src/core/mcp/server.ts) */
const LINE_LIMIT = 64 * 1024 * 1024;

let cli: Cli;
before(async () => {
  cli = await buildCli();
});
after(removeTemps);

// ------------------------------------------------------------------ lossless reading of responses

const NUM = '\u0000num:';

/**
 * JSON.parse that keeps every number's text: number tokens outside strings are turned into
 * marked strings first, so an id above 2^53 is compared as written, not as a double.
 */
function parseLossless(text: string): unknown {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      let j = i + 1;
      while (j < text.length && /[0-9eE.+-]/.test(text[j])) j++;
      out += JSON.stringify(NUM + text.slice(i, j));
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return JSON.parse(out);
}

/** how an id is compared: strings as strings, numbers by value when a double holds them, else by their text */
function idKey(id: unknown, rawNumber?: string): string {
  if (rawNumber !== undefined) return Number.isSafeInteger(Number(rawNumber)) ? `n:${Number(rawNumber)}` : `r:${rawNumber}`;
  if (typeof id === 'string') return id.startsWith(NUM) ? idKey(undefined, id.slice(NUM.length)) : `s:${id}`;
  if (typeof id === 'number') return idKey(undefined, JSON.stringify(id));
  return 'null';
}

// ------------------------------------------------------------------ the traffic

interface Msg {
  text: string;
  what: string;
  /** the ids whose responses this line must bring ('null' for id-null ones), in a batch array when batch */
  expect: string[];
  batch?: boolean;
  /** the response must be this JSON-RPC error code (single messages only) */
  code?: number;
}

let seq = 0;
const uid = (r: Rng): { json: string; key: string } => {
  const k = ++seq;
  return r.pick<() => { json: string; key: string }>([
    () => ({ json: JSON.stringify(`m-${k}`), key: `s:m-${k}` }),
    () => ({ json: JSON.stringify(`${unicodeText(r)}-${k}`), key: '' }),
    () => ({ json: String(100000 + k), key: `n:${100000 + k}` }),
    () => ({ json: String(-100000 - k), key: `n:${-100000 - k}` }),
    () => ({ json: `${k}.5`, key: `r:${k}.5` }),
    () => ({ json: `${9007199254740993n + BigInt(k) * 2n}`, key: `r:${9007199254740993n + BigInt(k) * 2n}` }),
    () => ({ json: `-${18446744073709551617n + BigInt(k)}`, key: `r:-${18446744073709551617n + BigInt(k)}` }),
    () => ({ json: `${k}e300`, key: `r:${k}e300` }),
  ])();
};

/** a unique id of a valid type, its JSON text and the key its response must carry */
function requestId(r: Rng): { json: string; key: string } {
  const id = uid(r);
  if (id.key === '') id.key = idKey(JSON.parse(id.json));
  return id;
}

const INVALID_IDS = ['true', 'false', '[]', '[1]', '{}', '{"a":1}'];

/** one request object (as text) with a fresh id, and the key of its response */
function request(r: Rng, method: string, params?: unknown): { json: string; key: string } {
  const id = requestId(r);
  const p = params === undefined ? '' : `,"params":${JSON.stringify(params)}`;
  return { json: `{"jsonrpc":"2.0","id":${id.json},"method":${JSON.stringify(method)}${p}}`, key: id.key };
}

function toolCallParams(r: Rng): unknown {
  const tool = r.pick(TOOLS);
  const props = Object.keys(tool.parameters.properties);
  const args: Record<string, unknown> = validArgs(r, tool);
  const kind = r.int(0, 9);
  if (kind === 0) return { name: r.pick([...HOSTILE_NAMES, 'LQR', '', 'nope', unicodeText(r)]), arguments: args };
  if (kind === 1) return { name: r.pick([1, null, [], {}, true]), arguments: args };
  if (kind === 2) return { name: tool.name, arguments: r.pick([null, [], 'A=[1 2;3 4]', 5, true, [args]]) };
  if (kind === 3) {
    const k = r.pick(props);
    args[k] = wrongValue(r, tool.parameters.properties[k]);
  } else if (kind === 4) {
    const k = r.pick(props);
    args[k] = hostileText(r);
  } else if (kind === 5) {
    const req = tool.parameters.required ?? [];
    if (req.length) delete args[r.pick(req)];
  } else if (kind === 6) {
    Object.defineProperty(args, r.pick([...HOSTILE_NAMES, 'x']), { value: r.pick([1, { A: [[4]] }, 'x']), enumerable: true });
  } else if (kind === 7) {
    const k = r.pick(props);
    args[k] = nest(r.pick([1, []]), r.int(2, 300));
  } else if (kind === 8) {
    const k = r.pick(props);
    args[k] = r.pick(['NaN', 'Infinity', '-Infinity', ['NaN'], [['Infinity']]]);
  }
  // kind 9: a generated valid problem
  return { name: tool.name, arguments: args, ...(r.chance(0.1) ? { _meta: { progressToken: 1 }, extra: unicodeText(r) } : {}) };
}

/** a message of a random kind and the responses the specification asks for */
function message(r: Rng): Msg {
  const kind = r.weighted([
    [10, 'malformed'],
    [8, 'wrong-jsonrpc'],
    [14, 'ping-ids'],
    [6, 'invalid-id'],
    [8, 'unknown-method'],
    [28, 'tools/call'],
    [4, 'tools/list'],
    [4, 'prompts'],
    [5, 'bad-params'],
    [4, 'client-response'],
    [8, 'notification'],
    [6, 'not-object'],
    [8, 'batch'],
    [3, 'blank'],
  ] as const);
  switch (kind) {
    case 'malformed':
      return {
        what: kind,
        text: r.pick([
          '{',
          '{"jsonrpc":"2.0","id":1,"method":"ping"',
          'not json',
          "{'jsonrpc':'2.0'}",
          '{"jsonrpc":"2.0",}',
          '\u0000',
          `${unicodeText(r)}{`,
          '[1,',
          '{"a":1}}',
          'NaN',
          '{"id":01}',
          '{"jsonrpc":"2.0","id":1e,"method":"ping"}',
        ]),
        expect: ['null'],
        code: -32700,
      };
    case 'wrong-jsonrpc': {
      const v = r.pick(['"1.0"', '2', '2.0', 'null', '"2.0 "', '""', '["2.0"]']);
      if (r.chance(0.3)) return { what: kind, text: `{"jsonrpc":${v},"method":"ping"}`, expect: ['null'], code: -32600 };
      const id = requestId(r);
      if (r.chance(0.2)) return { what: 'no jsonrpc', text: `{"id":${id.json},"method":"ping"}`, expect: [id.key], code: -32600 };
      return { what: kind, text: `{"jsonrpc":${v},"id":${id.json},"method":"ping"}`, expect: [id.key], code: -32600 };
    }
    case 'ping-ids': {
      if (r.chance(0.1)) return { what: 'ping id null', text: '{"jsonrpc":"2.0","id":null,"method":"ping"}', expect: ['null'] };
      const q = request(r, 'ping', r.chance(0.2) ? { _meta: { x: unicodeText(r) } } : undefined);
      return { what: kind, text: q.json, expect: [q.key] };
    }
    case 'invalid-id':
      return { what: kind, text: `{"jsonrpc":"2.0","id":${r.pick(INVALID_IDS)},"method":"ping"}`, expect: ['null'], code: -32600 };
    case 'unknown-method': {
      const q = request(
        r,
        r.pick([
          ...HOSTILE_NAMES,
          'foo',
          '',
          'tools/CALL',
          'Ping',
          'rpc.discover',
          'resources/list',
          'resources/read',
          'Prompts/List',
          unicodeText(r),
          'tools/call/../ping',
        ]),
      );
      return { what: kind, text: q.json, expect: [q.key], code: -32601 };
    }
    case 'tools/call': {
      const q = request(r, 'tools/call', toolCallParams(r));
      return { what: kind, text: q.json, expect: [q.key] };
    }
    case 'tools/list': {
      const q = request(r, 'tools/list', r.pick([undefined, {}, { cursor: 'x' }]));
      return { what: kind, text: q.json, expect: [q.key] };
    }
    // the design playbooks as prompts: hostile names and arguments get a result or -32602, never an internal error
    case 'prompts': {
      const args = () =>
        r.pick<unknown>([
          {},
          { A: '[0 1; -2 -3]', B: '[0; 1]', C: '[1 0]', QXU: 'eye(3)', QWV: 'eye(3)' },
          { A: unicodeText(r), B: '[[1]]' },
          { num: '[1]', den: '[1 3 3 1]', type: 'PI', wc: '0.5', pm: '60' },
          { num: '[1e400]', den: 'NaN' },
          { A: [[0, 1]], nested: { deep: [1, 2] } },
          'not an object',
          null,
        ]);
      const q = r.chance(0.3)
        ? request(r, 'prompts/list', r.pick([undefined, {}, { cursor: 'x' }]))
        : request(r, 'prompts/get', { name: r.pick(['lqg_design', 'pid_design', 'nope', '', unicodeText(r)]), arguments: args() });
      return { what: kind, text: q.json, expect: [q.key] };
    }
    case 'bad-params': {
      const id = requestId(r);
      return {
        what: kind,
        text: `{"jsonrpc":"2.0","id":${id.json},"method":"${r.pick(['ping', 'tools/call', 'tools/list', 'initialize'])}","params":${r.pick(['5', '"x"', 'true', 'null'])}}`,
        expect: [id.key],
        code: -32602,
      };
    }
    case 'client-response': {
      const id = requestId(r);
      return {
        what: kind,
        text: r.chance(0.5) ? `{"jsonrpc":"2.0","id":${id.json},"result":{}}` : `{"jsonrpc":"2.0","id":${id.json},"error":{"code":-1,"message":"x"}}`,
        expect: [],
      };
    }
    case 'notification':
      return {
        what: kind,
        text: JSON.stringify({
          jsonrpc: '2.0',
          method: r.pick(['notifications/initialized', 'notifications/cancelled', 'notifications/progress', 'tools/call', 'ping', 'foo', ...HOSTILE_NAMES]),
          ...(r.chance(0.5) ? { params: r.pick<unknown>([{ requestId: 1 }, { name: 'eig', arguments: { A: [[1]] } }, {}, []]) } : {}),
        }),
        expect: [],
      };
    case 'not-object':
      return { what: kind, text: r.pick(['1', '"x"', 'null', 'true', '-0', '1e999']), expect: ['null'], code: -32600 };
    case 'batch': {
      const parts: string[] = [];
      const expect: string[] = [];
      const size = r.int(1, 6);
      for (let i = 0; i < size; i++) {
        const k = r.int(0, 4);
        if (k === 0) {
          const q = request(r, 'ping');
          parts.push(q.json);
          expect.push(q.key);
        } else if (k === 1) parts.push('{"jsonrpc":"2.0","method":"notifications/initialized"}');
        else if (k === 2) {
          parts.push(r.pick(['1', '"x"', 'null', '[]']));
          expect.push('null');
        } else if (k === 3) {
          const q = request(r, 'tools/call', toolCallParams(r));
          parts.push(q.json);
          expect.push(q.key);
        } else {
          const q = request(r, r.pick(HOSTILE_NAMES));
          parts.push(q.json);
          expect.push(q.key);
        }
      }
      if (r.chance(0.1)) return { what: 'empty batch', text: '[]', expect: ['null'], code: -32600 };
      return { what: kind, text: `[${parts.join(',')}]`, expect, batch: expect.length > 0 };
    }
    case 'blank':
      return { what: kind, text: r.pick(['', '   ', '\t']), expect: [] };
  }
}

// ------------------------------------------------------------------ the run

test('MCP fuzz: >= 300 hostile messages; one response per request, none for notifications, no internal error, ping still answered', async () => {
  const r = new Rng(SEED, 2);
  const msgs: Msg[] = [];
  const init = request(r, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } });
  msgs.push({ what: 'initialize', text: init.json, expect: [init.key] });
  msgs.push({ what: 'initialized', text: '{"jsonrpc":"2.0","method":"notifications/initialized"}', expect: [] });
  for (let i = 0; i < 400; i++) msgs.push(message(r));
  // a long valid line (8 MB) is read and answered; a line over the limit is dropped as it arrives
  const longId = requestId(r);
  msgs.push({
    what: 'long valid line',
    text: `{"jsonrpc":"2.0","id":${longId.json},"method":"ping","params":{"_meta":{"pad":"${'a'.repeat(8 * 1024 * 1024)}"}}}`,
    expect: [longId.key],
  });
  const overId = requestId(r);
  msgs.push({
    what: 'line over the limit',
    text: `{"jsonrpc":"2.0","id":${overId.json},"method":"ping","params":{"pad":"${'b'.repeat(LINE_LIMIT)}"}}`,
    expect: ['null'],
    code: -32600,
  });
  for (let i = 0; i < 20; i++) msgs.push(message(r));

  const child = spawn(process.execPath, ['--require', cli.probe, cli.cli, 'mcp'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, XDG_CACHE_HOME: cli.cache },
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const lines: string[] = [];
  let buf = '';
  let sawFinal: () => void = () => {};
  const finalSeen = new Promise<void>((res) => (sawFinal = res));
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    buf += d;
    for (let nl; (nl = buf.indexOf('\n')) >= 0;) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      lines.push(line);
      if (line.includes('"final-ping"')) sawFinal();
    }
  });
  const closed = new Promise<number | null>((res) => child.on('close', (c) => res(c)));
  child.stdin.on('error', () => {});
  const t0 = performance.now();
  for (const m of msgs) {
    const eol = r.weighted([
      [85, '\n'],
      [15, '\r\n'],
    ] as const);
    if (!child.stdin.write(m.text + eol)) await new Promise((res) => child.stdin.once('drain', res));
  }
  child.stdin.write(`{"jsonrpc":"2.0","id":"final-ping","method":"ping"}\n`);
  const timedOut = await Promise.race([finalSeen.then(() => false), new Promise<boolean>((res) => setTimeout(() => res(true), 150_000).unref())]);
  child.stdin.end();
  const code = await Promise.race([closed, new Promise<null>((res) => setTimeout(() => res(null), 20_000).unref())]);
  if (child.exitCode === null) child.kill('SIGKILL');
  const ms = performance.now() - t0;
  const rss = /FUZZ_MAXRSS_KB=(\d+)/.exec(stderr);
  const maxRss = rss ? Number(rss[1]) * 1024 : undefined;
  const requests = msgs.reduce((n, m) => n + m.expect.length, 0);
  console.log(
    `# mcp: ${msgs.length + 1} messages (${requests} expecting a response, ${msgs.filter((m) => m.expect.length === 0).length} expecting none) in ${(ms / 1000).toFixed(1)} s; ${lines.length} response lines; peak RSS ${maxRss === undefined ? '?' : (maxRss / 1024 ** 2).toFixed(0)} MB`,
  );
  const ctx = `FUZZ_SEED=${SEED}`;
  assert.equal(timedOut, false, `no answer to the final ping within 150 s (${ctx}); stderr: ${stderr.slice(-1500)}`);
  assert.ok(msgs.length >= 300);

  // the final ping
  const last = parseLossless(lines[lines.length - 1]) as { id: unknown; result: unknown };
  assert.equal(last.id, 'final-ping', `the last line is not the final ping's answer: ${lines[lines.length - 1].slice(0, 300)}`);
  assert.deepEqual(last.result, {});
  assert.equal(code, 0, `control mcp exited with ${code} after its input ended (${ctx}); stderr: ${stderr.slice(-1500)}`);

  // every response: JSON-RPC 2.0, never an internal error
  const internal = lines.filter((l) => /internal error|-32603/i.test(l));
  assert.deepEqual(
    internal.slice(0, 5).map((l) => l.slice(0, 400)),
    [],
    `${internal.length} responses with an internal error (${ctx})`,
  );

  // responses against the expected ones: as multisets of ids (each request's id is unique)
  const got = new Map<string, number>();
  const gotCodes = new Map<string, number[]>();
  let batches = 0;
  for (const line of lines.slice(0, -1)) {
    const v = parseLossless(line);
    const items = Array.isArray(v) ? v : [v];
    if (Array.isArray(v)) batches++;
    for (const it of items as { jsonrpc?: unknown; id?: unknown; error?: { code: unknown } }[]) {
      assert.equal(it.jsonrpc, '2.0', line.slice(0, 300));
      assert.ok('result' in it !== 'error' in it, `a response has exactly one of result and error: ${line.slice(0, 300)}`);
      const key = idKey(it.id);
      const res = (it as { result?: { content?: unknown; isError?: unknown } }).result;
      if (res && 'content' in res)
        assert.ok(Array.isArray(res.content) && typeof res.isError === 'boolean', `a tools/call result has content and isError: ${line.slice(0, 300)}`);
      got.set(key, (got.get(key) ?? 0) + 1);
      if (it.error) gotCodes.set(key, [...(gotCodes.get(key) ?? []), Number(String(it.error.code).replace(NUM, ''))]);
    }
  }
  const want = new Map<string, number>();
  for (const m of msgs) for (const k of m.expect) want.set(k, (want.get(k) ?? 0) + 1);
  const diff: string[] = [];
  for (const k of new Set([...want.keys(), ...got.keys()])) {
    if ((want.get(k) ?? 0) !== (got.get(k) ?? 0)) {
      const m = msgs.find((x) => x.expect.includes(k));
      diff.push(`${k}: ${want.get(k) ?? 0} expected, ${got.get(k) ?? 0} received${m ? ` (${m.what}: ${m.text.slice(0, 200)})` : ''}`);
    }
  }
  assert.deepEqual(diff.slice(0, 10), [], `${diff.length} ids answered a wrong number of times (${ctx})`);
  assert.equal(batches, msgs.filter((m) => m.batch).length, `batch arrays answered: ${batches}, batches with requests: ${msgs.filter((m) => m.batch).length}`);
  // the specified error codes, for messages with a unique id
  for (const m of msgs)
    if (m.code !== undefined && m.expect.length === 1 && m.expect[0] !== 'null')
      assert.deepEqual(gotCodes.get(m.expect[0]), [m.code], `${m.what}: ${m.text.slice(0, 200)}`);
  const nullCodes = gotCodes.get('null') ?? [];
  for (const c of [-32700, -32600]) {
    const expected = msgs.filter((m) => m.code === c && m.expect[0] === 'null').length;
    assert.equal(
      nullCodes.filter((x) => x === c).length,
      expected + (c === -32600 ? msgs.filter((m) => m.batch).reduce((n, m) => n + m.expect.filter((k) => k === 'null').length, 0) : 0),
      `id-null responses with code ${c}`,
    );
  }
  assert.ok(maxRss !== undefined, 'the server did not report its peak memory');
  assert.ok(maxRss! <= RSS_LIMIT, `peak RSS ${(maxRss! / 1024 ** 2).toFixed(0)} MB above ${RSS_LIMIT / 1024 ** 2} MB`);
});

test('found by the fuzz: tools/call with an argument nested 5,000 arrays deep is refused with a clear reason, not "internal error: Maximum call stack size exceeded"', async () => {
  const line = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"eig","arguments":{"A":${'['.repeat(5000)}${']'.repeat(5000)}}}}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n`;
  const child = spawn(process.execPath, [cli.cli, 'mcp'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, XDG_CACHE_HOME: cli.cache } });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stdin.end(line);
  await new Promise((res) => child.on('close', res));
  const [call, ping] = out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(ping?.id, 2, out.slice(0, 500));
  assert.equal(call.id, 1);
  assert.equal(call.result?.isError, true, out.slice(0, 500));
  assert.doesNotMatch(JSON.stringify(call), /internal error/i);
});
