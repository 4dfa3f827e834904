// Where a service-referenced webhook is called: kube-apiserver's endpoint
// routing (ResolveEndpoint of k8s.io/apiserver/pkg/util/proxy, as with
// --enable-aggregator-routing). The Service must be ClusterIP, NodePort or
// LoadBalancer and have a port equal to the requested one; its Endpoints
// object (same name) gives a ready address, picked at random, with the port of
// the same name. Errors are kube's: the listers' NotFound (`service "x" not
// found`, `endpoints "x" not found`), ServiceUnavailable for a missing port or
// no address, and `unsupported service type "…"`.
import { isStatusError, newNotFound, newServiceUnavailable } from '../api/meta/status.js';
import type { ApiObject } from '../registry/object.js';
import type { ReadMode } from '../registry/listoptions.js';

/** The address to dial for a service's port; throws when nothing serves it. */
export type ServiceResolver = (namespace: string, name: string, port: number) => Promise<{ host: string; port: number }>;

/** What the resolver reads: registry.store(group, resource).getShared (a GenericStore does). */
export interface ObjectSource {
  store(group: string, resource: string): { getShared(namespace: string, name: string, mode?: ReadMode): Promise<ApiObject> };
}

interface ServicePort { name?: string; port?: number }
interface Subset { addresses?: { ip?: string }[]; ports?: { name?: string; port?: number }[] }

const ROUTABLE_TYPES = new Set(['ClusterIP', 'NodePort', 'LoadBalancer']);

export function endpointsResolver(registry: ObjectSource, random: (n: number) => number = (n) => Math.floor(Math.random() * n)): ServiceResolver {
  /** As a lister reads (the watch cache), asking storage when the cache has not seen it yet; NotFound in the lister's words. */
  const read = async (resource: 'services' | 'endpoints', singular: string, namespace: string, name: string): Promise<ApiObject> => {
    const store = registry.store('', resource);
    try {
      return await store.getShared(namespace, name, { kind: 'any' });
    } catch (err) {
      if (!isStatusError(err) || err.status.code !== 404) throw err;
    }
    try {
      return await store.getShared(namespace, name);
    } catch (err) {
      if (isStatusError(err) && err.status.code === 404) throw newNotFound({ group: '', resource: singular }, name);
      throw err;
    }
  };

  return async (namespace, name, port) => {
    if (!name || !namespace || !port) throw new Error('cannot resolve an empty service name or namespace or port');
    const svc = await read('services', 'service', namespace, name);
    const spec = (svc.spec ?? {}) as { type?: string; ports?: ServicePort[] };
    const type = spec.type ?? 'ClusterIP';
    if (!ROUTABLE_TYPES.has(type)) throw new Error(`unsupported service type ${JSON.stringify(type)}`);
    const svcPort = (spec.ports ?? []).find((p) => p.port === port);
    if (!svcPort) throw newServiceUnavailable(`no service port ${port} found for service ${JSON.stringify(name)}`);
    const eps = await read('endpoints', 'endpoints', namespace, name);
    const subsets = ((eps as { subsets?: Subset[] }).subsets ?? []);
    if (subsets.length === 0) throw newServiceUnavailable(`no endpoints available for service ${JSON.stringify(name)}`);
    const start = random(subsets.length);
    for (let i = 0; i < subsets.length; i++) {
      const ss = subsets[(start + i) % subsets.length]!;
      const addresses = (ss.addresses ?? []).filter((a) => a.ip);
      if (addresses.length === 0) continue;
      const p = (ss.ports ?? []).find((sp) => (sp.name ?? '') === (svcPort.name ?? ''));
      if (p?.port) return { host: addresses[random(addresses.length)]!.ip!, port: p.port };
    }
    throw newServiceUnavailable(`no endpoints available for service ${JSON.stringify(name)}`);
  };
}
