// The CEL lexer: a hand-written loop over char codes with the lexical rules of
// cel-spec's CEL.g4, including ANTLR's behaviour on bad input: the longest
// token wins, a failed longer match falls back to the last complete one, and
// when nothing matches the text from the token start through the offending
// character is reported ("token recognition error at: '…'") and skipped.
//
// Output is parallel arrays (kind, start, end in UTF-16 units); the parser
// converts units to code point offsets only when the text has surrogates.

import { T } from './tokens.js';

export interface LexError {
  /** UTF-16 index of the error's first character. */
  start: number;
  text: string;
}

export interface Tokens {
  kinds: T[];
  starts: number[];
  ends: number[];
  errors: LexError[];
}

const enum C {
  TAB = 9, LF = 10, FF = 12, CR = 13, SPACE = 32, BANG = 33, DQUOTE = 34, PERCENT = 37, AMP = 38,
  SQUOTE = 39, LPAREN = 40, RPAREN = 41, STAR = 42, PLUS = 43, COMMA = 44, MINUS = 45, DOT = 46,
  SLASH = 47, D0 = 48, D3 = 51, D7 = 55, D9 = 57, COLON = 58, LT = 60, EQ = 61, GT = 62, QMARK = 63,
  UA = 65, UB = 66, UE = 69, UF = 70, UR = 82, UU = 85, UX = 88, UZ = 90, LBRACKET = 91, BSLASH = 92,
  RBRACKET = 93, UNDERSCORE = 95, BACKTICK = 96, LA = 97, LB = 98, LE = 101, LF_ = 102, LN = 110,
  LR = 114, LT_ = 116, LU = 117, LV = 118, LX = 120, LZ = 122, LBRACE = 123, PIPE = 124, RBRACE = 125,
}

function isLetter(c: number): boolean {
  return (c >= C.LA && c <= C.LZ) || (c >= C.UA && c <= C.UZ);
}
function isDigit(c: number): boolean {
  return c >= C.D0 && c <= C.D9;
}
function isHex(c: number): boolean {
  return (c >= C.D0 && c <= C.D9) || (c >= C.LA && c <= C.LF_) || (c >= C.UA && c <= C.UF);
}
function isIdentPart(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === C.UNDERSCORE;
}

// Scan state shared by the token scanners: the last complete token seen
// (ANTLR's prevAccept) and where the match failed.
let acceptEnd = -1;
let acceptKind: T = T.EOF;
let failAt = -1;

function accept(end: number, kind: T): void {
  acceptEnd = end;
  acceptKind = kind;
}

