// The seam between the simulated kubelets and the API they talk to: in the
// server's process (ControllerClient authorized as system:node:<name>,
// shared informers fed by the watch cache) or over HTTPS against any server
// (remote.ts). The kubelets need only these calls.
import { ControllerClient, type DeleteOptions, type Target } from '../controllers/client.js';
import type { ControllerContext } from '../controllers/context.js';
import type { ResourceHandler } from '../controllers/shared.js';
import type { ApiObject } from '../registry/object.js';
import { nodeUser } from './identity.js';

/** The kubelet's field manager. */
export const KUBELET_MANAGER = 'kubelet';

/** What one node's kubelet does with the API, as that node. Errors are StatusErrors, as the API answers. */
export interface KubeletClient {
  create(t: Target, namespace: string, obj: ApiObject): Promise<ApiObject>;
  /** GET-modify-PUT, retried on conflicts; `mutate` may throw to give up. */
  update(t: Target, namespace: string, name: string, mutate: (current: ApiObject) => ApiObject): Promise<ApiObject>;
  delete(t: Target, namespace: string, name: string, opts?: DeleteOptions): Promise<unknown>;
  /** Throws the 403 when the node may not list and watch the resource. */
  authorizeWatch(t: Target, namespace: string): Promise<void>;
}

/** A lister and its events (client-go's informer): objects are shared, never changed in place. */
export interface ObjectCache {
  get(namespace: string, name: string): ApiObject | undefined;
  /** Every object held. */
  list(): ApiObject[];
  addHandler(h: ResourceHandler): void;
  start(): Promise<void>;
  waitForSync(): Promise<void>;
}

export interface Cluster {
  kubelet(nodeName: string): KubeletClient;
  /** Every object of a resource (the nodes' informer may hold only simulated ones). */
  informer(group: string, resource: string): ObjectCache;
}

/** The server's own process: requests go to the registry through its authorizer and admission. */
export function inProcessCluster(ctx: ControllerContext): Cluster {
  return {
    kubelet: (name) => new ControllerClient(ctx.registry, ctx.authorizer, nodeUser(name), ctx.gates, KUBELET_MANAGER),
    informer: (group, resource) => ctx.informers.informer(group, resource),
  };
}
