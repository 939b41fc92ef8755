// The conversation as the participant keeps it (issue 10): the core's state travels in each
// answer's result metadata, the reading is recorded, a question back carries its candidates
// for the follow-up buttons; and the language-model provider renders readings and questions.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { test } from './harness';

type Result = {
  errorDetails?: { message: string };
  metadata?: {
    readings?: string[];
    question?: string;
    followups?: { label: string; prompt: string; command?: string }[];
    conversation?: { turn: number; systems: unknown[]; lastCall?: { tool: string; args: Record<string, unknown> } };
    metrics?: { engine: string; ms: number; toolCalls: number };
    toolCalls?: { tool: string; ok: boolean }[];
    error?: string;
  };
};

async function ask(query: string): Promise<Result> {
  const r = await vscode.commands.executeCommand<Result | undefined>('workbench.action.chat.open', {
    query,
    modelSelector: { vendor: 'control' },
    blockOnResponse: true,
  });
  assert.ok(r, `no result for ${query}`);
  return r;
}

export function registerConversationTests(): void {
  test('conversation: the participant keeps the core conversation in its result metadata; a follow-up reads from it, a new system does not mix in earlier matrices', async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    const t1 = await ask('@control design an lqr for A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1');
    assert.equal(t1.errorDetails, undefined);
    assert.match(t1.metadata?.readings?.[0] ?? '', /^Computed `lqr\(A, B, Q, R = 1\)`/);
    assert.equal(t1.metadata?.conversation?.turn, 1, JSON.stringify(t1.metadata?.conversation));
    assert.equal(t1.metadata?.conversation?.lastCall?.tool, 'lqr');
    console.log(`[suite] deterministic lqr turn in the extension host: ${t1.metadata?.metrics?.ms} ms (${t1.metadata?.metrics?.engine})`);

    const t2 = await ask('@control now with R=10');
    const r2 = t2.metadata?.readings?.[0] ?? '';
    assert.match(r2, /^Computed `lqr\(A, B, Q, R = 10\)`/);
    assert.match(r2, /A, B from turn 1/);
    assert.equal(t2.metadata?.conversation?.turn, 2);
    console.log(`[suite] follow-up turn: ${t2.metadata?.metrics?.ms} ms`);

    // a transfer function of its own: a continuous step of it, nothing from turn 1
    const t3 = await ask('@control step response of num=[1], den=[1 2 1]');
    const r3 = t3.metadata?.readings?.[0] ?? '';
    assert.match(r3, /^Computed `step\(num = \[1\], den = \[1 2 1\]\)`/);
    assert.doesNotMatch(r3, /turn \d|Ts/, r3);
    assert.deepEqual(
      t3.metadata?.toolCalls?.map((c) => c.tool),
      ['tf2ss', 'step', 'stepinfo'],
    );
    console.log(`[suite] /step plan (tf2ss, step, stepinfo) turn: ${t3.metadata?.metrics?.ms} ms`);
    // an error is said once: in the answer, not also as errorDetails
    assert.equal(t3.errorDetails, undefined);
  }, 90_000);

  test('conversation: an ambiguous request is asked back, with its candidates as follow-ups in the metadata', async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    const d = await ask('@control G1 = tf([1],[1 1]) and G2 = tf([1],[1 2])');
    assert.equal(d.metadata?.conversation?.systems.length, 2, JSON.stringify(d.metadata?.conversation));
    const q = await ask('@control its margins');
    assert.match(q.metadata?.question ?? '', /Which system/);
    const labels = (q.metadata?.followups ?? []).map((f) => f.label);
    assert.ok(labels.some((l) => /^G1\b/.test(l)) && labels.some((l) => /^G2\b/.test(l)), `follow-ups: ${JSON.stringify(q.metadata?.followups)}`);
    assert.equal(q.metadata?.metrics?.toolCalls, 0, 'nothing was computed while asking');
    // the conversation survives a turn that computes nothing
    assert.equal(q.metadata?.conversation?.systems.length, 2);
  }, 60_000);

  test('conversation: the language-model provider ("@control solvers") starts its answer with the reading, lists a question\'s candidates, and follows the conversation its messages carry', async () => {
    const [model] = await vscode.lm.selectChatModels({ vendor: 'control', id: 'control-solvers' });
    assert.ok(model, 'no @control solvers model');
    const read = async (text: string) => {
      const r = await model.sendRequest([vscode.LanguageModelChatMessage.User(text)], {});
      let out = '';
      for await (const t of r.text) out += t;
      return out;
    };
    const c2d = await read('/c2d A=[0 1; -2 -3], B=[0;1], C=[1 0], Ts = 50 ms using tustin');
    assert.match(c2d, /^Computed `c2d\(A, B, C, Ts = 0\.05, method = 'tustin'\)`; /, c2d.slice(0, 300));
    const defs = await read('G1 = tf([1],[1 1]) and G2 = tf([1],[1 2])');
    assert.match(defs, /Noted these 2 systems/);
    assert.match(defs, /\n1\. .+: `.+`\n2\. /, `the candidates are not listed:\n${defs}`);
    // the chat sends the whole exchange: a question back, then one of its candidates, reads
    // in the conversation the earlier user messages built
    const history = [
      vscode.LanguageModelChatMessage.User('design an lqr for A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1'),
      vscode.LanguageModelChatMessage.Assistant('Computed `lqr(A, B, Q, R = 1)` …'),
      vscode.LanguageModelChatMessage.User('G1 = tf([1],[1 1]) and G2 = tf([1],[1 2])'),
      vscode.LanguageModelChatMessage.Assistant('Noted these 2 systems …'),
    ];
    const send = async (msgs: vscode.LanguageModelChatMessage[]) => {
      let out = '';
      for await (const t of (await model.sendRequest(msgs, {})).text) out += t;
      return out;
    };
    const which = await send([...history, vscode.LanguageModelChatMessage.User('its margins')]);
    assert.match(which, /^Which system/, which.slice(0, 300));
    const g1 = await send([
      ...history,
      vscode.LanguageModelChatMessage.User('its margins'),
      vscode.LanguageModelChatMessage.Assistant(which),
      vscode.LanguageModelChatMessage.User('margins of G1'),
    ]);
    assert.match(g1, /^Computed `margins\(num = \[1\], den = \[1 1\]\)`; num, den from G1 \(turn 2\)/, g1.slice(0, 300));
    const r10 = await send([...history.slice(0, 2), vscode.LanguageModelChatMessage.User('now with R=10')]);
    assert.match(r10, /^Computed `lqr\(A, B, Q, R = 10\)`; A, B from turn 1/, r10.slice(0, 300));
  }, 30_000);
}
