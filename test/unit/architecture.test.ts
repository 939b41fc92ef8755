// The core is the engine for every front end (chat, CLI, MCP): it must never depend on the
// editor. This test enforces the invariant stated in ARCHITECTURE.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

test('src/core never imports vscode', () => {
  const offenders = files('src/core').filter((f) =>
    /from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\)/.test(readFileSync(f, 'utf8')),
  );
  assert.deepEqual(offenders, []);
});

test('src/core does not reach into the editor adapter', () => {
  const offenders = files('src/core').filter((f) => /from\s+['"][./]*\/vscode\//.test(readFileSync(f, 'utf8')));
  assert.deepEqual(offenders, []);
});

test('every tool is declared once with an object schema and a description', async () => {
  const { TOOLS } = await import('../../src/core/tools/table.js');
  const names = TOOLS.map((t) => t.name);
  assert.equal(new Set(names).size, names.length);
  for (const t of TOOLS) {
    assert.equal(t.parameters.type, 'object', t.name);
    assert.ok(t.description.length > 20, `${t.name} needs a description a model can choose by`);
    for (const r of t.parameters.required ?? []) assert.ok(r in t.parameters.properties, `${t.name}: required ${r} is not a property`);
  }
});
