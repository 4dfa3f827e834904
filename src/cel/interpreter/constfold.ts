// Plan-time constants: the closures of literals and of calls folded while
// planning, with their values (calls specialise on them) and the cost a
// folded call still adds when evaluated.
import { Double, Uint } from '../values.js';
import type { Interp } from './frame.js';

/** The closures of literals, with their values (calls specialise on them). */
export const constants = new WeakMap<Interp, unknown>();
/** The cost a folded call's closure adds (its calls' costs as cel-go counts them). */
export const foldedCost = new WeakMap<Interp, number>();
/** A cost-free constant closure. */
export function constantOf(v: unknown): Interp {
  const c = (): unknown => v;
  constants.set(c, v);
  return c;
}

/** cel-go's type conversion functions (OptOptimize folds them over constants). */
export const CONVERSIONS = new Set(['bool', 'bytes', 'double', 'duration', 'dyn', 'int', 'string', 'timestamp', 'type', 'uint']);

/** cel-go's primitive values (set membership folds lists of these only). */
export const isPrimitive = (v: unknown): boolean =>
  typeof v === 'boolean' || typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' || v instanceof Uint8Array || v instanceof Uint || v instanceof Double;

/** A constant whose closure adds no cost: callers may use its value instead. */
export const costFree = (a: Interp): boolean => constants.has(a) && (foldedCost.get(a) ?? 0) === 0;
