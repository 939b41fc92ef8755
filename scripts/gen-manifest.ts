// Rewrites package.json `contributes.languageModelTools` from the tool table, so Copilot
// agent mode and every chat participant see exactly the tools the solvers define.
//
//   node --import tsx scripts/gen-manifest.ts          rewrite package.json
//   node --import tsx scripts/gen-manifest.ts --check  exit 1 when package.json is out of date
//
// Only that one section changes; the rest of package.json is kept as it is (npm's 2-space
// JSON, key order kept; a new section goes after languageModelChatProviders).
// test/unit/manifest.test.ts fails while package.json and the table disagree.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lmToolManifest } from '../src/core/mcp/manifest.js';

type Json = Record<string, unknown>;

/** package.json text with `contributes.languageModelTools` replaced by the generated entries */
export function withGeneratedTools(pkgText: string): string {
  const pkg = JSON.parse(pkgText) as Json;
  const contributes = (pkg.contributes ?? {}) as Json;
  const tools = lmToolManifest();
  let next: Json;
  if ('languageModelTools' in contributes) next = { ...contributes, languageModelTools: tools };
  else {
    next = {};
    const after = 'languageModelChatProviders' in contributes ? 'languageModelChatProviders' : 'chatParticipants';
    for (const [k, v] of Object.entries(contributes)) {
      next[k] = v;
      if (k === after) next.languageModelTools = tools;
    }
    if (!('languageModelTools' in next)) next.languageModelTools = tools;
  }
  pkg.contributes = next;
  return JSON.stringify(pkg, null, 2) + '\n';
}

function main(): number {
  const file = join(process.cwd(), 'package.json');
  const text = readFileSync(file, 'utf8');
  const out = withGeneratedTools(text);
  if (process.argv.includes('--check')) {
    if (out === text) return 0;
    console.error('package.json contributes.languageModelTools is out of date: run node --import tsx scripts/gen-manifest.ts');
    return 1;
  }
  if (out === text) console.log(`package.json: ${lmToolManifest().length} language model tools, already up to date`);
  else {
    writeFileSync(file, out);
    console.log(`package.json: wrote ${lmToolManifest().length} language model tools`);
  }
  return 0;
}

if (/gen-manifest\.[cm]?[jt]s$/.test(process.argv[1] ?? '')) process.exitCode = main();
