/**
 * The Doctor: checks every capability @control has and, for each one that does not work,
 * says the exact fix. Shared by `control doctor` (src/cliDoctor.ts) and *Control: Doctor*
 * (src/vscode/commands.ts, which adds the VS Code-only checks). No vscode import.
 *
 * Checks: solver self-tests against closed forms in three domains (LQR of the double
 * integrator, a Lyapunov equation, the margins of 2/(s+1)³), each solved through the tool
 * table and verified; the language-model configuration (a local GGUF file, an
 * OpenAI-compatible server answering /models within 2 s, or none); node-llama-cpp's native
 * binary (found on disk, never loaded); the embedder folder; the bundled notes (always
 * searchable) and the workspace index (searched with them when built); the Node.js version. Nothing here loads a model or writes anything.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkModelFile } from './engines/llama.js';
import type { EngineConfig } from './engines/index.js';
import { errorMessage } from './tools/batch.js';
import { callTool, VerificationFailed } from './tools/runner.js';
import { countNotes } from './retrieval/sources.js';

/** ✔ works; ✘ configured or needed but broken (the Doctor exits 1); • a note (not configured, optional) */
export type CheckStatus = 'ok' | 'fail' | 'info';

export interface DoctorCheck {
  capability: string;
  status: CheckStatus;
  detail: string;
  /** what to do, exactly; present on every failure and on notes with a way forward */
  fix?: string;
}

/** where the fixes point: settings and commands in VS Code, flags in the terminal */
export type Surface = 'cli' | 'vscode';

export interface DoctorOptions {
  surface?: Surface;
  /** the language model configuration; undefined: checked by the caller (VS Code's own model) */
  model?: EngineConfig;
  /** an embedder model folder (config.json, tokenizer.json, onnx/model.onnx); undefined: not configured */
  embedder?: string;
  /** the workspace retrieval index folder; undefined: no location given */
  index?: string;
  /** the bundled notes (root: the corpus/ folder, undefined when missing) and their index folder */
  notes?: { root: string | undefined; index: string };
  /** a folder from which node_modules is searched for node-llama-cpp (default: this module's folder) */
  packageRoot?: string;
  /** time the OpenAI-compatible server gets to answer /models (default 2000 ms) */
  timeoutMs?: number;
  /** for tests */
  fetch?: typeof fetch;
  /** for tests: the Node.js version to judge (default process.versions.node) */
  nodeVersion?: string;
}

export const SYMBOL: Record<CheckStatus, string> = { ok: '✔', fail: '✘', info: '•' };

// --------------------------------------------------------------------------- solvers

interface SelfTest {
  capability: string;
  tool: string;
  args: Record<string, unknown>;
  /** the largest deviation of the result from the closed form */
  error(r: Record<string, any>): number;
  tol: number;
  what: string;
}

const S3 = Math.sqrt(3);
const WGC = Math.sqrt(2 ** (2 / 3) - 1); // |2/(jω+1)³| = 1
const PM = 180 - (3 * Math.atan(WGC) * 180) / Math.PI;

const SELF_TESTS: SelfTest[] = [
  {
    capability: 'Solvers: LQR',
    tool: 'lqr',
    args: { A: [[0, 1], [0, 0]], B: [[0], [1]], Q: [[1, 0], [0, 1]], R: [[1]] },
    error: (r) => Math.max(Math.abs(r.K[0][0] - 1), Math.abs(r.K[0][1] - S3)),
    tol: 1e-12,
    what: 'LQR of the double integrator matches K = [1, √3]',
  },
  {
    capability: 'Solvers: Lyapunov',
    tool: 'lyap',
    args: { A: [[-1, 1], [0, -2]], Q: [[1, 0], [0, 1]] },
    error: (r) => {
      const ref = [[7 / 12, 1 / 12], [1 / 12, 1 / 4]];
      return Math.max(...ref.flatMap((row, i) => row.map((x, j) => Math.abs(r.X[i][j] - x))));
    },
    tol: 1e-12,
    what: 'A X + X A\' + I = 0 for A = [-1 1; 0 -2] matches X = [7/12 1/12; 1/12 1/4]',
  },
  {
    capability: 'Solvers: margins',
    tool: 'margins',
    args: { num: [2], den: [1, 3, 3, 1] },
    error: (r) => Math.max(Math.abs(r.gm - 4), Math.abs(r.w_pc - S3), Math.abs(r.pm_deg - PM) / 180, Math.abs(r.w_gc - WGC)),
    tol: 1e-9,
    what: `margins of 2/(s+1)³ match GM = 4 at ω = √3 and PM = ${PM.toFixed(4)}° at ω = ${WGC.toFixed(4)}`,
  },
];

