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

export type Decision = {
  readonly decision: 'allow' | 'deny' | 'noOpinion';
  readonly reason: string;
  /**
   * kube's third return value: the authorizer could not evaluate (a webhook that is down answers
   * noOpinion with an error). A request no authorizer allowed that carries one is kube's 500; a
   * SubjectAccessReview shows it as status.evaluationError.
   */
  readonly error?: string;
};

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
    const errors: string[] = [];
    for (const z of this.authorizers) {
      const d = await z.authorize(a);
      // kube's union: the deciding authorizer's own answer, error included.
      if (d.decision !== 'noOpinion') return d;
      if (d.reason) reasons.push(d.reason);
      if (d.error) errors.push(d.error);
    }
    const error = aggregateErrors(errors);
    return { decision: 'noOpinion', reason: reasons.join('\n'), ...(error ? { error } : {}) };
  }

  /**
   * kube's unionAuthzRulesHandler: every authorizer that can list rules is asked and the lists are
   * concatenated in chain order; incomplete if any says so; the errors aggregated. An authorizer
   * without rulesFor (AlwaysDeny, the privileged group) adds nothing.
   */
  rulesFor(user: UserInfo, namespace: string): Rules {
    const resourceRules: Rules['resourceRules'][number][] = [];
    const nonResourceRules: Rules['nonResourceRules'][number][] = [];
    const errors: string[] = [];
    let incomplete = false;
    for (const z of this.authorizers) {
      if (!z.rulesFor) continue;
      const r = z.rulesFor(user, namespace);
      resourceRules.push(...r.resourceRules);
      nonResourceRules.push(...r.nonResourceRules);
      if (r.incomplete) incomplete = true;
      if (r.evaluationError) errors.push(r.evaluationError);
    }
    const evaluationError = aggregateErrors(errors);
    return { resourceRules, nonResourceRules, incomplete, ...(evaluationError ? { evaluationError } : {}) };
  }
}

/** apimachinery's utilerrors.NewAggregate(...).Error(): one message alone, several deduplicated in brackets. */
export function aggregateErrors(errors: readonly string[]): string {
  if (errors.length <= 1) return errors[0] ?? '';
  const seen = [...new Set(errors)];
  return seen.length === 1 ? seen[0]! : `[${seen.join(', ')}]`;
}
