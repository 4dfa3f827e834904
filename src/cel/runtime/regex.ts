// RE2 matching for `matches` (and any library that searches with RE2): every
// pattern is compiled by re2js, so validity and error texts are RE2's (as Go's
// regexp package words them), and programs are cached per pattern string.
//
// Speed: re2js is a faithful but slow port (microseconds per match). A
// pattern in a small subset whose meaning is the same in RE2 and JavaScript,
// and whose backtracking cost is provably linear, is also compiled as a
// JavaScript RegExp (flag u) and matched natively:
//
//   atoms        literals, `.` (as RE2: any code point but \n), escaped
//                punctuation, \n \t \r \f \v, \d \D \w \W (ASCII in both),
//                [classes] of those
//   groups       (…) and (?:…); only `?` may follow a group
//   quantifiers  * + ? {n} {n,} {n,m} (m ≤ 1000 as RE2), lazy forms
//   anchors      ^ $ (no multi-line mode in either)
//   linearity    at most one unbounded quantifier (* + {n,}), and only when
//                the pattern starts with ^ outside any alternation (so one
//                start position is tried), and the other choice points (?,
//                {n,m}, |) multiply to at most 256 combinations: backtracking
//                is then O(256 · n · |pattern|), bounded by the pattern times
//                the input, never worse.
//
// Anything else (flags, \s, \b, POSIX classes, Unicode classes, nested
// repetition…) is matched by re2js.

import { RE2JS } from 're2js';
import { CelError } from '../values.js';

interface Program {
  re2: RE2JS;
  /** The same pattern as a native RegExp, when it is in the subset. */
  test: RE2JS | RegExp;
}

const MAX_PROGRAMS = 512;
const programs = new Map<string, Program>();

function program(pattern: string): Program {
  let p = programs.get(pattern);
  if (p === undefined) {
    let re2: RE2JS;
    try {
      re2 = RE2JS.compile(pattern);
    } catch (e) {
      throw new CelError(e instanceof Error ? e.message : String(e));
    }
    p = { re2, test: nativeEquivalent(pattern) ?? re2 };
    if (programs.size >= MAX_PROGRAMS) programs.delete(programs.keys().next().value as string);
    programs.set(pattern, p);
  }
  return p;
}

/** The re2js program for an RE2 pattern (cached, bounded), for callers that
 * need match positions; a syntax error becomes a CelError worded as Go's
 * regexp package words it. */
export const compileRegex = (pattern: string): RE2JS => program(pattern).re2;

/** matches(): whether the RE2 pattern matches anywhere in s. */
export const matches = (s: string, pattern: string): boolean => program(pattern).test.test(s);

// --- the native subset -----------------------------------------------------------

const PUNCT = new Set('\\.+*?()|[]{}^$-/'.split(''));
const CLASS_ESCAPES = new Set(['d', 'D', 'w', 'W']);
/** Control escapes, the same in both: \n \t \r \f \v. */
const CONTROL: Record<string, number> = { n: 10, t: 9, r: 13, f: 12, v: 11 };
const META = new Set('\\.+*?()|[]{}^$'.split(''));

/** A JavaScript RegExp with the same matches as the RE2 pattern and linear
 * backtracking, or undefined when the pattern is outside the subset. */
