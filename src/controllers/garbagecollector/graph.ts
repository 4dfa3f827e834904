// The dependency graph (kube's GraphBuilder and its uidToNode): one node per
// uid, each knowing its owners (the object's ownerReferences) and its
// dependents (the nodes whose ownerReferences name it). Informer events are
// applied in the order they come (`process`); what needs a look at the API —
// a dependent that may be garbage, an owner deleting its dependents, an owner
// orphaning them — goes to the sink's queues.
//
//   add/update, unknown uid ─► insert node, link to owners (virtual owner
//                              nodes for owners not seen: queued to verify)
//   add/update, known uid    ─► owners diffed (unblocked owners queued),
//                              being-deleted marked, transitions:
//                                deletion starts with `orphan`             → attemptToOrphan
//                                deletion starts with `foregroundDeletion` → dependents + node
//                                                                            to attemptToDelete
//   delete (observed)        ─► node removed; its dependents queued (the owner
//                              recorded absent); owners deleting dependents queued
//   delete (virtual: the API said 404 / another uid) ─► the same, unless some
//                              dependents name the uid by other coordinates
//
// A namespaced dependent's owner is in its own namespace or cluster-scoped;
// a reference that contradicts an observed owner's namespace is reported
// (OwnerRefInvalidNamespace) and the dependent queued for verification.
import type { OwnerReference } from '../../registry/object.js';
import {
  AbsentOwnerCache, coordinatesMatch, formatIdentity, identityLess, ownerIdentity, sameIdentity, type ObjectIdentity,
} from './identity.js';

export const FOREGROUND = 'foregroundDeletion';
export const ORPHAN = 'orphan';

/** What the graph needs of an object's metadata. */
export interface ObjectMetaView {
  readonly name?: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly deletionTimestamp?: string;
  readonly finalizers?: readonly string[];
  readonly ownerReferences?: readonly OwnerReference[];
}

export interface GraphEvent {
  readonly type: 'add' | 'update' | 'delete';
  /** Made by the collector after the API answered 404 (or another uid), not seen by an informer. */
  readonly virtual?: boolean;
  /** The apiVersion and kind of the monitored resource (or of the virtual event's identity). */
  readonly apiVersion: string;
  readonly kind: string;
  readonly meta: ObjectMetaView;
  readonly oldMeta?: ObjectMetaView;
}

export interface GraphSink {
  attemptToDelete(n: GraphNode, rateLimited?: boolean): void;
  attemptToOrphan(n: GraphNode): void;
  /** kube's reportInvalidNamespaceOwnerRef: a Warning OwnerRefInvalidNamespace event about the dependent. */
  invalidNamespace(dependent: ObjectIdentity, message: string): void;
}

export class GraphNode {
  readonly dependents = new Set<GraphNode>();
  owners: readonly OwnerReference[];
  deletingDependents: boolean;
  beingDeleted: boolean;

  constructor(public identity: ObjectIdentity, opts: { owners?: readonly OwnerReference[]; virtual: boolean; beingDeleted?: boolean; deletingDependents?: boolean }) {
    this.owners = opts.owners ?? [];
    this.virtual = opts.virtual;
    this.beingDeleted = opts.beingDeleted ?? false;
    this.deletingDependents = opts.deletingDependents ?? false;
  }

  /** Never observed by an informer: made for an owner a dependent names. */
  virtual: boolean;

  /** Dependents whose reference to this node has blockOwnerDeletion=true. */
  blockingDependents(): GraphNode[] {
    return [...this.dependents].filter((d) => d.owners.some((o) => o.uid === this.identity.uid && o.blockOwnerDeletion === true));
  }
}

const beingDeleted = (m: ObjectMetaView | undefined) => Boolean(m?.deletionTimestamp);
const hasFinalizer = (m: ObjectMetaView | undefined, f: string) => (m?.finalizers ?? []).includes(f);

/** Did the object's deletion start (or is it seen for the first time being deleted) with this finalizer? */
function deletionStartsWith(old: ObjectMetaView | undefined, now: ObjectMetaView, finalizer: string): boolean {
  if (!beingDeleted(now) || !hasFinalizer(now, finalizer)) return false;
  return !old || !beingDeleted(old) || !hasFinalizer(old, finalizer);
}

/** kube's referencesDiffs: references by uid added, removed, changed. */
export function referencesDiff(old: readonly OwnerReference[], now: readonly OwnerReference[]) {
  const before = new Map(old.map((r) => [r.uid, r]));
  const added: OwnerReference[] = [];
  const changed: { old: OwnerReference; now: OwnerReference }[] = [];
  for (const r of now) {
    const o = before.get(r.uid);
    if (!o) added.push(r);
    else {
      if (!sameReference(o, r)) changed.push({ old: o, now: r });
      before.delete(r.uid);
    }
  }
  return { added, removed: [...before.values()], changed };
}

