/**
 * Engine selection, shared by the CLI and the extension. Fails closed: an engine that is
 * asked for but cannot be had is an error with the way out, never a silent fallback to
 * another model (a fallback once served one model under another's label).
 */
import { ControlError } from '../errors.js';
import type { Engine } from './types.js';

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