async function selfTest(t: SelfTest, surface: Surface): Promise<DoctorCheck> {
  const fix =
    surface === 'vscode'
      ? 'Reinstall the @control extension; if this check still fails, report it with this report attached. Do not use this build\'s numbers meanwhile.'
      : 'Rebuild from a clean checkout (npm ci && npm run build); if this check still fails, report it with this output. Do not use this build\'s numbers meanwhile.';
  const t0 = performance.now();
  try {
    // the verified call path, on the solver thread, as every answer is computed
    const { result: r, verification: v } = await callTool(t.tool, t.args);
    const err = t.error(r);
    const ms = (performance.now() - t0).toFixed(1);
    if (!(err <= t.tol)) return { capability: t.capability, status: 'fail', detail: `${t.what.replace(/ matches? .*/, '')}: off by ${err.toExponential(1)} from the closed form`, fix };
    return {
      capability: t.capability,
      status: 'ok',
      detail: `${t.what} to ${err === 0 ? '0' : err.toExponential(0)}, ${v ? 'verified' : 'no verifier check'}, ${ms} ms`,
    };
  } catch (e) {
    if (e instanceof VerificationFailed)
      return { capability: t.capability, status: 'fail', detail: `${t.what.replace(/ matches? .*/, '')}: the verifier rejects the result: ${e.verification.checks.filter((c) => !c.ok).map((c) => c.detail).join('; ')}`, fix };
    return { capability: t.capability, status: 'fail', detail: `${t.tool} threw: ${errorMessage(e)}`, fix };
  }
}

export async function solverChecks(surface: Surface = 'cli'): Promise<DoctorCheck[]> {
  const out: DoctorCheck[] = [];
  for (const t of SELF_TESTS) out.push(await selfTest(t, surface));
  return out;
}

/** the original single self-test (LQR closed form), kept for callers that want one line */
export async function runSelfTest(): Promise<{ ok: boolean; detail: string }> {
  const c = await selfTest(SELF_TESTS[0], 'cli');
  return { ok: c.status === 'ok', detail: c.detail };
}

// --------------------------------------------------------------------------- model

const MODEL = 'Language model';

function fixFor(surface: Surface, vscode: string, cli: string): string {
  return surface === 'vscode' ? vscode : cli;
}

