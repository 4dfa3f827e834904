// Go's strconv.Quote (%q), for cel-go's debug strings and for error texts
// that quote input as Go does: printable runes as they are, the rest escaped
// (\n, \x01, \u200b, \U000e0001); invalid UTF-8 in bytes as \xNN.

const PRINTABLE = /[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u;

function quoteRune(cp: number, quote: number): string {
  switch (cp) {
    case 7: return '\\a';
    case 8: return '\\b';
    case 12: return '\\f';
    case 10: return '\\n';
    case 13: return '\\r';
    case 9: return '\\t';
    case 11: return '\\v';
    case 92: return '\\\\';
  }
  if (cp === quote) return '\\' + String.fromCharCode(cp);
  const ch = String.fromCodePoint(cp);
  if (cp < 0x80) {
    if (cp >= 0x20 && cp < 0x7f) return ch;
    return '\\x' + cp.toString(16).padStart(2, '0');
  }
  if (PRINTABLE.test(ch)) return ch;
  if (cp < 0x10000) return '\\u' + cp.toString(16).padStart(4, '0');
  return '\\U' + cp.toString(16).padStart(8, '0');
}

/** Go's strconv.Quote of a (valid UTF-8) string. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    // A lone surrogate reaches Go as the UTF-8 of U+FFFD (how Node encodes it), which prints as itself.
    out += quoteRune(cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp, 34);
  }
  return out + '"';
}

/** Go's strconv.Quote of string(bytes): invalid UTF-8 bytes print as \xNN. */
export function goQuoteBytes(b: Uint8Array): string {
  let out = '"';
  let i = 0;
  while (i < b.length) {
    const [cp, size] = decodeRune(b, i);
    if (cp < 0) out += '\\x' + b[i].toString(16).padStart(2, '0');
    else out += quoteRune(cp, 34);
    i += size;
  }
  return out + '"';
}

/** One UTF-8 rune at i: [code point or -1 when invalid, bytes used]. */
function decodeRune(b: Uint8Array, i: number): [number, number] {
  const c = b[i];
  if (c < 0x80) return [c, 1];
  let need = 0;
  let cp = 0;
  let min = 0;
  if (c >= 0xc2 && c <= 0xdf) { need = 1; cp = c & 0x1f; min = 0x80; }
  else if (c >= 0xe0 && c <= 0xef) { need = 2; cp = c & 0x0f; min = 0x800; }
  else if (c >= 0xf0 && c <= 0xf4) { need = 3; cp = c & 0x07; min = 0x10000; }
  else return [-1, 1];
  if (i + need >= b.length) return [-1, 1];
  for (let k = 1; k <= need; k++) {
    const d = b[i + k];
    if ((d & 0xc0) !== 0x80) return [-1, 1];
    cp = (cp << 6) | (d & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return [-1, 1];
  return [cp, need + 1];
}
