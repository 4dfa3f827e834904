// Time as Kubernetes writes it in objects: metav1.Time (RFC 3339 in whole
// seconds, "2026-01-02T03:04:05Z"), metav1.MicroTime (six fractional digits,
// Leases' and Events' microsecond fields) and Go's RFC3339Nano (fraction with
// its trailing zeros dropped). Inputs are milliseconds since the epoch.

/** metav1.Time: the second the instant falls in. */
export const rfc3339 = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** metav1.MicroTime: "2026-01-02T03:04:05.678000Z". */
export const microTime = (ms: number): string => new Date(ms).toISOString().replace(/Z$/, '000Z');

/** Go's time.RFC3339Nano: "2026-01-02T03:04:05.67Z", "2026-01-02T03:04:05Z". */
export const rfc3339Nano = (ms: number): string => new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z');
