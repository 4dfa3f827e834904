// Runtime implementations of cel-go's optional library (cel/library.go),
// keyed by its overload ids. `or`/`orValue` short-circuit in the
// interpreter; these are their strict forms. `select_optional_field` on
// schema objects is the interpreter's (it knows field presence); here it
// covers maps.

import type { OverloadImpl } from '../decls.js';
import { binary, nary, unary } from '../runtime/impl.js';
import * as O from '../runtime/optional.js';

export const optionalImpls: OverloadImpl[] = [
  unary('optional_of', O.optionalOf),
  nary('optional_none', O.optionalNone),
  unary('optional_ofNonZeroValue', O.optionalOfNonZeroValue),
  unary('optional_value', O.optionalValue),
  unary('optional_hasValue', O.optionalHasValue),
  binary('optional_or_optional', O.optionalOr),
  binary('optional_orValue_value', O.optionalOrValue),
  binary('select_optional_field', O.mapOptIndex),
  binary('list_optindex_optional_int', O.listOptIndex),
  binary('map_optindex_optional_value', O.mapOptIndex),
  binary('optional_list_optindex_optional_int', O.optionalIndex),
  binary('optional_map_optindex_optional_value', O.optionalIndex),
  binary('optional_list_index_int', O.optionalIndex),
  binary('optional_map_index_value', O.optionalIndex),
  unary('list_first', O.listFirst),
  unary('list_last', O.listLast),
  unary('optional_unwrap', O.optionalUnwrap),
  unary('optional_unwrapOpt', O.optionalUnwrap),
];
