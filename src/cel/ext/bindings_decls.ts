// cel-go's bindings extension (ext/bindings.go, version 1): `cel.bind` is a
// macro (the parser's); `cel.@block(slots, expr)` evaluates to expr with the
// list literal's values bound to `@index0`, `@index1`… (what cel-go's
// common-subexpression optimizer emits).

import type { FunctionDecl } from '../decls.js';
import { T, listOf, typeParam } from '../types.js';
import { fn, global } from '../checker/declare.js';

const Tp = typeParam('T');

export const bindingsFunctions: FunctionDecl[] = [fn('cel.@block', global('cel_block_list', [listOf(T.dyn), Tp], Tp))];
