/**
 * What the CLI's bundles share (cli.ts, the dispatcher; cliSolve.ts: solve, batch, tools, mcp;
 * cliAssist.ts: ask, chat, prompt, index, doctor): the usage text, the common flags, stdin, and how a
 * command's failure is printed. Each bundle holds its own copy, so an error is caught and
 * printed by the bundle that threw it (with its own ControlError and UsageError classes).
 * Imports nothing of the core: the dispatcher stays a few kilobytes.
 */
import { readFileSync } from 'node:fs';

export const USAGE = `control: verified control-systems solvers (LQR, Riccati, Lyapunov, analysis, ...)

Usage:
  control solve <tool> '<json args>' [--json] [--math] [--max-n N] [--timeout S]
      Solve one problem. Markdown by default; --json prints {"result": {...}, "verification": {...}}
      or {"error": "..."}. A result the independent verifier rejects is an error, never a result.
      Example: control solve lqr '{"A":[[0,1],[-2,-3]],"B":[[0],[1]],"Q":[[1,0],[0,1]],"R":[[1]]}'
  control batch [--in FILE] [--out FILE] [--max-n N] [--timeout S]
      Solve problems in JSONL ({"id","tool","args"} per line; stdin by default), one result
      line per problem, in input order, written as it is solved ({"id","result","verification"}
      or {"id","error"}; stdout by default).
  control ask "<request>" [--plan] [--json] [--events] [--math] [--model M] [--fallback F] [--session FILE] [--index DIR] [--notes-index DIR]
      Answer a request as @control does in the chat: "/lqr A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1".
      --plan shows how the request is read and the calls it would make, with their arguments,
      and runs nothing (as /plan in the chat).
      --json prints {"answer", "calls"}; --events prints the turn's events as JSONL.
      --model: a .gguf file (local model), openai (with --url, --openai-model), or none (default):
      slash commands and well-formed requests never need one.
      --fallback: openai (with --fallback-url, --fallback-model; or CONTROL_FALLBACK_URL,
      CONTROL_FALLBACK_MODEL, CONTROL_FALLBACK_API_KEY), a .gguf file, or none (default). When the
      model fails a turn (it cannot load, its tool calls are unusable twice, it runs out of tokens,
      time or steps) the answer asks once whether to send that turn there, naming it and where it
      runs; nothing is sent unless you answer "send it" (with the same --session FILE, which
      keeps the turn) or "don't send".
      "/search <words>" searches the bundled notes (indexed on first use into
      ~/.cache/control/notes-index, or --notes-index DIR) and, when built, the workspace index
      (./.control-index from \`control index build .\`, or --index DIR), as the chat does.
      --session FILE keeps the conversation (systems defined, the system in use, the last call)
      in FILE between calls, so follow-ups work from scripts: "now with R=10", "its step response".
      --results-dir DIR: where a model's long tool results are kept for it to read back (a
      1,000-sample response: the model reads an excerpt; default ~/.cache/control/results).
  control chat [--session FILE] [--math] [--model M] [--results-dir DIR] [--fallback F]
      An interactive conversation on stdin/stdout, one request per line (usable in tmux and by
      scripts): each answer starts with the call it ran and where each argument came from;
      when I ask back, type the number of a candidate. Ends at end of input or "exit".
  control tools [--json]
      List the tools and their arguments.
  control index build <folder> | search "<query>" | stats | calibrate   (see control index --help)
      A local retrieval index over notes, papers and code; search prints passages with citations.
  control mcp
      Serve the tool table over stdio as a Model Context Protocol server (for Claude Code, Cursor, ...).
  control prompt [--engine llama|llama3|openai|vscode] [--json]
      Print the exact fixed prefix (system prompt + tools offered) a model is sent, as the engine
      renders it: llama (default) = node-llama-cpp's chat format for a Qwen GGUF, llama3 = for a
      Llama 3.1 GGUF, openai = Qwen3's template on a server, vscode = the Language Model API request.
      Its Qwen3 token count goes to stderr; --json prints {"text", "tokens"} (tokens null when
      the Qwen3 tokenizer, a dev dependency, is not installed).
  control doctor [--json]
      Check every capability (solvers, model, embedder, index) and print the fix for each failure.

Options:
  --max-n N   largest matrix dimension accepted (default 200)
  --timeout S seconds one solver call may take before it is stopped (default 60)
  --math      render matrices as LaTeX ($$\\begin{bmatrix}...$$) instead of aligned text
`;

export class UsageError extends Error {}

export interface Flags {
  json: boolean;
  events: boolean;
  /** ask --plan: the calls a request would make, nothing run */
  plan?: boolean;
  math: boolean;
  maxN?: number;
  /** seconds one solver call may take (--timeout) */
  timeout?: number;
  model?: string;
  url?: string;
  openaiModel?: string;
  /** the engine offered, with consent, when the model fails a turn (--fallback, --fallback-url, --fallback-model) */
  fallback?: string;
  fallbackUrl?: string;
  fallbackModel?: string;
  in?: string;
  out?: string;
  index?: string;
  notesIndex?: string;
  embedder?: string;
  session?: string;
  /** ask/chat: the folder of spilled tool results (agent/spill.ts) */
  resultsDir?: string;
  /** prompt --engine: whose rendering of the fixed prefix */
  engine?: string;
  positional: string[];
}

export function parseFlags(argv: string[]): Flags {
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
    else if (a === '--plan') f.plan = true;
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
    else if (a === '--fallback') f.fallback = value();
    else if (a === '--fallback-url') f.fallbackUrl = value();
    else if (a === '--fallback-model') f.fallbackModel = value();
    else if (a === '--in') f.in = value();
    else if (a === '--out') f.out = value();
    else if (a === '--index') f.index = value();
    else if (a === '--notes-index') f.notesIndex = value();
    else if (a === '--embedder') f.embedder = value();
    else if (a === '--session') f.session = value();
    else if (a === '--results-dir') f.resultsDir = value();
    else if (a === '--engine') f.engine = value();
    else if (a.startsWith('--')) throw new UsageError(`unknown option ${a}`);
    else f.positional.push(a);
  }
  return f;
}

export function readStdin(): string {
  try {
    return readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

/**
 * prints a command's failure: a usage error with the usage (exit 2), any other error its
 * message (exit 1) as the bundle's `errorMessage` (core/tools/batch.ts) words it
 */
export function reportError(e: unknown, errorMessage: (e: unknown) => string): number {
  if (e instanceof UsageError) {
    console.error(`control: ${e.message}\n\n${USAGE}`);
    return 2;
  }
  console.error(`control: ${errorMessage(e)}`);
  return 1;
}
