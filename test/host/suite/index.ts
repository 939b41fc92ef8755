// The in-host suite: runs inside the real VS Code extension host (code-server 1.139.1) with
// @control loaded as the development extension and a temp copy of examples/workspace open.
// Everything goes through the public VS Code API, as another extension would see @control.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { serveBridge } from './bridge';
import { runAll, test } from './harness';
import { registerAgentTests } from './agent';
import { registerRetrievalTests } from './retrieval';
import { registerPlotTests } from './plots';
import { registerCodegenTests } from './codegen';
import { registerConversationTests } from './conversation';
import { registerSolveTests } from './solve';

const EXT_ID = 'control-eng.control';
const REQUIRED_COMMANDS = ['control.analyseSelection', 'control.analyseAt', 'control.rebuildIndex', 'control.doctor'];

function workspaceFile(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'no workspace folder open');
  return vscode.Uri.joinPath(folder.uri, name);
}

async function lensesFor(name: string): Promise<{ doc: vscode.TextDocument; lenses: vscode.CodeLens[] }> {
  const uri = workspaceFile(name);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc);
  // Providers may register a moment after activation, and resolve titles lazily: ask to
  // resolve all, and retry briefly while the list is still empty.
  let lenses: vscode.CodeLens[] = [];
  for (let i = 0; i < 20; i++) {
    lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100)) ?? [];
    if (lenses.some((l) => l.command?.title?.startsWith('Analyse'))) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return { doc, lenses: lenses.filter((l) => l.command?.title?.startsWith('Analyse')) };
}

function lineOf(doc: vscode.TextDocument, re: RegExp): number {
  for (let i = 0; i < doc.lineCount; i++) if (re.test(doc.lineAt(i).text)) return i;
  throw new Error(`no line matching ${re} in ${doc.uri.path}`);
}

/** Lines holding plain (non-matrix) assignments, e.g. `M = 0.5;`, `sample_time = 0.05`. */
function scalarAssignmentLines(doc: vscode.TextDocument): number[] {
  const out: number[] = [];
  for (let i = 0; i < doc.lineCount; i++) {
    const t = doc.lineAt(i).text;
    if (/^\s*\w+\s*=\s*(-?[\d.]+|"[^"]*"|\[\s*"|diag\()/.test(t)) out.push(i);
  }
  return out;
}

function describe(lenses: vscode.CodeLens[]): string {
  return JSON.stringify(lenses.map((l) => ({ line: l.range.start.line, title: l.command?.title, command: l.command?.command })));
}

test('a fresh user typing "@control /lqr ..." gets an answer (no model picked by hand)', async () => {
  // Exactly what typing into a new chat and pressing Enter does (same acceptInput path), in a
  // fresh profile where nothing has selected a language model yet, and before anything
  // activated the extension (a user may open the chat before any .m/.py file). First, before any test
  // that passes a modelSelector (that selection is remembered) or calls vscode.lm (which makes
  // VS Code resolve the vendor's models, as nothing in a user's session would).
  // A user needs a few seconds to get to typing: let the extension start on its own first.
  const ext = vscode.extensions.getExtension(EXT_ID);
  for (let i = 0; i < 60 && !ext?.isActive; i++) await new Promise((r) => setTimeout(r, 250));
  assert.ok(ext?.isActive, `${EXT_ID} did not activate by itself within 15 s of startup (no .m/.py file open yet): the chat pane will not find its model`);
  await new Promise((r) => setTimeout(r, 1500));
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  const result = await vscode.commands.executeCommand<{ errorDetails?: { message: string } } | undefined>('workbench.action.chat.open', {
    query: '@control /lqr A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1',
    blockOnResponse: true,
  });
  assert.ok(result, 'workbench.action.chat.open returned no result: the request never completed');
  assert.equal(
    result.errorDetails?.message,
    undefined,
    'the chat pane refused the turn before @control saw it (no language model selected: the model picker lists no model from vendor control in Agent mode)',
  );
}, 60_000);

test('extension control-eng.control is present and activates', async () => {
  const ext = vscode.extensions.getExtension(EXT_ID);
  assert.ok(
    ext,
    `extension ${EXT_ID} not found; loaded: ${vscode.extensions.all
      .map((e) => e.id)
      .filter((id) => !id.startsWith('vscode.'))
      .join(', ')}`,
  );
  await ext.activate();
  assert.equal(ext.isActive, true);
  const api = ext.exports as { activation?: { totalMs: number; activateMs: number } } | undefined;
  assert.ok(api?.activation && api.activation.totalMs > 0, `no activation timing exported: ${JSON.stringify(api)}`);
  console.log(`[suite] activation: ${api.activation.totalMs} ms including bundle load, activate() ${api.activation.activateMs} ms`);
});

