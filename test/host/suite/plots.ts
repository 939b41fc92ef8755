// Plot webview tests: control.plot computes with the solvers, opens a webview panel and
// resolves once the webview has drawn the figure (it reports an svg in its DOM).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { test } from './harness';

interface PlotResult {
  kind: string;
  title: string;
  rendered: boolean;
  traces?: number;
  verified: boolean;
  size?: { width: number; height: number; viewport: number };
  viewColumn?: number;
}

function plotTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && /control\.plot/.test(t.input.viewType));
}

export function registerPlotTests(): void {
  test('control.plot opens a Bode plot of 1/(s+1)^3 in a webview that renders it', async () => {
    const r = await vscode.commands.executeCommand<PlotResult | undefined>('control.plot', { kind: 'bode', args: { num: [1], den: [1, 3, 3, 1] } });
    assert.ok(r, 'control.plot returned nothing (refused or cancelled)');
    assert.equal(r.title, 'Bode plot');
    assert.equal(r.rendered, true, 'the webview did not report a drawn svg within 20 s');
    assert.ok((r.traces ?? 0) >= 3, `expected magnitude, phase and crossover traces, got ${r.traces}`);
    assert.equal(r.verified, true, 'a solver result behind the plot failed verification');
    const tabs = plotTabs();
    assert.ok(
      tabs.some((t) => t.label === 'Bode plot'),
      `no "Bode plot" tab; tabs: ${vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .map((t) => t.label)
        .join(', ')}`,
    );
  }, 60_000);

  test('control.plot draws step, impulse, Nyquist, root locus and pole-zero map', async () => {
    const sys = { num: [1], den: [1, 2, 0] };
    const cases: [string, Record<string, unknown>][] = [
      [
        'step',
        {
          A: [
            [0, 1],
            [-2, -3],
          ],
          B: [[0], [1]],
          C: [[1, 0]],
        },
      ],
      ['impulse', { num: [1], den: [1, 1, 1] }],
      ['nyquist', { num: [1], den: [1, 3, 3, 1] }],
      ['rlocus', sys],
      ['pzmap', { num: [1, 3], den: [1, 3, 2, 0] }],
    ];
    for (const [kind, args] of cases) {
      const r = await vscode.commands.executeCommand<PlotResult | undefined>('control.plot', { kind, args });
      assert.ok(r?.rendered, `${kind}: not rendered (${JSON.stringify(r)})`);
      assert.equal(r.verified, true, `${kind}: verification failed`);
    }
    const labels = plotTabs().map((t) => t.label);
    for (const l of ['Step response plot', 'Impulse response plot', 'Nyquist plot', 'Root locus plot', 'Pole-zero map plot'])
      assert.ok(labels.includes(l), `no tab "${l}": ${labels.join(', ')}`);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }, 120_000);

  test('a plot opens where it has room: the whole editor area when none is open, else one group beside (never a third split), filling its panel', async () => {
    const step = { kind: 'step', args: { num: [1], den: [1, 2, 1] } };
    const groups = () => vscode.window.tabGroups.all.length;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.editorLayoutSingle');
    // a wide editor area (no side bars): room for a split. (The UI test in run.mjs has the
    // Explorer and the chat open, where half the editor area is too narrow.)
    for (const c of ['workbench.action.closeSidebar', 'workbench.action.closeAuxiliaryBar', 'workbench.action.closePanel'])
      await vscode.commands.executeCommand(c);
    // nothing open: the (empty) active group, no split leaving an empty half
    let r = await vscode.commands.executeCommand<PlotResult | undefined>('control.plot', step);
    assert.ok(r?.rendered, JSON.stringify(r));
    assert.equal(r.viewColumn, 1, `with no editor open the plot should take the active group: ${JSON.stringify(r)}`);
    assert.equal(groups(), 1, `groups: ${groups()}`);
    // the figure fills its webview (Plotly sized to the panel, not a fixed box)
    assert.ok(r.size && r.size.width >= 0.9 * r.size.viewport && r.size.height >= 300, `plot size ${JSON.stringify(r.size)}`);
    const full = r.size!.viewport;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // an editor open: a second group beside it, as wide as the first; or, when half the
    // editor area would be narrower than 560 px, a tab of the editor's group, the whole width
    const folder = vscode.workspace.workspaceFolders![0];
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'pendulum.m')));
    r = await vscode.commands.executeCommand<PlotResult | undefined>('control.plot', step);
    assert.ok(r?.rendered && r.size, JSON.stringify(r));
    const w = r.size.viewport;
    if (full / 2 >= 600) {
      assert.equal(r.viewColumn, 2, `room for a split (${full} px), but: ${JSON.stringify(r)}`);
      assert.equal(groups(), 2);
      assert.ok(w >= 0.4 * full && w <= 0.6 * full, `beside: webview ${w} px of ${full} px`);
    } else if (full / 2 < 520) {
      assert.equal(r.viewColumn, 1, `half of ${full} px is too narrow, yet: ${JSON.stringify(r)}`);
      assert.equal(groups(), 1, 'the emptied split was not closed');
      assert.ok(w >= 0.9 * full, `in the editor's group: webview ${w} px of ${full} px`);
    }
    assert.ok(w >= 520, `the plot got only ${w} px`);
    console.log(`[suite] plot beside an editor: column ${r.viewColumn}, ${w} of ${full} px`);
    // a second kind of plot joins the plot's group instead of splitting again
    const before = groups();
    const bode = await vscode.commands.executeCommand<PlotResult | undefined>('control.plot', { kind: 'bode', args: { num: [1], den: [1, 3, 3, 1] } });
    assert.ok(bode?.rendered && (bode.size?.viewport ?? 0) >= 520, JSON.stringify(bode));
    assert.equal(groups(), before, `a second plot split the editor area again: ${groups()} groups`);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.editorLayoutSingle');
    await vscode.commands.executeCommand('workbench.view.explorer'); // as the UI tests expect it
  }, 90_000);

  test('control.plot refuses a MIMO Bode with a message, not a blank panel', async () => {
    const r = await vscode.commands.executeCommand<PlotResult | undefined>('control.plot', {
      kind: 'bode',
      args: {
        A: [
          [-1, 0],
          [0, -2],
        ],
        B: [
          [1, 0],
          [0, 1],
        ],
        C: [
          [1, 0],
          [0, 1],
        ],
      },
    });
    assert.equal(r, undefined);
  });

  test('code lens "Plot step" next to "Analyse (A, B, C, D)" in pendulum.m', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const uri = vscode.Uri.joinPath(folder.uri, 'pendulum.m');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    let lenses: vscode.CodeLens[] = [];
    for (let i = 0; i < 20; i++) {
      lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100)) ?? [];
      if (lenses.some((l) => l.command?.title === 'Plot step')) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const plot = lenses.filter((l) => l.command?.title === 'Plot step');
    const analyse = lenses.filter((l) => l.command?.title?.startsWith('Analyse'));
    assert.equal(plot.length, 1, `lenses: ${lenses.map((l) => l.command?.title).join(', ')}`);
    assert.equal(plot[0].range.start.line, analyse[0].range.start.line);
    assert.equal(plot[0].command?.command, 'control.plot');
    // the lens runs: the pendulum has two outputs, both drawn
    const r = await vscode.commands.executeCommand<PlotResult | undefined>(plot[0].command!.command, ...(plot[0].command!.arguments ?? []));
    assert.ok(r?.rendered, `the lens's plot did not render: ${JSON.stringify(r)}`);
    assert.equal(r.traces, 2, 'pendulum.m: two outputs, two traces');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }, 60_000);

  test('package.json contributes control.plot and the context-menu entry', () => {
    const pkg = vscode.extensions.getExtension('control-eng.control')!.packageJSON;
    const cmds = pkg.contributes.commands as { command: string; title: string; category?: string }[];
    const plot = cmds.find((c) => c.command === 'control.plot');
    assert.equal(plot?.title, 'Plot Response…');
    assert.equal(plot?.category, 'Control');
    const ctx = (pkg.contributes.menus['editor/context'] as { command: string }[]).map((x) => x.command);
    assert.ok(ctx.includes('control.plotSelection'), `editor/context: ${ctx}`);
  });
}