function sameReference(a: OwnerReference, b: OwnerReference): boolean {
  return a.apiVersion === b.apiVersion && a.kind === b.kind && a.name === b.name && a.uid === b.uid &&
    a.controller === b.controller && a.blockOwnerDeletion === b.blockOwnerDeletion;
}

/** kube's partitionDependents: dependents naming `owner` by these coordinates, and those naming its uid otherwise. */
export function partitionDependents(dependents: Iterable<GraphNode>, owner: ObjectIdentity): { matching: GraphNode[]; nonmatching: GraphNode[] } {
  const matching: GraphNode[] = [];
  const nonmatching: GraphNode[] = [];
  for (const dep of dependents) {
    let match = false;
    let mismatch = false;
    if (owner.namespace !== '' && owner.namespace !== dep.identity.namespace) mismatch = true;
    else {
      for (const ref of dep.owners) {
        if (ref.uid !== owner.uid) continue;
        if (coordinatesMatch(ref, owner)) match = true;
        else mismatch = true;
      }
    }
    if (match) matching.push(dep);
    if (mismatch) nonmatching.push(dep);
  }
  return { matching, nonmatching };
}

/** kube's getAlternateOwnerIdentity: another identity dependents give the absent uid, the first after it in order (else the first). */
export function alternateOwnerIdentity(dependents: Iterable<GraphNode>, absent: ObjectIdentity): ObjectIdentity | undefined {
  const clusterScoped = absent.namespace === '';
  const seen: ObjectIdentity[] = [absent];
  let first: ObjectIdentity | undefined;
  let firstFollowing: ObjectIdentity | undefined;
  for (const dep of dependents) {
    for (const ref of dep.owners) {
      if (ref.uid !== absent.uid) continue;
      if (coordinatesMatch(ref, absent) && (clusterScoped || absent.namespace === dep.identity.namespace)) continue;
      let alt = ownerIdentity(ref, dep.identity.namespace);
      if (clusterScoped && alt.apiVersion === absent.apiVersion && alt.kind === absent.kind) alt = { ...alt, namespace: '' };
      if (seen.some((s) => sameIdentity(s, alt))) continue;
      seen.push(alt);
      if (!first || identityLess(alt, first)) first = alt;
      if (identityLess(absent, alt) && (!firstFollowing || identityLess(alt, firstFollowing))) firstFollowing = alt;
    }
  }
  return firstFollowing ?? first;
}

export class DependencyGraph {
  readonly nodes = new Map<string, GraphNode>();

  constructor(private readonly sink: GraphSink, readonly absent = new AbsentOwnerCache()) {}

  get(uid: string): GraphNode | undefined {
    return this.nodes.get(uid);
  }

  /** Applies one informer (or virtual) event to the graph. */
  process(e: GraphEvent): void {
    const uid = e.meta.uid;
    if (!uid) return;
    const observed = identityOf(e);
    const existing = this.nodes.get(uid);
    if (existing && !e.virtual && existing.virtual) {
      // First seen by an informer: dependents that named it otherwise are checked again.
      if (!sameIdentity(observed, existing.identity)) {
        const { nonmatching } = partitionDependents(existing.dependents, observed);
        for (const dep of nonmatching) {
          if (observed.namespace !== '' && dep.identity.namespace !== observed.namespace) this.reportInvalidNamespace(dep, observed.uid);
          this.sink.attemptToDelete(dep);
        }
        existing.identity = observed;
      }
      existing.virtual = false;
    }
    if (e.type !== 'delete') {
      if (!existing) {
        const n = new GraphNode(observed, {
          owners: e.meta.ownerReferences ?? [], virtual: false,
          beingDeleted: beingDeleted(e.meta), deletingDependents: beingDeleted(e.meta) && hasFinalizer(e.meta, FOREGROUND),
        });
        this.nodes.set(uid, n);
        this.addDependentToOwners(n, n.owners);
        this.processTransitions(e.oldMeta, e.meta, n);
        return;
      }
      if (!e.virtual && (existing.identity.apiVersion !== e.apiVersion || existing.identity.kind !== e.kind)) {
        existing.identity = { ...existing.identity, apiVersion: e.apiVersion, kind: e.kind };
      }
      const { added, removed, changed } = referencesDiff(existing.owners, e.meta.ownerReferences ?? []);
      if (added.length || removed.length || changed.length) {
        this.addUnblockedOwnersToDeleteQueue(removed, changed);
        existing.owners = e.meta.ownerReferences ?? [];
        this.addDependentToOwners(existing, added);
        this.removeDependentFromOwners(existing, removed);
      }
      if (beingDeleted(e.meta)) existing.beingDeleted = true;
      this.processTransitions(e.oldMeta, e.meta, existing);
      return;
    }
    if (!existing) return;
    let remove = true;
    if (e.virtual) {
      const deleted = observed;
      if (existing.virtual) {
        const { matching, nonmatching } = partitionDependents(existing.dependents, deleted);
        if (nonmatching.length > 0) {
          // Dependents disagree on this uid's coordinates: keep the virtual node.
          remove = false;
          if (matching.length > 0) {
            this.absent.add(deleted);
            for (const dep of matching) this.sink.attemptToDelete(dep);
          }
          if (sameIdentity(existing.identity, deleted)) {
            const alt = alternateOwnerIdentity(nonmatching, deleted);
            if (alt) {
              existing.identity = alt;
              this.sink.attemptToDelete(existing, true);
            }
          }
        }
      } else if (!sameIdentity(existing.identity, deleted)) {
        // The observed object is not the one the API said is gone.
        remove = false;
        const { matching } = partitionDependents(existing.dependents, deleted);
        if (matching.length > 0) {
          this.absent.add(deleted);
          for (const dep of matching) this.sink.attemptToDelete(dep);
        }
      }
    }
    if (remove) this.removeNode(existing, observed);
  }

