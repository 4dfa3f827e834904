// Types printed as cel-go prints them in checked ASTs and error messages
// (checker/format.go FormatCELType): `int`, `list(string)`,
// `map(string, dyn)`, `type(int)`, `optional_type(int)`, `A`, `!error!`.

import type { Type } from '../types.js';

export function formatType(t: Type): string {
  switch (t.kind) {
    case 'error':
      return '!error!';
    case 'list':
      return `list(${formatType(t.elem)})`;
    case 'map':
      return `map(${formatType(t.key)}, ${formatType(t.value)})`;
    case 'type':
      return t.param ? `type(${formatType(t.param)})` : 'type';
    case 'opaque':
      return t.params.length === 0 ? t.name : `${t.name}(${t.params.map(formatType).join(', ')})`;
    case 'typeParam':
    case 'object':
      return t.name;
    default:
      return t.kind;
  }
}

/** An argument list as cel-go prints it in "found no matching overload":
 * `(int, string)`, or `target.(args)` for a receiver call. */
export function formatArgs(args: readonly Type[], receiver: boolean): string {
  let out = '';
  let i = 0;
  if (receiver && args.length > 0) {
    out = `${formatType(args[0]!)}.`;
    i = 1;
  }
  out += '(';
  for (let j = i; j < args.length; j++) {
    if (j > i) out += ', ';
    out += formatType(args[j]!);
  }
  return `${out})`;
}
