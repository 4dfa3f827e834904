// The Warning headers of one response (kube's warning recorder,
// pkg/endpoints/filters/warning.go): code 299, agent "-", the text quoted;
// each text once; up to 4096 runes of warning text in all; past that every
// warning (those already written included) is cut to 256 runes and later
// ones are dropped once the total is reached again. The header value carries
// the text's UTF-8 bytes (as Go writes them), so any text is safe to send.
export const TRUNCATE_AT_TOTAL_RUNES = 4 * 1024;
export const TRUNCATE_ITEM_RUNES = 256;

const runes = (s: string) => [...s];

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
    let chars = runes(text);
    if (this.truncating && chars.length > TRUNCATE_ITEM_RUNES) chars = chars.slice(0, TRUNCATE_ITEM_RUNES);
    if (this.written + chars.length <= TRUNCATE_AT_TOTAL_RUNES || this.truncating) {
      this.written += chars.length;
      this.headers.push(warningHeader(chars.join('')));
      return true;
    }
    this.truncating = true;
    this.written = 0;
    this.headers = [];
    for (const t of this.ordered) {
      const c = runes(t).slice(0, TRUNCATE_ITEM_RUNES);
      this.written += c.length;
      this.headers.push(warningHeader(c.join('')));
    }
    return true;
  }
}
