/**
 * The engines inspect themselves: the language-model configuration (a local GGUF file, its
 * header checked, never loaded; an OpenAI-compatible server answering /models within 2 s; or
 * none) and node-llama-cpp's native binary (found on disk, never imported). Asked by the
 * Doctor (core/doctor.ts). Nothing here loads a model.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fixFor, type CheckStatus, type DoctorCheck, type InspectOptions, type Surface } from '../inspection.js';
import { errorMessage } from '../tools/batch.js';
import type { EngineConfig } from './index.js';
import { checkModelFile } from './llama.js';

// --------------------------------------------------------------------------- model

const MODEL = 'Language model';

async function checkOpenAI(baseUrl: string, model: string, apiKey: string | undefined, o: InspectOptions, surface: Surface): Promise<DoctorCheck> {
  const setUrl = fixFor(
    surface,
    "set control.openai.url to the server's base URL including /v1 (e.g. http://127.0.0.1:8080/v1)",
    "pass --url with the server's base URL including /v1 (or set CONTROL_OPENAI_URL)",
  );
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
    const why =
      (e as Error)?.name === 'TimeoutError' || (e as Error)?.name === 'AbortError'
        ? `no answer within ${ms / 1000} s`
        : `${(e as Error)?.message ?? e}${(e as { cause?: Error })?.cause?.message ? ` (${(e as { cause?: Error }).cause!.message})` : ''}`;
    return {
      capability: MODEL,
      status: 'fail',
      detail: `OpenAI-compatible server at ${baseUrl}: GET /models failed: ${why}`,
      fix: `Start the server (e.g. llama-server -m model.gguf --port 8080) or ${setUrl}.`,
    };
  }
  const took = (performance.now() - t0).toFixed(0);
  if (res.status === 401 || res.status === 403)
    return {
      capability: MODEL,
      status: 'fail',
      detail: `OpenAI-compatible server at ${baseUrl} refuses the request (HTTP ${res.status})`,
      fix: surface === 'vscode' ? "Run Control: Select Model and enter the server's API key." : "Set CONTROL_OPENAI_API_KEY to the server's API key.",
    };
  if (!res.ok)
    return {
      capability: MODEL,
      status: 'fail',
      detail: `OpenAI-compatible server at ${baseUrl}: GET /models answered HTTP ${res.status}`,
      fix: `Check that the URL is the API base (it usually ends in /v1): ${setUrl}.`,
    };
  let ids: string[] = [];
  try {
    const body = (await res.json()) as { data?: { id?: unknown }[] };
    ids = (body.data ?? []).map((m) => String(m.id));
  } catch {
    /* a server that answers without a model list still answers */
  }
  const listed = ids.length ? `; it lists ${ids.slice(0, 3).join(', ')}${ids.length > 3 ? `, … (${ids.length})` : ''}` : '';
  const unknown =
    ids.length && model && model !== 'default' && !ids.includes(model)
      ? ` (the configured model "${model}" is not among them; servers that serve one model ignore the name)`
      : '';
  return { capability: MODEL, status: 'ok', detail: `OpenAI-compatible server at ${baseUrl} answers /models in ${took} ms${listed}${unknown}` };
}

export async function modelCheck(model: EngineConfig | undefined, o: InspectOptions = {}): Promise<DoctorCheck | undefined> {
  const surface = o.surface ?? 'cli';
  if (!model) return undefined;
  if (model.provider === 'none')
    return {
      capability: MODEL,
      status: 'info',
      detail: 'none configured: slash commands (/lqr, /analyse, …) and well-formed requests still work; free-form questions need a model',
      fix: fixFor(
        surface,
        "Optional: run Control: Select Model (a local .gguf file, an OpenAI-compatible server, or the chat pane's model).",
        'Optional: --model /path/to/model.gguf, or --model openai --url http://127.0.0.1:8080/v1.',
      ),
    };
  if (model.provider === 'local') {
    const fix = fixFor(
      surface,
      'Set control.model.path to an existing .gguf file, or run Control: Select Model.',
      'Pass --model with the path of an existing .gguf file (or set CONTROL_MODEL).',
    );
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
export function llamaRuntimeCheck(o: InspectOptions = {}, needed = false): DoctorCheck {
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
      fix: fixFor(
        surface,
        `Install the @control .vsix built for ${plat}, which carries node-llama-cpp and its ${plat} binary.`,
        'Run npm ci in the @control folder (node-llama-cpp is a dependency).',
      ),
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
