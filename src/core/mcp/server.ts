/**
 * The Model Context Protocol server: the tool table served over stdio to Claude Code,
 * Cursor, VS Code and any other MCP client (`control mcp`). Read-only: every tool is a pure
 * computation on its arguments; nothing on disk or the network is touched.
 *
 * Transport (MCP "stdio"): JSON-RPC 2.0 messages, one per line, UTF-8, on stdin/stdout;
 * nothing else is ever written to stdout (diagnostics go to the `log` callback, stderr in the
 * CLI). Methods: `initialize` (protocol version negotiation), `notifications/initialized`,
 * `ping`, `tools/list` (generated from the tool table), `tools/call` (validated, solved,
 * verified), `prompts/list` and `prompts/get` (the design playbooks as the calls to make, mcp/prompts.ts). A refusal (bad arguments, an infeasible problem) is a tool result with
 * `isError: true` and the reason, as the spec asks, so the calling model can correct itself;
 * protocol faults get JSON-RPC errors: -32700 unparseable line, -32600 not a request (an id
 * that is not a string, a number or null; a line longer than `maxLineChars`), -32601 unknown
 * method, -32602 bad params or unknown tool. A bad line never stops the server.
 *
 * Lines are split once per chunk (linear in the input) and a line over the limit is dropped
 * as it arrives, never held. A numeric id a double cannot hold exactly (above 2^53, or with
 * more digits than a double keeps) is answered with the id's own text, byte for byte. Errors
 * quote at most a short prefix of the input (`quoteInput`).
 *
 * Why not `@modelcontextprotocol/sdk`: this module must stay dependency-free for the core
 * (and its bundle small); the SDK brings zod and an HTTP stack (express, cors, ...) for a
 * server whose whole protocol surface here is five methods over newline-delimited JSON.
 * Adding a dependency is also outside what this part of the work may change (package.json's
 * dependencies). The message shapes follow the 2025-11-25 specification (modelcontextprotocol.io).
 */
import { quoteInput } from '../errors.js';
import { TOOLS } from '../tools/table.js';
import type { ToolDef } from '../tools/types.js';
import { invokeTool, type InvokeOptions } from './invoke.js';
import { getPrompt, mcpPrompts } from './prompts.js';

/** newest first; the first one is offered when the client asks for one we do not know */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

export const SERVER_NAME = 'control';

export const JSONRPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
} as const;

/**
 * The longest line read, in characters (UTF-16 units): 64 Mi. The largest valid call is far
 * below it (a 200 x 200 matrix at full precision is about 1 MB; a million time samples about
 * 20 MB); above it a line is dropped as it arrives and answered with -32600.
 */
export const MAX_LINE_CHARS = 64 * 1024 * 1024;

/** a numeric id as the client wrote it, echoed as is (a double would alter it) */
class RawId {
  constructor(readonly text: string) {}
}

type Id = string | number | null | RawId;

interface JsonRpcError {
  jsonrpc: '2.0';
  id: Id;
  error: { code: number; message: string; data?: unknown };
}

interface JsonRpcResult {
  jsonrpc: '2.0';
  id: Id;
  result: unknown;
}

export type JsonRpcResponse = JsonRpcError | JsonRpcResult;

export interface McpServerOptions extends InvokeOptions {
  /** reported as serverInfo.version */
  version?: string;
  /** diagnostics (never stdout) */
  log?: (line: string) => void;
  /** longest line read, in characters; default MAX_LINE_CHARS */
  maxLineChars?: number;
}

export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: ToolDef['parameters'];
  annotations: { title: string; readOnlyHint: true; destructiveHint: false; idempotentHint: true; openWorldHint: false };
}

/** the MCP tool list, generated from the one tool table */
export function mcpTools(): McpTool[] {
  return TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.parameters,
    annotations: { title: t.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  }));
}

const INSTRUCTIONS =
  'Deterministic, verified control-systems solvers (LQR, Riccati, Lyapunov, pole placement, Kalman, ' +
  'frequency and time responses, norms, state-space analysis). Matrices are arrays of rows. Every ' +
  'result carries an independent verification line; quote the numbers as given rather than recomputing them.';

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

const error = (id: Id, code: number, message: string, data?: unknown): JsonRpcError => ({
  jsonrpc: '2.0',
  id,
  error: data === undefined ? { code, message } : { code, message, data },
});

const ok = (id: Id, result: unknown): JsonRpcResult => ({ jsonrpc: '2.0', id, result });

