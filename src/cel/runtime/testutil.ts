// Shared test helpers for the runtime's tables (not used by production code).

import assert from 'node:assert/strict';
import { CelError, CelMap, Double, Uint } from '../values.js';
import { celMapOf } from './maps.js';

export const u = (v: number | bigint): Uint => new Uint(typeof v === 'bigint' && v >= -(2n ** 53n) && v < 2n ** 53n ? Number(v) : v);
export const d = (v: number): Double => new Double(v);
export const cm = (...pairs: [unknown, unknown][]): CelMap => celMapOf(pairs);

/** Asserts that fn throws a CelError with exactly this message. */
export function throwsCel(fn: () => unknown, message: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof CelError, `expected CelError, got ${String(e)}`);
    assert.equal(e.message, message);
    return true;
  });
}
