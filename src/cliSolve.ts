/**
 * `control solve`, `batch`, `tools` and `mcp`: the commands that need only the tool table and
 * the verified call path. Bundled apart (dist/cliSolve.js) and loaded by the CLI's dispatcher
 * (cli.ts) for these commands, so that they start without compiling the request reader, the
 * engines, retrieval or PDF ingestion (cliAssist.ts), nor mathjs until an argument is a matrix
 * literal in a string (parse/restrictedMath.ts, dist/restrictedMath.js): issue 12.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { ControlError } from './core/errors.js';
import { renderToolResult } from './core/render/answer.js';
import { encodeNonFinite, errorMessage, solveJsonlLines, verdictOf } from './core/tools/batch.js';
import { callTool, VerificationFailed, type RunOptions } from './core/tools/runner.js';
import { TOOLS } from './core/tools/table.js';
import { parseFlags, readStdin, reportError, UsageError, type Flags } from './cliFlags.js';

async function cmdSolve(f: Flags): Promise<number> {
  const [tool, json] = f.positional;
  if (!tool) throw new UsageError('solve needs a tool name, e.g. control solve lqr \'{"A": ...}\'');
  let raw: unknown;
  const text = json ?? readStdin();
  try {
    raw = JSON.parse(text);
  } catch (e) {
    const msg = `the arguments are not valid JSON: ${(e as Error).message}`;
    if (f.json) console.log(JSON.stringify({ error: msg }));
    else console.error(`error: ${msg}`);
    return 1;
  }
  const opts: RunOptions = { maxN: f.maxN, timeoutS: f.timeout };
  try {
    const { tool: def, args, result, verification } = await callTool(tool, raw as Record<string, unknown>, opts);
    if (f.json) {
      // machine output carries the independent verifier's verdict, as the chat shows it
      console.log(JSON.stringify({ result: encodeNonFinite(result), verification: verdictOf(verification) }));
    } else {
      console.log(`# ${def.title}\n\n${renderToolResult(def.name, args, result, verification, { math: f.math })}`);
    }
    return 0;
  } catch (e) {
    const failed = e instanceof VerificationFailed ? { verification: verdictOf(e.verification) } : {};
    if (f.json) console.log(JSON.stringify({ error: errorMessage(e), ...failed }));
    else console.error(`error: ${errorMessage(e)}`);
    return 1;
  }
}

async function cmdBatch(f: Flags): Promise<number> {
  const io = <T>(what: string, file: string, fn: () => T): T => {
    try {
      return fn();
    } catch (e) {
      throw new ControlError(
        `batch: cannot ${what} ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : (e as Error).message}`,
      );
    }
  };
  const text = f.in ? io('read --in', f.in, () => readFileSync(f.in!, 'utf8')) : readStdin();
  // each result is written as soon as it and the lines before it are solved (and flushed): a
  // problem that fails or hangs (stopped at its time budget) never loses the lines before it
  const fd = f.out ? io('write --out', f.out, () => openSync(f.out!, 'w')) : undefined;
  // stdout through its stream, which waits when a pipe is full (writeSync(1) on a full
  // non-blocking pipe failed with EAGAIN and lost lines); a file --out is written directly
  const write = async (line: string) => {
    if (fd !== undefined) writeSync(fd, line);
    else if (!process.stdout.write(line)) await new Promise<void>((r) => process.stdout.once('drain', () => r()));
  };
  let count = 0;
  let errors = 0;
  try {
    for await (const l of solveJsonlLines(text, { maxN: f.maxN, timeoutS: f.timeout })) {
      await write(JSON.stringify(l) + '\n');
      count++;
      if ('error' in l) errors++;
    }
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  console.error(`${count} problems, ${count - errors} solved, ${errors} refused or failed`);
  return 0;
}

function cmdTools(f: Flags): number {
  if (f.json) {
    console.log(JSON.stringify(TOOLS.map((t) => ({ name: t.name, title: t.title, description: t.description, parameters: t.parameters }))));
  } else {
    for (const t of TOOLS) {
      const req = new Set(t.parameters.required ?? []);
      const params = Object.keys(t.parameters.properties).map((p) => (req.has(p) ? p : `${p}?`));
      console.log(`${t.name.padEnd(12)} ${t.title} (${params.join(', ')})`);
    }
  }
  return 0;
}

/** runs one of this bundle's commands (`cmd` is solve, batch, tools or mcp; `rest` its arguments) */
export async function main(cmd: string, rest: string[]): Promise<number> {
  try {
    const f = cmd === 'mcp' ? parseFlags([]) : parseFlags(rest);
    switch (cmd) {
      case 'solve':
        // awaited, so their errors reach the handler below (a returned promise skipped it:
        // 'control solve' with no tool printed a stack trace)
        return await cmdSolve(f);
      case 'batch':
        return await cmdBatch(f);
      case 'tools':
        return await cmdTools(f);
      // subcommands with their own flags live in their own modules
      case 'mcp':
        return (await import('./cliMcp.js')).main(rest);
      default:
        throw new UsageError(`unknown command "${cmd}"`);
    }
  } catch (e) {
    return reportError(e, errorMessage);
  }
}