export function lex(text: string): Tokens {
  const n = text.length;
  const kinds: T[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const errors: LexError[] = [];
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    // Hidden channel: whitespace and comments.
    if (c === C.SPACE || c === C.TAB || c === C.LF || c === C.CR || c === C.FF) {
      i++;
      continue;
    }
    if (c === C.SLASH && text.charCodeAt(i + 1) === C.SLASH) {
      const nl = text.indexOf('\n', i + 2);
      i = nl < 0 ? n : nl;
      continue;
    }
    let kind: T = T.EOF;
    let end = i + 1;
    switch (c) {
      case C.LPAREN: kind = T.LPAREN; break;
      case C.RPAREN: kind = T.RPAREN; break;
      case C.LBRACKET: kind = T.LBRACKET; break;
      case C.RBRACKET: kind = T.RBRACKET; break;
      case C.LBRACE: kind = T.LBRACE; break;
      case C.RBRACE: kind = T.RBRACE; break;
      case C.COMMA: kind = T.COMMA; break;
      case C.MINUS: kind = T.MINUS; break;
      case C.QMARK: kind = T.QUESTIONMARK; break;
      case C.COLON: kind = T.COLON; break;
      case C.PLUS: kind = T.PLUS; break;
      case C.STAR: kind = T.STAR; break;
      case C.SLASH: kind = T.SLASH; break;
      case C.PERCENT: kind = T.PERCENT; break;
      case C.BANG:
        if (text.charCodeAt(i + 1) === C.EQ) { kind = T.NOT_EQUALS; end = i + 2; } else kind = T.EXCLAM;
        break;
      case C.LT:
        if (text.charCodeAt(i + 1) === C.EQ) { kind = T.LESS_EQUALS; end = i + 2; } else kind = T.LESS;
        break;
      case C.GT:
        if (text.charCodeAt(i + 1) === C.EQ) { kind = T.GREATER_EQUALS; end = i + 2; } else kind = T.GREATER;
        break;
      case C.EQ:
        if (text.charCodeAt(i + 1) === C.EQ) { kind = T.EQUALS; end = i + 2; } else failAt = i + 1;
        break;
      case C.AMP:
        if (text.charCodeAt(i + 1) === C.AMP) { kind = T.LOGICAL_AND; end = i + 2; } else failAt = i + 1;
        break;
      case C.PIPE:
        if (text.charCodeAt(i + 1) === C.PIPE) { kind = T.LOGICAL_OR; end = i + 2; } else failAt = i + 1;
        break;
      case C.DOT:
        if (isDigit(text.charCodeAt(i + 1))) {
          acceptKind = T.DOT; acceptEnd = i + 1;
          let j = i + 1;
          while (isDigit(text.charCodeAt(j))) j++;
          accept(j, T.NUM_FLOAT);
          scanExponent(text, j);
          kind = acceptKind; end = acceptEnd;
        } else kind = T.DOT;
        break;
      case C.DQUOTE:
      case C.SQUOTE:
        acceptKind = T.EOF;
        scanString(text, i, false, T.STRING);
        if (acceptKind !== T.EOF) { kind = acceptKind; end = acceptEnd; }
        break;
      case C.BACKTICK: {
        let j = i + 1;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (isIdentPart(d) || d === C.DOT || d === C.MINUS || d === C.SLASH || d === C.SPACE) j++;
          else break;
        }
        if (j > i + 1 && text.charCodeAt(j) === C.BACKTICK) { kind = T.ESC_IDENTIFIER; end = j + 1; } else failAt = j;
        break;
      }
      default:
        if (isDigit(c)) {
          acceptKind = T.EOF;
          scanNumber(text, i);
          kind = acceptKind; end = acceptEnd;
        } else if (isLetter(c) || c === C.UNDERSCORE) {
          let j = i + 1;
          while (isIdentPart(text.charCodeAt(j))) j++;
          kind = T.IDENTIFIER;
          end = j;
          const len = j - i;
          if (len === 2 && c === C.LA + 8 && text.charCodeAt(i + 1) === C.LN) kind = T.IN;
          else if (len === 4 && text.startsWith('true', i)) kind = T.TRUE;
          else if (len === 4 && text.startsWith('null', i)) kind = T.NULL;
          else if (len === 5 && text.startsWith('false', i)) kind = T.FALSE;
          // String prefixes: r"…", b"…", br"…", rb is not one.
          const q = text.charCodeAt(i + 1);
          if ((c === C.LR || c === C.UR) && (q === C.DQUOTE || q === C.SQUOTE)) {
            acceptKind = kind; acceptEnd = end;
            scanString(text, i + 1, true, T.STRING);
            kind = acceptKind; end = acceptEnd;
          } else if (c === C.LB || c === C.UB) {
            if (q === C.DQUOTE || q === C.SQUOTE) {
              acceptKind = kind; acceptEnd = end;
              scanString(text, i + 1, false, T.BYTES);
              kind = acceptKind; end = acceptEnd;
            } else if ((q === C.LR || q === C.UR)) {
              const q2 = text.charCodeAt(i + 2);
              if (q2 === C.DQUOTE || q2 === C.SQUOTE) {
                acceptKind = kind; acceptEnd = end;
                scanString(text, i + 2, true, T.BYTES);
                kind = acceptKind; end = acceptEnd;
              }
            }
          }
        } else failAt = i;
    }
    if (kind === T.EOF) {
      // Token recognition error: report start..failAt inclusive, skip past it.
      let stop = failAt;
      if (stop < n) {
        const f = text.charCodeAt(stop);
        stop += f >= 0xd800 && f <= 0xdbff && stop + 1 < n ? 2 : 1;
      } else stop = n;
      errors.push({ start: i, text: text.slice(i, stop) });
      i = stop;
      continue;
    }
    kinds.push(kind);
    starts.push(i);
    ends.push(end);
    i = end;
  }
  return { kinds, starts, ends, errors };
}

