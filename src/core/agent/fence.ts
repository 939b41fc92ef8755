/**
 * Workspace text given to a model is data, never instructions: it goes inside
 * `<data id="1" source="…">…</data>` fences, and nothing in it can end a fence or open one.
 *
 * - The attributes are ours: `id` is a number, and `source` (a file name, a Markdown or
 *   front-matter title, a folder name: all written by whoever wrote the workspace) is put on
 *   one line, stripped of invisible characters, cut to a length, has every tag-like sequence
 *   defused and `& < > "` escaped.
 * - The text keeps its words. Only what could read as an opening or closing data tag is
 *   rewritten, to `[data` or `[/data]`, which no model reads as a fence. "Could read as" is
 *   judged on a checking copy of the text: NFKC-normalised (full-width `＜／ｄａｔａ＞`), with
 *   marks, zero-width and other invisible characters removed (`<\u200b/data>`), look-alike
 *   brackets and slashes mapped (`‹/data›`, `⟨∕data⟩`), HTML entities, percent and backslash
 *   escapes decoded (`&lt;/data&gt;`, `&amp;lt;/data&gt;`, `\u003c/data>`, `%3C/data%3E`),
 *   case folded (`</DATA >`), whitespace allowed around the slash and after the name
 *   (`</ data`, `<data\n`), and after `<` when a `>` closes the name (`< /data>`; without
 *   it `x < data_len` and `sort < /data/in.txt` are code and stay). Each sequence found
 *   there is replaced in the original text.
 */

/** a fence's attributes: the passage number (cited as [id]) and where the text comes from */
export type Fence = (text: string, source?: string, id?: number) => string;

const MAX_SOURCE = 300;

/** look-alikes NFKC keeps apart from < > / (and a few letters of "data") */
const CONFUSABLE: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, {
  '\u2039': '<',
  '\u02c2': '<',
  '\u1438': '<',
  '\u3008': '<',
  '\u27e8': '<',
  '\u276c': '<',
  '\u276e': '<',
  '\u29fc': '<',
  '\u2329': '<',
  '\u227a': '<',
  '\u1433': '>',
  '\u203a': '>',
  '\u02c3': '>',
  '\u3009': '>',
  '\u27e9': '>',
  '\u276d': '>',
  '\u276f': '>',
  '\u29fd': '>',
  '\u232a': '>',
  '\u227b': '>',
  '\u2215': '/',
  '\u2044': '/',
  '\u29f8': '/',
  '\u2571': '/',
  '\u27cb': '/',
  '\u0430': 'a',
  '\u0251': 'a',
  '\u03b1': 'a',
  '\u0501': 'd',
  '\u217e': 'd',
  '\u0442': 't',
  '\u03c4': 't',
});

/** HTML named references that matter here (case-insensitive; `;` optional as in legacy HTML) */
const NAMED: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, {
  lt: '<',
  gt: '>',
  sol: '/',
  amp: '&',
  lang: '<',
  rang: '>',
  langle: '<',
  rangle: '>',
  lsaquo: '<',
  rsaquo: '>',
  frasl: '/',
  quot: '"',
  nbsp: ' ',
});

/** invisible when checking: format characters (zero-width, bidi, BOM, tags), marks, fillers, controls other than whitespace */
const INVISIBLE = /^(?:[\p{Cf}\p{M}\u115f\u1160\u3164\uffa0\u180e]|[\p{Cc}](?<![\t\n\v\f\r\u0085]))$/u;

/** one piece of the checking copy and the span of the original text it stands for */
interface Unit {
  s: string;
  a: number;
  b: number;
}

const readsMemo = new Map<string, string>();

/** a character as it reads: NFKC, marks and invisible characters gone, look-alikes mapped, lower case */
function reads(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (cp < 0x80) return (cp < 0x20 && !(cp >= 0x09 && cp <= 0x0d)) || cp === 0x7f ? '' : ch.toLowerCase();
  const known = readsMemo.get(ch);
  if (known !== undefined) return known;
  const out = readsUncached(ch);
  if (readsMemo.size < 10_000) readsMemo.set(ch, out);
  return out;
}

function readsUncached(ch: string): string {
  let out = '';
  for (const c of ch.normalize('NFKC').normalize('NFD')) {
    if (INVISIBLE.test(c)) continue;
    out += (CONFUSABLE[c] ?? c).toLowerCase();
  }
  return out;
}

/** one escape (HTML reference, percent or backslash escape) at the start of s, decoded, or undefined */
const ESCAPE =
  /&#(\d{1,7});?|&#x([0-9a-f]{1,6});?|&(langle|rangle|lsaquo|rsaquo|frasl|lang|rang|quot|nbsp|amp|sol|lt|gt);?|%([0-9a-f]{2})|\\u\{([0-9a-f]{1,6})\}|\\u([0-9a-f]{4})|\\x([0-9a-f]{2})/iy;

function decodeAt(s: string, i: number): { text: string; length: number } | undefined {
  const c = s[i];
  if (c !== '&' && c !== '%' && c !== '\\') return undefined;
  ESCAPE.lastIndex = i;
  const m = ESCAPE.exec(s);
  if (!m) return undefined;
  let text: string | undefined;
  if (m[3] !== undefined) text = NAMED[m[3].toLowerCase()];
  else {
    const hex = m[2] ?? m[4] ?? m[5] ?? m[6] ?? m[7];
    const cp = m[1] !== undefined ? Number(m[1]) : parseInt(hex!, 16);
    if (cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff)) text = String.fromCodePoint(cp);
  }
  return text === undefined ? undefined : { text: reads(text), length: m[0].length };
}