async function checkOpenAI(baseUrl: string, model: string, apiKey: string | undefined, o: DoctorOptions, surface: Surface): Promise<DoctorCheck> {
  const setUrl = fixFor(surface, 'set control.openai.url to the server\'s base URL including /v1 (e.g. http://127.0.0.1:8080/v1)', 'pass --url with the server\'s base URL including /v1 (or set CONTROL_OPENAI_URL)');
  if (!baseUrl) return { capability: MODEL, status: 'fail', detail: 'OpenAI-compatible server chosen, but no URL is set', fix: setUrl };
  const url = `${baseUrl.replace(/\/+$/, '')}/models`;
  const ms = o.timeoutMs ?? 2000;
  const t0 = performance.now();
  let res: Response;
  try {
    res = await (o.fetch ?? fetch)(url, {
      signal: AbortSignal.timeout(ms),
      headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {},
    });
  } catch (e) {
    const why = (e as Error)?.name === 'TimeoutError' || (e as Error)?.name === 'AbortError' ? `no answer within ${ms / 1000} s` : `${(e as Error)?.message ?? e}${(e as { cause?: Error })?.cause?.message ? ` (${(e as { cause?: Error }).cause!.message})` : ''}`;
    return { capability: MODEL, status: 'fail', detail: `OpenAI-compatible server at ${baseUrl}: GET /models failed: ${why}`, fix: `Start the server (e.g. llama-server -m model.gguf --port 8080) or ${setUrl}.` };
  }
  const took = (performance.now() - t0).toFixed(0);
  if (res.status === 401 || res.status === 403)
    return {
      capability: MODEL,
      status: 'fail',
      detail: `OpenAI-compatible server at ${baseUrl} refuses the request (HTTP ${res.status})`,
      fix: surface === 'vscode' ? 'Run Control: Select Model and enter the server\'s API key.' : 'Set CONTROL_OPENAI_API_KEY to the server\'s API key.',
    };
  if (!res.ok)
    return { capability: MODEL, status: 'fail', detail: `OpenAI-compatible server at ${baseUrl}: GET /models answered HTTP ${res.status}`, fix: `Check that the URL is the API base (it usually ends in /v1): ${setUrl}.` };
  let ids: string[] = [];
  try {
    const body = (await res.json()) as { data?: { id?: unknown }[] };
    ids = (body.data ?? []).map((m) => String(m.id));
  } catch {
    /* a server that answers without a model list still answers */
  }
  const listed = ids.length ? `; it lists ${ids.slice(0, 3).join(', ')}${ids.length > 3 ? `, … (${ids.length})` : ''}` : '';
  const unknown = ids.length && model && model !== 'default' && !ids.includes(model) ? ` (the configured model "${model}" is not among them; servers that serve one model ignore the name)` : '';
  return { capability: MODEL, status: 'ok', detail: `OpenAI-compatible server at ${baseUrl} answers /models in ${took} ms${listed}${unknown}` };
}

export async function modelCheck(model: EngineConfig | undefined, o: DoctorOptions = {}): Promise<DoctorCheck | undefined> {
  const surface = o.surface ?? 'cli';
  if (!model) return undefined;
  if (model.provider === 'none')
    return {
      capability: MODEL,
      status: 'info',
      detail: 'none configured: slash commands (/lqr, /analyse, …) and well-formed requests still work; free-form questions need a model',
      fix: fixFor(surface, 'Optional: run Control: Select Model (a local .gguf file, an OpenAI-compatible server, or the chat pane\'s model).', 'Optional: --model /path/to/model.gguf, or --model openai --url http://127.0.0.1:8080/v1.'),
    };
  if (model.provider === 'local') {
    const fix = fixFor(surface, 'Set control.model.path to an existing .gguf file, or run Control: Select Model.', 'Pass --model with the path of an existing .gguf file (or set CONTROL_MODEL).');
    if (!model.modelPath) return { capability: MODEL, status: 'fail', detail: 'local model chosen, but no model file is set', fix };
    try {
      checkModelFile(model.modelPath);
      const gb = statSync(model.modelPath).size / 1e9;
      return { capability: MODEL, status: 'ok', detail: `local GGUF file ${model.modelPath} (${gb.toFixed(2)} GB; header checked, not loaded)` };
    } catch (e) {
      return { capability: MODEL, status: 'fail', detail: errorMessage(e), fix };
    }
  }
  return checkOpenAI(model.baseUrl, model.model, model.apiKey, o, surface);
}

// --------------------------------------------------------------------------- node-llama-cpp

const RUNTIME = 'Local model runtime';

/** node-llama-cpp's name of this platform: linux-x64, mac-arm64, win-x64, ... */
function llamaPlatform(): string {
  const os = process.platform === 'darwin' ? 'mac' : process.platform === 'win32' ? 'win' : process.platform;
  const arch = process.arch === 'arm' ? 'armv7l' : process.arch;
  return `${os}-${arch}`;
}