/** a response as its line; a RawId goes in as the client's own text */
function serialize(r: JsonRpcResponse): string {
  if (!(r.id instanceof RawId)) return JSON.stringify(r);
  const { jsonrpc, id, ...rest } = r;
  return `{"jsonrpc":${JSON.stringify(jsonrpc)},"id":${id.text},${JSON.stringify(rest).slice(1)}`;
}

// ------------------------------------------------------------------ raw ids

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

function skipWs(s: string, i: number): number {
  while (i < s.length && WS.has(s.charCodeAt(i))) i++;
  return i;
}

/** the index after the string token that starts at s[i] = '"' */
function skipString(s: string, i: number): number {
  for (let from = i + 1; ;) {
    const q = s.indexOf('"', from);
    if (q < 0) throw new Error('unterminated string');
    let k = q - 1;
    while (s.charCodeAt(k) === 0x5c) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1; // an even number of backslashes: the closing quote
    from = q + 1;
  }
}

/** the index after the JSON value that starts at s[i] (text already known to be valid JSON) */
function skipValue(s: string, i: number): number {
  const c = s[i];
  if (c === '"') return skipString(s, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    while (i < s.length) {
      const d = s[i];
      if (d === '"') {
        i = skipString(s, i);
        continue;
      }
      if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    throw new Error('unterminated container');
  }
  while (i < s.length && !WS.has(s.charCodeAt(i)) && s[i] !== ',' && s[i] !== '}' && s[i] !== ']') i++;
  return i;
}

/** the text of the member "id" of the object at s[i] (the last one, as JSON.parse keeps), and where it ends */
function objectId(s: string, i: number): { end: number; id?: string } {
  let id: string | undefined;
  i = skipWs(s, i + 1);
  if (s[i] === '}') return { end: i + 1 };
  for (;;) {
    const keyEnd = skipString(s, i);
    const key = JSON.parse(s.slice(i, keyEnd)) as string; // decodes escapes: "\u0069d" is "id"
    i = skipWs(s, skipWs(s, keyEnd) + 1); // past the colon
    const end = skipValue(s, i);
    if (key === 'id') id = s.slice(i, end);
    i = skipWs(s, end);
    if (s[i] === '}') return { end: i + 1, id };
    i = skipWs(s, i + 1); // past the comma
  }
}

/**
 * The raw text of the top-level "id" of a message, or of each message of a batch (undefined
 * where an element is not an object or has no id). `text` must already parse as JSON.
 */
export function rawIds(text: string): string | undefined | (string | undefined)[] {
  let i = skipWs(text, 0);
  if (text[i] === '{') return objectId(text, i).id;
  if (text[i] !== '[') return undefined;
  const out: (string | undefined)[] = [];
  i = skipWs(text, i + 1);
  while (text[i] !== ']') {
    if (text[i] === '{') {
      const o = objectId(text, i);
      out.push(o.id);
      i = o.end;
    } else {
      out.push(undefined);
      i = skipValue(text, i);
    }
    i = skipWs(text, i);
    if (text[i] === ',') i = skipWs(text, i + 1);
  }
  return out;
}

/** a number id a double may have altered: only those are read again from the text */
const inexact = (m: unknown): boolean => isObject(m) && typeof m.id === 'number' && !Number.isSafeInteger(m.id);

// ------------------------------------------------------------------ lines

/**
 * Splits a character stream into lines at \n, looking at each chunk once: the unfinished
 * line is kept as a list of pieces and joined only when its newline arrives (appending to one
 * string and searching it again from the start made a 50 MB line take 18.7 s). A line longer
 * than `max` is dropped as it arrives (nothing of it is held) and reported with its length
 * when it ends.
 */
export class LineSplitter {
  private parts: string[] = [];
  private held = 0;
  /** characters of the line being dropped, or -1 when not dropping */
  private dropped = -1;

  constructor(
    private readonly max: number,
    private readonly onLine: (line: string) => void,
    private readonly onTooLong: (chars: number) => void,
  ) {}

  /** characters held for the unfinished line */
  get pending(): number {
    return this.held;
  }

  push(chunk: string): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf('\n', start);
      const end = nl < 0 ? chunk.length : nl;
      this.take(chunk, start, end);
      if (nl < 0) return;
      this.finish();
      start = nl + 1;
    }
  }

  /** the input ended: an unfinished last line is a line too */
  end(): void {
    if (this.held || this.dropped >= 0) this.finish();
  }

  private take(chunk: string, start: number, end: number): void {
    if (end === start) return;
    const n = end - start;
    if (this.dropped >= 0) {
      this.dropped += n;
      return;
    }
    if (this.held + n > this.max) {
      this.dropped = this.held + n;
      this.parts = [];
      this.held = 0;
      return;
    }
    this.parts.push(start === 0 && end === chunk.length ? chunk : chunk.slice(start, end));
    this.held += n;
  }

  private finish(): void {
    if (this.dropped >= 0) {
      const n = this.dropped;
      this.dropped = -1;
      this.onTooLong(n);
      return;
    }
    const line = this.parts.length === 1 ? this.parts[0] : this.parts.join('');
    this.parts = [];
    this.held = 0;
    this.onLine(line);
  }
}

