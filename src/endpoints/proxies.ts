// The proxy subresources (pods/proxy, services/proxy, nodes/proxy): where
// kube-apiserver would open a connection, answered as it answers when there is
// nothing to connect to — a pod without an IP is 400 "address not allowed", a
// Service without endpoints 503 "no endpoints available for service" — and
// otherwise 503: svc has no node agent or network path to proxy through yet.
// Never handled by the parent's verbs (a DELETE …/proxy must not delete the parent).
import { newBadRequest, newServiceUnavailable } from '../api/meta/index.js';
import type { ResourceRequestInfo } from './requestinfo.js';
import type { ApiObject } from '../registry/object.js';
import { isObject } from '../registry/object.js';

export interface ProxyDeps {
  /** The parent object (throws NotFound). */
  parent(namespace: string, name: string): Promise<ApiObject>;
  /** The Service's Endpoints (throws NotFound). */
  endpoints(namespace: string, name: string): Promise<ApiObject>;
}

/** kube's SplitSchemeNamePort: `name`, `name:port` or `scheme:name:port` (scheme http, https or empty). */
export function splitSchemeNamePort(id: string): string | undefined {
  const parts = id.split(':');
  if (parts.length > 3) return undefined;
  if (parts.length === 3 && !['', 'http', 'https'].includes(parts[0]!)) return undefined;
  const name = parts.length === 3 ? parts[1]! : parts[0]!;
  return name === '' ? undefined : name;
}

const KIND: Record<string, string> = { pods: 'pod', services: 'service', nodes: 'node' };

export async function serveProxy(resource: string, info: ResourceRequestInfo, deps: ProxyDeps): Promise<never> {
  const name = splitSchemeNamePort(info.name);
  if (name === undefined) throw newBadRequest(`invalid ${KIND[resource] ?? resource} request ${JSON.stringify(info.name)}`);
  const parent = await deps.parent(info.namespace, name);
  if (resource === 'pods') {
    const ip = isObject(parent.status) ? parent.status.podIP : undefined;
    if (typeof ip !== 'string' || ip === '') throw newBadRequest('address not allowed');
  }
  if (resource === 'services') {
    const eps = await deps.endpoints(info.namespace, name);
    if (!Array.isArray(eps.subsets) || eps.subsets.length === 0) throw newServiceUnavailable(`no endpoints available for service ${JSON.stringify(name)}`);
  }
  throw newServiceUnavailable(`${resource}/${info.subresource} of ${JSON.stringify(name)}: this server has no node agent or network path to proxy to`);
}