function scanExponent(text: string, j: number): void {
  const e = text.charCodeAt(j);
  if (e !== C.LE && e !== C.UE) return;
  let k = j + 1;
  const s = text.charCodeAt(k);
  if (s === C.PLUS || s === C.MINUS) k++;
  if (!isDigit(text.charCodeAt(k))) {
    failAt = k;
    return;
  }
  while (isDigit(text.charCodeAt(k))) k++;
  accept(k, T.NUM_FLOAT);
}

function scanNumber(text: string, i: number): void {
  const c1 = text.charCodeAt(i + 1);
  if (text.charCodeAt(i) === C.D0 && c1 === C.LX) {
    accept(i + 1, T.NUM_INT);
    let j = i + 2;
    if (!isHex(text.charCodeAt(j))) return;
    while (isHex(text.charCodeAt(j))) j++;
    accept(j, T.NUM_INT);
    const u = text.charCodeAt(j);
    if (u === C.LU || u === C.UU) accept(j + 1, T.NUM_UINT);
    return;
  }
  let j = i;
  while (isDigit(text.charCodeAt(j))) j++;
  accept(j, T.NUM_INT);
  const c = text.charCodeAt(j);
  if (c === C.LU || c === C.UU) {
    accept(j + 1, T.NUM_UINT);
    return;
  }
  if (c === C.DOT) {
    if (!isDigit(text.charCodeAt(j + 1))) return;
    let k = j + 1;
    while (isDigit(text.charCodeAt(k))) k++;
    accept(k, T.NUM_FLOAT);
    scanExponent(text, k);
    return;
  }
  scanExponent(text, j);
}

/** The end of a valid escape sequence at j (j at the backslash), or -1 with failAt set. */
function scanEscape(text: string, j: number): number {
  const c = text.charCodeAt(j + 1);
  switch (c) {
    case C.LA: case C.LB: case C.LF_: case C.LN: case C.LR: case C.LT_: case C.LV:
    case C.DQUOTE: case C.SQUOTE: case C.BSLASH: case C.QMARK: case C.BACKTICK:
      return j + 2;
    case C.LX: case C.UX: return hexRun(text, j + 2, 2);
    case C.LU: return hexRun(text, j + 2, 4);
    case C.UU: return hexRun(text, j + 2, 8);
  }
  if (c >= C.D0 && c <= C.D3) {
    for (let k = j + 2; k < j + 4; k++) {
      const d = text.charCodeAt(k);
      if (!(d >= C.D0 && d <= C.D7)) {
        failAt = k;
        return -1;
      }
    }
    return j + 4;
  }
  failAt = j + 1;
  return -1;
}

function hexRun(text: string, k: number, count: number): number {
  for (let m = 0; m < count; m++) {
    if (!isHex(text.charCodeAt(k + m))) {
      failAt = k + m;
      return -1;
    }
  }
  return k + count;
}

/** Scans a quoted string whose opening quote is at q; sets accept/failAt. */
function scanString(text: string, q: number, raw: boolean, kind: T): void {
  const n = text.length;
  const quote = text.charCodeAt(q);
  if (text.charCodeAt(q + 1) === quote) {
    // Empty string, or the start of a triple-quoted one.
    accept(q + 2, kind);
    if (text.charCodeAt(q + 2) !== quote) return;
    let j = q + 3;
    while (j < n) {
      const c = text.charCodeAt(j);
      if (c === quote && text.charCodeAt(j + 1) === quote && text.charCodeAt(j + 2) === quote) {
        accept(j + 3, kind);
        return;
      }
      if (c === C.BSLASH && !raw) {
        const e = scanEscape(text, j);
        if (e < 0) return;
        j = e;
      } else j++;
    }
    failAt = n;
    return;
  }
  let j = q + 1;
  while (j < n) {
    const c = text.charCodeAt(j);
    if (c === quote) {
      accept(j + 1, kind);
      return;
    }
    if (c === C.LF || c === C.CR) {
      failAt = j;
      return;
    }
    if (c === C.BSLASH && !raw) {
      const e = scanEscape(text, j);
      if (e < 0) return;
      j = e;
    } else j++;
  }
  failAt = n;
}
