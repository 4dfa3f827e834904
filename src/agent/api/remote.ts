// The AgentApi over HTTPS (`svc agent --svcconfig`): the agent authenticates
// AS its node — the svcconfig's client certificate (CN system:node:<name>,
// O system:nodes) or token; no impersonation — so the Node authorizer and
// NodeRestriction judge its requests. Writes carry fieldManager=kubelet;
// updates are GET-modify-PUT retried on 409 (the first GET saved when the
// caller has a watched copy); patches are merge patches. The
// caches list and watch only what a kubelet watches: its pods
// (fieldSelector spec.nodeName=<node>), every Service, and its own Node
// (fieldSelector metadata.name=<node>). Paths use the k8s.io spelling of
// groups, which every server serves.
import { isStatusError } from '../../api/meta/index.js';
import type { DeleteOptions, Target } from '../../controllers/client.js';
import type { ApiObject } from '../../registry/object.js';
import { ApiHttp } from '../../client/http.js';
import type { ClientConfig } from '../../client/svcconfig.js';
import { RemoteInformer } from '../../simnodes/remote/informer.js';
import { AGENT_MANAGER, type AgentApi } from '../api.js';

const CONFLICT_RETRIES = 5;
const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

/** A collection's path (the k8s.io spelling of svc.io groups, as every server accepts). Own copy: simnodes' would load the controllers' client. */
function collectionPath(t: Pick<Target, 'group' | 'version' | 'resource'>, namespace: string): string {
  const group = t.group.replace(/\.svc\.io$/, '.k8s.io');
  const base = group === '' ? `/api/${t.version}` : `/apis/${group}/${t.version}`;
  return `${base}${namespace ? `/namespaces/${encodeURIComponent(namespace)}` : ''}/${t.resource}`;
}

const objectPath = (t: Target, namespace: string, name: string) => `${collectionPath(t, namespace)}/${encodeURIComponent(name)}`;
const subPath = (t: Target, namespace: string, name: string) => `${objectPath(t, namespace, name)}${t.subresource ? `/${t.subresource}` : ''}`;
const managed = (path: string) => `${path}?fieldManager=${AGENT_MANAGER}`;

/** `connection`: a svcconfig read with loadSvcconfig, or a client made already (closed with the AgentApi). */
export function remoteAgentApi(connection: ClientConfig | ApiHttp, nodeName: string): AgentApi {
  const http = connection instanceof ApiHttp ? connection
    : new ApiHttp(connection.connection, { credentials: connection.credentials, userAgent: `svc-agent/${nodeName}` });
  const label = `agent ${nodeName}`;
  const pods = new RemoteInformer(http, '/api/v1/pods', `fieldSelector=${encodeURIComponent(`spec.nodeName=${nodeName}`)}`, label);
  const services = new RemoteInformer(http, '/api/v1/services', '', label);
  const node = new RemoteInformer(http, '/api/v1/nodes', `fieldSelector=${encodeURIComponent(`metadata.name=${nodeName}`)}`, label);
  const get = async (t: Target, ns: string, name: string) => (await http.json('GET', subPath(t, ns, name))) as ApiObject;
  return {
    nodeName,
    get,
    create: async (t, ns, obj) => (await http.json('POST', managed(collectionPath(t, ns)), obj)) as ApiObject,
    async update(t, ns, name, mutate, base) {
      for (let attempt = 1; ; attempt++) {
        // the object itself (a node may not GET nodes/status), PUT to the subresource; a watched copy saves the first GET
        const current = attempt === 1 && base ? base : (await http.json('GET', objectPath(t, ns, name))) as ApiObject;
        const next = mutate(current);
        try {
          return (await http.json('PUT', managed(subPath(t, ns, name)), next)) as ApiObject;
        } catch (err) {
          if (attempt < CONFLICT_RETRIES && isStatusError(err) && err.status.reason === 'Conflict') continue;
          throw err;
        }
      }
    },
    patch: async (t, ns, name, patch) => (await http.json('PATCH', managed(subPath(t, ns, name)), patch, MERGE_PATCH)) as ApiObject,
    delete: (t, ns, name, opts: DeleteOptions = {}) => http.json('DELETE', objectPath(t, ns, name), { kind: 'DeleteOptions', apiVersion: 'v1', ...opts }),
    createSubresource: async (t, ns, name, body) => (await http.json('POST', subPath(t, ns, name), body)) as ApiObject,
    pods: () => pods,
    services: () => services,
    node: () => node,
    close() {
      for (const i of [pods, services, node]) i.stop();
      http.close();
    },
  };
}
