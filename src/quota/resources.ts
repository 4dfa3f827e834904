// Resource lists (apiserver's quota/v1 resources.go): the arithmetic quota
// admission, the quota controller and LimitRanger share. A list maps a
// resource name ('pods', 'requests.cpu', 'count/deployments.apps') to a
// quantity; in objects (spec.hard, status.used) the quantities are strings.
import { compareQuantities, formatQuantity, quantityOf, type Quantity } from '../api/meta/quantity.js';

export type ResourceList = Record<string, Quantity>;

const ZERO: Quantity = Object.freeze({ nanos: 0n, format: 'DecimalSI' });

/** A list read from an object's field (`{ cpu: '100m' }`); entries that are not quantities are skipped. */
export function parseResourceList(v: unknown): ResourceList {
  const out: ResourceList = {};
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return out;
  for (const [k, raw] of Object.entries(v as Record<string, unknown>)) {
    const q = quantityOf(raw);
    if (q) out[k] = q;
  }
  return out;
}

/** A list as an object's field: canonical quantity texts, keys sorted (as Go writes a map). */
export function formatResourceList(l: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(l).sort()) out[k] = formatQuantity(l[k]!);
  return out;
}

export const zeroQuantity = (): Quantity => ZERO;

/** a + b, per name (names of either; the format of the first that has it). */
export function addLists(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = {};
  for (const k in a) out[k] = a[k]!;
  return addInto(out, b);
}

/** addLists into `out`, a list of the caller's own (a new object nothing else holds): no copy of it. */
export function addInto(out: ResourceList, more: ResourceList): ResourceList {
  for (const k in more) {
    const q = more[k]!;
    const have = out[k];
    out[k] = have ? { nanos: have.nanos + q.nanos, format: have.format } : q;
  }
  return out;
}

/** a − b, per name (names of either). */
export function subtractLists(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = {};
  for (const k in a) out[k] = a[k]!;
  for (const k in b) {
    const q = b[k]!;
    const have = out[k] ?? { nanos: 0n, format: q.format };
    out[k] = { nanos: have.nanos - q.nanos, format: have.format };
  }
  return out;
}

/** The entries of `l` whose names are in `names`. */
export function maskList(l: ResourceList, names: Iterable<string>): ResourceList {
  const out: ResourceList = {};
  for (const n of names) if (l[n]) out[n] = l[n]!;
  return out;
}

/** Whether every entry of `a` is ≤ the same entry of `b`; the names that are not (absent in `b` counts as not). */
export function exceeding(a: ResourceList, b: ResourceList): string[] {
  const out: string[] = [];
  for (const k in a) {
    const limit = b[k];
    if (!limit || compareQuantities(a[k]!, limit) > 0) out.push(k);
  }
  return out.sort();
}

/** Whether two lists hold the same names with equal values. */
export function listsEqual(a: ResourceList, b: ResourceList): boolean {
  if (a === b) return true;
  let n = 0;
  for (const k in a) {
    const other = b[k];
    if (other === undefined || a[k]!.nanos !== other.nanos) return false;
    n++;
  }
  for (const _ in b) n--;
  return n === 0;
}

/** Whether every value is zero. */
export function isZeroList(l: ResourceList): boolean {
  for (const k in l) if (l[k]!.nanos !== 0n) return false;
  return true;
}

/** Names of a list, sorted. */
export const resourceNames = (l: ResourceList): string[] => Object.keys(l).sort();

/** max(a, b), per name (names of either; on a tie the entry of `a`). */
export function maxLists(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = { ...a };
  for (const [k, q] of Object.entries(b)) {
    const have = out[k];
    if (!have || compareQuantities(q, have) > 0) out[k] = q;
  }
  return out;
}
