/**
 * Dense embeddings with transformers.js on a local ONNX model folder (`config.json`,
 * `tokenizer.json`, `tokenizer_config.json`, `onnx/model.onnx`). Nothing is downloaded:
 * remote models are disallowed and files are loaded with `local_files_only`.
 * transformers.js (and onnxruntime-node under it) is import()ed on first use, so nothing
 * loads it at extension activation.
 *
 * Each model is used the way it was trained (LESSONS.md: an embedder pooled without its end
 * token lost half its relevant/irrelevant margin). The conventions come, in this order, from
 * `control-embedder.json` in the folder, the sentence-transformers files the export ships
 * (`modules.json` + `1_Pooling/config.json`, `config_sentence_transformers.json` prompts,
 * `sentence_bert_config.json` max_seq_length), then the model family:
 *   bge (v1.5)         CLS pooling, normalised, query instruction
 *                      "Represent this sentence for searching relevant passages: "
 *   e5                 mean pooling, "query: " / "passage: "
 *   nomic-embed        mean pooling, "search_query: " / "search_document: "
 *   Qwen3-Embedding    last-token pooling with `<|endoftext|>` appended when the tokenizer
 *                      does not add it, "Instruct: ...\nQuery:" instruction on queries
 *   otherwise (MiniLM, mpnet, BERT-style): mean pooling over the attention mask, normalised.
 * Vectors are always L2-normalised so a dot product is the cosine.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ControlError } from '../errors.js';

export type Pooling = 'mean' | 'cls' | 'last';

export interface EmbedderConventions {
  pooling: Pooling;
  queryPrefix: string;
  passagePrefix: string;
  /** appended to every text when the tokenizer does not end sequences with it (last-token pooling) */
  eosToken?: string;
  maxTokens: number;
  /** the uncalibrated cosine gate for this family (calibrate for a real one) */
  defaultThreshold: number;
}

export interface Embedder {
  /** identifies the model for stored vectors (folder name + a hash of its conventions) */
  readonly id: string;
  readonly name: string;
  readonly dim: number;
  readonly conventions: EmbedderConventions;
  embed(texts: string[], kind: 'query' | 'passage'): Promise<Float32Array[]>;
  dispose(): Promise<void>;
}

function readJson(p: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(p, 'utf8'));
  } catch {
    return undefined;
  }
}

/** the model's conventions, from its own files first (see the module comment) */
export function detectConventions(dir: string): EmbedderConventions {
  const config = readJson(join(dir, 'config.json')) ?? {};
  const tokCfg = readJson(join(dir, 'tokenizer_config.json')) ?? {};
  const family = `${basename(dir)} ${String(config._name_or_path ?? '')} ${String(config.model_type ?? '')}`.toLowerCase();
  const c: EmbedderConventions = { pooling: 'mean', queryPrefix: '', passagePrefix: '', maxTokens: 512, defaultThreshold: 0.3 };
  if (/bge/.test(family))
    Object.assign(c, { pooling: 'cls', queryPrefix: 'Represent this sentence for searching relevant passages: ', defaultThreshold: 0.55 });
  else if (/\be5\b|e5-/.test(family)) Object.assign(c, { queryPrefix: 'query: ', passagePrefix: 'passage: ', defaultThreshold: 0.75 });
  else if (/nomic/.test(family)) Object.assign(c, { queryPrefix: 'search_query: ', passagePrefix: 'search_document: ', defaultThreshold: 0.45 });
  else if (/qwen3/.test(family))
    Object.assign(c, {
      pooling: 'last',
      eosToken: '<|endoftext|>',
      queryPrefix: 'Instruct: Given a web search query, retrieve relevant passages that answer the query\nQuery:',
      defaultThreshold: 0.45,
    });
  // sentence-transformers export files
  const modules = readJson(join(dir, 'modules.json')) as unknown as { type?: string; path?: string }[] | undefined;
  const poolPath = Array.isArray(modules) ? modules.find((m) => /Pooling/.test(m.type ?? ''))?.path : undefined;
  const pool = readJson(join(dir, poolPath ?? '1_Pooling', 'config.json'));
  if (pool) {
    if (pool.pooling_mode_cls_token) c.pooling = 'cls';
    else if (pool.pooling_mode_lasttoken) c.pooling = 'last';
    else if (pool.pooling_mode_mean_tokens) c.pooling = 'mean';
  }
  const st = readJson(join(dir, 'config_sentence_transformers.json'));
  const prompts = st?.prompts as Record<string, string> | undefined;
  if (prompts) {
    if (typeof prompts.query === 'string') c.queryPrefix = prompts.query;
    const doc = prompts.document ?? prompts.passage;
    if (typeof doc === 'string') c.passagePrefix = doc;
  }
  const sb = readJson(join(dir, 'sentence_bert_config.json'));
  const maxLen = Number(sb?.max_seq_length ?? tokCfg.model_max_length ?? config.max_position_embeddings);
  if (Number.isFinite(maxLen) && maxLen > 0) c.maxTokens = Math.min(maxLen, 8192);
  // an explicit override wins
  const own = readJson(join(dir, 'control-embedder.json'));
  if (own) Object.assign(c, own);
  return c;
}

interface TensorLike {
  data: Float32Array | BigInt64Array | number[];
  dims: number[];
}

