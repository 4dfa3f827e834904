// Decoding a request body the way Go's encoding/json (and sigs.k8s.io/json) reports
// failures, because Kubernetes puts those texts into 400 answers verbatim:
// "unexpected end of JSON input", "invalid character 'x' looking for beginning of
// value", "json: cannot unmarshal array into Go value of type map[string]interface {}".
// A syntax scan finds the first error as Go's scanner would; JSON.parse builds the value.
import { PatchError } from './errors.js';
import { type JsonObject, type JsonValue, isObject } from './json.js';

export class GoJsonError extends Error {
  override readonly name = 'GoJsonError';
}

/** Parses JSON text, throwing a GoJsonError worded as Go's decoder words it. */
export function parseGoJson(text: string): JsonValue {
  const err = scan(text);
  if (err) throw new GoJsonError(err);
  return JSON.parse(text) as JsonValue;
}

/** A PATCH body: its JSON value, or PatchError 'malformed' with `prefix` + Go's text. */
export function decodeBody(text: string, prefix: string): JsonValue {
  try {
    return parseGoJson(text);
  } catch (e) {
    if (e instanceof GoJsonError) throw new PatchError('malformed', `${prefix}${e.message}`);
    throw e;
  }
}

/** A PATCH body that must decode into Go's map[string]interface{} (null is an empty map). */
export function decodeObjectBody(text: string, prefix: string): JsonObject {
  const body = decodeBody(text, prefix);
  if (body === null) return {};
  if (!isObject(body)) throw new PatchError('malformed', `${prefix}json: cannot unmarshal ${goJsonKind(body)} into Go value of type map[string]interface {}`);
  return body;
}

/** The word Go uses for a JSON value's type in "cannot unmarshal X into …". */
export function goJsonKind(v: JsonValue): 'object' | 'array' | 'string' | 'number' | 'bool' | 'null' {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'string' ? 'string' : 'number';
}

const EOF = 'unexpected end of JSON input';

function quoteChar(c: string): string {
  if (c === "'") return `'\\''`;
  if (c === '"') return `'"'`;
  const code = c.charCodeAt(0);
  const named: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 92: '\\\\' };
  if (named[code]) return `'${named[code]}'`;
  if (code < 0x20 || code === 0x7f) return `'\\x${code.toString(16).padStart(2, '0')}'`;
  return `'${c}'`;
}

class Stop {
  constructor(readonly message: string) {}
}

function scan(s: string): string | undefined {
  let i = 0;
  const bad = (context: string): Stop => new Stop(`invalid character ${quoteChar(s[i]!)} ${context}`);
  const ws = (): void => {
    while (i < s.length && ' \t\n\r'.includes(s[i]!)) i++;
  };
  const need = (): string => {
    if (i >= s.length) throw new Stop(EOF);
    return s[i]!;
  };
  const literal = (word: string): void => {
    for (let k = 1; k < word.length; k++) {
      i++;
      if (need() !== word[k]) throw bad(`in literal ${word} (expecting ${quoteChar(word[k]!)})`);
    }
    i++;
  };
  const digits = (context: string): void => {
    if (!/[0-9]/.test(need())) throw bad(context);
    while (i < s.length && /[0-9]/.test(s[i]!)) i++;
  };
  const number = (): void => {
    if (s[i] === '-') {
      i++;
      if (!/[0-9]/.test(need())) throw bad('in numeric literal');
    }
    if (s[i] === '0') i++;
    else digits('in numeric literal');
    if (s[i] === '.') {
      i++;
      digits('after decimal point in numeric literal');
    }
    if (s[i] === 'e' || s[i] === 'E') {
      i++;
      if (need() === '+' || s[i] === '-') i++;
      digits('in exponent of numeric literal');
    }
  };
  const string = (): void => {
    i++;
    for (;;) {
      const c = need();
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        i++;
        const e = need();
        if (e === 'u') {
          for (let k = 0; k < 4; k++) {
            i++;
            if (!/[0-9a-fA-F]/.test(need())) throw bad('in \\u hexadecimal character escape');
          }
        } else if (!'"\\/bfnrt'.includes(e)) throw bad('in string escape code');
      } else if (c.charCodeAt(0) < 0x20) throw bad('in string literal');
      i++;
    }
  };
  const value = (): void => {
    ws();
    const c = need();
    if (c === '{') {
      i++;
      ws();
      if (need() === '}') {
        i++;
        return;
      }
      for (;;) {
        if (need() !== '"') throw bad('looking for beginning of object key string');
        string();
        ws();
        if (need() !== ':') throw bad('after object key');
        i++;
        value();
        ws();
        const d = need();
        if (d === '}') {
          i++;
          return;
        }
        if (d !== ',') throw bad('after object key:value pair');
        i++;
        ws();
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (need() === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        const d = need();
        if (d === ']') {
          i++;
          return;
        }
        if (d !== ',') throw bad('after array element');
        i++;
      }
    }
    if (c === '"') return string();
    if (c === '-' || /[0-9]/.test(c)) return number();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    throw bad('looking for beginning of value');
  };
  try {
    value();
    ws();
    if (i < s.length) throw bad('after top-level value');
    return undefined;
  } catch (e) {
    if (e instanceof Stop) return e.message;
    throw e;
  }
}
