// The MCP server on in-memory streams, for the transport tests (test/unit/mcp-transport.test.ts,
// test/slow/mcp-transport.test.ts): no build, no child process.
import { PassThrough } from 'node:stream';
import { serveStdio, type McpServerOptions } from '../../src/core/mcp/server.js';

/** serves the given chunks (written one by one) and returns every output line */
export async function serve(chunks: (string | Buffer)[], opts: McpServerOptions = {}): Promise<string[]> {
  const input = new PassThrough();
  const output = new PassThrough();
  let out = '';
  output.setEncoding('utf8').on('data', (d: string) => (out += d));
  const done = serveStdio(input, output, opts);
  for (const c of chunks) input.write(c);
  input.end();
  await done;
  return out.split('\n').filter(Boolean);
}

export const ping = (id: string) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}`;
