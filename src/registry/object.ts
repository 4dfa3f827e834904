// Objects as the registry handles them: plain JSON values with a metadata
// block. Full typed schemas come with the schema engine; the registry only
// needs metadata and the top-level spec/status split.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  managedFields?: JsonValue[];
  [k: string]: unknown;
}

export interface ApiObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [k: string]: unknown;
}

export function clone<T>(v: T): T {
  return structuredClone(v);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** RFC 3339 with second precision, as Kubernetes' metav1.Time serialises. */
export function nowTimestamp(now = Date.now()): string {
  return new Date(Math.floor(now / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** A plain object (not an array or null)? */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Puts kind, apiVersion and metadata first, as Kubernetes' encoder does. */
export function withTypeMeta(obj: ApiObject, apiVersion: string, kind: string): ApiObject {
  const { apiVersion: _a, kind: _k, metadata, ...rest } = obj;
  return { kind, apiVersion, metadata, ...rest } as ApiObject;
}
