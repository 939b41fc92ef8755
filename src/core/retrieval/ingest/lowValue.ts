/**
 * Low-value chunks that match many queries and explain nothing: back-of-book index pages
 * (every term of the field, each with page numbers), tables of contents, bibliographies.
 * They are dropped at ingest. The rules look at structure, not vocabulary, so a prose
 * paragraph that mentions a few years or page numbers stays.
 */
import { wordCount } from './chunker.js';

export type LowValueReason = 'index' | 'contents' | 'bibliography';

const HEADING_RULES: [RegExp, LowValueReason][] = [
  [/^(index|subject index|author index)$/i, 'index'],
  [/^(contents|table of contents|list of (figures|tables))$/i, 'contents'],
  [/^(references|bibliography|works cited|literature cited|further reading)$/i, 'bibliography'],
];

export function lowValueReason(text: string, heading?: string): LowValueReason | undefined {
  const last = heading
    ?.split(' > ')
    .pop()
    ?.replace(/^[\d.\s]+/, '')
    .trim();
  if (last) for (const [re, why] of HEADING_RULES) if (re.test(last)) return why;

  const nTokens = wordCount(text);
  if (nTokens < 15) return undefined;
  let lines_: string[] | undefined;
  const lines = () =>
    (lines_ ??= text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean));

  // index: "term, 12, 45–47" entries; many bare page numbers among the words (whole
  // whitespace-delimited tokens, counted in one scan)
  const numeric = (text.match(/(?<!\S)\d{1,4}(?:[–-]\d{1,4})?[,;.]?(?!\S)/g)?.length ?? 0) / nTokens;
  // the entry scan is the costly part (each start tries up to 60 characters): only when numbers abound
  if (numeric >= 0.2) {
    const entries = (text.match(/[A-Za-z)][^\d\n,]{0,60},\s*\d{1,4}(?:[–-]\d{1,4})?(?:\s*,\s*\d{1,4}(?:[–-]\d{1,4})?)*/g) ?? []).length;
    if (entries >= 6) return 'index';
  }

  // table of contents: most lines end in a page number, often after dot leaders
  if (/\d\s*$/m.test(text) && lines().length >= 5) {
    const ls = lines();
    const endsInPage = ls.filter((l) => /(\.{2,}|…|\s)\s*\d{1,4}$/.test(l) && /[A-Za-z]/.test(l)).length;
    const leaders = ls.filter((l) => /(\.\s?){4,}|…{2,}/.test(l)).length;
    if (endsInPage / ls.length >= 0.6 && (leaders >= 2 || numeric >= 0.1)) return 'contents';
    if (/^(contents|table of contents)\b/i.test(ls[0]) && endsInPage / ls.length >= 0.4) return 'contents';
  }

  // bibliography: entry after entry with a year and citation furniture
  const years = (text.match(/\b(19|20)\d{2}[a-z]?\b/g) ?? []).length;
  if (years < 5) return undefined;
  const furniture = (
    text.match(
      /\bet al\.|\bpp?\.\s*\d|\bvol\.\s*\d|\bno\.\s*\d|\bdoi\b|arXiv|ISBN|\bProc\.|\bTrans\.|\bJournal\b|\bIEEE\b|\bPress\b|\bSpringer\b|\bWiley\b|\bAutomatica\b|\bEds?\.\s/gi,
    ) ?? []
  ).length;
  const entryStarts = lines().filter((l) => /^(\[\d+\]|\d+\.\s+[A-Z]|[A-Z][a-z]+,\s+[A-Z]\.)/.test(l)).length;
  const perWord = (years + furniture) / nTokens;
  if (years >= 5 && furniture >= 5 && (perWord >= 0.08 || entryStarts >= 4)) return 'bibliography';
  return undefined;
}
