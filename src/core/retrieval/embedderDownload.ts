/**
 * Downloading the default embedding model, only when the user asks for it (VS Code: *Control:
 * Download Embedding Model…* after a modal consent; CLI: `control index download-embedder`).
 *
 * The files come from a Hugging Face repository (or a mirror with the same URL layout:
 * `<base>/<repo>/resolve/<revision>/<file>`, as HF_ENDPOINT mirrors serve). Each is streamed
 * to `<file>.part`, resumed with a Range request after a cancel or a dropped connection,
 * checked against the size and hash the hub announces (LFS files: `X-Linked-Etag`, the file's
 * SHA-256, on the redirect; small files: the ETag, their git blob SHA-1), and only then renamed
 * into place. A folder is usable only when every file is in place, so a cancelled download
 * never leaves a model that half loads, and the model is loaded once before the download
 * reports success (fail closed: no front end points its setting at a folder that does not
 * load). Nothing but these files leaves or enters the machine.
 *
 * Written by hand (not transformers.js's own downloader) because that one downloads on first
 * use, without consent, progress, cancellation, resumption or verification.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, openSync, closeSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ControlError } from '../errors.js';

export interface EmbedderSpec {
  /** the folder name (it carries the model family, see embedder.ts detectConventions) */
  name: string;
  repo: string;
  revision: string;
  /** paths in the repository, saved at the same paths in the folder */
  files: string[];
  /** for the consent question, before the sizes are known */
  approxMB: number;
}

/**
 * BGE small (English, v1.5): 33M parameters, 384 dimensions, CLS pooling with a query
 * instruction (embedder.ts knows its conventions); int8-quantised ONNX export, the fastest of
 * the small class on 2 CPU cores at a small cost in quality.
 */
export const DEFAULT_EMBEDDER: EmbedderSpec = {
  name: 'bge-small-en-v1.5',
  repo: 'Xenova/bge-small-en-v1.5',
  revision: 'main',
  files: ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json', 'onnx/model_quantized.onnx'],
  approxMB: 35,
};

export const DEFAULT_MIRROR = 'https://huggingface.co';

export interface DownloadProgress {
  file: string;
  /** bytes of all files so far (known sizes only) */
  done: number;
  /** total bytes, once every file's size is known (else the sum of the sizes known so far) */
  total: number;
}

export interface DownloadOptions {
  /** where the model folder goes (its parent is created) */
  dest: string;
  /** the hub or mirror (default https://huggingface.co) */
  mirror?: string;
  signal?: AbortSignal;
  onProgress?: (p: DownloadProgress) => void;
  fetchImpl?: typeof fetch;
}

/** the file's path as the hub names it, URL-encoded per segment */
function fileUrl(mirror: string, spec: EmbedderSpec, file: string): string {
  const base = mirror.replace(/\/+$/, '');
  return `${base}/${spec.repo}/resolve/${encodeURIComponent(spec.revision)}/${file.split('/').map(encodeURIComponent).join('/')}`;
}

function hashFile(path: string, algo: 'sha256' | 'sha1', prefix?: string): Promise<string> {
  return new Promise((resolveP, reject) => {
    const h = createHash(algo);
    if (prefix) h.update(prefix);
    createReadStream(path)
      .on('data', (d) => h.update(d))
      .on('end', () => resolveP(h.digest('hex')))
      .on('error', reject);
  });
}