function findUp(from: string, rel: string): string | undefined {
  let dir = from;
  for (;;) {
    const p = join(dir, 'node_modules', rel);
    if (existsSync(p)) return p;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

function findFile(dir: string, name: string, depth: number): string | undefined {
  if (depth < 0) return undefined;
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  for (const e of entries) if (e.isFile() && e.name === name) return join(dir, e.name);
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    const f = findFile(join(dir, e.name), name, depth - 1);
    if (f) return f;
  }
  return undefined;
}

function defaultRoot(): string {
  // the bundle's folder (dist/) in the extension and the CLI; this file's under tsx
  return typeof __dirname === 'string' ? __dirname : process.cwd();
}

/**
 * Is node-llama-cpp installed with a native binary for this platform? Looks on disk only
 * (the package's own folder, its prebuilt `@node-llama-cpp/<platform>` packages, local
 * builds); never imports it. `needed`: a local model is configured, so a missing binary fails.
 */
export function llamaRuntimeCheck(o: DoctorOptions = {}, needed = false): DoctorCheck {
  const surface = o.surface ?? 'cli';
  const root = o.packageRoot ?? defaultRoot();
  const plat = llamaPlatform();
  const miss: CheckStatus = needed ? 'fail' : 'info';
  const usedFor = needed ? '' : ' (needed only for a local GGUF model)';
  const pkgJson = findUp(root, join('node-llama-cpp', 'package.json'));
  if (!pkgJson)
    return {
      capability: RUNTIME,
      status: miss,
      detail: `node-llama-cpp is not installed${usedFor}`,
      fix: fixFor(surface, `Install the @control .vsix built for ${plat}, which carries node-llama-cpp and its ${plat} binary.`, 'Run npm ci in the @control folder (node-llama-cpp is a dependency).'),
    };
  let version = '?';
  try {
    version = (JSON.parse(readFileSync(pkgJson, 'utf8')) as { version?: string }).version ?? '?';
  } catch {
    /* unreadable package.json: the version stays unknown */
  }
  const pkgDir = dirname(pkgJson);
  const candidates: string[] = [];
  const scope = findUp(root, '@node-llama-cpp');
  if (scope) {
    try {
      for (const d of readdirSync(scope)) if (d === plat || d.startsWith(`${plat}-`)) candidates.push(join(scope, d));
    } catch {
      /* unreadable scope folder: fall through to local builds */
    }
  }
  candidates.push(join(pkgDir, 'llama', 'localBuilds'), join(pkgDir, 'bins'));
  for (const c of candidates) {
    const addon = findFile(c, 'llama-addon.node', 4);
    if (addon)
      return {
        capability: RUNTIME,
        status: 'ok',
        detail: `node-llama-cpp ${version} with a native binary for ${plat}: ${addon} (found on disk, not loaded)`,
      };
  }
  return {
    capability: RUNTIME,
    status: miss,
    detail: `node-llama-cpp ${version} is installed at ${pkgDir}, but no native binary for ${plat} is there${usedFor}`,
    fix: fixFor(
      surface,
      `Install the @control .vsix built for ${plat}; or, in the extension folder, build the binary with: npx --no node-llama-cpp source download`,
      `Reinstall with optional dependencies (npm ci --include=optional), or build the binary: npx --no node-llama-cpp source download`,
    ),
  };
}

// --------------------------------------------------------------------------- embedder, index

const EMBEDDER_FILES = ['config.json', 'tokenizer.json'];
/** the ONNX files loadEmbedder accepts (fp32, int8-quantised) */
const EMBEDDER_ONNX = ['model.onnx', 'model_quantized.onnx', 'model_int8.onnx'];

export function embedderCheck(dir: string | undefined, o: DoctorOptions = {}): DoctorCheck {
  const surface = o.surface ?? 'cli';
  const capability = 'Embedder';
  if (!dir)
    return {
      capability,
      status: 'info',
      detail: 'no embedder folder configured',
      fix: fixFor(
        surface,
        'Optional, for hybrid search: run Control: Download Embedding Model… (about 35 MB, asks first), or set control.embedder.path to an ONNX sentence-embedding model folder.',
        'Optional, for hybrid search: control index download-embedder, then --embedder DIR (or any folder with config.json, tokenizer.json, onnx/model.onnx).',
      ),
    };
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    return { capability, status: 'fail', detail: `${dir} is not a folder`, fix: `Point the embedder setting at the folder of an ONNX embedding model (config.json, tokenizer.json, onnx/model.onnx), or download the model into ${dir}.` };
  const missing = EMBEDDER_FILES.filter((f) => !existsSync(join(dir, f)));
  const onnx = EMBEDDER_ONNX.find((f) => existsSync(join(dir, 'onnx', f)));
  if (!onnx) missing.push(join('onnx', 'model.onnx'));
  if (missing.length)
    return {
      capability,
      status: 'fail',
      detail: `${dir} lacks ${missing.join(', ')}`,
      fix: `Download the model's ${missing.join(', ')} into ${dir} (an ONNX export, as on Hugging Face: config.json, tokenizer.json, onnx/model.onnx).`,
    };
  const mb = statSync(join(dir, 'onnx', onnx!)).size / 1e6;
  return { capability, status: 'ok', detail: `${dir}: config.json, tokenizer.json, onnx/${onnx} (${mb.toFixed(1)} MB)` };
}

function dirSize(dir: string, budget = { files: 20000 }): { bytes: number; files: number; newest: number } {
  let bytes = 0;
  let files = 0;
  let newest = 0;
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return { bytes, files, newest };
  }
  for (const e of entries) {
    if (budget.files-- <= 0) break;
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      const s = dirSize(p, budget);
      bytes += s.bytes;
      files += s.files;
      newest = Math.max(newest, s.newest);
    } else if (e.isFile()) {
      try {
        const st = statSync(p);
        bytes += st.size;
        files++;
        newest = Math.max(newest, st.mtimeMs);
      } catch {
        /* vanished meanwhile */
      }
    }
  }
  return { bytes, files, newest };
}

