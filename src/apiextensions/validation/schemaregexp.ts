// Whether a schema `pattern` compiles as Go's regexp package compiles it:
// re2js is a port of RE2 with Go's syntax (flag groups, \A, \z, POSIX and
// Unicode classes) and Go's error texts ("error parsing regexp: missing
// closing ): `(abc`").
import { RE2JS } from 're2js';

/** Go's regexp.Compile error for `pattern`, or undefined when it compiles. */
export function regexpError(pattern: string): string | undefined {
  try {
    RE2JS.compile(pattern);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