test('package.json contributes the chat participant, LM provider, commands and context menu', () => {
  const pkg = vscode.extensions.getExtension(EXT_ID)!.packageJSON;
  const c = pkg.contributes ?? {};
  const participant = (c.chatParticipants ?? []).find((p: { id: string }) => p.id === 'control.chat');
  assert.ok(participant, `no chatParticipants entry with id control.chat: ${JSON.stringify(c.chatParticipants)}`);
  assert.equal(participant.name, 'control');
  const slash = (participant.commands ?? []).map((x: { name: string }) => x.name);
  for (const name of ['lqr', 'analyse']) assert.ok(slash.includes(name), `slash command /${name} missing: ${slash}`);
  const vendors = (c.languageModelChatProviders ?? []).map((p: { vendor: string }) => p.vendor);
  assert.ok(vendors.includes('control'), `languageModelChatProviders lacks vendor control: ${vendors}`);
  const declared = (c.commands ?? []).map((x: { command: string }) => x.command);
  for (const id of ['control.analyseSelection', 'control.rebuildIndex', 'control.doctor']) {
    assert.ok(declared.includes(id), `contributes.commands lacks ${id}`);
  }
  const ctxMenu = (c.menus?.['editor/context'] ?? []).map((x: { command: string }) => x.command);
  assert.ok(ctxMenu.includes('control.analyseSelection'), `editor/context menu lacks control.analyseSelection: ${ctxMenu}`);
});

test('commands are registered', async () => {
  const all = new Set(await vscode.commands.getCommands(true));
  const missing = REQUIRED_COMMANDS.filter((c) => !all.has(c));
  assert.deepEqual(missing, [], `commands not registered: ${missing.join(', ')}`);
});

test('language model from vendor control is available', async () => {
  let models: vscode.LanguageModelChat[] = [];
  for (let i = 0; i < 20 && models.length === 0; i++) {
    models = await vscode.lm.selectChatModels({ vendor: 'control' });
    if (!models.length) await new Promise((r) => setTimeout(r, 250));
  }
  assert.ok(models.length >= 1, 'vscode.lm.selectChatModels({vendor: "control"}) returned no model');
});

