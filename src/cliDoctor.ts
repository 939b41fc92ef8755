/**
 * `control doctor [--json] [--model M] [--url URL] [--openai-model NAME] [--embedder DIR] [--index DIR] [--notes-index DIR]`:
 * checks every capability and prints, for each failure, the exact fix. Exit code 1 when a
 * check fails, 0 otherwise (notes • do not fail), 2 on a usage error.
 */
import { resolve } from 'node:path';
import { parseModelFlag, type EngineConfig } from './core/engines/index.js';
import { doctorPassed, formatDoctorTable, runDoctor } from './core/doctor.js';
import { errorMessage } from './core/tools/batch.js';
import { defaultNotesIndexDir } from './core/retrieval/sources.js';
import { bundledNotes } from './cliRetrieval.js';

const USAGE = `control doctor [--json] [--model M] [--url URL] [--openai-model NAME] [--embedder DIR] [--index DIR] [--notes-index DIR]
  Checks the solvers (closed-form self-tests), the model (--model: a .gguf file, openai, or
  none; default $CONTROL_MODEL or none), node-llama-cpp's native binary, an embedder folder,
  the bundled notes and their index (default ~/.cache/control/notes-index), the workspace
  index (default ./.control-index) and Node.js: what "control ask /search" searches. Prints ✔/✘/• per
  capability with the fix for each failure; --json prints {"ok", "checks"}. Exit 1 if a check fails.`;

export async function main(argv: string[]): Promise<number> {
  let json = false;
  let model: string | undefined;
  let url: string | undefined;
  let openaiModel: string | undefined;
  let embedder: string | undefined;
  let index: string | undefined;
  let notesIndex: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string | undefined => {
      const v = argv[++i];
      return v === undefined || v.startsWith('--') ? undefined : v;
    };
    let v: string | undefined = '';
    if (a === '--json') json = true;
    else if (a === '--model') v = model = value();
    else if (a === '--url') v = url = value();
    else if (a === '--openai-model') v = openaiModel = value();
    else if (a === '--embedder') v = embedder = value();
    else if (a === '--index') v = index = value();
    else if (a === '--notes-index') v = notesIndex = value();
    else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      return 0;
    } else {
      console.error(`control doctor: unknown option ${a}\n\n${USAGE}`);
      return 2;
    }
    if (v === undefined) {
      console.error(`control doctor: ${a} needs a value\n\n${USAGE}`);
      return 2;
    }
  }
  let cfg: EngineConfig;
  try {
    cfg = parseModelFlag(model, process.env, { url, openaiModel });
  } catch (e) {
    console.error(`control doctor: ${errorMessage(e)}\n\n${USAGE}`);
    return 2;
  }
  const checks = await runDoctor({
    surface: 'cli',
    model: cfg,
    embedder,
    index: resolve(index ?? '.control-index'),
    notes: { root: bundledNotes(), index: resolve(notesIndex ?? defaultNotesIndexDir()) },
  });
  const ok = doctorPassed(checks);
  if (json) console.log(JSON.stringify({ ok, checks }));
  else console.log(formatDoctorTable(checks));
  return ok ? 0 : 1;
}
