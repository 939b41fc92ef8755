// The settings table (src/vscode/settingsTable.ts) and package.json's contributes.configuration
// declare the same control.* keys with the same type, default, scope and allowed values: a key
// added, renamed or given another default in one place only fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { SECTION, SETTINGS } from '../../src/vscode/settingsTable.js';

interface Contributed {
  type?: string | string[];
  default?: unknown;
  scope?: string;
  enum?: unknown[];
}

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const blocks: { properties?: Record<string, Contributed> }[] = [pkg.contributes.configuration].flat();
const contributed = new Map<string, Contributed>(blocks.flatMap((b) => Object.entries(b.properties ?? {})));
const table = SETTINGS as Record<string, { type: string; default: unknown; scope: string; enum?: readonly unknown[] }>;

test('every key package.json contributes is in the settings table, and nothing else', () => {
  const keys = [...contributed.keys()];
  assert.ok(keys.length >= 16, `package.json contributes ${keys.length} settings`);
  for (const k of keys) assert.ok(k.startsWith(`${SECTION}.`), `${k} is outside the ${SECTION} section`);
  assert.deepEqual(
    Object.keys(table)
      .map((k) => `${SECTION}.${k}`)
      .sort(),
    keys.sort(),
  );
});

test('each setting has the type, default, scope and allowed values package.json declares', () => {
  for (const [key, c] of contributed) {
    const t = table[key.slice(SECTION.length + 1)];
    assert.ok(t, `${key} is not in the settings table`);
    assert.equal(t.type, c.type, `${key}: type`);
    assert.deepEqual(t.default, c.default, `${key}: default`);
    // VS Code's scope when package.json names none is "window"
    assert.equal(t.scope, c.scope ?? 'window', `${key}: scope`);
    assert.deepEqual(t.enum, c.enum, `${key}: allowed values`);
  }
});

test('every default has the declared type and is one of the allowed values', () => {
  const is: Record<string, (v: unknown) => boolean> = {
    boolean: (v) => typeof v === 'boolean',
    integer: (v) => Number.isInteger(v),
    number: (v) => typeof v === 'number' && Number.isFinite(v),
    string: (v) => typeof v === 'string',
    array: (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'),
  };
  for (const [k, t] of Object.entries(table)) {
    assert.ok(is[t.type]?.(t.default), `${k}: default ${JSON.stringify(t.default)} is not a ${t.type}`);
    if (t.enum) assert.ok(t.enum.includes(t.default), `${k}: default ${JSON.stringify(t.default)} is not one of ${JSON.stringify(t.enum)}`);
  }
});
