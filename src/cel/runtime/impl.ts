// Helpers to declare OverloadImpl tables tersely: each runtime function is
// written against the argument types its overload guarantees.

import type { OverloadImpl } from '../decls.js';

type Fn1 = (a: never) => unknown;
type Fn2 = (a: never, b: never) => unknown;
type FnN = (args: never) => unknown;

export const unary = (id: string, fn: Fn1): OverloadImpl => ({ id, unary: fn as (a: unknown) => unknown });
export const binary = (id: string, fn: Fn2): OverloadImpl => ({ id, binary: fn as (a: unknown, b: unknown) => unknown });
export const nary = (id: string, fn: FnN): OverloadImpl => ({ id, call: fn as (args: unknown[]) => unknown });

/** Several overload ids sharing one unary implementation. */
export const unaries = (ids: readonly string[], fn: Fn1): OverloadImpl[] => ids.map((id) => unary(id, fn));
/** Several overload ids sharing one binary implementation. */
export const binaries = (ids: readonly string[], fn: Fn2): OverloadImpl[] => ids.map((id) => binary(id, fn));
