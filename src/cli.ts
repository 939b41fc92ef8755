/**
 * `control`: the terminal front end on the same core as the chat participant.
 *
 *   control solve <tool> '<json args>' [--json] [--math] [--max-n N]
 *   control batch [--in FILE] [--out FILE] [--max-n N]
 *   control ask "<request>" [--json] [--events] [--math] [--index DIR] [--notes-index DIR]
 *   control chat [--session FILE] [--math] [--model M]
 *   control tools [--json]
 */
import { closeSync, existsSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Conversation } from './core/reader/index.js';
import { runTurn } from './core/agent/turn.js';
import { eventsToMarkdown, type TurnEvent } from './core/agent/events.js';
import { createEngine, disposeEngines, parseModelFlag } from './core/engines/index.js';
import { renderToolResult } from './core/render/answer.js';
import { encodeNonFinite, errorMessage, solveJsonlLines, verdictOf } from './core/tools/batch.js';
import { callTool, VerificationFailed, type RunOptions } from './core/tools/runner.js';
import { TOOLS } from './core/tools/table.js';

const USAGE = `control: verified control-systems solvers (LQR, Riccati, Lyapunov, analysis, ...)

Usage:
  control solve <tool> '<json args>' [--json] [--math] [--max-n N] [--timeout S]
      Solve one problem. Markdown by default; --json prints {"result": {...}, "verification": {...}}
      or {"error": "..."}. A result the independent verifier rejects is an error, never a result.
      Example: control solve lqr '{"A":[[0,1],[-2,-3]],"B":[[0],[1]],"Q":[[1,0],[0,1]],"R":[[1]]}'
  control batch [--in FILE] [--out FILE] [--max-n N] [--timeout S]
      Solve problems in JSONL ({"id","tool","args"} per line; stdin by default), one result
      line per problem, in input order, written as it is solved ({"id","result","verification"}
      or {"id","error"}; stdout by default).
  control ask "<request>" [--json] [--events] [--math] [--model M] [--index DIR] [--notes-index DIR]
      Answer a request as @control does in the chat: "/lqr A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1".
      --json prints {"answer", "calls"}; --events prints the turn's events as JSONL.
      --model: a .gguf file (local model), openai (with --url, --openai-model), or none (default):
      slash commands and well-formed requests never need one.
      "/search <words>" searches the bundled notes (indexed on first use into
      ~/.cache/control/notes-index, or --notes-index DIR) and, when built, the workspace index
      (./.control-index from \`control index build .\`, or --index DIR), as the chat does.
      --session FILE keeps the conversation (systems defined, the system in use, the last call)
      in FILE between calls, so follow-ups work from scripts: "now with R=10", "its step response".
  control chat [--session FILE] [--math] [--model M]
      An interactive conversation on stdin/stdout, one request per line (usable in tmux and by
      scripts): each answer starts with the call it ran and where each argument came from;
      when I ask back, type the number of a candidate. Ends at end of input or "exit".
  control tools [--json]
      List the tools and their arguments.
  control index build <folder> | search "<query>" | stats | calibrate   (see control index --help)
      A local retrieval index over notes, papers and code; search prints passages with citations.
  control mcp
      Serve the tool table over stdio as a Model Context Protocol server (for Claude Code, Cursor, ...).
  control doctor [--json]
      Check every capability (solvers, model, embedder, index) and print the fix for each failure.

Options:
  --max-n N   largest matrix dimension accepted (default 200)
  --timeout S seconds one solver call may take before it is stopped (default 60)
  --math      render matrices as LaTeX ($$\\begin{bmatrix}...$$) instead of aligned text
`;

class UsageError extends Error {}

interface Flags {
  json: boolean;
  events: boolean;
  math: boolean;
  maxN?: number;
  /** seconds one solver call may take (--timeout) */
  timeout?: number;
  model?: string;
  url?: string;
  openaiModel?: string;
  in?: string;
  out?: string;
  index?: string;
  notesIndex?: string;
  embedder?: string;
  session?: string;
  positional: string[];
}

