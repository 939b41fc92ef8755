/**
 * `control`: the terminal front end on the same core as the chat participant.
 *
 *   control solve <tool> '<json args>' [--json] [--math] [--max-n N]
 *   control batch [--in FILE] [--out FILE] [--max-n N]
 *   control ask "<request>" [--json] [--events] [--math] [--index DIR] [--notes-index DIR]
 *   control chat [--session FILE] [--math] [--model M]
 *   control tools [--json]
 *   control prompt [--engine llama|llama3|openai|vscode] [--json]
 *
 * This file is only the dispatcher (dist/cli.js, a few kilobytes): each command loads the one
 * bundle it needs, beside it, so that a command compiles and runs only its own code (issue 12:
 * a solve starts in a fraction of the time the one 3 MB bundle took):
 *   cliSolve.ts  (dist/cliSolve.js)   solve, batch, tools, mcp: the tool table and call path
 *   cliAssist.ts (dist/cliAssist.js)  ask, chat, prompt, index, doctor: reader, engines, retrieval
 */
import { parseFlags, USAGE, UsageError } from './cliFlags.js';

const SOLVE = new Set(['solve', 'batch', 'tools', 'mcp']);
const ASSIST = new Set(['ask', 'chat', 'prompt', 'index', 'doctor']);

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  // require, not import(): import() of a CommonJS bundle first scans all of it for its export
  // names (cjs-module-lexer), ~30 ms for cliAssist.js. Under tsx these are the .ts modules.
  /* eslint-disable @typescript-eslint/no-require-imports */
  if (cmd !== undefined && SOLVE.has(cmd)) return (require('./cliSolve.js') as typeof import('./cliSolve.js')).main(cmd, rest);
  if (cmd !== undefined && ASSIST.has(cmd)) return (require('./cliAssist.js') as typeof import('./cliAssist.js')).main(cmd, rest);
  /* eslint-enable @typescript-eslint/no-require-imports */
  try {
    if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
      console.log(USAGE);
      return cmd ? 0 : 2;
    }
    // an unknown option is said before the unknown command, as the commands do
    parseFlags(rest);
    throw new UsageError(`unknown command "${cmd}"`);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`control: ${e.message}\n\n${USAGE}`);
    return 2;
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