function humanBytes(n: number): string {
  if (n < 1e3) return `${n} B`;
  if (n < 1e6) return `${(n / 1e3).toFixed(1)} kB`;
  if (n < 1e9) return `${(n / 1e6).toFixed(1)} MB`;
  return `${(n / 1e9).toFixed(2)} GB`;
}

/** what a stats file says, read tolerantly (the index format is not final): numbers only */
function statsSummary(file: string): string {
  try {
    const text = readFileSync(file, 'utf8');
    let obj: unknown;
    try {
      obj = JSON.parse(text);
    } catch {
      return text.trim().split(/\r?\n/)[0]?.slice(0, 120) ?? '';
    }
    if (!obj || typeof obj !== 'object') return '';
    return Object.entries(obj as Record<string, unknown>)
      .flatMap(([k, v]): string[] => {
        if (typeof v === 'number' || (typeof v === 'string' && v.length < 40)) return [`${k} ${v}`];
        if (Array.isArray(v)) return [`${k} ${v.length}`];
        // a manifest's per-file map: its size is the number of files
        if (v && typeof v === 'object' && /^(files|chunks|skipped|shards)$/.test(k)) return [`${k} ${Object.keys(v).length}`];
        return [];
      })
      .slice(0, 6)
      .join(', ');
  } catch {
    return '';
  }
}

/**
 * An index folder, read tolerantly (the retrieval format is young): exists, holds files, has
 * a stats or manifest file. `rebuild` overrides the fix (default: Control: Rebuild Index).
 */
