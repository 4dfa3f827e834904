// Strings by code points (CEL's size and indices count Unicode code points,
// JavaScript strings are UTF-16): the standard functions (size, contains,
// startsWith, endsWith, matches with RE2 semantics via re2js) and the
// strings extension (charAt, indexOf, lastIndexOf, lowerAscii, upperAscii,
// replace, split, substring, trim, join, reverse, quote) with cel-go's errors.
// RE2 matching lives in regex.ts (re-exported here).

import { CelError } from '../values.js';

export { compileRegex, matches } from './regex.js';

type Int = number | bigint;

const SURROGATE = /[\uD800-\uDFFF]/;

/** Whether s has a surrogate (a code point above U+FFFF). The regular
 * expression scan is native and far faster than a character loop. */
const hasSurrogate = (s: string): boolean => SURROGATE.test(s);

/** size(string): the number of code points. */
export function sizeString(s: string): number {
  if (!SURROGATE.test(s)) return s.length;
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** The code points of s (only called when s has surrogates). */
const codePoints = (s: string): string[] => Array.from(s);

// --- strings extension ---------------------------------------------------------

const outOfRange = (i: Int): CelError => new CelError(`index out of range: ${i}`);

export function charAt(s: string, i: Int): string {
  if (!hasSurrogate(s)) {
    if (i < 0 || i > s.length) throw outOfRange(i);
    return i === s.length ? '' : s[Number(i)];
  }
  const cps = codePoints(s);
  if (i < 0 || i > cps.length) throw outOfRange(i);
  return i === cps.length ? '' : cps[Number(i)];
}

/** Index of sub in cps at or after off, as cel-go (code points). */
function indexIn(cps: ArrayLike<string>, sub: ArrayLike<string>, off: number): number {
  for (let i = off; i <= cps.length - sub.length; i++) {
    let found = true;
    for (let j = 0; j < sub.length; j++) {
      if (cps[i + j] !== sub[j]) {
        found = false;
        break;
      }
    }
    if (found) return i;
  }
  return -1;
}

// Offsets: a negative one is an error; with an empty substring the offset is
// clamped to the length (newest cel-go); otherwise an offset at or past the
// end is `index out of range` as in the cel-go Kubernetes v1.27 vendors and
// the conformance suite (newest cel-go returns -1 there).

export function indexOf(s: string, sub: string, offset: Int = 0): Int {
  if (offset < 0) throw outOfRange(offset);
  const wide = hasSurrogate(s) || hasSurrogate(sub);
  const cps: ArrayLike<string> = wide ? codePoints(s) : s;
  if (sub === '') return offset > cps.length ? cps.length : offset;
  if (offset >= cps.length) throw outOfRange(offset);
  if (!wide) return s.indexOf(sub, Number(offset));
  return indexIn(cps, codePoints(sub), Number(offset));
}

function lastIndexIn(cps: ArrayLike<string>, sub: ArrayLike<string>, off: number): number {
  if (off > cps.length - sub.length) off = cps.length - sub.length;
  for (let i = off; i >= 0; i--) {
    let found = true;
    for (let j = 0; j < sub.length; j++) {
      if (cps[i + j] !== sub[j]) {
        found = false;
        break;
      }
    }
    if (found) return i;
  }
  return -1;
}

export function lastIndexOf(s: string, sub: string, offset?: Int): Int {
  const wide = hasSurrogate(s) || hasSurrogate(sub);
  const cps: ArrayLike<string> = wide ? codePoints(s) : s;
  if (offset === undefined) {
    if (sub === '') return cps.length;
    if (s.length < sub.length) return -1;
    offset = cps.length - 1;
  }
  if (offset < 0) throw outOfRange(offset);
  if (sub === '') return offset > cps.length ? cps.length : offset;
  if (offset >= cps.length) throw outOfRange(offset);
  if (!wide) return s.lastIndexOf(sub, Number(offset));
  return lastIndexIn(cps, codePoints(sub), Number(offset));
}

const ASCII_UPPER = /[A-Z]+/g;
const ASCII_LOWER = /[a-z]+/g;

const NON_ASCII = /[^\x00-\x7f]/;

/** ASCII letters only: an ASCII string's toLowerCase is exactly that; other
 * strings map their ASCII runs. */
export const lowerAscii = (s: string): string =>
  NON_ASCII.test(s) ? s.replace(ASCII_UPPER, (m) => m.toLowerCase()) : s.toLowerCase();
export const upperAscii = (s: string): string =>
  NON_ASCII.test(s) ? s.replace(ASCII_LOWER, (m) => m.toUpperCase()) : s.toUpperCase();

/** Go's strings.Replace(s, old, new, n); n < 0 replaces all. */
export function replace(s: string, old: string, rep: string, n: Int = -1): string {
  if (n === 0 || old === rep) return s;
  const limit = n < 0 ? Infinity : Number(n);
  if (old === '') {
    // Go inserts rep before each code point and at the end, up to n times.
    const cps = codePoints(s);
    let out = '';
    let count = 0;
    for (let i = 0; i <= cps.length; i++) {
      if (count < limit) {
        out += rep;
        count++;
      }
      if (i < cps.length) out += cps[i];
    }
    return out;
  }
  if (limit === Infinity) return s.split(old).join(rep);
  let out = '';
  let from = 0;
  for (let count = 0; count < limit; count++) {
    const at = s.indexOf(old, from);
    if (at < 0) break;
    out += s.slice(from, at) + rep;
    from = at + old.length;
  }
  return out + s.slice(from);
}

/** Go's strings.SplitN(s, sep, n); n < 0 splits all, n == 0 gives []. */
export function split(s: string, sep: string, n: Int = -1): string[] {
  if (n === 0) return [];
  const limit = n < 0 ? Infinity : Number(n);
  if (sep === '') {
    const cps = codePoints(s);
    if (cps.length <= limit) return cps;
    const head = cps.slice(0, limit - 1);
    head.push(cps.slice(limit - 1).join(''));
    return head;
  }
  if (limit === Infinity) return s.split(sep);
  const out: string[] = [];
  let from = 0;
  while (out.length < limit - 1) {
    const at = s.indexOf(sep, from);
    if (at < 0) break;
    out.push(s.slice(from, at));
    from = at + sep.length;
  }
  out.push(s.slice(from));
  return out;
}

export function substring(s: string, start: Int, end?: Int): string {
  const wide = hasSurrogate(s);
  const len = wide ? sizeString(s) : s.length;
  if (end === undefined) {
    if (start < 0 || start > len) throw outOfRange(start);
    return wide ? codePoints(s).slice(Number(start)).join('') : s.slice(Number(start));
  }
  if (start > end) throw new CelError(`invalid substring range. start: ${start}, end: ${end}`);
  if (start < 0 || start > len) throw outOfRange(start);
  if (end < 0 || end > len) throw outOfRange(end);
  return wide ? codePoints(s).slice(Number(start), Number(end)).join('') : s.slice(Number(start), Number(end));
}

/** Go's unicode.IsSpace. */
export function isGoSpace(c: number): boolean {
  if (c <= 0xff) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0x85 || c === 0xa0;
  return c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

/** Go's strings.TrimSpace (Unicode White_Space, not JavaScript's trim()). */
export function trim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isGoSpace(s.charCodeAt(a))) a++;
  while (b > a && isGoSpace(s.charCodeAt(b - 1))) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

export function join(list: readonly unknown[], sep = ''): string {
  let out = '';
  for (let i = 0; i < list.length; i++) {
    const e = list[i];
    if (typeof e !== 'string') throw new CelError(`join: invalid input: ${String(e)}`);
    out += i === 0 ? e : sep + e;
  }
  return out;
}

export function reverse(s: string): string {
  if (!hasSurrogate(s)) {
    let out = '';
    for (let i = s.length - 1; i >= 0; i--) out += s[i];
    return out;
  }
  return codePoints(s).reverse().join('');
}

const QUOTE_ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '\\': '\\\\',
  '"': '\\"',
};

/** strings.quote(s): a double-quoted CEL string literal; invalid UTF-8 (lone
 * surrogates here) becomes U+FFFD as cel-go's sanitize does. */
export function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    if (ch.length === 1 && c >= 0xd800 && c <= 0xdfff) out += '\ufffd';
    else out += QUOTE_ESCAPES[ch] ?? ch;
  }
  return out + '"';
}
