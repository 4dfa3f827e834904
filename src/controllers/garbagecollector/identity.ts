// Who an object or an owner reference names, as the garbage collector keeps
// it (kube's objectReference: apiVersion, kind, name, uid, plus the namespace
// the dependent is in), and the cache of owners known to be absent.
//
// Coordinates (uid, name, kind, apiVersion) match as kube's
// ownerReferenceMatchesCoordinates, with one difference: the apiVersion's
// version is not compared and the group is compared in one spelling
// (`rbac.authorization.k8s.io` = `rbac.authorization.svc.io`), since any
// served version names the same object here.
import type { OwnerReference } from '../../registry/object.js';
import { canonicalGroup } from '../../endpoints/requestinfo.js';

export interface ObjectIdentity {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  /** '' for cluster-scoped objects (and virtual owners of cluster-scoped dependents). */
  readonly namespace: string;
}

/** The group of an apiVersion (`apps/v1` → `apps`, `v1` → ''), in the svc.io spelling. */
export function groupOf(apiVersion: string): string {
  const i = apiVersion.lastIndexOf('/');
  return i < 0 ? '' : canonicalGroup(apiVersion.slice(0, i));
}

/** The version of an apiVersion (`apps/v1` → `v1`). */
export function versionOf(apiVersion: string): string {
  const i = apiVersion.lastIndexOf('/');
  return i < 0 ? apiVersion : apiVersion.slice(i + 1);
}

type Coordinates = Pick<ObjectIdentity, 'apiVersion' | 'kind' | 'name' | 'uid'>;

export function coordinatesMatch(a: Coordinates, b: Coordinates): boolean {
  return a.uid === b.uid && a.name === b.name && a.kind === b.kind && groupOf(a.apiVersion) === groupOf(b.apiVersion);
}

/** The identity an owner reference names, for a dependent in `namespace`. */
export function ownerIdentity(ref: OwnerReference, namespace: string): ObjectIdentity {
  return { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace };
}

export function sameIdentity(a: ObjectIdentity, b: ObjectIdentity): boolean {
  return a.namespace === b.namespace && a.apiVersion === b.apiVersion && coordinatesMatch(a, b);
}

/** kube's objectReference.String(), which its events print. */
export function formatIdentity(i: ObjectIdentity): string {
  return `[${i.apiVersion}/${i.kind}, namespace: ${i.namespace}, name: ${i.name}, uid: ${i.uid}]`;
}

/** kube's referenceLessThan: kind, apiVersion, namespace, name, uid. */
export function identityLess(a: ObjectIdentity, b: ObjectIdentity): boolean {
  for (const k of ['kind', 'apiVersion', 'namespace', 'name', 'uid'] as const) {
    if (a[k] !== b[k]) return a[k] < b[k];
  }
  return false;
}

const absentKey = (i: ObjectIdentity) => [groupOf(i.apiVersion), i.kind, i.namespace, i.name, i.uid].join('\u0000');

/** Owners verified absent (kube's ReferenceCache: an LRU of 500). */
export class AbsentOwnerCache {
  private readonly keys = new Map<string, true>();

  constructor(private readonly capacity = 500) {}

  add(i: ObjectIdentity): void {
    const k = absentKey(i);
    this.keys.delete(k);
    this.keys.set(k, true);
    if (this.keys.size > this.capacity) this.keys.delete(this.keys.keys().next().value!);
  }

  has(i: ObjectIdentity): boolean {
    const k = absentKey(i);
    if (!this.keys.has(k)) return false;
    this.keys.delete(k);
    this.keys.set(k, true);
    return true;
  }
}
