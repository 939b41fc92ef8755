// The CLI bundled as dist/ holds it: cli.js with its two thread scripts beside it (the solver
// threads every call runs on, and the lexical index's build thread). Tests that spawn the CLI
// build it here, so a new thread script is added in one place.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';

export async function buildCliBundle(cli: string): Promise<void> {
  // @ts-expect-error: a plain .mjs config without types
  const { common } = await import('../../build.config.mjs');
  const opts = { ...common, logLevel: 'silent' };
  await Promise.all([
    build({ ...opts, entryPoints: ['src/cli.ts'], outfile: cli }),
    build({ ...opts, entryPoints: ['src/core/tools/solveWorker.ts'], outfile: join(dirname(cli), 'solveWorker.js') }),
    build({ ...opts, entryPoints: ['src/core/retrieval/lexicalWorker.ts'], outfile: join(dirname(cli), 'lexicalWorker.js') }),
  ]);
}