function parseFlags(argv: string[]): Flags {
  const f: Flags = { json: false, events: false, math: false, positional: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      return v;
    };
    if (a === '--json') f.json = true;
    else if (a === '--events') f.events = true;
    else if (a === '--math') f.math = true;
    else if (a === '--max-n') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1) throw new UsageError('--max-n takes a positive whole number');
      f.maxN = n;
    } else if (a === '--timeout') {
      const t = Number(value());
      if (!Number.isFinite(t) || t <= 0) throw new UsageError('--timeout takes a positive number of seconds');
      f.timeout = t;
    } else if (a === '--model') f.model = value();
    else if (a === '--url') f.url = value();
    else if (a === '--openai-model') f.openaiModel = value();
    else if (a === '--in') f.in = value();
    else if (a === '--out') f.out = value();
    else if (a === '--index') f.index = value();
    else if (a === '--notes-index') f.notesIndex = value();
    else if (a === '--embedder') f.embedder = value();
    else if (a === '--session') f.session = value();
    else if (a.startsWith('--')) throw new UsageError(`unknown option ${a}`);
    else f.positional.push(a);
  }
  return f;
}

function readStdin(): string {
  try {
    return readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

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
  const text = f.in ? readFileSync(f.in, 'utf8') : readStdin();
  // each result is written as soon as it and the lines before it are solved (and flushed): a
  // problem that fails or hangs (stopped at its time budget) never loses the lines before it
  const fd = f.out ? openSync(f.out, 'w') : undefined;
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

async function cmdAsk(f: Flags): Promise<number> {
  let text = f.positional.join(' ').trim();
  if (!text) text = readStdin().trim();
  if (!text) throw new UsageError('ask needs a request, e.g. control ask "/lqr A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1"');
  let command: string | undefined;
  const m = /^\/(\w+)\s*/.exec(text);
  if (m) {
    command = m[1];
    text = text.slice(m[0].length);
  }
  const engine = await createEngine(parseModelFlag(f.model, process.env, { url: f.url, openaiModel: f.openaiModel }));
  const ac = new AbortController();
  process.once('SIGINT', () => ac.abort());
  const events: TurnEvent[] = [];
  const conversation = f.session ? loadSession(f.session) : undefined;
  // the chat's indexes: the bundled notes always, the workspace index when built (opened on first search only)
  const { CliRetriever } = await import('./cliRetrieval.js');
  const retriever = new CliRetriever({ index: f.index, indexExplicit: f.index !== undefined, notesIndex: f.notesIndex, embedder: f.embedder });
  try {
    for await (const e of runTurn({ prompt: text, command, conversation }, { math: f.math, maxN: f.maxN, timeoutS: f.timeout, signal: ac.signal, engine, retriever })) {
      events.push(e);
      // --events streams as the turn goes; the others print the finished answer
      if (f.events) console.log(JSON.stringify(encodeNonFinite(e)));
    }
  } finally {
    await disposeEngines();
    await retriever.close();
  }
  if (f.session && conversation) saveSession(f.session, conversation);
  if (f.events) {
    // already printed
  } else if (f.json) {
    const calls = events.flatMap((e) => {
      if (e.type !== 'tool_result') return [];
      const call = events.find((c) => c.type === 'tool_call' && c.id === e.id) as { args: Record<string, unknown> } | undefined;
      return [{ tool: e.tool, args: call?.args ?? {}, ...(e.error !== undefined ? { error: e.error } : { result: e.result }) }];
    });
    console.log(JSON.stringify(encodeNonFinite({ answer: eventsToMarkdown(events), calls })));
  } else {
    console.log(eventsToMarkdown(events));
  }
  const failed = events.some((e) => e.type === 'error' || (e.type === 'tool_result' && e.error !== undefined));
  return failed ? 1 : 0;
}

/** the conversation kept in a session file; a missing file is a new conversation, a broken one an error */
function loadSession(file: string): Conversation {
  if (!existsSync(file)) return new Conversation();
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`the session file ${file} is not valid JSON (${(e as Error).message}); delete it to start a new conversation`);
  }
  return Conversation.fromJSON(data as Parameters<typeof Conversation.fromJSON>[0]);
}

