/**
 * Repair of text extracted from PDFs whose symbol fonts carry a broken ToUnicode map: TeX
 * math set in such fonts comes out as Latin-1 look-alikes and unmapped glyph names, e.g.
 * `L[f(t)] = F(s)` as `L½ f ðtÞ/C138 ¼FðsÞ`. The substitution is deterministic, so it is
 * reversed, but only when the telltale pattern is there: `ð…Þ` pairs (or `/Cnnn` glyph names)
 * in otherwise Latin text, so Icelandic or Old English text is left alone.
 */
const GLYPH_NAMES: Record<string, string> = {
  '/C0': '−',
  '/C1': '·',
  '/C2': '×',
  '/C3': '∗',
  '/C4': '÷',
  '/C6': '±',
  '/C7': '∓',
  '/C8': '⊕',
  '/C10': '⊗',
  '/C14': '∘',
  '/C15': '•',
  '/C17': '≡',
  '/C18': '⊆',
  '/C19': '⊇',
  '/C20': '≤',
  '/C21': '≥',
  '/C24': '∼',
  '/C25': '≈',
  '/C26': '⊂',
  '/C27': '⊃',
  '/C28': '≪',
  '/C29': '≫',
  '/C32': '←',
  '/C33': '→',
  '/C34': '↑',
  '/C35': '↓',
  '/C36': '↔',
  '/C41': '⇒',
  '/C44': '⇔',
  '/C48': '′',
  '/C49': '∞',
  '/C50': '∈',
  '/C59': '∅',
  '/C62': '⊤',
  '/C63': '⊥',
  '/C106': '|',
  '/C107': '‖',
  '/C112': '√',
  '/C114': '∇',
  '/C136': '(',
  '/C137': ')',
  '/C138': ']',
  '/C139': '[',
  '/C140': '{',
  '/C141': '}',
};

const LATIN1: Record<string, string> = {
  ð: '(',
  Þ: ')',
  '¼': '=',
  þ: '+',
  '½': '[',
  '¶': '∂',
  '¤': '∗',
  Ã: '×',
};

/** how many mojibake signs the text shows: `ð…Þ` pairs, `/Cnnn` glyph names */
export function mojibakeScore(text: string): number {
  const pairs = (text.match(/ð[^\sðÞ]{0,40}Þ/g) ?? []).length;
  const glyphs = (text.match(/\/C\d{1,3}(?!\d)/g) ?? []).length;
  return pairs + glyphs;
}

/**
 * Whether a document's text is affected: several signs, and the symbol characters are not
 * part of ordinary words (Icelandic `maður` has ð between letters, mojibake has it before
 * a math operand and `Þ` right after).
 */
export function isMojibake(text: string): boolean {
  const signs = mojibakeScore(text);
  if (signs < 2) return false;
  const inWords = (text.match(/[a-záéíóúýæö]ð[a-záéíóúýæö]{2,}/gi) ?? []).length;
  return signs > inWords;
}

export function repairMojibake(text: string): string {
  return text.replace(/\/C\d{1,3}(?!\d)/g, (g) => GLYPH_NAMES[g] ?? g).replace(/[ðÞ¼þ½¶¤Ã]/g, (c) => LATIN1[c] ?? c);
}