export function indexCheck(dir: string | undefined, o: DoctorOptions = {}, capability = WORKSPACE_INDEX_CAPABILITY, rebuildFix?: string): DoctorCheck {
  const surface = o.surface ?? 'cli';
  const rebuild = rebuildFix ?? fixFor(surface, 'Run Control: Rebuild Index.', 'Run control index build . (in the folder to index; --index DIR for another place).');
  // without a workspace index, search still covers the bundled notes: say so, as /search does
  const notesOnly = o.notes ? '; /search covers the bundled notes only' : '';
  if (!dir) return { capability, status: 'info', detail: `no workspace folder open${notesOnly}`, fix: fixFor(surface, 'Open a workspace folder, then run Control: Rebuild Index.', 'Optional: --index DIR to check an index folder.') };
  if (!existsSync(dir)) return { capability, status: 'info', detail: `no index yet (${dir} does not exist)${notesOnly}`, fix: rebuild };
  if (!statSync(dir).isDirectory()) return { capability, status: 'fail', detail: `${dir} is a file, not an index folder`, fix: `Move or delete ${dir}, then: ${rebuild}` };
  const { bytes, files, newest } = dirSize(dir);
  if (files === 0) return { capability, status: 'info', detail: `no index yet (${dir} is empty)${notesOnly}`, fix: rebuild };
  const stats = ['stats.json', 'stats', 'manifest.json'].map((f) => join(dir, f)).find((f) => existsSync(f));
  const when = newest ? `, updated ${new Date(newest).toISOString().replace('T', ' ').slice(0, 16)} UTC` : '';
  if (!stats)
    return {
      capability,
      status: 'info',
      detail: `${dir}: ${files} files, ${humanBytes(bytes)}${when}, but no stats or manifest file (an unfinished or older index)`,
      fix: rebuild,
    };
  const summary = statsSummary(stats);
  return { capability, status: 'ok', detail: `${dir}: ${files} files, ${humanBytes(bytes)}${when}${summary ? `; ${summary}` : ''}` };
}

export const NOTES_CAPABILITY = 'Retrieval: bundled notes';
export const WORKSPACE_INDEX_CAPABILITY = 'Retrieval: workspace index';

/**
 * The bundled notes: always searchable (their index is built on first use, or in the
 * background after VS Code starts, and kept current), so this check fails only when the notes
 * themselves are missing from the installation. Reads, never builds.
 */
export function notesCheck(root: string | undefined, indexDir: string, o: DoctorOptions = {}): DoctorCheck {
  const surface = o.surface ?? 'cli';
  const capability = NOTES_CAPABILITY;
  const n = root ? countNotes(root) : 0;
  if (!root || n === 0)
    return {
      capability,
      status: 'fail',
      detail: root ? `${root} holds no notes` : 'the bundled notes (corpus/) are missing from this installation',
      fix: fixFor(surface, 'Reinstall the @control extension.', 'Reinstall @control (in a checkout: npm ci && npm run build); the notes ship in corpus/ beside dist/.'),
    };
  const manifest = readJson(join(indexDir, 'manifest.json')) as { root?: string; builtAt?: string; files?: Record<string, unknown> } | undefined;
  const built = manifest?.builtAt && manifest.root === root;
  const when = (iso: string) => iso.replace('T', ' ').slice(0, 16) + ' UTC';
  const state = built
    ? `indexed in ${indexDir} (${Object.keys(manifest!.files ?? {}).length} files, built ${when(manifest!.builtAt!)}; changed notes are re-read at the next search)`
    : surface === 'vscode'
      ? `being indexed into ${indexDir} (in the background after start-up, a few seconds)`
      : `indexed into ${indexDir} at the first search (a second or two)`;
  return { capability, status: 'ok', detail: `${n} notes in ${root}, always searched by /search and a model's answers; ${state}` };
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

// --------------------------------------------------------------------------- node

export function nodeCheck(o: DoctorOptions = {}): DoctorCheck {
  const v = o.nodeVersion ?? process.versions.node;
  const major = Number(v.split('.')[0]);
  if (major >= 20) return { capability: 'Node.js', status: 'ok', detail: `${v} (20 or newer needed)` };
  return {
    capability: 'Node.js',
    status: 'fail',
    detail: `${v}: @control needs Node.js 20 or newer`,
    fix: fixFor(o.surface ?? 'cli', 'Update VS Code (its extension host brings its own Node.js).', 'Install Node.js 20 or newer (e.g. nvm install 20) and run control with it.'),
  };
}

// --------------------------------------------------------------------------- all

/** every core check, in report order */
export async function runDoctor(o: DoctorOptions = {}): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [...(await solverChecks(o.surface))];
  const m = await modelCheck(o.model, o);
  if (m) checks.push(m);
  checks.push(llamaRuntimeCheck(o, o.model?.provider === 'local'));
  checks.push(embedderCheck(o.embedder, o));
  if (o.notes) checks.push(notesCheck(o.notes.root, o.notes.index, o));
  checks.push(indexCheck(o.index, o));
  checks.push(nodeCheck(o));
  return checks;
}

