// Authorization: an Authorizer decides on request attributes (Kubernetes'
// authorizer.Attributes). The server asks a Union of the configured modes
// (modes.ts), in order, until one allows or denies; the privileged group
// (system:masters) is asked first.
import { MASTERS, type UserInfo } from '../authn/user.js';
import type { NonResourceRequestInfo, ResourceRequestInfo } from '../endpoints/requestinfo.js';
import { aggregateErrors } from '../api/meta/index.js';

/** Who asks, and what: the request info of a resource or a non-resource request. */
export type Attributes = { readonly user: UserInfo } & (
  | Omit<ResourceRequestInfo, 'apiPrefix' | 'parts' | 'verb'> & { readonly verb: string }
  | NonResourceRequestInfo
);

/**
 * A decision with kube's reason text. `error`: the authorizer could not decide
 * (a webhook that failed); a request nobody allowed that met an error is
 * answered 500, not 403 (kube's authorization filter).
 */
export type Decision = { readonly decision: 'allow' | 'deny' | 'noOpinion'; readonly reason: string; readonly error?: string };

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
export const alwaysDeny: Authorizer = {
  name: 'AlwaysDeny',
  authorize: () => ({ decision: 'noOpinion', reason: 'Everything is forbidden.' }),
  rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
};

/** Members of the privileged group are allowed everything (kube's NewPrivilegedGroups(system:masters)); no rule resolver. */
export const privilegedGroups = (...groups: string[]): Authorizer => ({
  name: 'PrivilegedGroups',
  authorize: (a) => ({ decision: a.user.groups.some((g) => groups.includes(g)) ? 'allow' : 'noOpinion', reason: '' }),
});
export const systemMasters = privilegedGroups(MASTERS);

const noOpinion = (reasons: readonly string[], errors: readonly string[]): Decision =>
  ({ decision: 'noOpinion', reason: reasons.join('\n'), ...(errors.length > 0 ? { error: aggregateErrors(errors) } : {}) });

export class UnionAuthorizer implements Authorizer {
  readonly name = 'union';
  constructor(private readonly authorizers: readonly Authorizer[]) {}

  /**
   * The first allow or deny; otherwise no opinion with every reason (one per line) and every error.
   * Synchronous while the authorizers answer synchronously (RBAC, Node, ABAC, the privileged
   * group): a decision costs no promise unless one of them (a webhook) has to wait.
   */
  authorize(a: Attributes): Decision | Promise<Decision> {
    const reasons: string[] = [];
    const errors: string[] = [];
    for (let i = 0; i < this.authorizers.length; i++) {
      const d = this.authorizers[i]!.authorize(a);
      if (d instanceof Promise) return this.rest(a, i, d, reasons, errors);
      if (d.decision !== 'noOpinion') return d;
      if (d.reason) reasons.push(d.reason);
      if (d.error) errors.push(d.error);
    }
    return noOpinion(reasons, errors);
  }

  private async rest(a: Attributes, i: number, pending: Promise<Decision>, reasons: string[], errors: string[]): Promise<Decision> {
    for (let d = await pending; ; d = await this.authorizers[i]!.authorize(a)) {
      if (d.decision !== 'noOpinion') return d;
      if (d.reason) reasons.push(d.reason);
      if (d.error) errors.push(d.error);
      if (++i >= this.authorizers.length) return noOpinion(reasons, errors);
    }
  }

  /** Every resolver's rules, concatenated; incomplete if any is; their errors aggregated (kube's union RulesFor). */
  rulesFor(user: UserInfo, namespace: string): Rules {
    const resourceRules: Rules['resourceRules'][number][] = [];
    const nonResourceRules: Rules['nonResourceRules'][number][] = [];
    const errors: string[] = [];
    let incomplete = false;
    for (const z of this.authorizers) {
      const r = z.rulesFor?.(user, namespace);
      if (!r) continue;
      resourceRules.push(...r.resourceRules);
      nonResourceRules.push(...r.nonResourceRules);
      if (r.incomplete) incomplete = true;
      if (r.evaluationError) errors.push(r.evaluationError);
    }
    return { resourceRules, nonResourceRules, incomplete, ...(errors.length > 0 ? { evaluationError: aggregateErrors(errors) } : {}) };
  }
}

