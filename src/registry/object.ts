// Objects as the registry handles them: plain JSON values with a metadata
// block. Full typed schemas come with the schema engine; the registry only
// needs metadata and the top-level spec/status split.

import { cloneJson } from '../smd/json.js';

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

/** A deep copy of a JSON value (objects here are plain JSON; ~6× faster than structuredClone on a 15 KiB object). */
export function clone<T>(v: T): T {
  return cloneJson(v as JsonValue) as T;
}

/** Deep equality of plain JSON values; keys whose value is undefined count as absent. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const array = Array.isArray(a);
  if (array !== Array.isArray(b)) return false;
  if (array) {
    const aa = a as unknown[];
    const bb = b as unknown[];
    if (aa.length !== bb.length) return false;
    for (let i = 0; i < aa.length; i++) if (!deepEqual(aa[i], bb[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let n = 0;
  for (const k of Object.keys(ao)) {
    const v = ao[k];
    if (v === undefined) continue;
    if (!Object.hasOwn(bo, k) || !deepEqual(v, bo[k])) return false;
    n++;
  }
  for (const k of Object.keys(bo)) if (bo[k] !== undefined) n--;
  return n === 0;
}

/** RFC 3339 with second precision, as Kubernetes' metav1.Time serialises. */
export function nowTimestamp(now = Date.now()): string {
  const second = Math.floor(now / 1000);
  if (second !== stampSecond) {
    // One Date and string per second, not per write (every create stamps creationTimestamp).
    stampText = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
    stampSecond = second;
  }
  return stampText;
}
let stampSecond = NaN;
let stampText = '';

/** A plain object (not an array or null)? */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Puts kind, apiVersion and metadata first, as Kubernetes' encoder does. */
export function withTypeMeta(obj: ApiObject, apiVersion: string, kind: string): ApiObject {
  const { apiVersion: _a, kind: _k, metadata, ...rest } = obj;
  return { kind, apiVersion, metadata, ...rest } as ApiObject;
}

/** Freezes a JSON value and everything in it (objects shared by readers that must not change them). */
export function deepFreeze<T>(v: T): T {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return v;
  Object.freeze(v);
  // Indexed and for-in loops: no array of values per object (a third of the cost on a decoded object).
  // Scalars are not called for (most values of a custom resource's fields are).
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (typeof x === 'object' && x !== null) deepFreeze(x);
    }
  } else {
    const o = v as Record<string, unknown>;
    for (const k in o) {
      const x = o[k];
      if (typeof x === 'object' && x !== null) deepFreeze(x);
    }
  }
  return v;
}