const unquote = (s: string | null) => (s ?? '').replace(/^W\//, '').replace(/"/g, '').trim();

/** is the folder a complete download of `spec` (every file in place)? */
export function isDownloaded(dest: string, spec: EmbedderSpec = DEFAULT_EMBEDDER): boolean {
  return spec.files.every((f) => existsSync(join(dest, f)));
}

/**
 * Download `spec` into `opts.dest` and load it once; resolves with the folder and the
 * model's dimension. Files already in place are kept; partial ones are resumed. Throws
 * ControlError with the URL and the way out on any failure, 'cancelled' when the signal
 * aborts (the partial files stay for the next attempt), and loadEmbedder's error when the
 * downloaded model does not load.
 */
export async function downloadEmbedder(spec: EmbedderSpec = DEFAULT_EMBEDDER, opts: DownloadOptions): Promise<{ path: string; dim: number }> {
  const mirror = opts.mirror || DEFAULT_MIRROR;
  const doFetch = opts.fetchImpl ?? fetch;
  const dest = opts.dest;
  mkdirSync(dest, { recursive: true });
  const sizes = new Map<string, number>();
  let done = 0;
  const total = () => [...sizes.values()].reduce((a, b) => a + b, 0);
  const progress = (file: string) => opts.onProgress?.({ file, done, total: total() });
  const wayOut = `Check the connection (or set a mirror), or put the files of ${spec.repo} (${spec.files.join(', ')}) into ${dest} yourself and point control.embedder.path at it.`;

  for (const file of spec.files) {
    const target = join(dest, file);
    if (existsSync(target)) {
      const n = statSync(target).size;
      sizes.set(file, n);
      done += n;
      progress(file);
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    const part = `${target}.part`;
    const url = fileUrl(mirror, spec, file);
    let have = existsSync(part) ? statSync(part).size : 0;
    let res: Response;
    let sha256: string | undefined;
    let blobSha1: string | undefined;
    let expected: number | undefined;
    try {
      // the hub answers LFS files with a redirect carrying the file's SHA-256 and size: read
      // them from the redirect itself, then follow it
      let r = await doFetch(url, { redirect: 'manual', signal: opts.signal, headers: have ? { Range: `bytes=${have}-` } : {} });
      for (let hops = 0; r.status >= 300 && r.status < 400 && hops < 5; hops++) {
        const linked = unquote(r.headers.get('x-linked-etag'));
        if (/^[0-9a-f]{64}$/.test(linked)) sha256 = linked;
        const ls = Number(r.headers.get('x-linked-size'));
        if (ls > 0) expected = ls;
        const loc = r.headers.get('location');
        if (!loc) throw new Error(`a redirect without a location (HTTP ${r.status})`);
        r = await doFetch(new URL(loc, url).toString(), { redirect: 'manual', signal: opts.signal, headers: have ? { Range: `bytes=${have}-` } : {} });
      }
      res = r;
    } catch (e) {
      if (opts.signal?.aborted)
        throw new ControlError('The download was cancelled; what was downloaded is kept and the next download resumes it.', 'cancelled');
      throw new ControlError(`Could not download ${url}: ${(e as Error).message}. ${wayOut}`, 'unsupported');
    }
    if (res.status === 416 && have) {
      // the part is already whole (or longer than the file): start it again
      rmSync(part, { force: true });
      have = 0;
      res = await doFetch(url, { signal: opts.signal }).catch((e: Error) => {
        throw new ControlError(`Could not download ${url}: ${e.message}. ${wayOut}`, 'unsupported');
      });
    }
    if (res.status !== 200 && res.status !== 206) {
      throw new ControlError(
        `Could not download ${url}: HTTP ${res.status}${res.status === 404 ? ' (no such file in that repository or revision)' : ''}. ${wayOut}`,
        'unsupported',
      );
    }
    if (!sha256) {
      const tag = unquote(res.headers.get('x-linked-etag') ?? res.headers.get('etag'));
      if (/^[0-9a-f]{64}$/.test(tag)) sha256 = tag;
      else if (/^[0-9a-f]{40}$/.test(tag)) blobSha1 = tag;
    }
    if (res.status === 200) have = 0; // the server ignored the Range: a whole file follows
    const len = Number(res.headers.get('content-length'));
    if (!expected && len > 0) expected = have + len;
    if (expected) sizes.set(file, expected);
    done += have;
    progress(file);
    const fd = openSync(part, have ? 'a' : 'w');
    try {
      if (!res.body) throw new Error('an empty response');
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        writeSync(fd, chunk);
        have += chunk.length;
        done += chunk.length;
        progress(file);
      }
    } catch (e) {
      if (opts.signal?.aborted)
        throw new ControlError('The download was cancelled; what was downloaded is kept and the next download resumes it.', 'cancelled');
      throw new ControlError(
        `The download of ${url} broke off after ${have} bytes (${(e as Error).message}); download again to resume. ${wayOut}`,
        'unsupported',
      );
    } finally {
      closeSync(fd);
    }
    if (expected !== undefined && have !== expected) {
      throw new ControlError(`${url}: got ${have} bytes, the server announced ${expected}; download again to resume.`, 'unsupported');
    }
    if (sha256 || blobSha1) {
      const got = sha256 ? await hashFile(part, 'sha256') : await hashFile(part, 'sha1', `blob ${have}\0`);
      if (got !== (sha256 ?? blobSha1)) {
        rmSync(part, { force: true });
        throw new ControlError(
          `${url} does not match the hash the server announced (${sha256 ? 'SHA-256' : 'git blob SHA-1'} ${sha256 ?? blobSha1}, got ${got}); it was deleted. Download again, or check the mirror.`,
          'unsupported',
        );
      }
    }
    renameSync(part, target);
    sizes.set(file, have);
  }
  writeFileSync(
    join(dest, 'control-download.json'),
    `${JSON.stringify({ repo: spec.repo, revision: spec.revision, mirror, files: Object.fromEntries(sizes), at: new Date().toISOString() }, null, 1)}\n`,
  );
  const { loadEmbedder } = await import('./embedder.js');
  const emb = await loadEmbedder(dest);
  const dim = emb.dim;
  await emb.dispose();
  return { path: dest, dim };
}
