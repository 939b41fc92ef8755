// Every tool's JSON Schema is a valid JSON Schema (draft-07, ajv's default meta-schema). The
// call path (tools/call.ts) compiles schemas without checking them against the meta-schema
// (that compile cost ~30 ms of every CLI start), so the check is made here, once per change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import { TOOLS } from '../../src/core/tools/table.js';

test('every tool schema is valid against the JSON Schema meta-schema', () => {
  const ajv = new Ajv({ strict: false });
  assert.ok(TOOLS.length > 20, `the table has ${TOOLS.length} tools`);
  for (const t of TOOLS) {
    const ok = ajv.validateSchema(t.parameters);
    assert.equal(ok, true, `${t.name}: ${ajv.errorsText(ajv.errors)}`);
  }
});

test('the meta-schema check rejects a malformed schema (the check above can fail)', () => {
  const ajv = new Ajv({ strict: false });
  assert.equal(ajv.validateSchema({ type: 'object', properties: { A: { type: 'matrix' } } }), false);
  assert.equal(ajv.validateSchema({ type: 'object', required: 'A' }), false);
  assert.equal(ajv.validateSchema({ type: 'array', items: { minItems: -1 } }), false);
});
