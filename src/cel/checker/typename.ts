// Reads a type as cel-go prints it (`int`, `list(string)`, `map(int, dyn)`,
// `type(int)`, `optional_type(A)`), the inverse of formatType: for test
// data and declarations written as text.

import type { Type } from '../types.js';
import { T, listOf, mapOf, opaque, typeOf, typeParam } from '../types.js';

const NAMED: Record<string, Type> = {
  int: T.int,
  uint: T.uint,
  double: T.double,
  bool: T.bool,
  string: T.string,
  bytes: T.bytes,
  null: T.null,
  dyn: T.dyn,
  any: T.any,
  timestamp: T.timestamp,
  duration: T.duration,
  '!error!': T.error,
};

/** The type, or undefined when the text is not a type this module knows
 * (message names). Single upper-case letters are type parameters. */
export function parseTypeName(text: string): Type | undefined {
  let i = 0;
  const name = (): string => {
    const start = i;
    while (i < text.length && !'(), '.includes(text[i]!)) i++;
    return text.slice(start, i);
  };
  const one = (): Type | undefined => {
    const n = name();
    const params: Type[] = [];
    if (text[i] === '(') {
      i++;
      for (;;) {
        while (text[i] === ' ') i++;
        const p = one();
        if (!p) return undefined;
        params.push(p);
        while (text[i] === ' ') i++;
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] !== ')') return undefined;
        i++;
        break;
      }
    }
    if (params.length === 0) {
      if (n in NAMED) return NAMED[n];
      if (n === 'type') return typeOf();
      if (/^[A-Z]$|^_var\d+$/.test(n)) return typeParam(n);
      return n.includes('.') ? undefined : opaque(n);
    }
    if (n === 'list' && params.length === 1) return listOf(params[0]!);
    if (n === 'map' && params.length === 2) return mapOf(params[0]!, params[1]!);
    if (n === 'type' && params.length === 1) return typeOf(params[0]!);
    return opaque(n, ...params);
  };
  const t = one();
  return t && i === text.length ? t : undefined;
}
