// What a caller may do on the agent, as the kubelet authorizes: every request
// is a question about the node object — resource `nodes`, name the node,
// subresource by path (/stats → stats, /metrics → metrics, /logs → log,
// /spec → spec, anything else → proxy), verb by HTTP method — answered by
// AlwaysAllow or by a SubjectAccessReview through the API server (allow answers
// cached --authorization-webhook-cache-authorized-ttl, deny answers
// --authorization-webhook-cache-unauthorized-ttl).
import type { AgentUser, ReviewApi } from './authn.js';
import { isObject } from '../../registry/object.js';
import { TtlCache } from './ttlcache.js';

export interface NodeAttributes {
  readonly verb: string;
  readonly resource: 'nodes';
  readonly subresource: string;
  readonly name: string;
}

export type AuthorizationOptions =
  | { readonly mode: 'AlwaysAllow' }
  | { readonly mode: 'Webhook'; readonly api: ReviewApi; readonly authorizedTtlMs: number; readonly unauthorizedTtlMs: number; readonly now?: () => number };

const VERBS: Record<string, string> = { POST: 'create', GET: 'get', HEAD: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };
const SUBRESOURCES: readonly (readonly [string, string])[] = [['/stats', 'stats'], ['/metrics', 'metrics'], ['/logs', 'log'], ['/spec', 'spec']];

/** kube's GetRequestAttributes. */
export function nodeAttributes(method: string, path: string, nodeName: string): NodeAttributes {
  const sub = SUBRESOURCES.find(([p]) => path === p || path.startsWith(`${p}/`));
  return { verb: VERBS[method] ?? '', resource: 'nodes', subresource: sub ? sub[1] : 'proxy', name: nodeName };
}

export type Decision = 'allow' | 'deny';

export class AgentAuthorizer {
  private readonly cache: TtlCache<Decision> | undefined;
  constructor(private readonly o: AuthorizationOptions) {
    this.cache = o.mode === 'Webhook' ? new TtlCache(4096, o.now) : undefined;
  }

  /** Throws when the webhook cannot answer (kube: 500 "Authorization error …"). */
  async authorize(user: AgentUser, a: NodeAttributes): Promise<Decision> {
    const o = this.o;
    if (o.mode === 'AlwaysAllow') return 'allow';
    const spec = {
      resourceAttributes: { namespace: '', verb: a.verb, group: '', version: 'v1', resource: a.resource, subresource: a.subresource, name: a.name },
      user: user.name,
      groups: [...user.groups],
      ...(user.uid ? { uid: user.uid } : {}),
      ...(user.extra ? { extra: user.extra } : {}),
    };
    const key = TtlCache.key(spec);
    const hit = this.cache!.get(key);
    if (hit) return hit;
    const answer = await o.api.create({ group: 'authorization.svc.io', version: 'v1', resource: 'subjectaccessreviews' }, '', {
      apiVersion: 'authorization.svc.io/v1', kind: 'SubjectAccessReview', metadata: {}, spec,
    });
    const status = isObject(answer.status) ? answer.status : {};
    const decision: Decision = status.allowed === true ? 'allow' : 'deny';
    this.cache!.set(key, decision, decision === 'allow' ? o.authorizedTtlMs : o.unauthorizedTtlMs);
    return decision;
  }
}

/** The refusal's text, as the kubelet writes it. */
export function describe(kind: 'Forbidden' | 'Authorization error', user: AgentUser, a: NodeAttributes): string {
  return `${kind} (user=${user.name}, verb=${a.verb}, resource=${a.resource}, subresource=${a.subresource})`;
}
