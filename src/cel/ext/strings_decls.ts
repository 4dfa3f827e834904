// cel-go's strings extension (ext/strings.go, newest version): declarations
// with cel-go's overload ids.

import type { FunctionDecl } from '../decls.js';
import { T, listOf } from '../types.js';
import { fn, global, member } from '../checker/declare.js';

const { int, string, dyn } = T;

export const stringsFunctions: FunctionDecl[] = [
  fn('charAt', member('string_char_at_int', [string, int], string)),
  fn(
    'indexOf',
    member('string_index_of_string', [string, string], int),
    member('string_index_of_string_int', [string, string, int], int),
  ),
  fn(
    'lastIndexOf',
    member('string_last_index_of_string', [string, string], int),
    member('string_last_index_of_string_int', [string, string, int], int),
  ),
  fn('lowerAscii', member('string_lower_ascii', [string], string)),
  fn(
    'replace',
    member('string_replace_string_string', [string, string, string], string),
    member('string_replace_string_string_int', [string, string, string, int], string),
  ),
  fn(
    'split',
    member('string_split_string', [string, string], listOf(string)),
    member('string_split_string_int', [string, string, int], listOf(string)),
  ),
  fn(
    'substring',
    member('string_substring_int', [string, int], string),
    member('string_substring_int_int', [string, int, int], string),
  ),
  fn('trim', member('string_trim', [string], string)),
  fn('upperAscii', member('string_upper_ascii', [string], string)),
  fn('format', member('string_format', [string, listOf(dyn)], string)),
  fn('strings.quote', global('strings_quote', [string], string)),
  fn(
    'join',
    member('list_join', [listOf(string)], string),
    member('list_join_string', [listOf(string), string], string),
  ),
  fn('reverse', member('string_reverse', [string], string)),
];
