// Time as the simulated kubelets write it: metav1.Time (RFC 3339, whole
// seconds) and metav1.MicroTime (six fractional digits, Leases' renewTime).
// The clock is a seam so tests can pin it.

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const SYSTEM_CLOCK: Clock = { now: () => Date.now() };

export { microTime, rfc3339 } from '../api/meta/time.js';

/** Milliseconds of a metav1.Time or MicroTime text; undefined when it is none. */
export function parseTime(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}
