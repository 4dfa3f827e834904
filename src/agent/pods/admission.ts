// The agent's admission of a pod bound to its node (kube's
// predicateAdmitHandler: the pod count and the requested resources against
// allocatable less what the admitted pods request). A pod is judged once,
// when first seen; the verdict stands for its life.
import { podRequests } from '../../quota/evaluators/podresources.js';
import { addLists, type ResourceList } from '../../quota/resources.js';
import type { ApiObject } from '../../registry/object.js';
import { admitPod, type Rejection } from '../../simnodes/admit.js';

export class PodAdmission {
  private readonly admitted = new Map<string, ResourceList>();
  private readonly rejected = new Map<string, Rejection>();

  /** Judges a pod once (later calls answer the first verdict). */
  admit(pod: ApiObject, allocatable: ResourceList): Rejection | undefined {
    const uid = pod.metadata.uid ?? '';
    if (this.admitted.has(uid)) return undefined;
    const before = this.rejected.get(uid);
    if (before) return before;
    let used: ResourceList = {};
    for (const r of this.admitted.values()) used = addLists(used, r);
    const requests = podRequests(pod);
    const rejection = admitPod(requests, used, this.admitted.size, allocatable);
    if (rejection) this.rejected.set(uid, rejection);
    else this.admitted.set(uid, requests);
    return rejection;
  }

  rejection(uid: string): Rejection | undefined {
    return this.rejected.get(uid);
  }

  /** The pod no longer holds resources (terminated or gone). */
  release(uid: string): void {
    this.admitted.delete(uid);
  }

  /** The pod left the agent. */
  forget(uid: string): void {
    this.admitted.delete(uid);
    this.rejected.delete(uid);
  }
}
