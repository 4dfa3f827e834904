// Go's strconv.Quote, for error texts that quote input with %q: printable
// runes as they are, the rest escaped (\n, \x01, \u200b, \U0001f000).
const PRINTABLE = /[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u;

export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (c < 0x80 ? c >= 0x20 && c < 0x7f : PRINTABLE.test(ch) && !(c >= 0xd800 && c <= 0xdfff)) out += ch;
    else if (c === 7) out += '\\a';
    else if (c === 8) out += '\\b';
    else if (c === 12) out += '\\f';
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (c === 9) out += '\\t';
    else if (c === 11) out += '\\v';
    else if (c < 0x80) out += '\\x' + c.toString(16).padStart(2, '0');
    else if (c >= 0xd800 && c <= 0xdfff) out += '\ufffd'; // Go reads a lone surrogate as U+FFFD, which it prints
    else if (c < 0x10000) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += '\\U' + c.toString(16).padStart(8, '0');
  }
  return out + '"';
}