/**
 * The protocol state machine, without any I/O: feed it lines, it returns the lines to send.
 * `server.ts`'s `serveStdio` connects it to streams; tests can drive it directly.
 */
export class McpServer {
  private initialized = false;
  private protocolVersion: string = PROTOCOL_VERSIONS[0];

  /** tools/call requests in flight, by their id's JSON text: notifications/cancelled aborts one */
  private readonly inFlight = new Map<string, AbortController>();

  constructor(private readonly opts: McpServerOptions = {}) {}

  /**
   * notifications/cancelled for a call in flight: its solver thread is ended and, as the
   * specification asks, the request gets no response. Returns whether a call was cancelled.
   * serveStdio reads such a notification as it arrives, not after the call it names.
   */
  cancel(requestId: unknown, reason?: unknown): boolean {
    const key = JSON.stringify(requestId ?? null);
    const ac = this.inFlight.get(key);
    if (!ac) return false;
    this.opts.log?.(`cancelled request ${quoteInput(key)}${typeof reason === 'string' ? `: ${quoteInput(reason)}` : ''}`);
    ac.abort();
    return true;
  }

  /**
   * One incoming line -> the response line, or undefined (a notification, a blank line).
   * Async because a tool call may run off this thread; lines of one stream are handled one
   * after the other (see serveStdio).
   */
  async handleLine(line: string): Promise<string | undefined> {
    const text = line.trim();
    if (!text) return undefined;
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch (e) {
      return serialize(error(null, JSONRPC.PARSE_ERROR, `Parse error: ${quoteInput((e as Error).message)}`));
    }
    // a number id a double cannot hold: read its text from the line, to echo it as written
    let raw: ReturnType<typeof rawIds> = undefined;
    if (Array.isArray(msg) ? msg.some(inexact) : inexact(msg)) {
      try {
        raw = rawIds(text);
      } catch (e) {
        this.opts.log?.(`could not read the id's text: ${(e as Error).message}`);
      }
    }
    if (Array.isArray(msg)) {
      // JSON-RPC batches (MCP 2025-03-26 only; later revisions dropped them): answered in kind
      if (msg.length === 0) return serialize(error(null, JSONRPC.INVALID_REQUEST, 'Invalid Request: empty batch'));
      const out: string[] = [];
      for (let k = 0; k < msg.length; k++) {
        const r = await this.handleMessage(msg[k], Array.isArray(raw) ? raw[k] : undefined);
        if (r !== undefined) out.push(serialize(r));
      }
      return out.length ? `[${out.join(',')}]` : undefined;
    }
    const r = await this.handleMessage(msg, typeof raw === 'string' ? raw : undefined);
    return r === undefined ? undefined : serialize(r);
  }

