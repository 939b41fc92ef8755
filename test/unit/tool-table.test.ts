/**
 * A meta-test in the style of python-control's kwargs_test.py: it walks the one tool table
 * and fails on any tool with a gap, so a new tool cannot land half-wired. The compiler
 * already refuses a tool object without a facet (tools/types.ts) and a verifier table
 * without its entry (verify/index.ts CHECKS); this checks that each facet also *works*:
 * the tool's own example, read as a user would type it, runs through the verified call path
 * to a verified result that renders, reproduces in both languages (or says why not), offers
 * its plots, and shows in every front end's listing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { TOOLS } from '../../src/core/tools/table.js';
import { hasFacet } from '../../src/core/tools/types.js';
import { CHECKS } from '../../src/core/verify/index.js';
import { Conversation, readTurn, executeReading } from '../../src/core/reader/index.js';
import { callTool } from '../../src/core/tools/runner.js';
import { renderToolResult } from '../../src/core/render/answer.js';
import { reproduce, CODEGEN_TOOLS } from '../../src/core/codegen/index.js';
import { MODEL_TOOLS, engineTools } from '../../src/core/agent/prompt.js';
import { PLOT_KINDS } from '../../src/core/plot/specs.js';
import { plotsFor } from '../../src/core/plot/data.js';
import { lmToolManifest } from '../../src/core/mcp/manifest.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

/** a facet written as { none } must say why, in words */
const reasonOk = (f: unknown) =>
  typeof f === 'object' && f !== null && 'none' in f && typeof (f as { none: unknown }).none === 'string' && (f as { none: string }).none.trim().length >= 10;

test('the table: unique snake_case names, each with a title, a description, a schema and an example', () => {
  assert.ok(TOOLS.length >= 27, `${TOOLS.length} tools`);
  assert.equal(new Set(TOOLS.map((t) => t.name)).size, TOOLS.length);
  for (const t of TOOLS) {
    assert.match(t.name, /^[a-z][a-z0-9_]*$/, t.name);
    assert.ok(t.title.trim().length > 3, `${t.name}: title`);
    assert.ok(t.description.trim().length > 20, `${t.name}: description`);
    assert.equal(t.parameters.type, 'object', `${t.name}: parameters`);
    for (const r of t.parameters.required ?? []) assert.ok(r in t.parameters.properties, `${t.name}: required '${r}' is not a property`);
    assert.ok(t.words.calls.length + t.words.phrases.length > 0, `${t.name}: no vocabulary (call forms or phrases)`);
    assert.ok(t.words.example.trim().length > 0, `${t.name}: no example request`);
    for (const f of t.nonFinite ?? []) assert.equal(typeof f, 'string', `${t.name}: nonFinite`);
  }
});

test('every facet is there or says why not, and every tool has a verifier entry', () => {
  const checks = CHECKS as Record<string, unknown>;
  for (const t of TOOLS) {
    assert.equal(typeof checks[t.name], 'function', `${t.name}: no verifier check in verify/index.ts CHECKS`);
    assert.ok(t.intro === null || (typeof t.intro === 'string' && t.intro.startsWith('**')), `${t.name}: intro is a bold lead sentence or null`);
    assert.equal(typeof t.render, 'function', `${t.name}: render`);
    assert.ok(hasFacet(t.code) ? typeof t.code.gen === 'function' && t.code.title.length > 5 : reasonOk(t.code), `${t.name}: code facet`);
    assert.ok(t.model === 'offered' || reasonOk(t.model), `${t.name}: model facet`);
    assert.ok(hasFacet(t.plots) ? typeof t.plots === 'function' : reasonOk(t.plots), `${t.name}: plots facet`);
  }
  // nothing in the verifier's table that is not a tool (a renamed tool leaves no stale entry)
  for (const k of Object.keys(checks))
    assert.ok(
      TOOLS.some((t) => t.name === k),
      `CHECKS has '${k}', which is not a tool`,
    );
});

test('every front end lists every tool: README, Language Model Tools, the model prefix (when offered), code', () => {
  const lm = new Set(lmToolManifest().map((e) => e.name));
  const declared = new Set((pkg.contributes.languageModelTools as { name: string }[]).map((e) => e.name));
  const offered = new Set(engineTools().map((s) => s.name));
  for (const t of TOOLS) {
    assert.match(readme, new RegExp('`' + t.name + '`'), `${t.name}: not in the README's tool list`);
    assert.ok(lm.has(`control_${t.name}`), `${t.name}: not in the Language Model Tools manifest`);
    assert.ok(declared.has(`control_${t.name}`), `${t.name}: not in package.json (run node --import tsx scripts/gen-manifest.ts)`);
    assert.equal(offered.has(t.name), t.model === 'offered', `${t.name}: model facet and the engine tool list disagree`);
    assert.equal(MODEL_TOOLS.includes(t.name), t.model === 'offered', `${t.name}: MODEL_TOOLS`);
    assert.equal(CODEGEN_TOOLS.includes(t.name), hasFacet(t.code), `${t.name}: CODEGEN_TOOLS`);
  }
});

/** the reading of a tool's own example: the tool itself, or a plan whose main call is the tool */
for (const t of TOOLS) {
  test(`${t.name}: its example "${t.words.example}" reads as ${t.name}, runs verified, renders, reproduces and plots`, async () => {
    const conv = new Conversation();
    const reading = readTurn(conv, t.words.example);
    assert.equal(reading.kind, 'call', `${t.name}: the example reads as ${reading.kind}, not a call`);
    if (reading.kind !== 'call') return;
    assert.equal(reading.tool, t.name, `${t.name}: the example reads as ${reading.tool}`);
    const calls = await executeReading(reading);
    const main = calls.find((c) => c.tool === t.name);
    assert.ok(main, `${t.name}: the example's plan does not call it (${calls.map((c) => c.tool).join(', ')})`);
    assert.equal(main.error, undefined, `${t.name}: ${main.error}`);

    // the verified call path on the same arguments: the verdict, the rendering, the code
    const { result, verification } = await callTool(t.name, main.args);
    assert.ok(verification, `${t.name}: the example has no independent check`);
    assert.equal(verification.ok, true, `${t.name}: ${verification.checks.map((c) => c.detail).join('; ')}`);
    for (const math of [true, false]) {
      const md = renderToolResult(t.name, main.args as Record<string, any>, result, verification, { math });
      assert.match(md, /✔ Verified/, `${t.name}: rendering`);
      assert.doesNotMatch(md, /undefined|\[object Object\]/, `${t.name}: rendering leaks ${md.slice(0, 200)}`);
      assert.ok(md.length > 40, `${t.name}: rendering too short`);
    }
    if (hasFacet(t.code))
      for (const lang of ['matlab', 'python'] as const) {
        const code = reproduce({ tool: t.name, args: main.args as Record<string, any>, result, verification }, lang);
        assert.match(code, /@control result, verified/, `${t.name} ${lang}: the verdict line`);
        assert.ok(code.split('\n').length > 4, `${t.name} ${lang}: code`);
      }
    else assert.throws(() => reproduce({ tool: t.name, args: main.args as Record<string, any> }, 'matlab'), new RegExp(`no code generator for ${t.name}`));
    const plots = plotsFor(t.name, main.args, result);
    if (!hasFacet(t.plots)) assert.deepEqual(plots, [], `${t.name}: plots without a plots facet`);
    for (const p of plots) {
      assert.ok((PLOT_KINDS as readonly string[]).includes(p.kind), `${t.name}: plot kind ${p.kind}`);
      assert.ok(p.title.startsWith('Plot '), `${t.name}: plot title ${p.title}`);
    }
  });
}
