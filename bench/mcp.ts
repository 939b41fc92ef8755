// The MCP stdio transport (issue 11): one 50 MB line arriving in 64 KiB chunks, as a pipe
// delivers it, timed from the first chunk to the answer. Reading used to append each chunk to
// one string and search it again from its start for a newline (quadratic: 18.7 s for this
// line); it now looks at each chunk once. The line is a valid `ping` with a 50 MB parameter,
// so the time is reading, JSON.parse and the answer.
import { PassThrough } from 'node:stream';
import { serveStdio } from '../src/core/mcp/server.js';

const CHUNK = 64 * 1024;

/** seconds from the first chunk of a `size`-character line to its answer */
export async function timeOneLine(size: number): Promise<number> {
  const head = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"';
  const tail = '"}}\n';
  const line = head + 'x'.repeat(size - head.length - tail.length) + tail;
  const input = new PassThrough();
  const output = new PassThrough();
  const answered = new Promise<string>((resolve) => output.setEncoding('utf8').once('data', (d: string) => resolve(d)));
  const done = serveStdio(input, output, {});
  const t = performance.now();
  for (let i = 0; i < line.length; i += CHUNK) input.write(line.slice(i, i + CHUNK));
  const out = await answered;
  const s = (performance.now() - t) / 1000;
  input.end();
  await done;
  if (!out.startsWith('{"jsonrpc":"2.0","id":1,"result":{}}')) throw new Error(`unexpected answer: ${out.slice(0, 200)}`);
  return s;
}

export async function runMcpBench(): Promise<string> {
  const rows = ['| line | chunks of 64 KiB | time to answer [s] |', '|---|---:|---:|'];
  for (const mb of [1, 10, 50]) {
    const size = mb * 1_000_000;
    rows.push(`| ${mb} MB | ${Math.ceil(size / CHUNK)} | ${(await timeOneLine(size)).toFixed(3)} |`);
  }
  return rows.join('\n');
}

if (process.argv[1]?.endsWith('mcp.ts')) void runMcpBench().then((t) => console.log(t));
