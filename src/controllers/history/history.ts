// A parent's history as API writes (kube's history.realHistory): list the
// revisions a parent owns or could adopt, create one retrying with a bumped
// collision count when another revision holds the name, renumber, delete,
// adopt and release. Reads come from the shared ControllerRevision informer,
// writes go through the controller's own client.
import type { ApiObject, OwnerReference } from '../../registry/object.js';
import type { ControllerClient, Target } from '../client.js';
import type { SharedInformer } from '../shared.js';
import { newConflict } from '../../api/meta/index.js';
import { selectorMatches } from '../../api/meta/checks.js';
import { isReason } from '../informer.js';
import { hashControllerRevision, rawData } from './hash.js';
import { controllerRevisionName, revisionData, revisionNumber } from './revision.js';

export const CONTROLLER_REVISIONS: Target = { group: 'apps', version: 'v1', resource: 'controllerrevisions' };

const controllerOf = (o: ApiObject): OwnerReference | undefined => (o.metadata.ownerReferences ?? []).find((r) => r.controller === true);

/** A write of ownerReferences must land on the object we decided about (kube's patches carry metadata.uid). */
function sameUid(decided: ApiObject, latest: ApiObject): void {
  if (latest.metadata.uid !== decided.metadata.uid) {
    throw newConflict({ group: 'apps', resource: 'controllerrevisions' }, decided.metadata.name!,
      `Precondition failed: UID in precondition: ${decided.metadata.uid}, UID in object meta: ${latest.metadata.uid}`);
  }
}

export interface CreatedRevision {
  readonly revision: ApiObject;
  /** The collision count after the create (raised once per name taken by other data). */
  readonly collisionCount: number;
}

export class History {
  constructor(private readonly client: ControllerClient, private readonly revisions: SharedInformer) {}

  /** Revisions in the parent's namespace matching `selector` and owned by the parent or by no controller. */
  list(parent: ApiObject, selector: unknown): ApiObject[] {
    return this.revisions.list(parent.metadata.namespace ?? '').filter((r) => {
      if (!selectorMatches(selector, r.metadata.labels ?? {})) return false;
      const ref = controllerOf(r);
      return !ref || ref.uid === parent.metadata.uid;
    });
  }

  /**
   * Creates `revision` named `<parent>-<hash(data, collisionCount)>`. When
   * the name is taken by a revision with the same data, that one is returned;
   * by other data, the count is raised and the create tried again.
   */
  async create(parent: ApiObject, revision: ApiObject, collisionCount: number): Promise<CreatedRevision> {
    const ns = parent.metadata.namespace!;
    const data = revisionData(revision);
    let count = collisionCount;
    for (;;) {
      const name = controllerRevisionName(parent.metadata.name!, hashControllerRevision(data, count));
      const body = structuredClone(revision);
      body.metadata = { ...body.metadata, name, namespace: ns };
      try {
        return { revision: await this.client.create(CONTROLLER_REVISIONS, ns, body), collisionCount: count };
      } catch (err) {
        if (!isReason(err, 'AlreadyExists')) throw err;
        const exists = await this.client.get(CONTROLLER_REVISIONS, ns, name);
        if (rawData(revisionData(exists)) === rawData(data)) return { revision: exists, collisionCount: count };
        count++;
      }
    }
  }

  /** Sets the revision number (retried on conflicts). */
  async updateRevision(revision: ApiObject, newRevision: number): Promise<ApiObject> {
    if (revisionNumber(revision) === newRevision) return revision;
    return this.client.update(CONTROLLER_REVISIONS, revision.metadata.namespace!, revision.metadata.name!, (latest) => ({ ...latest, revision: newRevision }));
  }

  async delete(revision: ApiObject): Promise<void> {
    await this.client.delete(CONTROLLER_REVISIONS, revision.metadata.namespace!, revision.metadata.name!);
  }

  /** Adds the parent as controller of an orphan revision (an error if another controller owns it). */
  async adopt(parent: ApiObject, ownerRef: OwnerReference, revision: ApiObject): Promise<ApiObject> {
    const owner = controllerOf(revision);
    if (owner) throw new Error(`attempt to adopt revision owned by ${JSON.stringify(owner)}`);
    return this.client.update(CONTROLLER_REVISIONS, parent.metadata.namespace!, revision.metadata.name!, (latest) => {
      sameUid(revision, latest);
      const current = controllerOf(latest);
      if (current && current.uid !== ownerRef.uid) throw new Error(`attempt to adopt revision owned by ${JSON.stringify(current)}`);
      const refs = (latest.metadata.ownerReferences ?? []).filter((r) => r.uid !== ownerRef.uid);
      return { ...latest, metadata: { ...latest.metadata, ownerReferences: [...refs, { ...ownerRef, controller: true, blockOwnerDeletion: true }] } };
    }, { verb: 'patch' });
  }

  /** Removes the parent from the revision's owners; a revision gone or replaced meanwhile is left alone (undefined). */
  async release(parent: ApiObject, revision: ApiObject): Promise<ApiObject | undefined> {
    try {
      return await this.client.update(CONTROLLER_REVISIONS, revision.metadata.namespace!, revision.metadata.name!, (latest) => {
        sameUid(revision, latest);
        const refs = (latest.metadata.ownerReferences ?? []).filter((r) => r.uid !== parent.metadata.uid);
        const meta = { ...latest.metadata };
        if (refs.length > 0) meta.ownerReferences = refs;
        else delete meta.ownerReferences;
        return { ...latest, metadata: meta };
      }, { verb: 'patch' });
    } catch (err) {
      if (isReason(err, 'NotFound') || isReason(err, 'Invalid')) return undefined;
      throw err;
    }
  }
}