/** the files a model folder needs beside its ONNX file (the Doctor checks the same: retrieval/inspect.ts) */
export const EMBEDDER_FILES: readonly string[] = ['config.json', 'tokenizer.json'];
/** the ONNX files in `onnx/` loadEmbedder accepts, the first present one taken: fp32, then int8-quantised */
export const EMBEDDER_ONNX: readonly string[] = ['model.onnx', 'model_quantized.onnx', 'model_int8.onnx'];

/**
 * Load the model in `dir`. Throws ControlError('unsupported') with the reason when the folder
 * is not a usable model (missing files, a load error).
 */
export async function loadEmbedder(dir: string, opts: { threads?: number } = {}): Promise<Embedder> {
  for (const f of EMBEDDER_FILES) {
    if (!existsSync(join(dir, f)))
      throw new ControlError(`No embedding model in ${dir}: ${f} is missing (expected config.json, tokenizer.json, onnx/model.onnx).`, 'unsupported');
  }
  const onnxFile = EMBEDDER_ONNX.find((f) => existsSync(join(dir, 'onnx', f)));
  if (!onnxFile) throw new ControlError(`No ONNX model in ${join(dir, 'onnx')} (model.onnx or model_quantized.onnx).`, 'unsupported');
  const dtype = onnxFile === 'model.onnx' ? 'fp32' : onnxFile === 'model_quantized.onnx' ? 'q8' : 'int8';
  const conv = detectConventions(dir);
  let tf: typeof import('@huggingface/transformers');
  try {
    tf = await import('@huggingface/transformers');
  } catch (e) {
    throw new ControlError(`transformers.js could not be loaded: ${(e as Error).message}`, 'unsupported');
  }
  tf.env.allowRemoteModels = false;
  tf.env.allowLocalModels = true;
  tf.env.localModelPath = dirname(dir) + '/';
  const name = basename(dir);
  const loadOpts = { local_files_only: true } as const;
  let tokenizer: Awaited<ReturnType<typeof tf.AutoTokenizer.from_pretrained>>;
  let model: Awaited<ReturnType<typeof tf.AutoModel.from_pretrained>>;
  try {
    tokenizer = await tf.AutoTokenizer.from_pretrained(name, loadOpts);
    model = await tf.AutoModel.from_pretrained(name, {
      ...loadOpts,
      dtype,
      session_options: { intraOpNumThreads: opts.threads ?? 1, interOpNumThreads: 1 },
    } as Parameters<typeof tf.AutoModel.from_pretrained>[1]);
  } catch (e) {
    throw new ControlError(`The embedding model in ${dir} could not be loaded: ${(e as Error).message}`, 'unsupported');
  }
  // end-of-sequence for last-token pooling: append it only when the tokenizer does not
  let appendEos = '';
  if (conv.pooling === 'last' && conv.eosToken) {
    const ids = (t: string, special: boolean) =>
      Array.from((tokenizer(t, { add_special_tokens: special }).input_ids as TensorLike).data as BigInt64Array, Number);
    const eosIds = ids(conv.eosToken, false);
    const sample = ids('a', true);
    if (eosIds.length !== 1 || sample[sample.length - 1] !== eosIds[0]) appendEos = conv.eosToken;
  }

  const run = async (texts: string[]): Promise<Float32Array[]> => {
    const inputs = tokenizer(texts, { padding: true, truncation: true, max_length: conv.maxTokens }) as Record<string, TensorLike>;
    const out = (await (model as unknown as (x: unknown) => Promise<Record<string, TensorLike>>)(inputs)) as Record<string, TensorLike>;
    const h = out.last_hidden_state ?? out.token_embeddings ?? Object.values(out)[0];
    const [b, s, d] = h.dims;
    const data = h.data as Float32Array;
    const mask = inputs.attention_mask.data as BigInt64Array;
    const vecs: Float32Array[] = [];
    for (let i = 0; i < b; i++) {
      const v = new Float32Array(d);
      if (conv.pooling === 'cls') v.set(data.subarray(i * s * d, i * s * d + d));
      else if (conv.pooling === 'last') {
        let last = s - 1;
        while (last > 0 && Number(mask[i * s + last]) === 0) last--;
        v.set(data.subarray((i * s + last) * d, (i * s + last + 1) * d));
      } else {
        let n = 0;
        for (let t = 0; t < s; t++) {
          if (Number(mask[i * s + t]) === 0) continue;
          n++;
          const off = (i * s + t) * d;
          for (let j = 0; j < d; j++) v[j] += data[off + j];
        }
        if (n) for (let j = 0; j < d; j++) v[j] /= n;
      }
      let norm = 0;
      for (let j = 0; j < d; j++) norm += v[j] * v[j];
      norm = Math.sqrt(norm) || 1;
      for (let j = 0; j < d; j++) v[j] /= norm;
      vecs.push(v);
    }
    return vecs;
  };
  const probe = await run(['dimension probe']);
  const dim = probe[0].length;
  const id = `${name}:${conv.pooling}:${simpleHash(JSON.stringify(conv))}:${dim}`;
  return {
    id,
    name,
    dim,
    conventions: conv,
    async embed(texts, kind) {
      const prefix = kind === 'query' ? conv.queryPrefix : conv.passagePrefix;
      return run(texts.map((t) => `${prefix}${t}${appendEos}`));
    },
    async dispose() {
      await (model as unknown as { dispose?: () => Promise<void> }).dispose?.();
    },
  };
}

function simpleHash(s: string): string {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(16);
}
