// The core is the engine for every front end (chat, CLI, MCP): it must never depend on the
// editor. This test enforces the invariant stated in ARCHITECTURE.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

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

test("the retrieval modules (the index store's among them) import each other without a cycle", () => {
  // the store is split by concern behind the IndexStore facade (retrieval/store.ts, store/*.ts):
  // a module that reaches back up (format.ts importing state.ts, a store module importing the
  // facade) would merge two concerns again. Type-only imports count: they are the same coupling.
  const mods = files('src/core/retrieval');
  const imports = new Map(
    mods.map((m) => [
      m,
      [...readFileSync(m, 'utf8').matchAll(/(?:\bfrom|\bimport\(?)\s*['"](\.[^'"]+)['"]/g)]
        .map((x) => normalize(join(dirname(m), x[1].replace(/\.js$/, '.ts'))))
        .filter((d) => mods.includes(d)),
    ]),
  );
  assert.ok(
    imports.get(join('src/core/retrieval/store.ts'))!.some((d) => d.includes(join('store', 'state.ts'))),
    'the facade composes the store modules',
  );
  const cycles: string[] = [];
  const mark = new Map<string, 'open' | 'done'>();
  const visit = (m: string, path: string[]) => {
    mark.set(m, 'open');
    for (const d of imports.get(m)!) {
      if (mark.get(d) === 'open') cycles.push([...path.slice(path.indexOf(d)), d].join(' -> '));
      else if (!mark.has(d)) visit(d, [...path, d]);
    }
    mark.set(m, 'done');
  };
  for (const m of mods) if (!mark.has(m)) visit(m, [m]);
  assert.deepEqual(cycles, []);
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

/** relative imports of a source file (static, re-exports and dynamic), resolved against its folder */
function importsOf(file: string, text = readFileSync(file, 'utf8')): string[] {
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
  return specs.map((s) => join(file, '..', s).replace(/\\/g, '/'));
}

test('the numerical kernel (src/core/linalg) imports nothing from the solvers or the tool layer', () => {
  const outside = (file: string, text?: string) => importsOf(file, text).filter((p) => p.startsWith('src/core/solvers/') || p.startsWith('src/core/tools/'));
  // the check itself sees such an import (linalg/poly.ts once took eigenvalues from solvers/_eig.ts)
  assert.deepEqual(outside('src/core/linalg/poly.ts', "import { eigenvalues } from '../solvers/_eig.js';"), ['src/core/solvers/_eig.js']);
  const linalg = files('src/core/linalg');
  assert.ok(linalg.length >= 5);
  const offenders = linalg.flatMap((f) => outside(f).map((p) => `${f} imports ${p}`));
  assert.deepEqual(offenders, []);
});

/** every module a source file names: static and type-only imports, re-exports, import(), require() */
function anyImportsOf(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]);
}

test('the inspection types (src/core/inspection.ts) import nothing, and no subsystem inspection imports the Doctor', () => {
  // every subsystem imports inspection.ts for DoctorCheck and fixFor, and the Doctor imports every
  // subsystem's inspection: one import in inspection.ts, or one of doctor.ts in an inspection,
  // could close a cycle. Type-only imports count (the same coupling).
  const specimen = "import type { EngineConfig } from './engines/index.js';\nexport { x } from \"node:fs\";\nconst m = await import('./doctor.js');";
  assert.deepEqual(anyImportsOf(specimen), ['./engines/index.js', 'node:fs', './doctor.js']);
  assert.deepEqual(anyImportsOf(readFileSync('src/core/inspection.ts', 'utf8')), []);
  const inspections = ['src/core/tools/selfTest.ts', 'src/core/engines/inspect.ts', 'src/core/retrieval/inspect.ts'];
  for (const f of inspections) {
    const deps = importsOf(f);
    assert.ok(deps.includes('src/core/inspection.js'), `${f} returns the DoctorCheck of inspection.ts`);
    assert.ok(!deps.includes('src/core/doctor.js'), `${f} imports the Doctor`);
  }
});
