// Property-name escaping: how a schema property is named in a CEL expression
// (Kubernetes' apiserver/pkg/cel Escape/Unescape).
//
//   `__`            → `__underscores__`
//   `.` `-` `/`     → `__dot__` `__dash__` `__slash__`
//   a reserved word → `__word__` (only the exact word, never a part of a name)
//
// Only names matching `[a-zA-Z_.-/][a-zA-Z0-9_.-/]*` can be escaped; the
// others are left out of the object's type (not accessible to expressions).

/** CEL's reserved words that may be property names (`namespace` is common). */
export const RESERVED = new Set([
  'true', 'false', 'null', 'in',
  'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let',
  'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);

const isAlnum = (c: number): boolean =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);
const UNDERSCORE = 0x5f;

/** The CEL-visible name of a property, or undefined when it cannot be accessed. */
export function escape(name: string): string | undefined {
  if (name.length === 0) return undefined;
  const first = name.charCodeAt(0);
  if (first >= 0x30 && first <= 0x39) return undefined;
  if (RESERVED.has(name)) return `__${name}__`;
  // Fast path: identifier characters with no `__` need no escaping.
  let plain = true;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (isAlnum(c)) continue;
    if (c === UNDERSCORE) {
      if (i + 1 < name.length && name.charCodeAt(i + 1) === UNDERSCORE) plain = false;
      continue;
    }
    if (c === 0x2e || c === 0x2d || c === 0x2f) {
      plain = false;
      continue;
    }
    return undefined;
  }
  if (plain) return name;
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c === UNDERSCORE && i + 1 < name.length && name.charCodeAt(i + 1) === UNDERSCORE) {
      out += '__underscores__';
      i++;
    } else if (c === 0x2e) out += '__dot__';
    else if (c === 0x2d) out += '__dash__';
    else if (c === 0x2f) out += '__slash__';
    else out += name[i];
  }
  return out;
}

const ESCAPES: Record<string, string> = { underscores: '__', dot: '.', dash: '-', slash: '/' };
const ESCAPED_RUN = /__[^_]+__/g;

/** The property name an escaped CEL name stands for, or undefined when it is
 * not a valid escaping (an unknown `__x__`, or a keyword inside a longer name). */
export function unescape(escaped: string): string | undefined {
  if (escaped.indexOf('__') < 0) return escaped;
  let ok = true;
  const out = escaped.replace(ESCAPED_RUN, (run) => {
    const inner = run.slice(2, -2);
    const e = ESCAPES[inner];
    if (e !== undefined) return e;
    if (RESERVED.has(inner) && run.length === escaped.length) return inner;
    ok = false;
    return '';
  });
  return ok ? out : undefined;
}
