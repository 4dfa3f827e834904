// Whether a schema `pattern` compiles as Go's regexp package compiles it:
// re2js is a port of RE2 with Go's syntax (flag groups, \A, \z, POSIX and
// Unicode classes) and Go's error texts ("error parsing regexp: missing
// closing ): `(abc`").
import { RE2JS } from 're2js';

/** Go's regexp.Compile error for `pattern`, or undefined when it compiles (remembered: big CRDs repeat their patterns, and every write of a CRD checks them all). */
export function regexpError(pattern: string): string | undefined {
  const known = checked.get(pattern);
  if (known !== undefined) return known === '' ? undefined : known;
  let error = '';
  try {
    RE2JS.compile(pattern);
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  if (checked.size >= MAX_REMEMBERED) checked.delete(checked.keys().next().value as string);
  checked.set(pattern, error);
  return error === '' ? undefined : error;
}

const MAX_REMEMBERED = 4096;
/** pattern → its error ('' when it compiles), oldest first. */
const checked = new Map<string, string>();
