// A simulated kubelet's calls over HTTPS. The kubeconfig's user (an admin)
// impersonates the node — Impersonate-User system:node:<name>,
// Impersonate-Group system:nodes — so the server's Node authorizer and
// NodeRestriction judge each write as the node's own, as in process. Paths
// use the k8s.io spelling of groups, which every server serves.
import type { DeleteOptions, Target } from '../../controllers/client.js';
import { isStatusError, StatusError } from '../../api/meta/index.js';
import type { ApiObject } from '../../registry/object.js';
import { KUBELET_MANAGER, type KubeletClient } from '../api.js';
import { nodeUser } from '../identity.js';
import type { ApiHttp, Headers } from '../../client/http.js';

const CONFLICT_RETRIES = 5;

/** The collection path of a target ('' namespace: cluster scope or all namespaces). */
export function collectionPath(t: Pick<Target, 'group' | 'version' | 'resource'>, namespace: string): string {
  const group = t.group.replace(/\.svc\.io$/, '.k8s.io');
  const base = group === '' ? `/api/${t.version}` : `/apis/${group}/${t.version}`;
  return `${base}${namespace ? `/namespaces/${encodeURIComponent(namespace)}` : ''}/${t.resource}`;
}

const objectPath = (t: Target, namespace: string, name: string) => `${collectionPath(t, namespace)}/${encodeURIComponent(name)}`;

export class RemoteKubelet implements KubeletClient {
  private readonly headers: Headers;

  constructor(private readonly http: ApiHttp, readonly nodeName: string) {
    const user = nodeUser(nodeName);
    this.headers = { 'impersonate-user': user.name, 'impersonate-group': user.groups.filter((g) => g !== 'system:authenticated') };
  }

  async create(t: Target, namespace: string, obj: ApiObject): Promise<ApiObject> {
    return (await this.http.json('POST', `${collectionPath(t, namespace)}?fieldManager=${KUBELET_MANAGER}`, obj, this.headers)) as ApiObject;
  }

  /** GET the object, PUT what `mutate` makes of it (to the subresource when the target names one); again on 409. */
  async update(t: Target, namespace: string, name: string, mutate: (current: ApiObject) => ApiObject): Promise<ApiObject> {
    for (let attempt = 1; ; attempt++) {
      const current = (await this.http.json('GET', objectPath(t, namespace, name), undefined, this.headers)) as ApiObject;
      const next = mutate(current);
      const path = `${objectPath(t, namespace, name)}${t.subresource ? `/${t.subresource}` : ''}?fieldManager=${KUBELET_MANAGER}`;
      try {
        return (await this.http.json('PUT', path, next, this.headers)) as ApiObject;
      } catch (err) {
        if (attempt < CONFLICT_RETRIES && isStatusError(err) && err.status.reason === 'Conflict') continue;
        throw err;
      }
    }
  }

  async delete(t: Target, namespace: string, name: string, opts: DeleteOptions = {}): Promise<unknown> {
    return this.http.json('DELETE', objectPath(t, namespace, name), { kind: 'DeleteOptions', apiVersion: 'v1', ...opts }, this.headers);
  }

  /** A SelfSubjectAccessReview as the node for list and watch; the 403 a list would get when refused. */
  async authorizeWatch(t: Target, namespace: string): Promise<void> {
    for (const verb of ['list', 'watch']) {
      const review = await this.http.json('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
        kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1',
        spec: { resourceAttributes: { verb, group: t.group.replace(/\.svc\.io$/, '.k8s.io'), version: t.version, resource: t.resource, namespace } },
      }, this.headers);
      const status = (review.status ?? {}) as { allowed?: boolean };
      if (status.allowed !== true) {
        const scope = namespace ? `in the namespace "${namespace}"` : 'at the cluster scope';
        throw new StatusError({
          kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Forbidden', code: 403, details: { kind: t.resource },
          message: `${t.resource} is forbidden: User "${nodeUser(this.nodeName).name}" cannot ${verb} resource "${t.resource}" in API group "${t.group}" ${scope}`,
        });
      }
    }
  }
}
