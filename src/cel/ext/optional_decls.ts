// cel-go's optional types library (cel/library.go OptionalTypes, newest
// version): optional.of/none/ofNonZeroValue, hasValue, value, or, orValue,
// optional field selection `_?._`, optional indexing `_[?_]`, indexing into
// an optional, first/last, optional.unwrap/unwrapOpt. The macros
// optMap/optFlatMap are the parser's.

import type { FunctionDecl } from '../decls.js';
import type { Type } from '../types.js';
import { T, listOf, mapOf, opaque, optionalOf, typeOf } from '../types.js';
import { K, V, fn, global, member } from '../checker/declare.js';

const optV = optionalOf(V);
const listV = listOf(V);
const mapKV = mapOf(K, V);

export const optionalFunctions: FunctionDecl[] = [
  fn('optional.of', global('optional_of', [V], optV)),
  fn('optional.ofNonZeroValue', global('optional_ofNonZeroValue', [V], optV)),
  fn('optional.none', global('optional_none', [], optV)),
  fn('value', member('optional_value', [optV], V)),
  fn('hasValue', member('optional_hasValue', [optV], T.bool)),
  fn('or', member('optional_or_optional', [optV, optV], optV)),
  fn('orValue', member('optional_orValue_value', [optV, V], V)),
  fn('_?._', global('select_optional_field', [T.dyn, T.string], optV)),
  fn(
    '_[?_]',
    global('list_optindex_optional_int', [listV, T.int], optV),
    global('optional_list_optindex_optional_int', [optionalOf(listV), T.int], optV),
    global('map_optindex_optional_value', [mapKV, K], optV),
    global('optional_map_optindex_optional_value', [optionalOf(mapKV), K], optV),
  ),
  fn(
    '_[_]',
    global('optional_list_index_int', [optionalOf(listV), T.int], optV),
    global('optional_map_index_value', [optionalOf(mapKV), K], optV),
  ),
  fn('last', member('list_last', [listV], optV)),
  fn('first', member('list_first', [listV], optV)),
  fn('optional.unwrap', global('optional_unwrap', [listOf(optV)], listV)),
  fn('unwrapOpt', member('optional_unwrapOpt', [listOf(optV)], listV)),
];

/** The type identifier the library declares: `optional_type`. */
export const optionalTypeIdents: { name: string; type: Type }[] = [
  { name: 'optional_type', type: typeOf(opaque('optional_type')) },
];
