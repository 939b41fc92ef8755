/**
 * Text formats: Markdown (headings-aware, front-matter title), plain text, LaTeX (sections,
 * \title), Jupyter notebooks (markdown and code cells), MATLAB and Python (functions as
 * blocks). Each returns sections of blocks; `ingest.ts` packs them into chunks.
 */
import { paragraphs, type Block } from './chunker.js';
import { usableTitle } from './sourceName.js';

export interface Section {
  heading?: string;
  blocks: Block[];
  /** notebook cell index (0-based) */
  cell?: number;
}

export interface Parsed {
  title?: string;
  sections: Section[];
  units?: number;
}

function unquote(s: string): string {
  const t = s.trim();
  return /^(['"]).*\1$/.test(t) ? t.slice(1, -1) : t;
}

/** Markdown: front matter, ATX and setext headings, fenced code kept whole, HTML comments out */
export function parseMarkdown(text: string, firstLine = 1): Parsed {
  const lines = text.split('\n');
  let title: string | undefined;
  let i = 0;
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((l, j) => j > 0 && /^(---|\.\.\.)\s*$/.test(l));
    if (end > 0) {
      for (const l of lines.slice(1, end)) {
        const m = /^title:\s*(.+)$/.exec(l);
        if (m) title = usableTitle(unquote(m[1]));
      }
      i = end + 1;
    }
  }
  const sections: Section[] = [];
  const path: string[] = [];
  let cur: Section = { heading: undefined, blocks: [] };
  let para: string[] = [];
  let paraStart = 0;
  let fence: string | undefined;
  let inComment = false;
  const flushPara = (endIdx: number) => {
    if (para.some((l) => l.trim())) cur.blocks.push({ text: para.join('\n'), startLine: firstLine + paraStart, endLine: firstLine + endIdx });
    para = [];
  };
  const pushSection = () => {
    if (cur.blocks.length) sections.push(cur);
  };
  for (; i < lines.length; i++) {
    let line = lines[i];
    if (fence) {
      para.push(line);
      if (line.trim().startsWith(fence)) {
        fence = undefined;
        flushPara(i);
      }
      continue;
    }
    // HTML comments (tool annotations, editor notes) are not content
    if (inComment) {
      if (line.includes('-->')) {
        inComment = false;
        line = line.slice(line.indexOf('-->') + 3);
        if (!line.trim()) continue;
      } else continue;
    }
    line = line.replace(/<!--[\s\S]*?-->/g, '');
    if (line.includes('<!--')) {
      inComment = true;
      line = line.slice(0, line.indexOf('<!--'));
      if (!line.trim()) continue;
    }
    const f = /^\s*(```+|~~~+)/.exec(line);
    if (f) {
      flushPara(i - 1);
      fence = f[1];
      para = [line];
      paraStart = i;
      continue;
    }
    const h = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    const setext = !h && para.length === 1 && /^(=+|-+)\s*$/.test(line) && para[0].trim() ? (line.trim()[0] === '=' ? 1 : 2) : 0;
    if (h || setext) {
      const level = h ? h[1].length : setext;
      const name = h ? h[2] : para[0].trim();
      if (setext) para = [];
      else flushPara(i - 1);
      pushSection();
      if (level === 1 && !title) title = usableTitle(name.replace(/[*_`]/g, ''));
      path.length = level - 1;
      path[level - 1] = name.replace(/[*_`]/g, '');
      cur = { heading: path.filter(Boolean).join(' > '), blocks: [] };
      continue;
    }
    if (!line.trim()) {
      flushPara(i - 1);
      continue;
    }
    if (!para.length) paraStart = i;
    para.push(line);
  }
  flushPara(lines.length - 1);
  pushSection();
  return { title, sections };
}

export function parsePlain(text: string): Parsed {
  return { sections: [{ blocks: paragraphs(text) }] };
}

/** LaTeX: \title, sectioning commands as headings, comments out, the preamble skipped */
export function parseLatex(text: string): Parsed {
  const lines = text.split('\n').map((l) => l.replace(/(^|[^\\])%.*$/, '$1'));
  const titleMatch = /\\title\s*(?:\[[^\]]*\])?\s*\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}/.exec(lines.join('\n'));
  const title = usableTitle(titleMatch?.[1].replace(/\\\\|\\[a-zA-Z]+\s*|[{}]/g, ' '));
  const begin = lines.findIndex((l) => /\\begin\{document\}/.test(l));
  const sections: Section[] = [];
  const path: string[] = [];
  const levels: Record<string, number> = { part: 0, chapter: 1, section: 2, subsection: 3, subsubsection: 4, paragraph: 5 };
  let cur: Section = { blocks: [] };
  let buf: string[] = [];
  let start = begin + 1;
  const flush = (end: number) => {
    // blocks that are only commands (\maketitle, \label{...}) carry no text
    cur.blocks.push(...paragraphs(buf.join('\n'), start + 1).filter((b) => b.text.replace(/\\[a-zA-Z]+\*?(\[[^\]]*\])?(\{[^}]*\})*/g, '').trim()));
    buf = [];
    start = end + 1;
  };
  for (let i = begin + 1; i < lines.length; i++) {
    const m = /^\s*\\(part|chapter|section|subsection|subsubsection|paragraph)\*?\s*(?:\[[^\]]*\])?\s*\{(.*)\}/.exec(lines[i]);
    if (m) {
      flush(i - 1);
      if (cur.blocks.length) sections.push(cur);
      const lvl = levels[m[1]];
      path.length = lvl;
      path[lvl] = m[2].replace(/\\[a-zA-Z]+\s*|[{}$]/g, '').trim();
      cur = { heading: path.filter(Boolean).join(' > '), blocks: [] };
      start = i + 1;
      continue;
    }
    if (/\\end\{document\}/.test(lines[i])) break;
    buf.push(lines[i]);
  }
  flush(lines.length);
  if (cur.blocks.length) sections.push(cur);
  return { title, sections };
}

/** MATLAB / Python: blocks cut at function and class definitions, comments kept (they explain) */
export function parseCode(text: string, lang: 'matlab' | 'python'): Parsed {
  const lines = text.split('\n');
  const def = lang === 'python' ? /^(async\s+def|def|class)\s+\w+/ : /^\s*(function|classdef)\b/;
  const blocks: Block[] = [];
  let start = 0;
  for (let i = 1; i <= lines.length; i++) {
    if (i === lines.length || def.test(lines[i])) {
      const t = lines.slice(start, i).join('\n');
      if (t.trim()) blocks.push(...paragraphs(t, start + 1));
      start = i;
    }
  }
  // paragraphs within a definition stay together when small: group consecutive ones
  return { sections: [{ blocks }] };
}

/** Jupyter: markdown cells (with their headings) and code cells; outputs are not indexed */
export function parseNotebook(text: string): Parsed {
  let nb: { cells?: { cell_type?: string; source?: string | string[] }[]; metadata?: { title?: string } };
  try {
    nb = JSON.parse(text);
  } catch {
    throw new Error('not a valid notebook (JSON)');
  }
  const cells = Array.isArray(nb.cells) ? nb.cells : [];
  const sections: Section[] = [];
  let title = usableTitle(nb.metadata?.title);
  let heading: string | undefined;
  cells.forEach((c, idx) => {
    const src = Array.isArray(c.source) ? c.source.join('') : typeof c.source === 'string' ? c.source : '';
    if (!src.trim()) return;
    if (c.cell_type === 'markdown') {
      const p = parseMarkdown(src);
      if (!title && p.title) title = p.title;
      for (const s of p.sections) {
        if (s.heading) heading = s.heading;
        sections.push({ heading: s.heading ?? heading, blocks: s.blocks, cell: idx });
      }
    } else if (c.cell_type === 'code') {
      sections.push({ heading, blocks: paragraphs(src), cell: idx });
    }
  });
  return { title, sections, units: cells.length };
}
