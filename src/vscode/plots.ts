/**
 * The plot webview: Bode, step, impulse, Nyquist, root locus and pole-zero map. The numbers
 * come from the solvers (plotData.ts runs them in the extension host and posts the result);
 * the webview (media/plots/) only draws them with Plotly, under a strict content security
 * policy (scripts by nonce only, nothing remote), in the theme's colours. Export SVG/PNG saves
 * through the extension host (showSaveDialog), to a file the write guard allows (writeGuard.ts:
 * inside the workspace on its real path, never a secret or a file that configures what runs).
 *
 * Entry points: the command `control.plot` ({kind, args} or quick picks), the editor context
 * menu (`control.plotSelection`), a "Plot step" code lens and buttons under chat answers.
 */
import * as vscode from 'vscode';
import { findAssignments, type Assignment } from '../core/parse/index.js';
import { writeRefusal } from './writeGuard.js';
import { setting } from './settings.js';
import { SYSTEM_PLOT_KINDS } from '../core/plot/specs.js';
import { buildPlot, KIND_LABEL, plotsFor, type PlotKind, type PlotPayload, type PlotRequest } from '../core/plot/data.js';

export interface PlotResult {
  kind: PlotKind;
  title: string;
  /** the webview drew the figure (an svg exists in it) */
  rendered: boolean;
  traces?: number;
  verified: boolean;
  /** the plot's size in the webview (CSS px) and the webview's own width when it was drawn */
  size?: { width: number; height: number; viewport: number };
  /** the editor column the plot opened in */
  viewColumn?: number;
}

interface Panel {
  panel: vscode.WebviewPanel;
  ready: Promise<void>;
  /** resolves with the next 'rendered' message */
  waiters: ((m: Rendered) => void)[];
  /** opened in a new split beside this column: moved back into it if the split is too narrow */
  splitFrom?: vscode.ViewColumn;
}

interface Rendered {
  svg: boolean;
  traces: number;
  width: number;
  height: number;
  viewport: number;
}

const panels = new Map<PlotKind, Panel>();
let extUri: vscode.Uri;
let log: vscode.LogOutputChannel;

export function registerPlots(context: vscode.ExtensionContext, logChannel: vscode.LogOutputChannel): void {
  extUri = context.extensionUri;
  log = logChannel;
  context.subscriptions.push(
    vscode.commands.registerCommand('control.plot', (req?: Partial<PlotRequest>) => plotCommand(req)),
    vscode.commands.registerCommand('control.plotSelection', () => plotCommand({})),
    { dispose: () => panels.forEach((p) => p.panel.dispose()) },
  );
}

function nonce(): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let s = '';
  for (let i = 0; i < 32; i++) s += chars.charAt(Math.floor(Math.random() * chars.length));
  return s;
}

function html(webview: vscode.Webview): string {
  const media = vscode.Uri.joinPath(extUri, 'media', 'plots');
  const src = (f: string) => webview.asWebviewUri(vscode.Uri.joinPath(media, f)).toString();
  const n = nonce();
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource} data: blob:`,
    `style-src ${webview.cspSource} 'nonce-${n}'`,
    `font-src ${webview.cspSource}`,
    `script-src 'nonce-${n}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${src('plots.css')}">
<style id="plotly.js-style-global" nonce="${n}"></style>
<title>Plot</title>
</head>
<body>
<header>
  <div class="text"><div id="title"></div><div id="subtitle"></div><div id="summary"></div></div>
  <div class="actions"><button id="export-svg" title="Save the plot as an SVG file">Export SVG</button><button id="export-png" title="Save the plot as a PNG image">Export PNG</button></div>