test('code lens "Analyse (A, B, C, D)" above A in pendulum.m, none on scalar assignments', async () => {
  const { doc, lenses } = await lensesFor('pendulum.m');
  const aLine = lineOf(doc, /^A = \[/);
  const onA = lenses.filter((l) => l.range.start.line === aLine);
  assert.equal(onA.length, 1, `expected one Analyse lens on line ${aLine + 1}; got ${describe(lenses)}`);
  assert.equal(onA[0].command?.title, 'Analyse (A, B, C, D)');
  assert.equal(onA[0].command?.command, 'control.analyseAt');
  for (const bcd of [/^B = \[/, /^C = \[/, /^D = \[/]) {
    const l = lineOf(doc, bcd);
    assert.ok(!lenses.some((x) => x.range.start.line === l), `lens on ${doc.lineAt(l).text}: the group lens belongs above A only; got ${describe(lenses)}`);
  }
  const scalars = scalarAssignmentLines(doc);
  assert.ok(scalars.length >= 6, `expected the scalar assignments in pendulum.m, found lines ${scalars}`);
  const bad = lenses.filter((l) => scalars.includes(l.range.start.line));
  assert.deepEqual(
    bad.map((l) => doc.lineAt(l.range.start.line).text),
    [],
    'lenses on non-matrix assignments',
  );
});

test('code lens "Analyse (A, B)" above the multi-line numpy A in motor.py, none on scalars', async () => {
  const { doc, lenses } = await lensesFor('motor.py');
  const aLine = lineOf(doc, /^A = np\.array\(\[/);
  const onA = lenses.filter((l) => l.range.start.line === aLine);
  assert.equal(onA.length, 1, `expected one Analyse lens on line ${aLine + 1}; got ${describe(lenses)}`);
  assert.equal(onA[0].command?.title, 'Analyse (A, B)');
  const scalars = scalarAssignmentLines(doc);
  assert.ok(scalars.length >= 6, `expected the scalar assignments in motor.py, found lines ${scalars}`);
  const bad = lenses.filter((l) => scalars.includes(l.range.start.line));
  assert.deepEqual(
    bad.map((l) => doc.lineAt(l.range.start.line).text),
    [],
    'lenses on non-matrix assignments',
  );
});

test('no code lens in a markdown note', async () => {
  const uri = workspaceFile('notes.md');
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100)) ?? [];
  assert.deepEqual(
    lenses.filter((l) => l.command?.title?.startsWith('Analyse')).map((l) => l.command?.title),
    [],
  );
});

test('chat participant @control answers /lqr (through the chat pane, model from vendor control)', async () => {
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  // blockOnResponse makes the command return the participant's ChatResult once it completes.
  const result = await vscode.commands.executeCommand<{ errorDetails?: { message: string } } | undefined>('workbench.action.chat.open', {
    query: '@control /lqr A=[0 1; -2 -3], B=[0;1], Q=eye(2), R=1',
    modelSelector: { vendor: 'control' },
    blockOnResponse: true,
  });
  assert.ok(result, 'workbench.action.chat.open returned no result: the request never completed');
  assert.equal(result.errorDetails, undefined, `participant reported an error: ${JSON.stringify(result.errorDetails)}`);
}, 60_000);

// ---------------------------------------------------------------- language model tools, Doctor

const DOUBLE_INTEGRATOR = {
  A: [
    [0, 1],
    [0, 0],
  ],
  B: [[0], [1]],
  Q: [
    [1, 0],
    [0, 1],
  ],
  R: [[1]],
};

function partsText(r: vscode.LanguageModelToolResult): string[] {
  // parts come back across the extension host boundary: read them by shape
  return r.content.map((p) => (p && typeof (p as { value?: unknown }).value === 'string' ? (p as { value: string }).value : ''));
}

test('vscode.lm.tools lists control_lqr and every tool the package declares, with its schema', async () => {
  const declared = (vscode.extensions.getExtension(EXT_ID)!.packageJSON.contributes.languageModelTools ?? []).map((t: { name: string }) => t.name);
  assert.ok(declared.includes('control_lqr'), `package.json languageModelTools lacks control_lqr: ${declared}`);
  let ours: readonly vscode.LanguageModelToolInformation[] = [];
  for (let i = 0; i < 20; i++) {
    ours = vscode.lm.tools.filter((t) => t.name.startsWith('control_'));
    if (ours.length >= declared.length) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.deepEqual(ours.map((t) => t.name).sort(), [...declared].sort(), 'vscode.lm.tools and package.json disagree');
  const lqr = ours.find((t) => t.name === 'control_lqr')!;
  const schema = lqr.inputSchema as { required?: string[]; properties?: Record<string, unknown> };
  assert.deepEqual(schema.required, ['A', 'B', 'Q', 'R']);
  assert.ok(schema.properties?.N, 'the optional cross weight N is in the schema');
  assert.match(lqr.description, /u = -Kx/);
});

test('vscode.lm.invokeTool("control_lqr") on the double integrator gives K = [1, √3], verified', async () => {
  const r = await vscode.lm.invokeTool('control_lqr', { input: DOUBLE_INTEGRATOR, toolInvocationToken: undefined });
  const texts = partsText(r);
  assert.ok(texts.length >= 2, `expected the Markdown and the JSON parts, got ${JSON.stringify(r.content)}`);
  assert.match(texts[0], /✔ Verified: Riccati residual/);
  assert.match(texts[0], /1\.73205/);
  const json = texts.map((t) => /\{"tool":.*$/s.exec(t)?.[0]).find(Boolean);
  assert.ok(json, `no JSON result part: ${JSON.stringify(texts)}`);
  const s = JSON.parse(json!);
  const K = s.result.K[0];
  assert.ok(Math.abs(K[0] - 1) < 1e-12 && Math.abs(K[1] - Math.sqrt(3)) < 1e-12, `K = ${JSON.stringify(K)}`);
  assert.equal(s.verification.ok, true);
});

test('vscode.lm.invokeTool: a refusal reaches the caller with the reason', async () => {
  let message = '';
  try {
    const r = await vscode.lm.invokeTool('control_lqr', {
      input: {
        ...DOUBLE_INTEGRATOR,
        A: [
          [1, 0],
          [0, -1],
        ],
      },
      toolInvocationToken: undefined,
    });
    message = `no error; result: ${partsText(r).join(' ')}`;
  } catch (e) {
    message = (e as Error).message;
  }
  assert.match(message, /not stabilisable/);
});

test('Control: Doctor runs every check and opens its report read-only in a Markdown preview; a re-run refreshes the same document', async () => {
  type Report = { ok: boolean; checks: { capability: string; status: string; detail: string; fix?: string }[]; uri: string; markdown: string };
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const report = await vscode.commands.executeCommand<Report>('control.doctor');
  assert.ok(report, 'control.doctor returned nothing');
  const by = (name: string) => report.checks.find((c) => c.capability === name);
  for (const name of ['Solvers: LQR', 'Solvers: Lyapunov', 'Solvers: margins', 'Language model tools'])
    assert.equal(by(name)?.status, 'ok', `${name}: ${JSON.stringify(by(name))}`);
  for (const name of [
    'Language model',
    'Local model runtime',
    'Embedder',
    'Retrieval: workspace index',
    'Retrieval: bundled notes',
    'Node.js',
    'Chat math rendering',
    'Workspace trust',
  ])
    assert.ok(by(name), `no ${name} check: ${report.checks.map((c) => c.capability)}`);
  for (const c of report.checks.filter((x) => x.status === 'fail')) assert.ok(c.fix, `${c.capability} fails without a fix`);
  // the bundled notes are searched whether or not the workspace has an index (as the chat does)
  assert.equal(by('Retrieval: bundled notes')?.status, 'ok', JSON.stringify(by('Retrieval: bundled notes')));
  if (by('Retrieval: workspace index')?.status !== 'ok') assert.equal(by('Retrieval: workspace index')?.fix, 'Run Control: Rebuild Index.');
  // a read-only virtual document: never untitled, never dirty, so closing it never asks to save
  const uri = vscode.Uri.parse(report.uri);
  assert.equal(uri.scheme, 'control-doctor');
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === report.uri);
  assert.ok(doc, 'the report document is not open');
  assert.equal(doc.isUntitled, false);
  assert.equal(doc.isDirty, false);
  assert.match(doc.getText(), /^# @control Doctor/);
  assert.doesNotMatch(doc.getText(), /^\|/m, 'the report is laid out as a table again (its Fix column was cut off)');
  assert.ok(
    !vscode.workspace.textDocuments.some((d) => d.isUntitled),
    `an untitled document is open: ${vscode.workspace.textDocuments.filter((d) => d.isUntitled).map((d) => d.uri.toString())}`,
  );
  const previews = () =>
    vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && /markdown\.preview/.test(t.input.viewType));
  for (let i = 0; i < 40 && !previews().length; i++) await new Promise((r) => setTimeout(r, 250));
  assert.equal(
    previews().length,
    1,
    `Markdown preview tabs: ${vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .map((t) => t.label)
      .join(', ')}`,
  );
  // run again (a second later, so its time stamp differs): the same document, new text, still one preview
  await new Promise((r) => setTimeout(r, 1100));
  const again = await vscode.commands.executeCommand<Report>('control.doctor');
  assert.equal(again.uri, report.uri);
  assert.notEqual(again.markdown, report.markdown);
  assert.equal(doc.getText(), again.markdown, 'the open report did not refresh');
  assert.equal(doc.isDirty, false);
  assert.equal(vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'control-doctor').length, 1);
  assert.equal(
    previews().length,
    1,
    `after a re-run: ${vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .map((t) => t.label)
      .join(', ')}`,
  );
  // with an editor in front of it, a re-run brings the one preview forward (no second one)
  const folder = vscode.workspace.workspaceFolders![0];
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'notes.md')), {
    viewColumn: vscode.ViewColumn.Active,
  });
  await vscode.commands.executeCommand('control.doctor');
  for (let i = 0; i < 20 && !previews().some((t) => t.isActive); i++) await new Promise((r) => setTimeout(r, 250));
  assert.equal(
    previews().length,
    1,
    `after a re-run behind an editor: ${vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .map((t) => t.label)
      .join(', ')}`,
  );
  assert.ok(previews()[0].isActive, 'the report is not in front after a re-run');
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}, 90_000);

registerConversationTests();
registerSolveTests();
registerRetrievalTests();
registerAgentTests();
registerPlotTests();
registerCodegenTests();

export async function run(): Promise<void> {
  const results = await runAll();
  const bridge = process.env.CONTROL_HOST_BRIDGE;
  if (bridge) await serveBridge(bridge, 240_000);
  const failed = results.filter((r) => !r.ok).length;
  if (failed) throw new Error(`${failed} in-host test(s) failed`);
}
