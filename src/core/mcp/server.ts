/**
 * The Model Context Protocol server: the tool table served over stdio to Claude Code,
 * Cursor, VS Code and any other MCP client (`control mcp`). Read-only: every tool is a pure
 * computation on its arguments; nothing on disk or the network is touched.
 *
 * Transport (MCP "stdio"): JSON-RPC 2.0 messages, one per line, UTF-8, on stdin/stdout;
 * nothing else is ever written to stdout (diagnostics go to the `log` callback, stderr in the
 * CLI). Methods: `initialize` (protocol version negotiation), `notifications/initialized`,
 * `ping`, `tools/list` (generated from the tool table), `tools/call` (validated, solved,
 * verified). A refusal (bad arguments, an infeasible problem) is a tool result with
 * `isError: true` and the reason, as the spec asks, so the calling model can correct itself;
 * protocol faults get JSON-RPC errors: -32700 unparseable line, -32600 not a request,
 * -32601 unknown method, -32602 bad params or unknown tool. A bad line never stops the server.
 *
 * Why not `@modelcontextprotocol/sdk`: this module must stay dependency-free for the core
 * (and its bundle small); the SDK brings zod and an HTTP stack (express, cors, ...) for a
 * server whose whole protocol surface here is five methods over newline-delimited JSON.
 * Adding a dependency is also outside what this part of the work may change (package.json's
 * dependencies). The message shapes follow the 2025-11-25 specification (modelcontextprotocol.io).
 */
import { TOOLS } from '../tools/table.js';
import type { ToolDef } from '../tools/types.js';
import { invokeTool, type InvokeOptions } from './invoke.js';

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

type Id = string | number | null;

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

/**
 * The protocol state machine, without any I/O: feed it lines, it returns the lines to send.
 * `server.ts`'s `serveStdio` connects it to streams; tests can drive it directly.
 */
export class McpServer {
  private initialized = false;
  private protocolVersion: string = PROTOCOL_VERSIONS[0];

  constructor(private readonly opts: McpServerOptions = {}) {}

  /** one incoming line -> the response line, or undefined (a notification, a blank line) */
  handleLine(line: string): string | undefined {
    const text = line.trim();
    if (!text) return undefined;
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch (e) {
      return JSON.stringify(error(null, JSONRPC.PARSE_ERROR, `Parse error: ${(e as Error).message}`));
    }
    if (Array.isArray(msg)) {
      // JSON-RPC batches (MCP 2025-03-26 only; later revisions dropped them): answered in kind
      if (msg.length === 0) return JSON.stringify(error(null, JSONRPC.INVALID_REQUEST, 'Invalid Request: empty batch'));
      const out = msg.map((m) => this.handleMessage(m)).filter((r): r is JsonRpcResponse => r !== undefined);
      return out.length ? JSON.stringify(out) : undefined;
    }
    const r = this.handleMessage(msg);
    return r === undefined ? undefined : JSON.stringify(r);
  }

  /** one parsed message -> its response, or undefined for notifications and responses */
  handleMessage(msg: unknown): JsonRpcResponse | undefined {
    if (!isObject(msg)) return error(null, JSONRPC.INVALID_REQUEST, 'Invalid Request: a JSON-RPC message is an object');
    const hasId = 'id' in msg;
    const id = (typeof msg.id === 'string' || typeof msg.id === 'number' ? msg.id : null) as Id;
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
      this.notification(msg.method);
      return undefined;
    }
    try {
      return this.request(id, msg.method, p);
    } catch (e) {
      this.opts.log?.(`internal error in ${msg.method}: ${(e as Error)?.stack ?? String(e)}`);
      return error(id, JSONRPC.INTERNAL_ERROR, `Internal error: ${(e as Error)?.message ?? String(e)}`);
    }
  }

  private notification(method: string): void {
    if (method === 'notifications/initialized') this.initialized = true;
    // notifications/cancelled: every call is synchronous and already answered; others: ignored
  }

  private request(id: Id, method: string, p: Record<string, unknown>): JsonRpcResponse {
    switch (method) {
      case 'initialize': {
        const asked = typeof p.protocolVersion === 'string' ? p.protocolVersion : undefined;
        this.protocolVersion = asked && (PROTOCOL_VERSIONS as readonly string[]).includes(asked) ? asked : PROTOCOL_VERSIONS[0];
        const client = isObject(p.clientInfo) ? `${String(p.clientInfo.name)} ${String(p.clientInfo.version ?? '')}`.trim() : 'unknown client';
        this.opts.log?.(`initialize from ${client}, protocol ${asked ?? '(none)'} -> ${this.protocolVersion}`);
        return ok(id, {
          protocolVersion: this.protocolVersion,
          capabilities: { tools: { listChanged: false } },
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
      default:
        return error(id, JSONRPC.METHOD_NOT_FOUND, `Method not found: ${method}`);
    }
  }

  private call(id: Id, p: Record<string, unknown>): JsonRpcResponse {
    const name = p.name;
    if (typeof name !== 'string') return error(id, JSONRPC.INVALID_PARAMS, 'Invalid params: tools/call needs "name" (a string)');
    if (!TOOLS.some((t) => t.name === name))
      return error(id, JSONRPC.INVALID_PARAMS, `Unknown tool: ${name}. Tools: ${TOOLS.map((t) => t.name).join(', ')}`);
    const args = p.arguments ?? {};
    const r = invokeTool(name, args, this.opts);
    if (!r.ok) {
      this.opts.log?.(`tools/call ${name}: refused: ${r.reason}`);
      return ok(id, { content: [{ type: 'text', text: `${name} refused: ${r.reason}` }], isError: true });
    }
    this.opts.log?.(`tools/call ${name}: ${r.structured.verification ? (r.structured.verification.ok ? 'verified' : 'VERIFICATION FAILED') : 'solved (no verifier check)'}`);
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

/**
 * Serves MCP on a pair of streams (stdin/stdout in `control mcp`) until the input ends.
 * Responses are written in request order; a line is answered before the next one is read.
 */
export function serveStdio(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  opts: McpServerOptions = {},
): Promise<void> {
  const server = new McpServer(opts);
  return new Promise((resolve) => {
    let buf = '';
    const flushLine = (line: string) => {
      const out = server.handleLine(line.replace(/\r$/, ''));
      if (out !== undefined) output.write(out + '\n');
    };
    input.setEncoding?.('utf8');
    input.on('data', (chunk: string | Buffer) => {
      buf += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        flushLine(line);
      }
    });
    input.on('end', () => {
      if (buf.trim()) flushLine(buf);
      buf = '';
      resolve();
    });
    input.on('error', (e) => {
      opts.log?.(`input error: ${(e as Error).message}`);
      resolve();
    });
    // the client went away (EPIPE): stop serving instead of crashing on the next write
    output.on('error', (e) => {
      opts.log?.(`output error: ${(e as Error).message}`);
      input.removeAllListeners('data');
      resolve();
    });
  });
}
