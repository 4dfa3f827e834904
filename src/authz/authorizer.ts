// Authorization: an Authorizer decides on request attributes (Kubernetes'
// authorizer.Attributes). RBAC, Node and Webhook come later; for now the
// server runs AlwaysAllow. A Union asks each in order until one decides.
import type { UserInfo } from '../authn/user.js';
import type { NonResourceRequestInfo, ResourceRequestInfo } from '../endpoints/requestinfo.js';

/** Who asks, and what: the request info of a resource or a non-resource request. */
export type Attributes = { readonly user: UserInfo } & (
  | Omit<ResourceRequestInfo, 'apiPrefix' | 'parts' | 'verb'> & { readonly verb: string }
  | NonResourceRequestInfo
);

export type Decision = { readonly decision: 'allow' | 'deny' | 'noOpinion'; readonly reason: string };

export interface Rules {
  readonly resourceRules: readonly { verbs: string[]; apiGroups: string[]; resources: string[]; resourceNames?: string[] }[];
  readonly nonResourceRules: readonly { verbs: string[]; nonResourceURLs: string[] }[];
  /** SelfSubjectRulesReview's status.incomplete: the authorizer cannot list everything it would allow. */
  readonly incomplete?: boolean;
  /** SelfSubjectRulesReview's status.evaluationError (e.g. a binding's role could not be found). */
  readonly evaluationError?: string;
}

export interface Authorizer {
  readonly name: string;
  authorize(a: Attributes): Promise<Decision> | Decision;
  /** What the user may do in a namespace (SelfSubjectRulesReview), where the authorizer can tell. */
  rulesFor?(user: UserInfo, namespace: string): Rules;
}

export const alwaysAllow: Authorizer = {
  name: 'AlwaysAllow',
  authorize: () => ({ decision: 'allow', reason: '' }),
  rulesFor: () => ({
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  }),
};
export const alwaysDeny: Authorizer = { name: 'AlwaysDeny', authorize: () => ({ decision: 'deny', reason: 'Everything is forbidden.' }) };

export class UnionAuthorizer implements Authorizer {
  readonly name = 'union';
  constructor(private readonly authorizers: readonly Authorizer[]) {}
  async authorize(a: Attributes): Promise<Decision> {
    const reasons: string[] = [];
    for (const z of this.authorizers) {
      const d = await z.authorize(a);
      if (d.decision !== 'noOpinion') return d;
      if (d.reason) reasons.push(d.reason);
    }
    return { decision: 'noOpinion', reason: reasons.join('; ') };
  }
}
