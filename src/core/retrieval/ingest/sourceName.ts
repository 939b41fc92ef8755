/**
 * Human source names for citations: a title the file declares (front matter, PDF metadata,
 * LaTeX \title, a Markdown H1), else the file name cleaned of scan and export artefacts.
 */
export function cleanFileName(relPath: string): string {
  const base = relPath.split('/').pop() ?? relPath;
  let s = base.replace(/\.[A-Za-z0-9]{1,6}$/, '');
  s = s
    .replace(/[_+]+/g, ' ')
    .replace(/\b(scan|img|dsc|document|doc)[\s_-]?\d{2,}\b/gi, ' ')
    .replace(/[\[(]\s*(\d{1,3}|copy|ocr|scanned|compressed|final|draft|v\d+)\s*[\])]/gi, ' ')
    .replace(/[\s-](ocr|scanned|compressed|optimi[sz]ed|final|copy|v\d+)\b/gi, ' ')
    .replace(/\b[0-9a-f]{16,}\b/gi, ' ')
    .replace(/[_+]+/g, ' ')
    .replace(/(?<=[a-z])-(?=[a-z])/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!s) s = base;
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** a declared title worth showing: not empty, not a tool's default, not a file name */
export function usableTitle(t: string | undefined): string | undefined {
  if (!t) return undefined;
  const s = t.replace(/\s+/g, ' ').trim();
  if (s.length < 3 || s.length > 200) return undefined;
  if (/^(untitled|microsoft word|title|document\d*|slide \d+|powerpoint presentation)\b/i.test(s)) return undefined;
  if (/\.(pdf|docx?|tex|dvi|ps|md|txt)$/i.test(s)) return undefined;
  // eslint-disable-next-line no-control-regex -- control bytes mark a title decoded from binary junk
  if (/[ÿ\ufffd]|[\x00-\x08]/.test(s)) return undefined;
  return s;
}
