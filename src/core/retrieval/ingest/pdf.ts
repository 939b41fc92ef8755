/**
 * PDF text by page (pdfjs-dist, loaded on first use). Lines are rebuilt from the text items'
 * end-of-line flags and vertical positions; broken symbol-font text is repaired when the
 * document shows it (see mojibake.ts). The title comes from the document's metadata when it
 * is a real title.
 */
import { isMojibake, mojibakeScore, repairMojibake } from './mojibake.js';
import { usableTitle } from './sourceName.js';

export interface PdfText {
  title?: string;
  pages: string[];
  /** pages whose text was repaired */
  repaired: number;
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;

async function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= (async () => {
    // pdf.js logs canvas-polyfill warnings on load when bundled (text extraction needs no
    // canvas); keep them out of stdout, where `--json` output goes
    const { log, warn } = console;
    console.log = console.warn = () => undefined;
    try {
      // the worker module runs in this thread ("fake worker"): importing it by name lets a
      // bundler include it, where pdf.js would otherwise import() a path at run time
      const worker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
      (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker ??= worker;
      return await import('pdfjs-dist/legacy/build/pdf.mjs');
    } finally {
      console.log = log;
      console.warn = warn;
    }
  })();
  return pdfjs;
}

interface TextItemLike {
  str: string;
  hasEOL?: boolean;
  transform?: number[];
}

export async function extractPdf(bytes: Uint8Array): Promise<PdfText> {
  const lib = await loadPdfJs();
  const doc = await lib.getDocument({
    data: new Uint8Array(bytes), // pdf.js transfers (detaches) the buffer it is given
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
  try {
    let title: string | undefined;
    try {
      const meta = await doc.getMetadata();
      const info = meta.info as { Title?: unknown } | undefined;
      title = usableTitle(typeof info?.Title === 'string' ? info.Title : undefined);
      if (!title) title = usableTitle(meta.metadata?.get('dc:title') ?? undefined);
    } catch {
      /* no metadata */
    }
    const pages: string[] = [];
    for (let p = 1; p <= doc.numPages; p++) {
      const page = await doc.getPage(p);
      const content = await page.getTextContent();
      let out = '';
      let lastY: number | undefined;
      for (const it of content.items as TextItemLike[]) {
        if (typeof it.str !== 'string') continue;
        const y = it.transform?.[5];
        if (lastY !== undefined && y !== undefined && Math.abs(y - lastY) > 2 && !out.endsWith('\n')) out += '\n';
        else if (out && !out.endsWith('\n') && !out.endsWith(' ') && it.str && !it.str.startsWith(' ')) out += ' ';
        out += it.str;
        if (it.hasEOL) out += '\n';
        if (y !== undefined) lastY = y;
      }
      pages.push(
        out
          .replace(/[ \t]+\n/g, '\n')
          .replace(/\n{3,}/g, '\n\n')
          .trim(),
      );
      page.cleanup();
    }
    let repaired = 0;
    if (isMojibake(pages.join('\n'))) {
      for (let i = 0; i < pages.length; i++) {
        if (mojibakeScore(pages[i]) > 0 || /[ð¼½þÞ]/.test(pages[i])) {
          pages[i] = repairMojibake(pages[i]);
          repaired++;
        }
      }
    }
    return { title, pages, repaired };
  } finally {
    await doc.destroy();
  }
}
