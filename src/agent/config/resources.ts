// `--svc-reserved` / `--system-reserved` (`cpu=100m,memory=1Gi,...`) as kube's
// parseResourceList reads them: only cpu, memory, ephemeral-storage and pid,
// quantities that parse and are not negative.
import { parseQuantity, type Quantity } from '../../api/meta/quantity.js';

export type ResourceMap = Readonly<Record<string, Quantity>>;

export const RESERVABLE = ['cpu', 'memory', 'ephemeral-storage', 'pid'] as const;

const QUANTITY_SYNTAX = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/** Returns the typed map, or the problem (kube's text). */
export function parseResourceList(m: Readonly<Record<string, string>>): ResourceMap | string {
  const out: Record<string, Quantity> = {};
  for (const [k, v] of Object.entries(m)) {
    if (!(RESERVABLE as readonly string[]).includes(k)) return `cannot reserve ${JSON.stringify(k)} resource`;
    const q = parseQuantity(v);
    if (!q) return `failed to parse quantity ${JSON.stringify(v)} for ${JSON.stringify(k)} resource: ${QUANTITY_SYNTAX}`;
    if (q.nanos < 0n) return `resource quantity for ${JSON.stringify(k)} cannot be negative: ${v}`;
    out[k] = q;
  }
  return out;
}

export { QUANTITY_SYNTAX };
