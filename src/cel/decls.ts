// Function declarations and their implementations, joined by overload id.
// Overload ids follow cel-go's (common/overloads: `add_int64`, `size_string`,
// `string_to_int64`, `contains_string`…) and, for the Kubernetes libraries,
// kube's (`list_is_sorted`, `list_sum`, `url_get_host`…), so the checker's
// references, the runtime's implementations and the cost model agree.

import type { Type } from './types.js';

export interface OverloadDecl {
  /** cel-go's overload id. */
  id: string;
  /** Parameter types; for a receiver-style overload params[0] is the receiver. */
  params: Type[];
  result: Type;
  /** Called as `target.fn(args)` rather than `fn(target, args)`. */
  receiver: boolean;
  /** Type parameter names used in params/result (`A`, `B`…). */
  typeParams?: string[];
}

export interface FunctionDecl {
  name: string;
  overloads: OverloadDecl[];
}

/** A runtime implementation of one overload. Arguments arrive as runtime
 * values (values.ts) in declaration order (receiver first). Errors are
 * thrown as CelError; implementations never see errors as arguments (the
 * interpreter short-circuits them), except those flagged nonStrict. */
export interface OverloadImpl {
  id: string;
  unary?: (a: unknown) => unknown;
  binary?: (a: unknown, b: unknown) => unknown;
  /** Any arity; used when unary/binary do not apply. */
  call?: (args: unknown[]) => unknown;
  /** Receives errors/unknowns as arguments instead of being skipped. */
  nonStrict?: boolean;
}

/** A library: what a CEL environment can be extended with (the standard
 * library, the strings extension, Kubernetes' lists/regex/urls/authorizer…). */
export interface Library {
  name: string;
  functions: FunctionDecl[];
  impls: OverloadImpl[];
  /** Identifiers the library declares (e.g. type names), with their types. */
  variables?: { name: string; type: Type }[];
}
