/**
 * `control mcp [--max-n N]`: the tool table as a Model Context Protocol server on stdio, for
 * Claude Code, Cursor and other MCP clients. stdout carries only protocol messages; a line on
 * stderr says what the server is doing. Ends when stdin ends.
 *
 * Client configuration (Claude Code): claude mcp add control -- control mcp
 */
import { version } from '../package.json';
import { serveStdio } from './core/mcp/server.js';

const USAGE = `control mcp [--max-n N] [--quiet]
  Serves the solvers over the Model Context Protocol on stdin/stdout (JSON-RPC, one message
  per line): initialize, tools/list, tools/call, ping. Read-only.
  --max-n N   largest matrix dimension accepted (default 200)
  --quiet     no log lines on stderr`;

export async function main(argv: string[]): Promise<number> {
  let maxN: number | undefined;
  let quiet = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--max-n') {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 1) {
        console.error(`control mcp: --max-n takes a positive whole number\n\n${USAGE}`);
        return 2;
      }
      maxN = n;
    } else if (a === '--quiet') quiet = true;
    else if (a === '--help' || a === '-h') {
      console.error(USAGE);
      return 0;
    } else {
      console.error(`control mcp: unknown option ${a}\n\n${USAGE}`);
      return 2;
    }
  }
  const log = quiet ? undefined : (line: string) => process.stderr.write(`control mcp: ${line}\n`);
  log?.(`serving ${version} on stdio (Model Context Protocol); end with Ctrl-D`);
  await serveStdio(process.stdin, process.stdout, { maxN, version, log });
  return 0;
}
