// Runtime implementations of cel-go's two-variable comprehensions extension
// (ext/comprehensions.go): `cel.@mapInsert`, the accumulator step of
// transformMap and transformMapEntry.

import type { OverloadImpl } from '../decls.js';
import { binary, nary } from '../runtime/impl.js';
import { mapWith, mapWithAll } from '../runtime/maps.js';

export const comprehensionsImpls: OverloadImpl[] = [
  nary('@mapInsert_map_key_value', ([m, k, v]: [object, unknown, unknown]) => mapWith(m, k, v)),
  binary('@mapInsert_map_map', mapWithAll),
];
