// The daemon-set controller's pod writes (kube's syncNodes over
// RealPodControl): expectations are set before anything is written; pods are
// created from the daemon template with the node-name affinity of their node,
// in slow-start batches (1, 2, 4 …; a failed batch stops the rest, which are
// no longer expected), deletions run in parallel; at most `burst` of each per
// sync. Events as kube's PodControl records them: SuccessfulCreate "Created
// pod: <name>", FailedCreate "Error creating: <err>", SuccessfulDelete
// "Deleted pod: <name>", FailedDelete "Error deleting: <err>" (none for a pod
// already gone, nor for a create refused because the namespace is going away).
import type { ApiObject } from '../../registry/object.js';
import type { ControllerClient } from '../client.js';
import type { EventRecorder } from '../events.js';
import { isNamespaceTerminating, isReason } from '../informer.js';
import type { Expectations } from '../replicaset/expectations.js';
import { slowStartBatch } from '../replicaset/slowstart.js';
import { controllerRef, podFromTemplate } from '../replicaset/pods.js';
import { createPodTemplate, replaceNodeNameAffinity, templateGenerationOf } from './podtemplate.js';
import { PODS } from './revisions.js';

export class DaemonPodControl {
  constructor(
    private readonly client: ControllerClient, private readonly recorder: EventRecorder,
    private readonly expectations: Expectations, private readonly burst: number,
  ) {}

  /** kube's syncNodes: expectations first, then creations in slow-start batches and deletions in parallel (each capped by the burst). */
  async syncNodes(ds: ApiObject, podsToDelete: readonly string[], nodesNeeding: readonly string[], hash: string, key: string): Promise<void> {
    const ns = ds.metadata.namespace!;
    const createN = Math.min(nodesNeeding.length, this.burst);
    const deleteN = Math.min(podsToDelete.length, this.burst);
    const deleting = podsToDelete.slice(0, deleteN);
    if (createN === 0 && deleteN === 0) return;
    this.expectations.expect(key, createN, deleting.map((name) => `${ns}/${name}`));
    const template = createPodTemplate(((ds.spec ?? {}) as { template?: unknown }).template, templateGenerationOf(ds), hash);
    const errors: unknown[] = [];
    let next = 0;
    const { successes, error } = await slowStartBatch(createN, 1, () => this.createPod(ds, template, nodesNeeding[next++]!));
    for (let i = successes; i < createN; i++) this.expectations.creationSkipped(key);
    if (error !== undefined) errors.push(error);
    await Promise.all(deleting.map(async (name) => {
      try {
        await this.deletePod(ds, name);
      } catch (err) {
        this.expectations.deletionObserved(key, `${ns}/${name}`);
        if (!isReason(err, 'NotFound')) errors.push(err);
      }
    }));
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new Error(`[${errors.map((e) => (e as Error).message).join(', ')}]`);
  }

  private async createPod(ds: ApiObject, template: Record<string, unknown>, nodeName: string): Promise<void> {
    const spec = { ...(template.spec as Record<string, unknown>) };
    spec.affinity = replaceNodeNameAffinity(spec.affinity, nodeName);
    const pod = podFromTemplate({ ...template, spec }, ds.metadata.namespace!, ds.metadata.name!, controllerRef(ds, 'apps/v1', 'DaemonSet'));
    try {
      const created = await this.client.create(PODS, ds.metadata.namespace!, pod);
      void this.recorder.event(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
    } catch (err) {
      if (isNamespaceTerminating(err)) return; // the namespace goes away: nothing to report
      void this.recorder.event(ds, 'Warning', 'FailedCreate', `Error creating: ${(err as Error).message}`);
      throw err;
    }
  }

  private async deletePod(ds: ApiObject, name: string): Promise<void> {
    try {
      await this.client.delete(PODS, ds.metadata.namespace!, name);
    } catch (err) {
      if (!isReason(err, 'NotFound')) void this.recorder.event(ds, 'Warning', 'FailedDelete', `Error deleting: ${(err as Error).message}`);
      throw err;
    }
    void this.recorder.event(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
  }
}
