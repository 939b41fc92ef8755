// Deterministic turns end to end (read, plan, solve, verify, render): what a user without a
// language model waits for in the chat. Every single request of the request corpus
// (test/fixtures/requests/requests.jsonl), each in a fresh conversation, after one warm-up
// pass. The goal is < 300 ms for an answer (issue 10); p95 and the slowest are reported.
import { readFileSync } from 'node:fs';
import { collectTurn } from '../src/core/agent/turn.js';
import { Conversation } from '../src/core/reader/index.js';

interface Req {
  id: string;
  text: string;
  command?: string;
  selection?: string;
}

export async function runTurnsBench(): Promise<string> {
  const reqs: Req[] = readFileSync('test/fixtures/requests/requests.jsonl', 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
  const one = async (q: Req) => {
    const t = performance.now();
    const ev = await collectTurn(
      { prompt: q.text, command: q.command, context: q.selection ? { text: q.selection } : undefined, conversation: new Conversation() },
      { math: true },
    );
    return { ms: performance.now() - t, kind: ev.some((e) => e.type === 'tool_result') ? 'computed' : ev.some((e) => e.type === 'ask') ? 'asked' : 'other' };
  };
  for (const q of reqs) await one(q); // warm-up: JIT, validators, mathjs
  const rows: { id: string; ms: number; kind: string }[] = [];
  for (const q of reqs) rows.push({ id: q.id, ...(await one(q)) });
  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
  };
  const line = (label: string, xs: number[]) =>
    `| ${label} | ${xs.length} | ${pct(xs, 50).toFixed(1)} | ${pct(xs, 95).toFixed(1)} | ${Math.max(...xs).toFixed(1)} | ${xs.filter((x) => x >= 300).length} |`;
  const all = rows.map((r) => r.ms);
  const slow = [...rows]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 3)
    .map((r) => `${r.id} ${r.ms.toFixed(0)} ms`)
    .join(', ');
  return [
    '| turns | n | p50 [ms] | p95 [ms] | max [ms] | ≥ 300 ms |',
    '|---|---:|---:|---:|---:|---:|',
    line(
      'computed (reading, solve, verify, render)',
      rows.filter((r) => r.kind === 'computed').map((r) => r.ms),
    ),
    line(
      'asked back',
      rows.filter((r) => r.kind === 'asked').map((r) => r.ms),
    ),
    line('all', all),
    '',
    `slowest: ${slow}`,
  ].join('\n');
}
