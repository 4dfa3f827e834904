// JSON kept as text, the way evanphx/json-patch v4 keeps every value it has not
// needed to look inside (a json.RawMessage), and the text Go's encoding/json
// writes. Kubernetes' JSON patch results depend on that text: a "test"
// compares unparsed values byte for byte after removing whitespace (so 1 and
// 1.0 differ, and "<" differs from the "\u003c" Go's encoder wrote for it), and
// the patched document is what Go's json.Marshal writes (HTML-escaped, map keys
// sorted) — the text the API server echoes in a 422 `patch` cause.
//
// Every function here takes text that is already known to be valid JSON.
import type { JsonValue } from './json.js';

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

function skipSpace(s: string, i: number): number {
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i;
}

/** The index just past the string literal whose opening quote is at `i`. */
function stringEnd(s: string, i: number): number {
  for (let j = i + 1; ; j++) {
    const c = s.charCodeAt(j);
    if (c === 0x5c) j++;
    else if (c === 0x22) return j + 1;
  }
}

/** The index just past the JSON value that starts at `i` (no leading space). */
export function valueEnd(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c === 0x22) return stringEnd(s, i);
  if (c !== 0x7b && c !== 0x5b) {
    let j = i;
    while (j < s.length && !isSpace(s.charCodeAt(j)) && !',]}'.includes(s[j]!)) j++;
    return j;
  }
  let depth = 0;
  for (let j = i; ; j++) {
    const d = s.charCodeAt(j);
    if (d === 0x22) j = stringEnd(s, j) - 1;
    else if (d === 0x7b || d === 0x5b) depth++;
    else if (d === 0x7d || d === 0x5d) {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
}

/** A member of an object text: its key (decoded), the raw text of its value, where the key and the value start. */
export interface RawMember {
  readonly key: string;
  readonly raw: string;
  readonly at: number;
  readonly valueAt: number;
}

/** The members of the object text at `start` (every occurrence, in order). */
export function objectMembers(s: string, start = 0): RawMember[] {
  const out: RawMember[] = [];
  let i = skipSpace(s, skipSpace(s, start) + 1);
  if (s.charCodeAt(i) === 0x7d) return out;
  for (;;) {
    const at = i;
    const keyEnd = stringEnd(s, i);
    const key = JSON.parse(s.slice(i, keyEnd)) as string;
    i = skipSpace(s, skipSpace(s, keyEnd) + 1); // past ':'
    const end = valueEnd(s, i);
    out.push({ key, raw: s.slice(i, end), at, valueAt: i });
    i = skipSpace(s, end);
    if (s.charCodeAt(i) === 0x7d) return out;
    i = skipSpace(s, i + 1); // past ','
  }
}

/** The raw texts of the elements of the array text at `start`, with where each starts. */
export function arrayElements(s: string, start = 0): { raw: string; at: number }[] {
  const out: { raw: string; at: number }[] = [];
  let i = skipSpace(s, skipSpace(s, start) + 1);
  if (s.charCodeAt(i) === 0x5d) return out;
  for (;;) {
    const end = valueEnd(s, i);
    out.push({ raw: s.slice(i, end), at: i });
    i = skipSpace(s, end);
    if (s.charCodeAt(i) === 0x5d) return out;
    i = skipSpace(s, i + 1);
  }
}

/** What a JSON text holds at its top level. */
export function textKind(s: string): 'object' | 'array' | 'string' | 'number' | 'bool' | 'null' {
  const c = s.charCodeAt(skipSpace(s, 0));
  if (c === 0x7b) return 'object';
  if (c === 0x5b) return 'array';
  if (c === 0x22) return 'string';
  if (c === 0x74 || c === 0x66) return 'bool';
  if (c === 0x6e) return 'null';
  return 'number';
}

/**
 * The text without the whitespace between tokens (Go's json.Compact); with
 * `escapeHTML`, also "<", ">", "&", U+2028 and U+2029 written as \u escapes,
 * which is what Go's json.Marshal makes of a json.RawMessage.
 */
export function compactText(s: string, escapeHTML = false): string {
  let out = '';
  let start = 0;
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      else if (escapeHTML) {
        const esc = HTML_ESCAPES[c];
        if (esc !== undefined) {
          out += s.slice(start, i) + esc;
          start = i + 1;
        }
      }
      continue;
    }
    if (c === 0x22) inString = true;
    else if (isSpace(c)) {
      out += s.slice(start, i);
      start = i + 1;
    }
  }
  return out + s.slice(start);
}

const HTML_ESCAPES: { [c: number]: string } = { 0x3c: '\\u003c', 0x3e: '\\u003e', 0x26: '\\u0026', 0x2028: '\\u2028', 0x2029: '\\u2029' };

/**
 * A decoded value as Go 1.20's encoding/json writes it (object keys in the
 * value's own order): JSON.stringify's text with Go's escapes — "<", ">", "&",
 * U+2028 and U+2029 as \u escapes, \b and \f as \u0008 and \u000c, and a lone
 * surrogate (which Go's strings cannot hold) as the replacement character.
 */
export function goEncode(v: JsonValue): string {
  return goEscapes(JSON.stringify(v));
}

/** JSON.stringify's text with Go's escapes (see goEncode). */
export function goEscapes(json: string): string {
  const text = compactText(json, true);
  return text.includes('\\') ? text.replace(/\\(u[0-9a-f]{4}|.)/g, goEscape) : text;
}

function goEscape(escape: string, code: string): string {
  if (code === 'b') return '\\u0008';
  if (code === 'f') return '\\u000c';
  if (code.length === 5 && code >= 'ud800' && code <= 'udfff') return '\\ufffd';
  return escape;
}

/** Go's ordering of map keys when it encodes a map: by their UTF-8 bytes (code point order). */
export function compareGoKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}
