// A DaemonSet's template generation. Kubernetes keeps it as an int64 field of
// its internal DaemonSet; apps/v1 has no such field and carries it in the
// annotation `deprecated.daemonset.template.generation` (unprefixed, so it has
// no svc.io spelling). Decoding a request reads the annotation as Go's
// strconv.ParseInt(s, 10, 64) does and writes it back in canonical form, "0"
// when absent; the DaemonSet strategy (src/registry/strategies/daemonsets.ts)
// then sets the value the server owns.

export const TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/** The value as strconv.ParseInt(s, 10, 64) reads it, or Go's error message. */
export function parseTemplateGeneration(value: string): bigint | string {
  if (!/^[+-]?[0-9]+$/.test(value)) return `strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`;
  const n = BigInt(value);
  if (n < INT64_MIN || n > INT64_MAX) return `strconv.ParseInt: parsing ${JSON.stringify(value)}: value out of range`;
  return n;
}

/**
 * What decoding makes of a DaemonSet's annotation (Kubernetes converts to its
 * internal form and back before tracking managedFields): absent → "0", "+3" →
 * "3". A malformed value is left as sent for the strategy to reject.
 */
export function normaliseTemplateGeneration(ds: Record<string, unknown>): void {
  const meta = typeof ds.metadata === 'object' && ds.metadata !== null && !Array.isArray(ds.metadata) ? (ds.metadata as Record<string, unknown>) : (ds.metadata = {});
  const annotations = typeof meta.annotations === 'object' && meta.annotations !== null && !Array.isArray(meta.annotations) ? (meta.annotations as Record<string, unknown>) : undefined;
  const sent = annotations?.[TEMPLATE_GENERATION];
  const parsed = typeof sent === 'string' ? parseTemplateGeneration(sent) : sent === undefined ? 0n : undefined;
  if (typeof parsed !== 'bigint') return;
  meta.annotations = { ...(annotations ?? {}), [TEMPLATE_GENERATION]: parsed.toString() };
}
