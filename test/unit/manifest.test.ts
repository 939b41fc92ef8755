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
  assert.deepEqual(entries.map((e) => e.name), TOOLS.map((t) => `control_${t.name}`));
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
  const other = JSON.parse(withGeneratedTools(JSON.stringify({ name: 'x', contributes: { chatParticipants: [], languageModelChatProviders: [], commands: [] } })));
  assert.deepEqual(Object.keys(other.contributes), ['chatParticipants', 'languageModelChatProviders', 'languageModelTools', 'commands']);
  const stale = { ...pkg, contributes: { ...pkg.contributes, languageModelTools: [{ name: 'control_old' }] } };
  const fixed = JSON.parse(withGeneratedTools(JSON.stringify(stale, null, 2)));
  assert.deepEqual(Object.keys(fixed.contributes), Object.keys(pkg.contributes));
  assert.deepEqual(fixed, pkg);
});
