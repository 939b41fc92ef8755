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
