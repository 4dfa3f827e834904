// Time as the simulated kubelets write it: metav1.Time (RFC 3339, whole
// seconds) and metav1.MicroTime (six fractional digits, Leases' renewTime).
// The clock is a seam so tests can pin it.

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const SYSTEM_CLOCK: Clock = { now: () => Date.now() };

/** metav1.Time: "2026-01-02T03:04:05Z". */
export const rfc3339 = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** metav1.MicroTime: "2026-01-02T03:04:05.678000Z". */
export const microTime = (ms: number): string => new Date(ms).toISOString().replace(/Z$/, '000Z');

/** Milliseconds of a metav1.Time or MicroTime text; undefined when it is none. */
export function parseTime(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}
