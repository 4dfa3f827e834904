// Removing the job-tracking finalizer from a pod as kube's job controller
// does: a PATCH (the verb the job-controller role grants on pods; it has no
// `update` there). ControllerClient has no patch verb yet, so this is the one
// write here made without it: authorized as `patch` through the server's
// authorizer as the controller's user, then a guaranteed update of the pod
// that only drops the finalizer (and only from the pod with that uid).
import type { ControllerContext } from '../context.js';
import { controllerUser } from '../client.js';
import { forbiddenError } from '../../authz/forbidden.js';
import type { Attributes } from '../../authz/authorizer.js';
import type { ResourceRequestInfo } from '../../endpoints/requestinfo.js';
import { trackWrite } from '../../endpoints/fieldmanager.js';
import { kindSchema } from '../../endpoints/kindschema.js';
import { resetFields } from '../../endpoints/resetfields.js';
import type { ApiObject } from '../../registry/object.js';
import { CONTROLLER_MANAGER } from '../informer.js';

export class FinalizerRemover {
  private readonly user;

  constructor(private readonly ctx: ControllerContext, serviceAccount: string, private readonly manager = CONTROLLER_MANAGER) {
    this.user = controllerUser(serviceAccount);
  }

  /** Drops `finalizer` from the pod (a no-op when it is gone or another pod took its name). */
  async remove(pod: ApiObject, finalizer: string): Promise<void> {
    const namespace = pod.metadata.namespace!;
    const name = pod.metadata.name!;
    const info: ResourceRequestInfo = {
      isResourceRequest: true, verb: 'patch', apiPrefix: 'api', apiGroup: '', apiVersion: 'v1', namespace, resource: 'pods', subresource: '', name,
      parts: ['pods', name], path: `/api/v1/namespaces/${namespace}/pods/${name}`,
    };
    const a: Attributes = { ...info, user: this.user };
    const d = await this.ctx.authorizer.authorize(a);
    if (d.decision !== 'allow') throw forbiddenError(a, d.reason);
    const served = this.ctx.registry.lookup('', 'v1', 'pods');
    const store = this.ctx.registry.store('', 'pods');
    const ignored = resetFields('', 'pods', store.strategy.hasStatus, undefined);
    await store.guaranteedUpdate(namespace, name, (cur) => {
      if (cur.metadata.uid !== pod.metadata.uid) return cur;
      cur.metadata.finalizers = (cur.metadata.finalizers ?? []).filter((f) => f !== finalizer);
      return cur;
    }, {
      dryRun: false, user: this.user, requestInfo: info,
      track: (live, next) => trackWrite({
        manager: this.manager, apiVersion: 'v1', kind: 'Pod', schema: served ? kindSchema(served) : undefined, ...(ignored ? { ignored } : {}),
      }, live, next),
    });
  }
}
