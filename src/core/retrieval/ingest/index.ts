/**
 * One file in, chunks out: the format is chosen by extension, text is split into sections
 * and blocks by the format, blocks are packed into ~200-word chunks, low-value chunks are
 * dropped, and every chunk gets a unique, stable, page- or cell-qualified id.
 */
import type { Chunk, ChunkRange, IngestResult } from '../types.js';
import { packBlocks } from './chunker.js';
import { parseCode, parseLatex, parseMarkdown, parseNotebook, parsePlain, type Parsed } from './formats.js';
import { lowValueReason } from './lowValue.js';
import { extractPdf } from './pdf.js';
import { paragraphs } from './chunker.js';
import { cleanFileName } from './sourceName.js';

export const SUPPORTED_EXTENSIONS = ['.md', '.markdown', '.txt', '.tex', '.pdf', '.ipynb', '.m', '.py'] as const;

export function extensionOf(path: string): string {
  const m = /\.[A-Za-z0-9]+$/.exec(path);
  return m ? m[0].toLowerCase() : '';
}

export function isSupported(path: string): boolean {
  return (SUPPORTED_EXTENSIONS as readonly string[]).includes(extensionOf(path));
}

/** NUL bytes or invalid UTF-8 in the first 8 KB: not a text file */
export function looksBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.length < bytes.length ? head.subarray(0, lastCharBoundary(head)) : head);
    return false;
  } catch {
    return true;
  }
}

function lastCharBoundary(b: Uint8Array): number {
  let i = b.length;
  // step back over a UTF-8 sequence cut by the 8 KB window
  for (let k = 0; k < 4 && i > 0 && (b[i - 1] & 0xc0) === 0x80; k++) i--;
  if (i > 0 && b[i - 1] >= 0xc0) i--;
  return i;
}

function build(relPath: string, parsed: Parsed, qualify: (s: { cell?: number }) => string): IngestResult {
  const source = parsed.title ?? cleanFileName(relPath);
  const chunks: Chunk[] = [];
  const dropped: Record<string, number> = {};
  const counters = new Map<string, number>();
  for (const s of parsed.sections) {
    for (const p of packBlocks(s.blocks)) {
      const why = lowValueReason(p.text, s.heading);
      if (why) {
        dropped[why] = (dropped[why] ?? 0) + 1;
        continue;
      }
      const q = qualify(s);
      const n = counters.get(q) ?? 0;
      counters.set(q, n + 1);
      const range: ChunkRange =
        s.cell !== undefined ? { startLine: p.startLine, endLine: p.endLine, cell: s.cell } : { startLine: p.startLine, endLine: p.endLine };
      chunks.push({ id: `${relPath}#${q}c${n}`, path: relPath, source, range, text: p.text, ...(s.heading ? { heading: s.heading } : {}) });
    }
  }
  return { source, chunks, dropped, ...(parsed.units !== undefined ? { units: parsed.units } : {}) };
}

/**
 * Chunks of one file. `relPath` is the workspace-relative path (forward slashes) used in
 * ids and citations. Throws on a file that cannot be read as its format (the caller records
 * it as skipped with the message).
 */
export async function ingestFile(relPath: string, bytes: Uint8Array): Promise<IngestResult> {
  const ext = extensionOf(relPath);
  if (ext === '.pdf') {
    const pdf = await extractPdf(bytes);
    const source = pdf.title ?? cleanFileName(relPath);
    const chunks: Chunk[] = [];
    const dropped: Record<string, number> = {};
    pdf.pages.forEach((text, i) => {
      const page = i + 1;
      let n = 0;
      for (const p of packBlocks(paragraphs(text))) {
        const why = lowValueReason(p.text);
        if (why) {
          dropped[why] = (dropped[why] ?? 0) + 1;
          continue;
        }
        chunks.push({ id: `${relPath}#p${page}:c${n++}`, path: relPath, source, range: { page }, text: p.text });
      }
    });
    return { source, chunks, dropped, repaired: pdf.repaired, units: pdf.pages.length };
  }
  if (looksBinary(bytes)) throw new Error('binary content');
  const text = new TextDecoder('utf-8')
    .decode(bytes)
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n');
  switch (ext) {
    case '.md':
    case '.markdown':
      return build(relPath, parseMarkdown(text), () => '');
    case '.tex':
      return build(relPath, parseLatex(text), () => '');
    case '.ipynb':
      return build(relPath, parseNotebook(text), (s) => `cell${s.cell ?? 0}:`);
    case '.m':
      return build(relPath, parseCode(text, 'matlab'), () => '');
    case '.py':
      return build(relPath, parseCode(text, 'python'), () => '');
    default:
      return build(relPath, parsePlain(text), () => '');
  }
}
