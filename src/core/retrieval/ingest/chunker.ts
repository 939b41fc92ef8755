/**
 * Word-window chunking shared by every format. Blocks (paragraphs, code blocks, cells) are
 * packed into chunks of about TARGET_WORDS words without crossing a section or a page; a
 * block longer than MAX_WORDS is cut into windows at line (or, failing that, word) bounds.
 */
export const TARGET_WORDS = 200;
export const MAX_WORDS = 280;
/** a trailing piece shorter than this joins the chunk before it */
const MIN_WORDS = 40;

export interface Block {
  text: string;
  startLine: number;
  endLine: number;
}

export interface Piece {
  text: string;
  startLine: number;
  endLine: number;
}

/** whether a UTF-16 code unit is JavaScript regex whitespace (`\s`) */
function isSpace(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** the number of `\S+` runs, counted without allocating them (called for every block and chunk) */
export function wordCount(s: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < s.length; i++) {
    const w = !isSpace(s.charCodeAt(i));
    if (w && !inWord) n++;
    inWord = w;
  }
  return n;
}

/** cut one long block into windows of about TARGET_WORDS at line bounds where it can */
function splitBlock(b: Block): Piece[] {
  const lines = b.text.split('\n');
  const out: Piece[] = [];
  let cur: string[] = [];
  let curWords = 0;
  let start = b.startLine;
  const lineNo = (i: number) => Math.min(b.startLine + i, b.endLine);
  const flush = (endIdx: number) => {
    if (cur.length) out.push({ text: cur.join('\n'), startLine: start, endLine: lineNo(endIdx) });
    cur = [];
    curWords = 0;
    start = lineNo(endIdx + 1);
  };
  for (let i = 0; i < lines.length; i++) {
    const w = wordCount(lines[i]);
    if (w > MAX_WORDS) {
      // one very long line (PDF paragraphs, minified text): cut by words
      flush(i - 1);
      const words = lines[i].split(/\s+/).filter(Boolean);
      for (let j = 0; j < words.length; j += TARGET_WORDS) {
        out.push({ text: words.slice(j, j + TARGET_WORDS).join(' '), startLine: lineNo(i), endLine: lineNo(i) });
      }
      start = lineNo(i + 1);
      continue;
    }
    if (curWords + w > TARGET_WORDS && curWords > 0) flush(i - 1);
    cur.push(lines[i]);
    curWords += w;
  }
  flush(lines.length - 1);
  return out;
}

/** pack blocks (one section or page) into pieces of about TARGET_WORDS words */
export function packBlocks(blocks: Block[]): Piece[] {
  const pieces: Piece[] = [];
  let cur: Block[] = [];
  let words = 0;
  const flush = () => {
    if (!cur.length) return;
    pieces.push({ text: cur.map((b) => b.text).join('\n\n'), startLine: cur[0].startLine, endLine: cur[cur.length - 1].endLine });
    cur = [];
    words = 0;
  };
  for (const b of blocks) {
    const w = wordCount(b.text);
    if (w === 0) continue;
    if (w > MAX_WORDS) {
      flush();
      pieces.push(...splitBlock(b));
      continue;
    }
    if (words + w > MAX_WORDS || (words >= TARGET_WORDS && w > 0)) flush();
    cur.push(b);
    words += w;
  }
  flush();
  // a short tail joins its predecessor when the two still fit
  if (pieces.length >= 2) {
    const last = pieces[pieces.length - 1];
    const prev = pieces[pieces.length - 2];
    if (wordCount(last.text) < MIN_WORDS && wordCount(prev.text) + wordCount(last.text) <= MAX_WORDS + MIN_WORDS) {
      pieces.splice(pieces.length - 2, 2, { text: `${prev.text}\n\n${last.text}`, startLine: prev.startLine, endLine: last.endLine });
    }
  }
  return pieces;
}

/** split text into blank-line separated blocks with 1-based line ranges (offset: first line's number) */
export function paragraphs(text: string, firstLine = 1): Block[] {
  const lines = text.split('\n');
  const out: Block[] = [];
  let cur: string[] = [];
  let start = firstLine;
  lines.forEach((l, i) => {
    if (l.trim() === '') {
      if (cur.length) out.push({ text: cur.join('\n'), startLine: start, endLine: firstLine + i - 1 });
      cur = [];
    } else {
      if (!cur.length) start = firstLine + i;
      cur.push(l);
    }
  });
  if (cur.length) out.push({ text: cur.join('\n'), startLine: start, endLine: firstLine + lines.length - 1 });
  return out;
}
