// The RBAC authorizer (kube-apiserver v1.27's plugin/pkg/auth/authorizer/rbac
// with the registry's default rule resolver): walks the ClusterRoleBindings,
// then the RoleBindings of the request's namespace, and allows on the first
// rule of a role bound to the user that matches. It reads roles and bindings
// through an RbacReader: the watch-fed, subject-indexed cache (cache.ts) in the
// server, fixed lists (staticRbac) in tests.
import type { UserInfo } from '../../authn/user.js';
import type { Attributes, Authorizer, Decision, Rules } from '../authorizer.js';
import { ruleAllows, type PolicyRule } from './rules.js';
import { aggregateErrors } from '../../api/meta/index.js';

export interface Subject {
  readonly kind: string;
  readonly apiGroup?: string;
  readonly name: string;
  readonly namespace?: string;
}

export interface RoleRef {
  readonly apiGroup?: string;
  readonly kind: string;
  readonly name: string;
}

/** A RoleBinding or ClusterRoleBinding as stored (only the fields RBAC reads). */
export interface Binding {
  readonly metadata: { readonly name: string; readonly namespace?: string };
  readonly subjects?: readonly Subject[] | null;
  readonly roleRef: RoleRef;
}

/** A Role or ClusterRole as stored (only the rules). */
export interface Role {
  readonly rules?: readonly PolicyRule[] | null;
}

/**
 * Where RBAC reads its policy; missing roles are `undefined`. The binding lists
 * may be narrowed to those naming one of the user's identities (the watch-fed
 * cache indexes them by subject); the authorizer checks every subject anyway.
 */
export interface RbacReader {
  clusterRoleBindingsFor(user: UserInfo): Iterable<Binding>;
  roleBindingsFor(user: UserInfo, namespace: string): Iterable<Binding>;
  getClusterRole(name: string): Role | undefined;
  getRole(namespace: string, name: string): Role | undefined;
  /**
   * Changes whenever any role or binding changes (the watch-fed cache counts its events). With it,
   * decisions are remembered until the policy changes: a decision is a pure function of the policy
   * and the request's user name, groups, verb, group, resource, subresource, namespace, name or path.
   */
  readonly generation?: number;
}

/** How many decisions are remembered per policy generation (then they are forgotten and counted again). */
const MEMO_LIMIT = 16_384;

const SA_PREFIX = 'system:serviceaccount:';

/**
 * Whether one binding subject is the user. A ServiceAccount subject without a
 * namespace takes the RoleBinding's namespace (none for a ClusterRoleBinding,
 * where it then matches nobody). Subject apiGroup is not checked, as in kube.
 */
export function subjectMatches(user: UserInfo, s: Subject, bindingNamespace: string): boolean {
  switch (s.kind) {
    case 'User': return user.name === s.name;
    case 'Group': return user.groups.includes(s.name);
    case 'ServiceAccount': {
      const ns = s.namespace || bindingNamespace;
      return ns !== '' && user.name === `${SA_PREFIX}${ns}:${s.name}`;
    }
    default: return false;
  }
}