  private removeNode(n: GraphNode, identity: ObjectIdentity): void {
    this.nodes.delete(n.identity.uid);
    this.removeDependentFromOwners(n, n.owners);
    if (n.dependents.size > 0) this.absent.add(identity);
    for (const dep of n.dependents) this.sink.attemptToDelete(dep);
    for (const ref of n.owners) {
      const owner = this.nodes.get(ref.uid);
      if (owner?.deletingDependents) this.sink.attemptToDelete(owner);
    }
  }

  private addDependentToOwners(n: GraphNode, owners: readonly OwnerReference[]): void {
    let potentiallyInvalid = false;
    for (const ref of owners) {
      let owner = this.nodes.get(ref.uid);
      if (!owner) {
        owner = new GraphNode(ownerIdentity(ref, n.identity.namespace), { virtual: true });
        this.nodes.set(ref.uid, owner);
        owner.dependents.add(n);
        this.sink.attemptToDelete(owner); // is it there? the API will tell
        continue;
      }
      owner.dependents.add(n);
      if (potentiallyInvalid) continue;
      const ownerNamespaced = owner.identity.namespace !== '';
      if (ownerNamespaced && owner.identity.namespace !== n.identity.namespace) {
        if (!owner.virtual) this.reportInvalidNamespace(n, ref.uid);
        potentiallyInvalid = true;
      } else if (!coordinatesMatch(ref, owner.identity)) {
        potentiallyInvalid = true;
      } else if (!ownerNamespaced && owner.identity.namespace !== n.identity.namespace && owner.virtual) {
        // A virtual cluster-scoped owner named from a namespace: maybe a namespaced kind named from a cluster-scoped dependent.
        potentiallyInvalid = true;
      }
    }
    if (potentiallyInvalid) this.sink.attemptToDelete(n);
  }

  private removeDependentFromOwners(n: GraphNode, owners: readonly OwnerReference[]): void {
    for (const ref of owners) this.nodes.get(ref.uid)?.dependents.delete(n);
  }

  /** A blocking reference removed or made non-blocking: its owner may be waiting for exactly that. */
  private addUnblockedOwnersToDeleteQueue(removed: readonly OwnerReference[], changed: readonly { old: OwnerReference; now: OwnerReference }[]): void {
    for (const ref of removed) {
      if (ref.blockOwnerDeletion !== true) continue;
      const owner = this.nodes.get(ref.uid);
      if (owner) this.sink.attemptToDelete(owner);
    }
    for (const c of changed) {
      if (c.old.blockOwnerDeletion === true && c.now.blockOwnerDeletion !== true) {
        const owner = this.nodes.get(c.now.uid);
        if (owner) this.sink.attemptToDelete(owner);
      }
    }
  }

  private processTransitions(old: ObjectMetaView | undefined, now: ObjectMetaView, n: GraphNode): void {
    if (deletionStartsWith(old, now, ORPHAN)) {
      this.sink.attemptToOrphan(n);
      return;
    }
    if (deletionStartsWith(old, now, FOREGROUND)) {
      n.deletingDependents = true;
      for (const dep of n.dependents) this.sink.attemptToDelete(dep);
      this.sink.attemptToDelete(n);
    }
  }

  private reportInvalidNamespace(dep: GraphNode, ownerUid: string): void {
    const ref = dep.owners.find((o) => o.uid === ownerUid);
    if (!ref) return;
    const invalid = ownerIdentity(ref, dep.identity.namespace);
    this.sink.invalidNamespace(dep.identity, `ownerRef ${formatIdentity(invalid)} does not exist in namespace "${dep.identity.namespace}"`);
  }
}

function identityOf(e: GraphEvent): ObjectIdentity {
  return { apiVersion: e.apiVersion, kind: e.kind, name: e.meta.name ?? '', uid: e.meta.uid ?? '', namespace: e.meta.namespace ?? '' };
}