</header>
<div id="plot"></div>
<footer><div id="notes"></div><div id="verify"></div></footer>
<script nonce="${n}" src="${src('vendor/plotly-basic.min.js')}"></script>
<script nonce="${n}" src="${src('plots.js')}"></script>
</body>
</html>`;
}

/**
 * Where a new plot opens. A plot needs width (a Bode plot's two axes, a legend, the margin
 * labels), so never a sliver: with no editor open, the active (empty) group, the whole editor
 * area; with one group holding an editor, a new group beside it that gets half the editor
 * area; with several groups, an existing group other than the active one (never a third or
 * fourth split). A split narrower than MIN_PLOT_WIDTH (the side bar and the chat pane take
 * much of the window) is not kept: the plot moves into the active group as a tab of its own,
 * the whole editor area wide (showPlot). The webview resizes the figure with its panel
 * (media/plots/plots.js).
 */
/** CSS px below which a plot's axes, legend and margin labels crowd each other */
export const MIN_PLOT_WIDTH = 560;

function placement(): { column: vscode.ViewColumn; split: boolean; from: vscode.ViewColumn } {
  const groups = vscode.window.tabGroups.all;
  const active = vscode.window.tabGroups.activeTabGroup;
  const from = active.viewColumn;
  if (active.tabs.length === 0) return { column: active.viewColumn, split: false, from };
  if (groups.length === 1) return { column: vscode.ViewColumn.Beside, split: true, from };
  const others = groups.filter((g) => g !== active);
  // the group right of the active one, else the nearest to its left
  const right = others.filter((g) => g.viewColumn > active.viewColumn).sort((a, b) => a.viewColumn - b.viewColumn)[0];
  const left = others.filter((g) => g.viewColumn < active.viewColumn).sort((a, b) => b.viewColumn - a.viewColumn)[0];
  return { column: (right ?? left).viewColumn, split: false, from };
}

function openPanel(kind: PlotKind, title: string, at?: vscode.ViewColumn): Panel {
  const existing = panels.get(kind);
  if (existing) {
    existing.panel.title = title;
    existing.panel.reveal(existing.panel.viewColumn ?? vscode.ViewColumn.Beside, true);
    return existing;
  }
  const where = at === undefined ? placement() : { column: at, split: false, from: at };
  const panel = vscode.window.createWebviewPanel(
    'control.plot',
    title,
    { viewColumn: where.column, preserveFocus: true },
    {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [vscode.Uri.joinPath(extUri, 'media', 'plots')],
    },
  );
  // a new split shares the editor area evenly (not in proportion to a narrow group it split off)
  if (where.split && vscode.window.tabGroups.all.length === 2) void vscode.commands.executeCommand('workbench.action.evenEditorWidths');
  panel.iconPath = vscode.Uri.joinPath(extUri, 'media', 'control.svg');
  let readyResolve!: () => void;
  const entry: Panel = { panel, ready: new Promise((r) => (readyResolve = r)), waiters: [], splitFrom: where.split ? where.from : undefined };
  panel.webview.onDidReceiveMessage((m: { type: string; [k: string]: any }) => {
    switch (m.type) {
      case 'ready':
        readyResolve();
        break;
      case 'rendered':
        log.info(`plot ${m.kind} rendered (${m.traces} traces, svg ${m.svg})`);
        entry.waiters
          .splice(0)
          .forEach((w) => w({ svg: !!m.svg, traces: Number(m.traces), width: Number(m.width), height: Number(m.height), viewport: Number(m.viewport) }));
        break;
      case 'export':
        void saveExport(kind, m.format, m.dataUrl);
        break;
      case 'error':
        log.warn(`plot webview: ${m.message}`);
        break;
    }
  });
  panel.onDidDispose(() => {
    if (panels.get(kind) === entry) panels.delete(kind);
  });
  panel.webview.html = html(panel.webview);
  panels.set(kind, entry);
  return entry;
}

async function saveExport(kind: PlotKind, format: string, dataUrl: string): Promise<void> {
  const ext = format === 'svg' ? 'svg' : 'png';
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = `${kind}.${ext}`;
  const target = await vscode.window.showSaveDialog({
    defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
    filters: ext === 'svg' ? { 'SVG image': ['svg'] } : { 'PNG image': ['png'] },
    saveLabel: `Export ${ext.toUpperCase()}`,
    title: `Export ${KIND_LABEL[kind]} plot`,
  });
  if (!target) return;
  // a file the user named in the dialog: an ignored folder is their choice; outside the
  // workspace (also through a link), a secret or a file that configures what runs is not
  const refused = writeRefusal(target, { allowIgnored: true });
  if (refused) {
    log.warn(`plot export refused: ${refused}`);
    void vscode.window.showWarningMessage(`Control: not saving the plot there: ${refused}. Choose a file inside the workspace folder.`);
    return;
  }
  const comma = dataUrl.indexOf(',');
  const head = dataUrl.slice(0, comma);
  const body = dataUrl.slice(comma + 1);
  const bytes = head.includes(';base64') ? Buffer.from(body, 'base64') : Buffer.from(decodeURIComponent(body), 'utf8');
  await vscode.workspace.fs.writeFile(target, bytes);
  log.info(`plot exported to ${target.toString()} (${bytes.length} bytes)`);
  void vscode.window.showInformationMessage(`Control: plot saved to ${vscode.workspace.asRelativePath(target)}.`);
}

/** the system in an editor text: num/den or A, B, C, D (the last assignment of each wins) */
export function systemFromText(text: string): Record<string, unknown> | undefined {
  const found = findAssignments(text).filter((a) => a.value && !a.error);
  const last = (name: string) => found.filter((a) => a.name === name).pop();
  const vec = (a: Assignment) => (a.value!.length === 1 ? a.value![0] : a.value!.map((r) => r[0]));
  const num = last('num');
  const den = last('den');
  if (num && den) return { num: vec(num), den: vec(den) };
  const A = last('A');
  if (!A) return undefined;
  const out: Record<string, unknown> = { A: A.value };
  for (const k of ['B', 'C', 'D']) {
    const a = last(k);
    if (a) out[k] = a.value;
  }
  // (a Ts in the file is not taken: it is often the sample time of a later discretisation)
  return out;
}

function fromEditor(): { args: Record<string, unknown>; origin: string } | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const doc = editor.document;
  const sel = editor.selection;
  const text = sel.isEmpty ? doc.getText() : doc.getText(sel);
  let args: Record<string, unknown> | undefined;
  try {
    args = systemFromText(text);
  } catch {
    return undefined;
  }
  if (!args) return undefined;
  const file = vscode.workspace.asRelativePath(doc.uri);
  return { args, origin: sel.isEmpty ? file : `${file}:${sel.start.line + 1}-${sel.end.line + 1}` };
}

async function pickKind(args?: Record<string, unknown>): Promise<PlotKind | undefined> {
  const hasC = !args || args.num !== undefined || args.C !== undefined;
  // a simulation needs its input or x0 too: offered by the buttons under an lsim/initial answer only
  const items = SYSTEM_PLOT_KINDS.filter((k) => hasC || k === 'pzmap').map((k) => ({ label: KIND_LABEL[k], plot: k }));
  const pick = await vscode.window.showQuickPick(items, { title: 'Control: Plot', placeHolder: 'Which plot?' });
  return pick?.plot;
}

/** control.plot: {kind, args} from a button or lens, or asks */
export async function plotCommand(req: Partial<PlotRequest> = {}): Promise<PlotResult | undefined> {
  let args = req.args;
  let origin = req.origin;
  if (!args) {
    const ed = fromEditor();
    if (ed) ({ args, origin } = ed);
  }
  if (!args) {
    const text = await vscode.window.showInputBox({
      title: 'Control: Plot',
      prompt: 'The system: num and den, or A, B, C (and D), as in MATLAB',
      placeHolder: 'num = [1], den = [1 3 3 1]',
      value: 'num = [1], den = [1 3 3 1]',
    });
    if (!text) return undefined;
    try {
      args = systemFromText(text);
    } catch (e) {
      void vscode.window.showErrorMessage(`Control: ${(e as Error).message}`);
      return undefined;
    }
    if (!args) {
      void vscode.window.showErrorMessage('Control: no num = [...], den = [...] or A = [...] in that text.');
      return undefined;
    }
  }
  const kind = req.kind ?? (await pickKind(args));
  if (!kind) return undefined;
  return showPlot({ kind, args, origin });
}

/** computes the plot with the solvers and shows it; resolves once the webview drew it */
export async function showPlot(req: PlotRequest): Promise<PlotResult | undefined> {
  let payload: PlotPayload;
  try {
    payload = await buildPlot(req, { maxN: setting('maxStates') });
  } catch (e) {
    const msg = (e as Error).message;
    log.warn(`plot ${req.kind} refused: ${msg}`);
    void vscode.window.showErrorMessage(`Control: ${msg}`);
    return undefined;
  }
  const title = `${payload.title} plot`;
  const draw = async (entry: Panel, ms: number) => {
    const rendered = new Promise<Rendered | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), ms);
      entry.waiters.push((m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
    await entry.panel.webview.postMessage({ type: 'plot', payload: wire });
    return rendered;
  };
  // JSON has no Infinity or NaN (an infinite gain margin would arrive as null): tag them
  const wire = JSON.parse(JSON.stringify(payload, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? { __nf: String(v) } : v)));
  let entry = openPanel(req.kind, title);
  await entry.ready;
  let r = await draw(entry, 20_000);
  const from = entry.splitFrom;
  entry.splitFrom = undefined;
  if (r && from !== undefined && r.viewport < MIN_PLOT_WIDTH) {
    // the new split is too narrow to read: the plot opens again as a tab of the group it was
    // opened from, the whole editor area wide, and the split closes. (A new panel rather than
    // moving this one: a moved webview lands as a preview editor, which the next plot replaces.)
    log.info(`plot ${req.kind}: a split of ${r.viewport} px is too narrow; opened in editor group ${from} instead`);
    entry.panel.dispose();
    entry = openPanel(req.kind, title, from);
    await entry.ready;
    r = (await draw(entry, 20_000)) ?? r;
  }
  const verified = payload.verification.every((v) => v.ok !== false);
  log.info(
    `plot ${req.kind}: ${payload.subtitle}; ${payload.verification.map((v) => `${v.tool} ${v.ok === null ? 'n/a' : v.ok ? 'verified' : 'FAILED'}`).join(', ')}`,
  );
  return {
    kind: req.kind,
    title,
    rendered: !!r?.svg,
    traces: r?.traces,
    verified,
    size: r ? { width: r.width, height: r.height, viewport: r.viewport } : undefined,
    viewColumn: entry.panel.viewColumn,
  };
}

/** buttons under a chat answer that open the plot of the system the tool just solved */
export function offerPlots(
  stream: Pick<vscode.ChatResponseStream, 'button'>,
  tool: string,
  args: Record<string, unknown>,
  result: Record<string, unknown> | undefined,
  offered: Set<string>,
): void {
  for (const it of plotsFor(tool, args, result)) {
    const key = `${it.kind} ${JSON.stringify(it.args)}`;
    if (offered.has(key)) continue;
    offered.add(key);
    stream.button({ command: 'control.plot', title: it.title, arguments: [{ kind: it.kind, args: it.args }] });
  }
}
