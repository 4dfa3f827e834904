// Runtime implementations of cel-go's strings extension (ext/strings.go),
// keyed by its overload ids.

import type { OverloadImpl } from '../decls.js';
import { stringFormat } from '../runtime/format.js';
import { binary, nary, unary } from '../runtime/impl.js';
import * as S from '../runtime/strings.js';

type Int = number | bigint;

export const stringsImpls: OverloadImpl[] = [
  binary('string_char_at_int', S.charAt),
  binary('string_index_of_string', (s: string, sub: string) => S.indexOf(s, sub)),
  nary('string_index_of_string_int', ([s, sub, off]: [string, string, Int]) => S.indexOf(s, sub, off)),
  binary('string_last_index_of_string', (s: string, sub: string) => S.lastIndexOf(s, sub)),
  nary('string_last_index_of_string_int', ([s, sub, off]: [string, string, Int]) => S.lastIndexOf(s, sub, off)),
  unary('string_lower_ascii', S.lowerAscii),
  unary('string_upper_ascii', S.upperAscii),
  nary('string_replace_string_string', ([s, old, rep]: [string, string, string]) => S.replace(s, old, rep)),
  nary('string_replace_string_string_int', ([s, old, rep, n]: [string, string, string, Int]) => S.replace(s, old, rep, n)),
  binary('string_split_string', (s: string, sep: string) => S.split(s, sep)),
  nary('string_split_string_int', ([s, sep, n]: [string, string, Int]) => S.split(s, sep, n)),
  binary('string_substring_int', (s: string, start: Int) => S.substring(s, start)),
  nary('string_substring_int_int', ([s, start, end]: [string, Int, Int]) => S.substring(s, start, end)),
  unary('string_trim', S.trim),
  unary('list_join', (l: readonly unknown[]) => S.join(l)),
  binary('list_join_string', (l: readonly unknown[], sep: string) => S.join(l, sep)),
  unary('string_reverse', S.reverse),
  unary('strings_quote', S.quote),
  binary('string_format', stringFormat),
];
