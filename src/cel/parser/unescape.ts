// String and bytes literal values (cel-go parser/unescape.go semantics):
// quotes and prefixes stripped, CR/CRLF normalised to LF, escapes decoded.
// In strings \x and octal escapes name code points (so "\xC3" is "Ã"); in
// bytes they are raw bytes and \u, \U are errors. Code points that are not
// valid Unicode scalar values (surrogates, > 0x10FFFF) are errors.

export class UnescapeError {
  constructor(readonly message: string) {}
}

/** The body of a literal (text after any b/B prefix): quotes stripped, raw flag. */
function body(text: string): { s: string; raw: boolean } {
  let raw = false;
  let s = text;
  const c = s.charCodeAt(0);
  if (c === 114 || c === 82) {
    raw = true;
    s = s.slice(1);
  }
  const q = s.length >= 6 && s.charCodeAt(1) === s.charCodeAt(0) && s.charCodeAt(2) === s.charCodeAt(0) ? 3 : 1;
  s = s.slice(q, s.length - q);
  if (s.indexOf('\r') >= 0) s = s.replace(/\r\n?/g, '\n');
  return { s, raw };
}

function hexVal(c: number): number {
  if (c <= 57) return c - 48;
  if (c <= 70) return c - 55;
  return c - 87;
}

/** Decodes one escape at s[i] === '\\'; returns [value, next index]. */
function escape(s: string, i: number, isBytes: boolean): [number, number, boolean] {
  const c = s.charCodeAt(i + 1);
  switch (c) {
    case 97: return [7, i + 2, false];
    case 98: return [8, i + 2, false];
    case 102: return [12, i + 2, false];
    case 110: return [10, i + 2, false];
    case 114: return [13, i + 2, false];
    case 116: return [9, i + 2, false];
    case 118: return [11, i + 2, false];
    case 92: case 39: case 34: case 96: case 63: return [c, i + 2, false];
  }
  let count = 0;
  if (c === 120 || c === 88) count = 2;
  else if (c === 117) count = 4;
  else if (c === 85) count = 8;
  if (count > 0) {
    if (count > 2 && isBytes) throw new UnescapeError('unable to unescape string');
    let v = 0;
    for (let k = 0; k < count; k++) v = v * 16 + hexVal(s.charCodeAt(i + 2 + k));
    if (!isBytes && !validRune(v)) throw new UnescapeError('invalid unicode code point');
    return [v, i + 2 + count, count > 2 || !isBytes];
  }
  // Octal \[0-3][0-7][0-7]
  const v = (c - 48) * 64 + (s.charCodeAt(i + 2) - 48) * 8 + (s.charCodeAt(i + 3) - 48);
  return [v, i + 4, !isBytes];
}

function validRune(v: number): boolean {
  return v <= 0x10ffff && !(v >= 0xd800 && v <= 0xdfff);
}

/** The value of a STRING token. */
export function unescapeString(text: string): string {
  const { s, raw } = body(text);
  if (raw || s.indexOf('\\') < 0) return s;
  let out = '';
  let from = 0;
  let i = s.indexOf('\\');
  while (i >= 0) {
    out += s.slice(from, i);
    const [v, next] = escape(s, i, false);
    out += String.fromCodePoint(v);
    from = next;
    i = s.indexOf('\\', next);
  }
  return out + s.slice(from);
}

const encoder = new TextEncoder();

/** The value of a BYTES token (text without its b/B prefix). */
export function unescapeBytes(text: string): Uint8Array {
  const { s, raw } = body(text);
  if (raw || s.indexOf('\\') < 0) return encoder.encode(s);
  const out: number[] = [];
  let from = 0;
  let i = s.indexOf('\\');
  while (i >= 0) {
    if (i > from) for (const b of encoder.encode(s.slice(from, i))) out.push(b);
    const [v, next, encode] = escape(s, i, true);
    if (encode) for (const b of encoder.encode(String.fromCodePoint(v))) out.push(b);
    else out.push(v & 0xff);
    from = next;
    i = s.indexOf('\\', next);
  }
  if (from < s.length) for (const b of encoder.encode(s.slice(from))) out.push(b);
  return Uint8Array.from(out);
}
