// Removing the job-tracking finalizer from a pod as kube's job controller
// does: a PATCH (the verb the job-controller role grants on pods; it has no
// `update` there), through the controller's client, dropping only the
// finalizer and only from the pod with that uid.
import type { ControllerContext } from '../context.js';
import type { ControllerClient } from '../client.js';
import type { ApiObject } from '../../registry/object.js';
import { CONTROLLER_MANAGER } from '../informer.js';

const PODS = { group: '', version: 'v1', resource: 'pods' };

export class FinalizerRemover {
  private readonly client: ControllerClient;

  constructor(ctx: ControllerContext, serviceAccount: string, manager = CONTROLLER_MANAGER) {
    this.client = ctx.client(serviceAccount, manager);
  }

  /** Drops `finalizer` from the pod (a no-op when it is gone or another pod took its name). */
  async remove(pod: ApiObject, finalizer: string): Promise<void> {
    await this.client.update(PODS, pod.metadata.namespace!, pod.metadata.name!, (cur) => {
      if (cur.metadata.uid !== pod.metadata.uid) return cur;
      return { ...cur, metadata: { ...cur.metadata, finalizers: (cur.metadata.finalizers ?? []).filter((f) => f !== finalizer) } };
    }, { verb: 'patch' });
  }
}
