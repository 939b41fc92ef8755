// package.json's `contributes.languageModelTools` is generated from the tool table
// (scripts/gen-manifest.ts): this test fails whenever the two disagree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { withGeneratedTools } from '../../scripts/gen-manifest.js';
import { lmToolManifest, lmToolName, tableToolName } from '../../src/core/mcp/manifest.js';
import { TOOLS } from '../../src/core/tools/table.js';

const text = readFileSync('package.json', 'utf8');
const pkg = JSON.parse(text);

test('package.json languageModelTools is exactly what the tool table generates (run node --import tsx scripts/gen-manifest.ts)', () => {
  assert.deepEqual(pkg.contributes.languageModelTools, lmToolManifest());
  // and regenerating would not change a byte of package.json
  assert.equal(withGeneratedTools(text), text);
});

test('one control_<tool> entry per tool, with the schema, descriptions, reference name and icon', () => {
  const entries = pkg.contributes.languageModelTools as any[];
  assert.deepEqual(
    entries.map((e) => e.name),
    TOOLS.map((t) => `control_${t.name}`),
  );
  for (const e of entries) {
    const t = TOOLS.find((x) => x.name === tableToolName(e.name))!;
    assert.ok(t, e.name);
    assert.deepEqual(e.inputSchema, t.parameters);
    assert.ok(e.modelDescription.startsWith(t.description), e.name);
    assert.ok(e.displayName.startsWith(t.title), e.name);
    assert.equal(e.canBeReferencedInPrompt, true);
    assert.match(e.toolReferenceName, /^[\w-]+$/);
    assert.ok(e.icon);
    assert.ok(e.userDescription.length > 10);
  }
  assert.equal(lmToolName('lqr'), 'control_lqr');
  assert.equal(tableToolName('copilot_x'), undefined);
});

test('the generator only touches its own section', () => {
  const other = JSON.parse(
    withGeneratedTools(JSON.stringify({ name: 'x', contributes: { chatParticipants: [], languageModelChatProviders: [], commands: [] } })),
  );
  assert.deepEqual(Object.keys(other.contributes), ['chatParticipants', 'languageModelChatProviders', 'languageModelTools', 'commands']);
  const stale = { ...pkg, contributes: { ...pkg.contributes, languageModelTools: [{ name: 'control_old' }] } };
  const fixed = JSON.parse(withGeneratedTools(JSON.stringify(stale, null, 2)));
  assert.deepEqual(Object.keys(fixed.contributes), Object.keys(pkg.contributes));
  assert.deepEqual(fixed, pkg);
});

test('settings a workspace could abuse are machine-scoped: limits, the model and where data goes (issue 11)', () => {
  const props = pkg.contributes.configuration.properties as Record<string, { scope?: string }>;
  // only presentation and the choice of the workspace's own files to index may come from a
  // workspace's .vscode/settings.json; everything else (size and agent limits, time budgets,
  // which model sees the text, paths and URLs) is the user's, on this machine
  const workspaceSettable = new Set(['control.math', 'control.codeLens.enabled', 'control.index.include', 'control.index.exclude']);
  const userOnly = new Set(['machine', 'application']);
  for (const [key, p] of Object.entries(props)) {
    assert.ok(key.startsWith('control.'), key);
    assert.ok(p.scope, `${key} has no explicit scope (the default, window, lets a workspace set it)`);
    if (workspaceSettable.has(key)) continue;
    assert.ok(
      userOnly.has(p.scope!),
      `${key} is ${p.scope}-scoped: a workspace could set it; make it machine-scoped (or list it here if it only changes presentation)`,
    );
  }
  for (const key of [
    'control.maxStates',
    'control.agent.maxToolSteps',
    'control.agent.maxCallsPerTool',
    'control.agent.maxOutputTokens',
    'control.model.provider',
    'control.model.path',
    'control.openai.url',
    'control.embedder.path',
    'control.embedder.mirror',
  ])
    assert.equal(props[key]?.scope, 'machine', key);
  // a limit by its name, whatever is added later (a time budget, a size cap)
  for (const [key, p] of Object.entries(props))
    if (/max|limit|timeout|budget|seconds|tokens|steps/i.test(key)) assert.ok(userOnly.has(p.scope!), `${key} is a limit and must be machine-scoped`);
});
