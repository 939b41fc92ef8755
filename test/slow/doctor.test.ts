// `control doctor` through the bundled CLI, as a user runs it: a table, exit 1 exactly when a
// check fails, --json. The checks themselves: test/unit/doctor.test.ts.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildCliBundle } from '../unit/_cliBundle.js';

const tmp = mkdtempSync(join(tmpdir(), 'control-doctor-'));
// laid out as installed: dist/cli.js with the bundled notes (corpus/) beside dist/
const cli = join(tmp, 'pkg', 'dist', 'cli.js');
const cache = join(tmp, 'cache');
before(async () => {
  await buildCliBundle(cli);
  writeFileSync(join(tmp, 'pkg', 'package.json'), '{}\n');
  symlinkSync(resolve('corpus'), join(tmp, 'pkg', 'corpus'), 'dir');
});

function control(args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: cache };
  delete env.CONTROL_MODEL; // the model comes from --model only
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: tmp, env });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('control doctor: a table, exit 0 when nothing fails; exit 1 and --json when something does', () => {
  const ok = control(['doctor', '--model', 'none']);
  assert.equal(ok.code, 0, ok.out + ok.err);
  assert.match(ok.out, /✔ Solvers: LQR .*K = \[1, √3\]/);
  assert.match(ok.out, /• Language model .*slash commands .* still work/);
  assert.match(ok.out, /All checks passed/);
  const bad = control(['doctor', '--json', '--model', join(tmp, 'nope.gguf'), '--embedder', join(tmp, 'missing')]);
  assert.equal(bad.code, 1, bad.err);
  const j = JSON.parse(bad.out);
  assert.equal(j.ok, false);
  const model = j.checks.find((c: { capability: string }) => c.capability === 'Language model');
  assert.equal(model.status, 'fail');
  assert.match(model.fix, /--model/);
  assert.match(ok.out, /✔ Retrieval: bundled notes +\d+ notes in .*always searched/);
  assert.match(ok.out, /• Retrieval: workspace index +no index yet .*\/search covers the bundled notes only/);
  const usage = control(['doctor', '--frobnicate']);
  assert.equal(usage.code, 2);
  assert.equal(control(['doctor', '--index']).code, 2);
});
