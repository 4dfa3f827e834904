// The AgentApi in the server's own process (`svc server --agent`): every
// call through a ControllerClient as system:node:<name> with the kubelet's
// field manager, so the Node authorizer and NodeRestriction judge it as over
// HTTPS; merge patches applied to the latest object and authorized as
// `patch`; the caches are views of the server's shared informers (fed by the
// watch cache), started once the node may list and watch them.
import { ControllerClient, type DeleteOptions, type Target } from '../../controllers/client.js';
import type { ControllerContext } from '../../controllers/context.js';
import type { ApiObject } from '../../registry/object.js';
import { applyMergePatch } from '../../patch/mergepatch.js';
import type { JsonValue } from '../../patch/json.js';
import { nodeUser } from '../../simnodes/identity.js';
import { AGENT_MANAGER, type AgentApi, type ObjectCache } from '../api.js';
import { FilteredCache } from './filtered.js';

const PODS: Target = { group: '', version: 'v1', resource: 'pods' };
const SERVICES: Target = { group: '', version: 'v1', resource: 'services' };
const NODES: Target = { group: '', version: 'v1', resource: 'nodes' };

export function inProcessAgentApi(ctx: ControllerContext, nodeName: string): AgentApi {
  const client = new ControllerClient(ctx.registry, ctx.authorizer, nodeUser(nodeName), ctx.gates, AGENT_MANAGER);
  const view = (t: Target, keep: (o: ApiObject) => boolean) =>
    new FilteredCache(ctx.informers.informer(t.group, t.resource), keep, () => client.authorizeWatch(t, ''));
  const pods = view(PODS, (o) => (o.spec as { nodeName?: string } | undefined)?.nodeName === nodeName);
  const services = view(SERVICES, () => true);
  const node = view(NODES, (o) => o.metadata.name === nodeName);
  return {
    nodeName,
    get: (t, ns, name) => client.get(t, ns, name),
    create: (t, ns, obj) => client.create(t, ns, obj),
    update: (t, ns, name, mutate) => client.update(t, ns, name, mutate),
    patch: (t, ns, name, patch) =>
      client.update(t, ns, name, (cur) => applyMergePatch(cur as unknown as JsonValue, patch as JsonValue) as unknown as ApiObject, { verb: 'patch' }),
    delete: (t, ns, name, opts?: DeleteOptions) => client.delete(t, ns, name, opts),
    // serviceaccounts/token is no registry subresource: the server's TokenRequest storage (projected token volumes)
    createSubresource: (t, ns, name, body) =>
      client.createSubresource(t, ns, name, body, t.group === '' && t.resource === 'serviceaccounts' && t.subresource === 'token' ? ctx.config.tokenRequest : undefined),
    pods: (): ObjectCache => pods,
    services: (): ObjectCache => services,
    node: (): ObjectCache => node,
    close() {
      pods.stop();
      services.stop();
      node.stop();
    },
  };
}