  /**
   * One parsed message -> its response, or undefined for notifications and responses.
   * `rawId`: the id's text in the line, used when the id is a number a double may have altered.
   */
  async handleMessage(msg: unknown, rawId?: string): Promise<JsonRpcResponse | undefined> {
    if (!isObject(msg)) return error(null, JSONRPC.INVALID_REQUEST, 'Invalid Request: a JSON-RPC message is an object');
    const hasId = 'id' in msg;
    if (hasId && msg.id !== null && typeof msg.id !== 'string' && typeof msg.id !== 'number')
      return error(
        null,
        JSONRPC.INVALID_REQUEST,
        `Invalid Request: "id" must be a string, a number or null, not ${Array.isArray(msg.id) ? 'an array' : typeof msg.id === 'object' ? 'an object' : `a ${typeof msg.id}`}`,
      );
    const id: Id = inexact(msg) && rawId !== undefined ? new RawId(rawId) : ((msg.id ?? null) as Id);
    if (msg.jsonrpc !== '2.0') return error(id, JSONRPC.INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"');
    if (typeof msg.method !== 'string') {
      // a response to a request of ours (we send none) or garbage: responses get no answer
      if (hasId && ('result' in msg || 'error' in msg)) return undefined;
      return error(id, JSONRPC.INVALID_REQUEST, 'Invalid Request: "method" must be a string');
    }
    const params = msg.params;
    if (params !== undefined && !isObject(params) && !Array.isArray(params))
      return hasId ? error(id, JSONRPC.INVALID_PARAMS, 'Invalid params: "params" must be an object') : undefined;
    const p = isObject(params) ? params : {};
    if (!hasId) {
      this.notification(msg.method, p);
      return undefined;
    }
    try {
      return await this.request(id, msg.method, p);
    } catch (e) {
      this.opts.log?.(`internal error in ${quoteInput(msg.method)}: ${(e as Error)?.stack ?? String(e)}`);
      return error(id, JSONRPC.INTERNAL_ERROR, `Internal error: ${quoteInput((e as Error)?.message ?? String(e))}`);
    }
  }

  private notification(method: string, p: Record<string, unknown>): void {
    if (method === 'notifications/initialized') this.initialized = true;
    // a call still running is cancelled (serveStdio also reads this notification as soon as it
    // arrives); one already answered or unknown: nothing to do, as the specification allows
    else if (method === 'notifications/cancelled') this.cancel(p.requestId, p.reason);
  }

  private async request(id: Id, method: string, p: Record<string, unknown>): Promise<JsonRpcResponse | undefined> {
    switch (method) {
      case 'initialize': {
        const asked = typeof p.protocolVersion === 'string' ? p.protocolVersion : undefined;
        this.protocolVersion = asked && (PROTOCOL_VERSIONS as readonly string[]).includes(asked) ? asked : PROTOCOL_VERSIONS[0];
        const client = isObject(p.clientInfo) ? quoteInput(`${String(p.clientInfo.name)} ${String(p.clientInfo.version ?? '')}`.trim()) : 'unknown client';
        this.opts.log?.(`initialize from ${client}, protocol ${asked === undefined ? '(none)' : quoteInput(asked)} -> ${this.protocolVersion}`);
        return ok(id, {
          protocolVersion: this.protocolVersion,
          capabilities: { tools: { listChanged: false }, prompts: { listChanged: false } },
          serverInfo: { name: SERVER_NAME, title: '@control verified control-systems solvers', version: this.opts.version ?? '0.0.0' },
          instructions: INSTRUCTIONS,
        });
      }
      case 'ping':
        return ok(id, {});
      case 'tools/list':
        // one page: the table is small (no nextCursor)
        return ok(id, { tools: mcpTools() });
      case 'tools/call':
        return this.call(id, p);
      // the design playbooks as prompts: their calls, in order, for the client's model to make with our tools
      case 'prompts/list':
        return ok(id, { prompts: mcpPrompts() });
      case 'prompts/get': {
        if (typeof p.name !== 'string') return error(id, JSONRPC.INVALID_PARAMS, 'Invalid params: prompts/get needs "name" (a string)');
        const args = isObject(p.arguments) ? p.arguments : {};
        try {
          return ok(id, getPrompt(p.name, args));
        } catch (e) {
          return error(id, JSONRPC.INVALID_PARAMS, `Invalid params: ${quoteInput((e as Error).message)}`);
        }
      }
      default:
        return error(id, JSONRPC.METHOD_NOT_FOUND, `Method not found: ${quoteInput(method)}`);
    }
  }

  private async call(id: Id, p: Record<string, unknown>): Promise<JsonRpcResponse | undefined> {
    const name = p.name;
    if (typeof name !== 'string') return error(id, JSONRPC.INVALID_PARAMS, 'Invalid params: tools/call needs "name" (a string)');
    if (!TOOLS.some((t) => t.name === name))
      return error(id, JSONRPC.INVALID_PARAMS, `Unknown tool: ${quoteInput(name)}. Tools: ${TOOLS.map((t) => t.name).join(', ')}`);
    const args = p.arguments ?? {};
    // awaited: the call runs on a solver thread; notifications/cancelled for its id ends it
    const key = id instanceof RawId ? id.text : JSON.stringify(id);
    const ac = new AbortController();
    this.inFlight.set(key, ac);
    let r: Awaited<ReturnType<typeof invokeTool>>;
    try {
      r = await invokeTool(name, args, { ...this.opts, signal: ac.signal });
    } finally {
      this.inFlight.delete(key);
    }
    // a cancelled request gets no response (MCP cancellation)
    if (ac.signal.aborted) return undefined;
    if (!r.ok) {
      this.opts.log?.(`tools/call ${name}: refused: ${quoteInput(r.reason)}`);
      return ok(id, { content: [{ type: 'text', text: `${name} refused: ${r.reason}` }], isError: true });
    }
    this.opts.log?.(
      `tools/call ${name}: ${r.structured.verification ? (r.structured.verification.ok ? 'verified' : 'VERIFICATION FAILED') : 'solved (no verifier check)'}`,
    );
    return ok(id, {
      content: [
        { type: 'text', text: r.markdown },
        // the spec asks servers that return structuredContent to also give it as JSON text
        { type: 'text', text: JSON.stringify(r.structured) },
      ],
      structuredContent: r.structured,
      isError: false,
    });
  }

  get isInitialized(): boolean {
    return this.initialized;
  }
}

/** lines read ahead of the one being answered before the input is paused */
const QUEUED_MAX = 64;

/**
 * Serves MCP on a pair of streams (stdin/stdout in `control mcp`) until the input ends.
 * Lines are answered one after the other, in request order; up to QUEUED_MAX lines are read
 * ahead of a running call (then the input is paused, so lines never pile up in memory), and a
 * notifications/cancelled among them ends the call it names at once (no response is sent for
 * a cancelled request).
 */
export function serveStdio(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, opts: McpServerOptions = {}): Promise<void> {
  const server = new McpServer(opts);
  const max = opts.maxLineChars ?? MAX_LINE_CHARS;
  return new Promise((resolve) => {
    let stopped = false;
    let queue: Promise<void> = Promise.resolve();
    let waiting = 0;
    const write = (out: string | undefined) => {
      if (out !== undefined && !stopped) output.write(out + '\n');
    };
    const enqueue = (work: () => Promise<string | undefined>) => {
      // lines wait their turn behind a running call; past QUEUED_MAX the input is paused, so
      // they never pile up in memory (a cancellation is read as it arrives, see below)
      if (++waiting > QUEUED_MAX) input.pause();
      queue = queue
        .then(work)
        .then(write, (e) => opts.log?.(`internal error: ${(e as Error)?.stack ?? String(e)}`))
        .finally(() => {
          if (--waiting <= QUEUED_MAX && !stopped) input.resume();
        });
    };
    const lines = new LineSplitter(
      max,
      (line) => {
        // notifications/cancelled acts at once on the call it names (which is still running,
        // ahead of this line); it is also handled in turn, which does nothing more
        if (line.length < 4096 && line.includes('notifications/cancelled')) {
          try {
            const m = JSON.parse(line) as { method?: unknown; params?: { requestId?: unknown; reason?: unknown }; id?: unknown };
            if (m && m.method === 'notifications/cancelled' && !('id' in m)) server.cancel(m.params?.requestId, m.params?.reason);
          } catch {
            /* not JSON: answered in turn as a parse error */
          }
        }
        enqueue(() => server.handleLine(line.replace(/\r$/, '')));
      },
      (chars) =>
        enqueue(async () => {
          opts.log?.(`dropped a line of ${chars} characters (limit ${max})`);
          return serialize(
            error(
              null,
              JSONRPC.INVALID_REQUEST,
              `Invalid Request: the message is ${chars} characters long, above the limit of ${max} characters; it was not read.`,
            ),
          );
        }),
    );
    const stop = () => {
      if (stopped) return;
      queue.then(() => {
        stopped = true;
        resolve();
      });
    };
    input.setEncoding?.('utf8');
    input.on('data', (chunk: string | Buffer) => lines.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8')));
    input.on('end', () => {
      lines.end();
      stop();
    });
    input.on('error', (e) => {
      opts.log?.(`input error: ${(e as Error).message}`);
      stop();
    });
    // the client went away (EPIPE): stop serving instead of crashing on the next write
    output.on('error', (e) => {
      opts.log?.(`output error: ${(e as Error).message}`);
      input.removeAllListeners('data');
      stopped = true;
      resolve();
    });
  });
}
