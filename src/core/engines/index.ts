/**
 * Engine selection, shared by the CLI and the extension. Fails closed: an engine that is
 * asked for but cannot be had is an error with the way out, never a silent fallback to
 * another model (a fallback once served one model under another's label). The one fallback
 * there is (fallbackFrom, agent/route.ts) is offered by name, and runs only on the user's consent.
 */
import { ControlError } from '../errors.js';
import type { Engine } from './types.js';
import type { Fallback } from '../agent/route.js';

export type EngineConfig =
  | { provider: 'none' }
  | { provider: 'local'; modelPath: string; threads?: number; contextSize?: number; stateFile?: string }
  | { provider: 'openai'; baseUrl: string; model: string; apiKey?: string };

/** engines are cached per configuration: one model in memory, one KV cache */
const cache = new Map<string, Promise<Engine>>();

export async function createEngine(cfg: EngineConfig): Promise<Engine | undefined> {
  if (cfg.provider === 'none') return undefined;
  const key = JSON.stringify(cfg);
  let p = cache.get(key);
  if (!p) {
    p = (async () => {
      if (cfg.provider === 'local') {
        if (!cfg.modelPath)
          throw new ControlError('no local model file is set: set control.model.path (a .gguf file) or run Control: Select Model.', 'unsupported');
        // loaded only when a local model is asked for: node-llama-cpp is a native package
        const { LlamaEngine } = await import('./llama.js');
        return new LlamaEngine({ modelPath: cfg.modelPath, threads: cfg.threads, contextSize: cfg.contextSize, stateFile: cfg.stateFile });
      }
      if (cfg.provider === 'openai') {
        if (!cfg.baseUrl) throw new ControlError('no server URL is set: set control.openai.url (e.g. http://127.0.0.1:8080/v1).', 'unsupported');
        const { OpenAIEngine } = await import('./openai.js');
        return new OpenAIEngine({ baseUrl: cfg.baseUrl, model: cfg.model, apiKey: cfg.apiKey });
      }
      throw new ControlError(`unknown model provider ${(cfg as { provider: string }).provider}`, 'unsupported');
    })();
    cache.set(key, p);
    p.catch(() => cache.delete(key));
  }
  return p;
}

export async function disposeEngines(): Promise<void> {
  const all = [...cache.values()];
  cache.clear();
  for (const p of all) {
    try {
      await (await p).dispose?.();
    } catch {
      /* already gone */
    }
  }
}

/**
 * The CLI's --model value: a .gguf path, `openai` (with --url and --openai-model, or the
 * CONTROL_OPENAI_URL / CONTROL_OPENAI_MODEL environment), or `none`.
 */
export function parseModelFlag(
  value: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  flags: { url?: string; openaiModel?: string } = {},
): EngineConfig {
  const v = value ?? env.CONTROL_MODEL ?? 'none';
  if (v === 'none') return { provider: 'none' };
  if (v === 'openai')
    return {
      provider: 'openai',
      baseUrl: flags.url ?? env.CONTROL_OPENAI_URL ?? '',
      model: flags.openaiModel ?? env.CONTROL_OPENAI_MODEL ?? 'default',
      apiKey: env.CONTROL_OPENAI_API_KEY,
    };
  if (v === 'vscode')
    throw new ControlError(
      '--model vscode exists only inside VS Code (the model picked in the chat pane); in the terminal use a .gguf path or openai.',
      'unsupported',
    );
  if (/\.gguf$/i.test(v)) return { provider: 'local', modelPath: v };
  throw new ControlError(`--model takes a .gguf file, openai, or none; got ${v}`, 'unsupported');
}

/** where an OpenAI-compatible server runs, as the consent question says it */
export function serverWhere(baseUrl: string): string {
  let host = '';
  try {
    host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  } catch {
    /* said as written below */
  }
  const local = host === 'localhost' || host === '::1' || /^127\./.test(host);
  return `at ${baseUrl} (${local ? 'a server on this machine' : 'leaves this machine'})`;
}

/**
 * The fallback offered, with the user's consent, when the configured model fails a turn
 * (agent/route.ts): named and with where it runs; its engine is created only when the user
 * says Send. None for `none` and for a server without a URL.
 */
export function fallbackFrom(cfg: EngineConfig): Fallback | undefined {
  if (cfg.provider === 'none' || (cfg.provider === 'openai' && !cfg.baseUrl) || (cfg.provider === 'local' && !cfg.modelPath)) return undefined;
  const create = async () => {
    const engine = await createEngine(cfg);
    if (!engine) throw new ControlError('no fallback model is configured', 'unsupported');
    return engine;
  };
  if (cfg.provider === 'openai')
    return { name: cfg.model && cfg.model !== 'default' ? cfg.model : 'the default model', where: serverWhere(cfg.baseUrl), create };
  return {
    name: cfg.modelPath
      .split(/[\\/]/)
      .pop()!
      .replace(/\.gguf$/i, ''),
    where: 'on this machine (a local GGUF file)',
    create,
  };
}

/**
 * The CLI's --fallback value (or CONTROL_FALLBACK): openai (with --fallback-url and
 * --fallback-model, or CONTROL_FALLBACK_URL / CONTROL_FALLBACK_MODEL / CONTROL_FALLBACK_API_KEY,
 * else the main model's --url/--openai-model or CONTROL_OPENAI_URL/_MODEL, and its
 * CONTROL_OPENAI_API_KEY only for that same URL), a .gguf file, or none.
 */
export function parseFallbackFlag(
  value: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  flags: { url?: string; model?: string; mainUrl?: string; mainModel?: string } = {},
): Fallback | undefined {
  const v = value ?? env.CONTROL_FALLBACK ?? 'none';
  if (v === 'openai') {
    const baseUrl = flags.url ?? env.CONTROL_FALLBACK_URL ?? flags.mainUrl ?? env.CONTROL_OPENAI_URL ?? '';
    if (!baseUrl) throw new ControlError('--fallback openai needs the server: --fallback-url URL (or CONTROL_FALLBACK_URL).', 'unsupported');
    return fallbackFrom({
      provider: 'openai',
      baseUrl,
      model: flags.model ?? env.CONTROL_FALLBACK_MODEL ?? flags.mainModel ?? env.CONTROL_OPENAI_MODEL ?? 'default',
      // the main server's key only for the main server: a key never goes to another host
      apiKey: env.CONTROL_FALLBACK_API_KEY ?? (baseUrl === (flags.mainUrl ?? env.CONTROL_OPENAI_URL) ? env.CONTROL_OPENAI_API_KEY : undefined),
    });
  }
  if (v === 'none' || /\.gguf$/i.test(v)) return fallbackFrom(parseModelFlag(v, {}));
  throw new ControlError(`--fallback takes openai, a .gguf file, or none; got ${v}`, 'unsupported');
}