const q = (s: string): string => JSON.stringify(s);

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} ${q(`${s.name}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind} ${q(s.name)}`;
}

/** kube's source text: `ClusterRoleBinding "x" of ClusterRole "y" to User "alice"` / `RoleBinding "b/ns" of Role "r" to Group "devs"`. */
function describeSource(b: Binding, s: Subject, bindingNamespace: string): string {
  const ref = `of ${b.roleRef.kind} ${q(b.roleRef.name)} to ${describeSubject(s, bindingNamespace)}`;
  return bindingNamespace === ''
    ? `ClusterRoleBinding ${q(b.metadata.name)} ${ref}`
    : `RoleBinding ${q(`${b.metadata.name}/${bindingNamespace}`)} ${ref}`;
}

/** A visit: a rule and where it came from, or a resolution error. Return false to stop. */
type Visitor = (source: string, rule: PolicyRule | undefined, err: string | undefined) => boolean;

export class RbacAuthorizer implements Authorizer {
  readonly name = 'RBAC';
  private memo = new Map<string, Decision>();
  private memoGeneration: number | undefined;

  constructor(private readonly reader: RbacReader) {}

  /** The rules of a binding's roleRef, or the error kube's listers would give. */
  private roleRules(ref: RoleRef, bindingNamespace: string): readonly PolicyRule[] | string {
    switch (ref.kind) {
      case 'Role': {
        const r = this.reader.getRole(bindingNamespace, ref.name);
        return r ? r.rules ?? [] : `role.rbac.authorization.k8s.io ${q(ref.name)} not found`;
      }
      case 'ClusterRole': {
        const r = this.reader.getClusterRole(ref.name);
        return r ? r.rules ?? [] : `clusterrole.rbac.authorization.k8s.io ${q(ref.name)} not found`;
      }
      default:
        return `unsupported role reference kind: ${q(ref.kind)}`;
    }
  }

  private visitBindings(user: UserInfo, bindings: Iterable<Binding>, ns: string, visit: Visitor): boolean {
    for (const b of bindings) {
      const subject = (b.subjects ?? []).find((s) => subjectMatches(user, s, ns));
      if (!subject) continue;
      const rules = this.roleRules(b.roleRef, ns);
      if (typeof rules === 'string') {
        if (!visit('', undefined, rules)) return false;
        continue;
      }
      const source = describeSource(b, subject, ns);
      for (const rule of rules) if (!visit(source, rule, undefined)) return false;
    }
    return true;
  }

  /** Every rule that applies to the user in the namespace ('' = cluster-wide only), in kube's order. */
  visitRulesFor(user: UserInfo, namespace: string, visit: Visitor): void {
    if (!this.visitBindings(user, this.reader.clusterRoleBindingsFor(user), '', visit)) return;
    if (namespace !== '') this.visitBindings(user, this.reader.roleBindingsFor(user, namespace), namespace, visit);
  }

  authorize(a: Attributes): Decision {
    const generation = this.reader.generation;
    if (generation === undefined) return this.decide(a);
    if (generation !== this.memoGeneration || this.memo.size >= MEMO_LIMIT) {
      this.memo = new Map();
      this.memoGeneration = generation;
    }
    const key = memoKey(a);
    let d = this.memo.get(key);
    if (d === undefined) this.memo.set(key, (d = this.decide(a)));
    return d;
  }

  private decide(a: Attributes): Decision {
    const namespace = a.isResourceRequest ? a.namespace : '';
    let reason: string | undefined;
    const errors: string[] = [];
    this.visitRulesFor(a.user, namespace, (source, rule, err) => {
      if (rule && ruleAllows(a, rule)) {
        reason = `RBAC: allowed by ${source}`;
        return false;
      }
      if (err !== undefined) errors.push(err);
      return true;
    });
    if (reason !== undefined) return { decision: 'allow', reason };
    // No rule: RBAC has no opinion (the chain's last word is a deny); a reason only when roles could not be resolved.
    return { decision: 'noOpinion', reason: errors.length > 0 ? `RBAC: ${aggregateErrors(errors)}` : '' };
  }

  /** SelfSubjectRulesReview's lists: a rule with resources goes to resourceRules, one with nonResourceURLs to nonResourceRules (one with both, to both). */
  rulesFor(user: UserInfo, namespace: string): Rules {
    const resourceRules: { verbs: string[]; apiGroups: string[]; resources: string[]; resourceNames?: string[] }[] = [];
    const nonResourceRules: { verbs: string[]; nonResourceURLs: string[] }[] = [];
    const errors: string[] = [];
    this.visitRulesFor(user, namespace, (_source, rule, err) => {
      if (rule) {
        if ((rule.resources ?? []).length > 0) {
          resourceRules.push({
            verbs: [...(rule.verbs ?? [])],
            apiGroups: [...(rule.apiGroups ?? [])],
            resources: [...(rule.resources ?? [])],
            ...((rule.resourceNames ?? []).length > 0 ? { resourceNames: [...rule.resourceNames!] } : {}),
          });
        }
        if ((rule.nonResourceURLs ?? []).length > 0) {
          nonResourceRules.push({ verbs: [...(rule.verbs ?? [])], nonResourceURLs: [...rule.nonResourceURLs!] });
        }
      }
      if (err !== undefined) errors.push(err);
      return true;
    });
    return {
      resourceRules, nonResourceRules, incomplete: false,
      ...(errors.length > 0 ? { evaluationError: aggregateErrors(errors) } : {}),
    };
  }
}

/** Everything an RBAC decision depends on besides the policy, NUL-separated (no name or group holds a NUL). */
function memoKey(a: Attributes): string {
  const who = `${a.user.name}\0${a.user.groups.join('\0')}\0\0${a.verb}`;
  return a.isResourceRequest
    ? `${who}\0r\0${a.apiGroup}\0${a.resource}\0${a.subresource}\0${a.namespace}\0${a.name}`
    : `${who}\0n\0${a.path}`;
}

/** An RbacReader over fixed lists (tests, and a seed before the watch cache is fed). */
export function staticRbac(p: {
  clusterRoles?: Record<string, Role>;
  roles?: Record<string, Record<string, Role>>;
  clusterRoleBindings?: readonly Binding[];
  roleBindings?: readonly Binding[];
}): RbacReader {
  return {
    clusterRoleBindingsFor: () => p.clusterRoleBindings ?? [],
    roleBindingsFor: (_user, ns) => (p.roleBindings ?? []).filter((b) => b.metadata.namespace === ns),
    getClusterRole: (name) => p.clusterRoles?.[name],
    getRole: (ns, name) => p.roles?.[ns]?.[name],
  };
}
