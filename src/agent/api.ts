// The seam between the node agent and the API server: what the agent's parts
// (node status, pod workers, status manager, volumes, mirror pods) need, as
// the node `system:node:<name>` — so the Node authorizer and NodeRestriction
// judge every call as a kubelet's. Two implementations: in the server's
// process (`svc server --agent`: requests through the server's authorizer and
// admission, informers from the watch cache) and over HTTPS from a svcconfig
// (`svc agent --svcconfig`). Standalone mode has no AgentApi at all.
import type { DeleteOptions, Target } from '../controllers/client.js';
import type { ApiObject } from '../registry/object.js';
import type { ObjectCache } from '../simnodes/api.js';

export type { ObjectCache } from '../simnodes/api.js';

/** The kubelet's field manager. */
export const AGENT_MANAGER = 'kubelet';

export interface AgentApi {
  readonly nodeName: string;
  get(t: Target, namespace: string, name: string): Promise<ApiObject>;
  create(t: Target, namespace: string, obj: ApiObject): Promise<ApiObject>;
  /**
   * GET-modify-PUT (to the subresource when the target names one), retried on 409; `mutate` may throw to give up.
   * With `base` (a watched copy) the first attempt starts from it instead of a GET; a stale one is a 409, then a GET.
   */
  update(t: Target, namespace: string, name: string, mutate: (current: ApiObject) => ApiObject, base?: ApiObject): Promise<ApiObject>;
  /** A merge patch (`application/merge-patch+json`), to the subresource when the target names one. */
  patch(t: Target, namespace: string, name: string, patch: Record<string, unknown>): Promise<ApiObject>;
  delete(t: Target, namespace: string, name: string, opts?: DeleteOptions): Promise<unknown>;
  /** POST to a subresource (serviceaccounts/token). */
  createSubresource(t: Target & { readonly subresource: string }, namespace: string, name: string, body: ApiObject): Promise<ApiObject>;
  /** The pods bound to this node (watched with fieldSelector spec.nodeName=<node>). */
  pods(): ObjectCache;
  /** Services of every namespace (the service environment variables). */
  services(): ObjectCache;
  /** This node's own Node object. */
  node(): ObjectCache;
  close(): void;
}
