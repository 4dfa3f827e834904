// The Warning headers of one response (kube's warning recorder,
// pkg/endpoints/filters/warning.go): code 299, agent "-", the text quoted;
// each text once; up to 4096 runes of warning text in all; past that every
// warning (those already written included) is cut to 256 runes and later
// ones are dropped once the total is reached again. The header value carries
// the text's UTF-8 bytes (as Go writes them), so any text is safe to send.
export const TRUNCATE_AT_TOTAL_RUNES = 4 * 1024;
export const TRUNCATE_ITEM_RUNES = 256;

/** Strings without surrogates (nearly all) count and cut runes as UTF-16 units, without an array of characters. */
const SURROGATE = /[\uD800-\uDFFF]/;
const runeCount = (s: string): number => (SURROGATE.test(s) ? [...s].length : s.length);
const firstRunes = (s: string, n: number): string => (SURROGATE.test(s) ? [...s].slice(0, n).join('') : s.slice(0, n));

/** `299 - "text"`: quotes and backslashes escaped, control characters as \u escapes, UTF-8 bytes as latin1 code units (what Node writes byte for byte). */
export function warningHeader(text: string): string {
  return Buffer.from(`299 - ${JSON.stringify(text)}`, 'utf8').toString('latin1');
}

export class WarningRecorder {
  private readonly recorded = new Set<string>();
  private readonly ordered: string[] = [];
  private written = 0;
  private truncating = false;
  /** The header values to send, in order. */
  headers: string[] = [];

  /** Records a warning; false when nothing changed (empty, a repeat, or past the limit). */
  add(text: string): boolean {
    if (text === '') return false;
    if (this.written >= TRUNCATE_AT_TOTAL_RUNES && this.truncating) return false;
    if (this.recorded.has(text)) return false;
    this.recorded.add(text);
    this.ordered.push(text);
    let shown = text;
    let count = runeCount(text);
    if (this.truncating && count > TRUNCATE_ITEM_RUNES) {
      shown = firstRunes(text, TRUNCATE_ITEM_RUNES);
      count = TRUNCATE_ITEM_RUNES;
    }
    if (this.written + count <= TRUNCATE_AT_TOTAL_RUNES || this.truncating) {
      this.written += count;
      this.headers.push(warningHeader(shown));
      return true;
    }
    this.truncating = true;
    this.written = 0;
    this.headers = [];
    for (const t of this.ordered) {
      const c = firstRunes(t, TRUNCATE_ITEM_RUNES);
      this.written += runeCount(c);
      this.headers.push(warningHeader(c));
    }
    return true;
  }
}
