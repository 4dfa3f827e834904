// Kubernetes' regex library (apiserver/pkg/cel/library/regex.go), RE2 via re2js:
//   <string>.find(<regex>)             the leftmost match, '' when none
//   <string>.findAll(<regex>[, <int>]) every match (at most n when n ≥ 0), as
//                                      Go's Regexp.FindAllString: an empty match
//                                      right after a match is skipped
// A bad pattern: `Illegal regex: error parsing regexp: …` (Go's wording).

import type { FunctionDecl, Library, OverloadImpl } from '../../decls.js';
import { T, listOf } from '../../types.js';
import { CelError } from '../../values.js';
import { compileRegex } from '../../runtime/strings.js';
import { errNoSuchOverload } from '../../runtime/errors.js';
import type { RE2JS } from 're2js';

function regex(pattern: unknown): RE2JS {
  if (typeof pattern !== 'string') throw errNoSuchOverload;
  try {
    return compileRegex(pattern);
  } catch (e) {
    throw new CelError(`Illegal regex: ${e instanceof CelError ? e.message : String(e)}`);
  }
}

function find(s: unknown, pattern: unknown): string {
  if (typeof s !== 'string') throw errNoSuchOverload;
  const m = regex(pattern).matcher(s);
  return m.find() ? (m.group() ?? '') : '';
}

/** Go's FindAllString(s, n): n < 0 is unlimited. */
export function findAll(s: unknown, pattern: unknown, limit: unknown = -1): string[] {
  if (typeof s !== 'string') throw errNoSuchOverload;
  if (typeof limit !== 'number' && typeof limit !== 'bigint') throw errNoSuchOverload;
  const re = regex(pattern);
  const n = limit < 0 ? s.length + 1 : Number(limit);
  const out: string[] = [];
  const m = re.matcher(s);
  let pos = 0;
  let prevEnd = -1;
  while (out.length < n && pos <= s.length) {
    if (!m.find(pos)) break;
    const start = m.start();
    const end = m.end();
    let accept = true;
    if (end === pos) {
      // An empty match at the search position: not right after the previous
      // match; the next search starts one code point on.
      if (start === prevEnd) accept = false;
      const c = s.charCodeAt(pos);
      pos += pos >= s.length ? 1 : c >= 0xd800 && c <= 0xdbff && pos + 1 < s.length ? 2 : 1;
    } else {
      pos = end;
    }
    prevEnd = end;
    if (accept) out.push(s.slice(start, end));
  }
  return out;
}

const functions: FunctionDecl[] = [
  { name: 'find', overloads: [{ id: 'string_find_string', params: [T.string, T.string], result: T.string, receiver: true }] },
  {
    name: 'findAll',
    overloads: [
      { id: 'string_find_all_string', params: [T.string, T.string], result: listOf(T.string), receiver: true },
      { id: 'string_find_all_string_int', params: [T.string, T.string, T.int], result: listOf(T.string), receiver: true },
    ],
  },
];

const impls: OverloadImpl[] = [
  { id: 'string_find_string', binary: find },
  { id: 'string_find_all_string', binary: (s, p) => findAll(s, p) },
  { id: 'string_find_all_string_int', call: (args) => findAll(args[0], args[1], args[2]) },
];

export const regexLibrary: Library = { name: 'k8s.regex', functions, impls };