/** the checking copy of a text, as units (each non-empty) that remember the span of the original they stand for */
function checkingUnits(text: string): Unit[] {
  let units: Unit[] = [];
  let i = 0;
  for (const ch of text) {
    const s = reads(ch);
    if (s) units.push({ s, a: i, b: i + ch.length });
    i += ch.length;
  }
  // escapes decoded, and decoded again on the result (`&amp;lt;` -> `&lt;` -> `<`), a few rounds
  for (let round = 0; round < 3; round++) {
    const joined = units.map((u) => u.s).join('');
    if (!/[&%\\]/.test(joined)) break;
    const owner: number[] = [];
    const starts: number[] = [];
    units.forEach((u, k) => {
      starts.push(owner.length);
      for (let j = 0; j < u.s.length; j++) owner.push(k);
    });
    const next: Unit[] = [];
    let k = 0;
    for (let p = 0; p < joined.length;) {
      const d = decodeAt(joined, p);
      if (!d) {
        p++;
        continue;
      }
      const first = owner[p];
      const last = owner[p + d.length - 1];
      const lastEnd = starts[last] + units[last].s.length;
      while (k < first) next.push(units[k++]);
      const s = joined.slice(starts[first], p) + d.text + joined.slice(p + d.length, lastEnd);
      if (s) next.push({ s, a: units[first].a, b: units[last].b });
      k = last + 1;
      p = lastEnd;
    }
    if (k === 0 && next.length === 0) break; // nothing decoded
    while (k < units.length) next.push(units[k++]);
    units = next;
  }
  return units;
}

/**
 * `<data`, `</data`, `<\/data`, `</ data` (then anything but a letter), and with whitespace
 * after `<` only when a `>` follows the name (`< /data>`, `< data >`): `x < data_len` and
 * `sort < /data/in.txt` are code, not tags, and stay as they are.
 */
const TAG = /<(?:(\\*\/[\s/\\]*)?data(?![a-z])(\s*>)?|\s+(\\*\/[\s/\\]*)?data(\s*>))/g;

export interface DataTagSpan {
  /** the span of the original text */
  start: number;
  end: number;
  /** `</data…` rather than `<data…` */
  closing: boolean;
  /** the `>` right after the name is part of the span */
  complete: boolean;
}

/** where text has something that could read as an opening or closing data tag */
export function dataTagSpans(text: string): DataTagSpan[] {
  const out: DataTagSpan[] = [];
  // plain printable ASCII without escapes reads as itself (lower-cased), position for position
  if (/^[\t\n\v\f\r\x20-\x7e]*$/.test(text) && !/[&%\\]/.test(text)) {
    const lower = text.toLowerCase();
    if (!lower.includes('data')) return out;
    TAG.lastIndex = 0;
    for (let m; (m = TAG.exec(lower));)
      out.push({ start: m.index, end: m.index + m[0].length, closing: (m[1] ?? m[3]) !== undefined, complete: (m[2] ?? m[4]) !== undefined });
    return out;
  }
  const units = checkingUnits(text);
  const joined = units.map((u) => u.s).join('');
  if (!joined.includes('data')) return out;
  const owner: number[] = [];
  units.forEach((u, k) => {
    for (let j = 0; j < u.s.length; j++) owner.push(k);
  });
  TAG.lastIndex = 0;
  for (let m; (m = TAG.exec(joined));) {
    const first = units[owner[m.index]];
    const last = units[owner[m.index + m[0].length - 1]];
    out.push({ start: first.a, end: last.b, closing: (m[1] ?? m[3]) !== undefined, complete: (m[2] ?? m[4]) !== undefined });
  }
  return out;
}

/** the text with every data-tag look-alike rewritten as `[data` / `[/data]`; the rest unchanged */
export function defuseDataTags(text: string): string {
  const spans = dataTagSpans(text);
  if (!spans.length) return text;
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + (s.closing ? '[/data' : '[data') + (s.complete ? ']' : '');
    at = s.end;
  }
  return out + text.slice(at);
}

/** a source label made safe for an attribute: one line, visible characters, no tags, escaped, bounded */
export function fenceAttribute(source: string): string {
  let s = source.normalize('NFKC');
  s = Array.from(s, (c) => (/[\p{Cc}\p{Zl}\p{Zp}]/u.test(c) ? ' ' : /[\p{Cf}]/u.test(c) ? '' : c)).join('');
  s = defuseDataTags(s).replace(/\s+/g, ' ').trim();
  if (s.length > MAX_SOURCE)
    s = `${Array.from(s)
      .slice(0, MAX_SOURCE - 1)
      .join('')}…`;
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * Workspace text fenced for a model: `<data id="N" source="…">` (each attribute only when
 * given), the text with tag look-alikes defused, `</data>`. Exactly one opening and one
 * closing fence, whatever the text and the source contain.
 */
export const fenceData: Fence = (text, source, id) => {
  const attrs = (id !== undefined && Number.isSafeInteger(id) ? ` id="${id}"` : '') + (source ? ` source="${fenceAttribute(source)}"` : '');
  return `<data${attrs}>\n${defuseDataTags(String(text))}\n</data>`;
};