export function nativeEquivalent(pattern: string): RegExp | undefined {
  let i = 0;
  let out = '';
  let unbounded = 0;
  let combos = 1; // product of the options at each choice point
  let depth = 0;
  let topLevelBar = false;
  /** Whether the previous item can take a quantifier, and whether it was a group. */
  let prev: 'none' | 'atom' | 'group' | 'quantified' = 'none';
  const n = pattern.length;
  while (i < n) {
    const c = pattern[i];
    switch (c) {
      case '\\': {
        const e = pattern[i + 1];
        if (e === undefined) return undefined;
        if (e === '-' || e === '/') out += e; // identity escapes JS allows only in classes
        else if (e in CONTROL) out += '\\' + e;
        else if (CLASS_ESCAPES.has(e) || PUNCT.has(e)) out += '\\' + e;
        else return undefined;
        i += 2;
        prev = 'atom';
        continue;
      }
      case '.':
        out += '[^\\n]';
        i++;
        prev = 'atom';
        continue;
      case '[': {
        const cls = nativeClass(pattern, i);
        if (cls === undefined) return undefined;
        out += cls.src;
        i = cls.end;
        prev = 'atom';
        continue;
      }
      case '(':
        if (pattern[i + 1] === '?') {
          if (pattern[i + 2] !== ':') return undefined;
          out += '(?:';
          i += 3;
        } else {
          out += '(?:'; // no captures needed to test
          i++;
        }
        depth++;
        prev = 'none';
        continue;
      case ')':
        if (depth === 0) return undefined;
        depth--;
        out += ')';
        i++;
        prev = 'group';
        continue;
      case '|':
        if (depth === 0) topLevelBar = true;
        combos *= 2;
        out += '|';
        i++;
        prev = 'none';
        continue;
      case '^':
      case '$':
        out += c;
        i++;
        prev = 'none'; // RE2 rejects a quantified anchor? JS does: keep out
        continue;
      case '*':
      case '+':
      case '?':
      case '{': {
        if (prev !== 'atom' && prev !== 'group') return undefined;
        let q: { src: string; end: number; unbounded: boolean; options: number } | undefined;
        if (c === '{') q = braces(pattern, i);
        else q = { src: c, end: i + 1, unbounded: c !== '?', options: c === '?' ? 2 : 1 };
        if (q === undefined) return undefined;
        if (prev === 'group' && q.src !== '?') return undefined;
        let end = q.end;
        let src = q.src;
        if (pattern[end] === '?') {
          src += '?';
          end++;
        }
        if (pattern[end] === '*' || pattern[end] === '+' || pattern[end] === '?' || pattern[end] === '{') return undefined;
        if (q.unbounded) unbounded++;
        combos *= q.options;
        out += src;
        i = end;
        prev = 'quantified';
        continue;
      }
      case ']':
      case '}':
        return undefined;
      default: {
        const cp = pattern.codePointAt(i)!;
        const ch = String.fromCodePoint(cp);
        out += META.has(ch) ? '\\' + ch : ch;
        i += ch.length;
        prev = 'atom';
      }
    }
  }
  if (depth !== 0) return undefined;
  const anchored = pattern[0] === '^' && !topLevelBar;
  if (unbounded > (anchored ? 1 : 0) || combos > 256) return undefined;
  try {
    return new RegExp(out, 'u');
  } catch {
    return undefined;
  }
}

/** `{n}`, `{n,}`, `{n,m}` (counts ≤ 1000, n ≤ m), else undefined. */
function braces(p: string, i: number): { src: string; end: number; unbounded: boolean; options: number } | undefined {
  const m = /^\{(\d{1,4})(,(\d{0,4}))?\}/.exec(p.slice(i, i + 12));
  if (m === null) return undefined;
  const lo = Number(m[1]);
  if (lo > 1000) return undefined;
  if (m[2] === undefined) return { src: m[0], end: i + m[0].length, unbounded: false, options: 1 };
  if (m[3] === '') return { src: m[0], end: i + m[0].length, unbounded: true, options: 1 };
  const hi = Number(m[3]);
  if (hi > 1000 || hi < lo) return undefined;
  return { src: m[0], end: i + m[0].length, unbounded: false, options: hi - lo + 1 };
}

/** A bracket class of single characters, ranges and \d\D\w\W, else undefined. */
function nativeClass(p: string, start: number): { src: string; end: number } | undefined {
  let i = start + 1;
  let src = '[';
  if (p[i] === '^') {
    src += '^';
    i++;
  }
  if (p[i] === ']') return undefined; // RE2 reads a leading ] as a literal
  let lastChar: number | undefined; // code point of a single char, for ranges
  let pendingRange = false;
  while (i < p.length && p[i] !== ']') {
    const c = p[i];
    let cp: number | undefined;
    let piece: string;
    if (c === '\\') {
      const e = p[i + 1];
      if (e === undefined) return undefined;
      if (CLASS_ESCAPES.has(e)) {
        if (pendingRange) return undefined;
        src += '\\' + e;
        i += 2;
        lastChar = undefined;
        continue;
      }
      if (e in CONTROL) cp = CONTROL[e];
      else if (PUNCT.has(e)) cp = e.charCodeAt(0);
      else return undefined;
      piece = '\\' + e;
      i += 2;
    } else if (c === '[') {
      return undefined; // POSIX classes, nesting
    } else if (c === '-' && lastChar !== undefined && p[i + 1] !== ']' && !pendingRange) {
      pendingRange = true;
      src += '-';
      i++;
      continue;
    } else {
      cp = p.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      piece = ch === '-' || ch === '^' ? '\\' + ch : ch;
      i += ch.length;
    }
    if (pendingRange) {
      if (lastChar === undefined || cp < lastChar) return undefined;
      pendingRange = false;
      lastChar = undefined;
    } else lastChar = cp;
    src += piece;
  }
  if (i >= p.length || pendingRange) return undefined;
  if (src === '[' || src === '[^') return undefined;
  return { src: src + ']', end: i + 1 };
}