export const doctorPassed = (checks: DoctorCheck[]): boolean => checks.every((c) => c.status !== 'fail');

/** the terminal table: ✔/✘/•, capability, detail, and the fix on the line below */
export function formatDoctorTable(checks: DoctorCheck[]): string {
  const w = Math.max(...checks.map((c) => c.capability.length), 10);
  const lines: string[] = [];
  for (const c of checks) {
    lines.push(`${SYMBOL[c.status]} ${c.capability.padEnd(w)}  ${c.detail}`);
    if (c.fix) lines.push(`  ${' '.repeat(w)}  ${c.status === 'fail' ? 'fix' : 'hint'}: ${c.fix}`);
  }
  const failed = checks.filter((c) => c.status === 'fail').length;
  lines.push('');
  lines.push(failed ? `${failed} check${failed > 1 ? 's' : ''} failed.` : 'All checks passed.');
  return lines.join('\n');
}

/** one line of Markdown text: no line breaks, no accidental table or heading syntax */
const inline = (s: string) => s.replace(/\r?\n/g, ' ').replace(/^([#>|])/, '\\$1');

/**
 * The Markdown report (VS Code's preview). One block per check, never a table: a fix is a
 * sentence or two with paths and commands, and a table column of them is cut off or squeezed
 * in a narrow preview. Failures come first, each with its fix on its own line; then notes with
 * their hints; then what works, one line each. `when` stamps the run (a re-run visibly refreshes).
 */
export function doctorMarkdown(checks: DoctorCheck[], title = '@control Doctor', when?: Date): string {
  const failed = checks.filter((c) => c.status === 'fail');
  const notes = checks.filter((c) => c.status === 'info');
  const working = checks.filter((c) => c.status === 'ok');
  const stamp = when ? ` Checked ${when.toISOString().replace('T', ' ').slice(0, 19)} UTC.` : '';
  const out = [
    `# ${title}`,
    '',
    (failed.length ? `**${failed.length} check${failed.length > 1 ? 's' : ''} failed.** Each failure names its fix below.` : '**All checks passed.**') + stamp,
    '',
  ];
  const block = (c: DoctorCheck, label: string) => {
    out.push(`### ${SYMBOL[c.status]} ${inline(c.capability)}`, '', inline(c.detail), '');
    if (c.fix) out.push(`**${label}:** ${inline(c.fix)}`, '');
  };
  if (failed.length) {
    out.push('## Needs fixing', '');
    for (const c of failed) block(c, 'Fix');
  }
  if (notes.length) {
    out.push('## Notes', '');
    for (const c of notes) block(c, 'Hint');
  }
  if (working.length) {
    out.push('## Working', '');
    for (const c of working) out.push(`- ${SYMBOL.ok} **${inline(c.capability)}**: ${inline(c.detail)}`);
    out.push('');
  }
  out.push('✔ works · ✘ broken (fix it as shown) · • note', '');
  return out.join('\n');
}
