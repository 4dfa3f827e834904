// ControllerRevisions as values (kube's pkg/controller/history, the pure
// part): the name `<parent>-<hash>`, a new revision owned by its parent,
// equality of revisions by their data, and their order by revision number.
import type { ApiObject, OwnerReference } from '../../registry/object.js';
import { hashControllerRevision, rawData } from './hash.js';

/** The label kube writes with the hash of a revision's data. */
export const CONTROLLER_REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';

/** A ControllerRevision's fields beside metadata. */
export interface RevisionFields {
  readonly data?: unknown;
  readonly revision?: number;
}

export const revisionNumber = (r: ApiObject): number => (r as RevisionFields).revision ?? 0;
export const revisionData = (r: ApiObject): unknown => (r as RevisionFields).data;

/** `<prefix>-<hash>`, the prefix cut to 223 characters so the name stays within 253 (kube's ControllerRevisionName). */
export function controllerRevisionName(prefix: string, hash: string): string {
  return `${prefix.length > 223 ? prefix.slice(0, 223) : prefix}-${hash}`;
}

export interface NewRevisionOptions {
  /** The owning object (its name and namespace are used). */
  readonly parent: ApiObject;
  /** The ControllerRef to the parent (controller: true). */
  readonly ownerRef: OwnerReference;
  readonly templateLabels?: Readonly<Record<string, string>>;
  readonly data: unknown;
  readonly revision: number;
  readonly collisionCount?: number;
}

/** kube's NewControllerRevision: labels from the template plus the hash label, named by the hash. */
export function newControllerRevision(o: NewRevisionOptions): ApiObject {
  const hash = hashControllerRevision(o.data, o.collisionCount);
  return {
    apiVersion: 'apps/v1', kind: 'ControllerRevision',
    metadata: {
      name: controllerRevisionName(o.parent.metadata.name!, hash),
      namespace: o.parent.metadata.namespace!,
      labels: { ...o.templateLabels, [CONTROLLER_REVISION_HASH_LABEL]: hash },
      ownerReferences: [{ ...o.ownerRef }],
    },
    data: structuredClone(o.data) as never,
    revision: o.revision,
  };
}

/** The hash label read as Go's strconv.ParseInt(s, 10, 32) would, or undefined when it does not parse. */
function labelHash(r: ApiObject): number | undefined {
  const s = r.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL];
  if (s === undefined || !/^[+-]?\d+$/.test(s)) return undefined;
  const n = Number(s);
  return n >= -(2 ** 31) && n < 2 ** 31 ? n >>> 0 : undefined;
}

/** kube's EqualRevision: both absent, or the same data (and no differing numeric hash labels). */
export function equalRevision(a: ApiObject | undefined, b: ApiObject | undefined): boolean {
  if (!a || !b) return a === b;
  const ha = labelHash(a);
  const hb = labelHash(b);
  if (ha !== undefined && hb !== undefined && ha !== hb) return false;
  return rawData(revisionData(a)) === rawData(revisionData(b));
}

/** The revisions equal to `needle`, in their order (kube's FindEqualRevisions). */
export function findEqualRevisions(revisions: readonly ApiObject[], needle: ApiObject): ApiObject[] {
  return revisions.filter((r) => equalRevision(r, needle));
}

const created = (r: ApiObject) => (r.metadata.creationTimestamp ? Date.parse(r.metadata.creationTimestamp) : 0);

/** A copy sorted by revision number, then creation time, then name (kube's SortControllerRevisions; stable). */
export function sortControllerRevisions(revisions: readonly ApiObject[]): ApiObject[] {
  return [...revisions].sort((a, b) =>
    revisionNumber(a) - revisionNumber(b) || created(a) - created(b) || (a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0));
}

/** The highest revision number among these, 0 for none (the controllers' nextRevision is this plus one). */
export function maxRevision(revisions: readonly ApiObject[]): number {
  return revisions.reduce((m, r) => Math.max(m, revisionNumber(r)), 0);
}
