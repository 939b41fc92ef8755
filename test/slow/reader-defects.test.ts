// A reading defect of issue 10 through the CLI's `ask --session FILE`, as a user runs it in the
// terminal (src/cli.ts in its own process, under tsx). The same defects through the turn in
// this process: test/unit/reader-defects.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

test('control ask --session FILE: a scripted multi-turn conversation in the terminal', () => {
  const dir = mkdtempSync(join(tmpdir(), 'control-session-'));
  const session = join(dir, 'chat.json');
  const ask = (text: string) =>
    execFileSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'ask', text, '--session', session, '--json'], { encoding: 'utf8' });
  ask('/c2d A=[0 1; -2 -3], B=[0;1], C=[1 0], Ts=0.1');
  const out = JSON.parse(ask('step response of num=[1], den=[1 2 1]')) as { answer: string; calls: { tool: string; args: Record<string, unknown> }[] };
  assert.match(out.answer, /^Computed `step\(num = \[1\], den = \[1 2 1\]\)`/);
  const step = out.calls.find((c) => c.tool === 'step')!;
  assert.equal(step.args.Ts, undefined);
  assert.deepEqual(step.args.A, [
    [-2, -1],
    [1, 0],
  ]);
  const saved = JSON.parse(readFileSync(session, 'utf8')) as { turn: number };
  assert.equal(saved.turn, 2);
});