function saveSession(file: string, conv: Conversation): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(conv.toJSON()));
  renameSync(tmp, file);
}

/** splits "/lqr A=…" into the command and the rest */
function splitCommand(line: string): { command?: string; prompt: string } {
  const m = /^\/(\w+)\s*/.exec(line);
  return m ? { command: m[1], prompt: line.slice(m[0].length) } : { prompt: line };
}

/** `control chat`: one request per input line, one answer per request, the conversation kept */
async function cmdChat(f: Flags): Promise<number> {
  const conversation = f.session ? loadSession(f.session) : new Conversation();
  const engine = await createEngine(parseModelFlag(f.model, process.env, { url: f.url, openaiModel: f.openaiModel }));
  const { CliRetriever } = await import('./cliRetrieval.js');
  const retriever = new CliRetriever({ index: f.index, indexExplicit: f.index !== undefined, notesIndex: f.notesIndex, embedder: f.embedder });
  const interactive = process.stdin.isTTY === true;
  // with a terminal, readline echoes what is typed (it needs the output for that)
  const rl = createInterface({ input: process.stdin, ...(interactive ? { output: process.stdout } : {}), terminal: interactive });
  let candidates: { prompt: string; command?: string }[] = [];
  let failed = false;
  if (interactive) process.stdout.write('@control chat: one request per line ("exit" to leave).\n> ');
  try {
    for await (const raw of rl) {
      const line = raw.trim();
      if (!line) {
        if (interactive) process.stdout.write('> ');
        continue;
      }
      if (/^(exit|quit)$/i.test(line)) break;
      // a number answers the last question with that candidate
      const pick = /^\d+$/.test(line) ? candidates[Number(line) - 1] : undefined;
      const req = pick ? { command: pick.command, prompt: pick.prompt } : splitCommand(line);
      const events: TurnEvent[] = [];
      for await (const e of runTurn({ ...req, conversation }, { math: f.math, maxN: f.maxN, timeoutS: f.timeout, engine, retriever })) events.push(e);
      const ask = [...events].reverse().find((e) => e.type === 'ask') as Extract<TurnEvent, { type: 'ask' }> | undefined;
      candidates = ask?.candidates ?? [];
      if (events.some((e) => e.type === 'error')) failed = true;
      process.stdout.write(`${pick ? `(${pick.command ? '/' + pick.command + ' ' : ''}${pick.prompt})\n` : ''}${eventsToMarkdown(events)}\n\n${interactive ? '> ' : ''}`);
      if (f.session) saveSession(f.session, conversation);
    }
  } finally {
    rl.close();
    await disposeEngines();
    await retriever.close();
  }
  return failed && !interactive ? 1 : 0;
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

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
      console.log(USAGE);
      return cmd ? 0 : 2;
    }
    const f = ['index', 'mcp', 'doctor'].includes(cmd) ? parseFlags([]) : parseFlags(rest);
    switch (cmd) {
      case 'solve':
        return cmdSolve(f);
      case 'batch':
        return cmdBatch(f);
      case 'ask':
        return await cmdAsk(f);
      case 'tools':
        return cmdTools(f);
      case 'chat':
        return await cmdChat(f);
      // subcommands with their own flags live in their own modules
      case 'index':
        return (await import('./cliIndex.js')).main(rest);
      case 'mcp':
        return (await import('./cliMcp.js')).main(rest);
      case 'doctor':
        return (await import('./cliDoctor.js')).main(rest);
      default:
        throw new UsageError(`unknown command "${cmd}"`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`control: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    console.error(`control: ${errorMessage(e)}`);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    console.error(e);
    process.exitCode = 1;
  },
);
