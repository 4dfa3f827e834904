// Mirror pods (kube's pod/mirror_client.go and the kubelet's syncPod/cleanup
// use of it): the API server's copy of a static pod, so the cluster sees it.
//   create   the static pod's metadata and spec, config.mirror = its hash,
//            one controller owner reference to the Node (what NodeRestriction
//            requires); an existing mirror with the same hash is fine
//   delete   by name, grace period 0, with the mirror's UID as precondition
//   sync     per static pod: no mirror → create; a mirror being deleted or of
//            another hash → delete and create; mirrors of no static pod → delete
import { isReason } from '../../controllers/informer.js';
import type { Target } from '../../controllers/client.js';
import type { ApiObject } from '../../registry/object.js';
import type { AgentApi } from '../api.js';
import { annotation, CONFIG_MIRROR, isMirrorPod, podHash } from './staticpod.js';

export const PODS: Target = { group: '', version: 'v1', resource: 'pods' };

export class MirrorPodError extends Error {
  override readonly name = 'MirrorPodError';
}

const fullName = (p: ApiObject) => `${p.metadata.name}_${p.metadata.namespace}`;

export class MirrorPodClient {
  /** `nodeUID`: the registered Node's UID (the owner reference needs it). */
  constructor(private readonly api: AgentApi, private readonly nodeUID: () => string | undefined) {}

  /** The mirror pod a static pod would have (what create sends). */
  mirrorOf(staticPod: ApiObject): ApiObject {
    const hash = podHash(staticPod);
    if (!hash) throw new MirrorPodError(`static pod ${fullName(staticPod)} has no config.hash annotation`);
    const uid = this.nodeUID();
    if (!uid) throw new MirrorPodError(`node ${this.api.nodeName} is not registered yet: a mirror pod needs its UID`);
    const { uid: _u, resourceVersion: _rv, creationTimestamp: _c, ownerReferences: _o, ...meta } = staticPod.metadata as Record<string, unknown>;
    const annotations = { ...(staticPod.metadata.annotations ?? {}) };
    for (const k of CONFIG_MIRROR) annotations[k] = hash;
    return {
      apiVersion: 'v1', kind: 'Pod',
      metadata: { ...meta, annotations, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: this.api.nodeName, uid, controller: true }] },
      spec: staticPod.spec,
    } as ApiObject;
  }

  /** Creates the mirror pod; an existing mirror of the same hash counts as created. */
  async create(staticPod: ApiObject): Promise<ApiObject> {
    const mirror = this.mirrorOf(staticPod);
    const ns = mirror.metadata.namespace ?? 'default';
    try {
      return await this.api.create(PODS, ns, mirror);
    } catch (err) {
      if (!isReason(err, 'AlreadyExists')) throw err;
      const existing = await this.api.get(PODS, ns, mirror.metadata.name!);
      if (isMirrorPod(existing) && annotation(existing, CONFIG_MIRROR) === podHash(staticPod)) return existing;
      throw err;
    }
  }

  /** Deletes a mirror pod now (grace 0), only the one with `uid` when given; false when it was not there. */
  async delete(namespace: string, name: string, uid?: string): Promise<boolean> {
    try {
      await this.api.delete(PODS, namespace, name, { gracePeriodSeconds: 0, ...(uid ? { preconditions: { uid } } : {}) });
      return true;
    } catch (err) {
      if (isReason(err, 'NotFound') || (uid && isReason(err, 'Conflict'))) return false;
      throw err;
    }
  }

  /**
   * Brings the mirror pods in line with the static pods: each gets its
   * mirror, recreated when the static pod changed; mirrors without a static
   * pod go. `mirrors` are the pods bound to this node (default: the API's
   * pod cache). Errors are collected per pod and thrown together at the end.
   */
  async sync(staticPods: readonly ApiObject[], mirrors: readonly ApiObject[] = this.api.pods().list()): Promise<void> {
    const byName = new Map(mirrors.filter(isMirrorPod).map((p) => [fullName(p), p]));
    const errors: string[] = [];
    const attempt = async (what: string, fn: () => Promise<unknown>) => {
      try {
        await fn();
      } catch (err) {
        errors.push(`${what}: ${(err as Error).message}`);
      }
    };
    for (const sp of staticPods) {
      const name = fullName(sp);
      const mirror = byName.get(name);
      byName.delete(name);
      if (mirror && !mirror.metadata.deletionTimestamp && annotation(mirror, CONFIG_MIRROR) === podHash(sp)) continue;
      await attempt(`mirror pod ${name}`, async () => {
        if (mirror) await this.delete(mirror.metadata.namespace ?? 'default', mirror.metadata.name!, mirror.metadata.uid);
        await this.create(sp);
      });
    }
    for (const [name, orphan] of byName) {
      await attempt(`orphaned mirror pod ${name}`, () => this.delete(orphan.metadata.namespace ?? 'default', orphan.metadata.name!, orphan.metadata.uid));
    }
    if (errors.length > 0) throw new MirrorPodError(errors.join('; '));
  }
}
