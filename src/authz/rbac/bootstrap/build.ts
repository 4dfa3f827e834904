// Builders for the bootstrap policy's data: rules as kube's PolicyRuleBuilder
// writes them (verbs, resources, names and URLs sorted; groups as given), and
// roles and bindings carrying the bootstrap label and autoupdate annotation in
// both spellings (kubernetes.io for stock tools, svc.io for ours).
import type { PolicyRule } from '../rules.js';

import { RBAC_GROUP } from '../../../api/rbac/v1/validation.js';

export const RBAC_API_VERSION = `${RBAC_GROUP}/v1`;

/** The label every default object carries, in both spellings. */
export const BOOTSTRAP_LABELS: Readonly<Record<string, string>> = {
  'kubernetes.io/bootstrapping': 'rbac-defaults',
  'svc.io/bootstrapping': 'rbac-defaults',
};
/** The reconcile annotation: "false" protects an object from reconciliation. */
export const AUTOUPDATE_ANNOTATIONS = ['rbac.authorization.kubernetes.io/autoupdate', 'rbac.authorization.svc.io/autoupdate'] as const;
const AUTOUPDATE: Readonly<Record<string, string>> = Object.fromEntries(AUTOUPDATE_ANNOTATIONS.map((k) => [k, 'true']));

/** The aggregation label stock operators put on their roles (`aggregate-to-view`…), k8s.io spelling. */
export const aggregateLabel = (to: 'admin' | 'edit' | 'view'): string => `rbac.authorization.k8s.io/aggregate-to-${to}`;

/** The namespaces Kubernetes calls kube-system and kube-public. */
export const SYSTEM_NS = 'svc-system';
export const PUBLIC_NS = 'svc-public';

export interface BootstrapRule extends PolicyRule {
  readonly verbs: readonly string[];
}
export interface ObjectMeta {
  readonly name: string;
  readonly namespace?: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
}
export interface LabelSelector {
  readonly matchLabels: Readonly<Record<string, string>>;
}
export interface BootstrapRole {
  readonly apiVersion: string;
  readonly kind: 'ClusterRole' | 'Role';
  readonly metadata: ObjectMeta;
  readonly rules?: readonly BootstrapRule[];
  readonly aggregationRule?: { readonly clusterRoleSelectors: readonly LabelSelector[] };
}
export interface BootstrapSubject {
  readonly kind: 'User' | 'Group' | 'ServiceAccount';
  readonly apiGroup: string;
  readonly name: string;
  readonly namespace?: string;
}
export interface BootstrapBinding {
  readonly apiVersion: string;
  readonly kind: 'ClusterRoleBinding' | 'RoleBinding';
  readonly metadata: ObjectMeta;
  readonly roleRef: { readonly apiGroup: string; readonly kind: 'ClusterRole' | 'Role'; readonly name: string };
  readonly subjects?: readonly BootstrapSubject[];
}

const sorted = (xs: readonly string[]) => [...xs].sort();

/** A rule under construction: `rule('get', 'list').groups('').resources('pods')`. */
export class RuleBuilder {
  private g: string[] = [];
  private r: string[] = [];
  private n: string[] = [];
  private u: string[] = [];
  constructor(private readonly v: readonly string[]) {}
  groups(...groups: string[]): this {
    this.g.push(...groups);
    return this;
  }
  resources(...resources: string[]): this {
    this.r.push(...resources);
    return this;
  }
  names(...names: string[]): this {
    this.n.push(...names);
    return this;
  }
  urls(...urls: string[]): this {
    this.u.push(...urls);
    return this;
  }
  /** The rule in rbac/v1's field order, empty lists left out. */
  build(): BootstrapRule {
    return {
      verbs: sorted(this.v),
      ...(this.g.length ? { apiGroups: [...this.g] } : {}),
      ...(this.r.length ? { resources: sorted(this.r) } : {}),
      ...(this.n.length ? { resourceNames: sorted(this.n) } : {}),
      ...(this.u.length ? { nonResourceURLs: sorted(this.u) } : {}),
    };
  }
}

export const rule = (...verbs: string[]): RuleBuilder => new RuleBuilder(verbs);

/** Verb sets the policy repeats. */
export const READ = ['get', 'list', 'watch'];
export const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'];
export const RW = [...READ, ...WRITE];
/** The core ("legacy") group. */
export const CORE = '';
/** Emitting events, in both event groups (kube's eventsRule()). */
export const eventsRule = (): RuleBuilder => rule('create', 'update', 'patch').groups(CORE, 'events.svc.io').resources('events');

function meta(name: string, namespace?: string, labels: Record<string, string> = {}): ObjectMeta {
  return { name, ...(namespace ? { namespace } : {}), labels: { ...BOOTSTRAP_LABELS, ...labels }, annotations: { ...AUTOUPDATE } };
}

export interface RoleOptions {
  readonly labels?: Record<string, string>;
  /** The aggregation labels (k8s.io and svc.io spellings) this role's aggregationRule selects. */
  readonly aggregateFrom?: 'admin' | 'edit' | 'view';
}

export function clusterRole(name: string, rules: readonly RuleBuilder[], opts: RoleOptions = {}): BootstrapRole {
  const to = opts.aggregateFrom;
  return {
    apiVersion: RBAC_API_VERSION,
    kind: 'ClusterRole',
    metadata: meta(name, undefined, opts.labels),
    ...(to
      ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [aggregateLabel(to)]: 'true' } }, { matchLabels: { [`rbac.authorization.svc.io/aggregate-to-${to}`]: 'true' } }] } }
      : { rules: rules.map((r) => r.build()) }),
  };
}

export function role(namespace: string, name: string, rules: readonly RuleBuilder[]): BootstrapRole {
  return { apiVersion: RBAC_API_VERSION, kind: 'Role', metadata: meta(name, namespace), rules: rules.map((r) => r.build()) };
}

export const user = (name: string): BootstrapSubject => ({ kind: 'User', apiGroup: RBAC_GROUP, name });
export const group = (name: string): BootstrapSubject => ({ kind: 'Group', apiGroup: RBAC_GROUP, name });
export const serviceAccount = (namespace: string, name: string): BootstrapSubject => ({ kind: 'ServiceAccount', apiGroup: '', name, namespace });

/** A ClusterRoleBinding of the ClusterRole `roleName`, named `name`. */
export function clusterRoleBinding(name: string, roleName: string, subjects: readonly BootstrapSubject[]): BootstrapBinding {
  return {
    apiVersion: RBAC_API_VERSION,
    kind: 'ClusterRoleBinding',
    metadata: meta(name),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: roleName },
    ...(subjects.length ? { subjects } : {}),
  };
}

/** A RoleBinding of the Role `roleName` in `namespace`. */
export function roleBinding(namespace: string, name: string, roleName: string, subjects: readonly BootstrapSubject[]): BootstrapBinding {
  return {
    apiVersion: RBAC_API_VERSION,
    kind: 'RoleBinding',
    metadata: meta(name, namespace),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: roleName },
    ...(subjects.length ? { subjects } : {}),
  };
}
