// The checked-AST adornment of cel-go's debug printer (checker/printer.go):
// after each node, `~type` and `^reference` (an identifier's resolved name,
// or a call's overload ids joined by `|`). Use with debug.ts's
// toDebugString(expr, adorner).

import type { CheckedExpr } from './checker.js';
import { formatType } from './format.js';

export function checkedAdorner(checked: CheckedExpr): (node: { id: number; kind?: string }) => string {
  return (node) => {
    if (node.kind === undefined) return '';
    let out = '';
    const t = checked.types.get(node.id);
    if (t) out += `~${formatType(t)}`;
    const r = checked.refs.get(node.id);
    // cel-go's printer sorts the overload ids
    if (r) out += r.overloadIds ? `^${[...r.overloadIds].sort().join('|')}` : `^${r.name}`;
    return out;
  };
}
