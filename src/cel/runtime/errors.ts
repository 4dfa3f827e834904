// Runtime error values, worded as cel-go words them (common/types/err.go,
// overflow.go). Errors that carry no detail are shared instances: CelError is
// a plain class without a stack, so throwing one costs no allocation.

import { CelError } from '../values.js';

export const errNoSuchOverload = new CelError('no such overload');
export const errDivideByZero = new CelError('division by zero');
export const errModulusByZero = new CelError('modulus by zero');
export const errIntOverflow = new CelError('integer overflow');
export const errUintOverflow = new CelError('unsigned integer overflow');
export const errDurationOverflow = new CelError('duration overflow');
export const errTimestampOverflow = new CelError('timestamp overflow');
export const errNaNOrder = new CelError('NaN values cannot be ordered');

/** `type conversion error from 'string' to 'int'`. */
export const conversionError = (from: string, to: string): CelError =>
  new CelError(`type conversion error from '${from}' to '${to}'`);

/** Throws the shared `no such overload` error (typed `never` for callers). */
export function noSuchOverload(): never {
  throw errNoSuchOverload;
}
