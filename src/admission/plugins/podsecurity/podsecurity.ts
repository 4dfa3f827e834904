// The PodSecurity admission plugin (validating), as kube-apiserver v1.27 runs
// it (pod-security-admission admission/admission.go and the in-tree plugin):
// - pods: evaluated on create and on updates that change what the checks
//   see (images, seccomp annotations, containers added); enforce → 403
//   `pods "x" is forbidden: violates PodSecurity "baseline:latest": …`,
//   warn → a Warning header, audit → an audit annotation;
// - workloads with a pod template (deployments, …, cronjobs, podtemplates):
//   warn and audit only;
// - namespaces: labels must be valid on create, and on update when they
//   change (422); a stricter enforce level warns about the pods already
//   there that violate it.
// Exemptions (usernames, runtime classes, namespaces) come from the
// configuration. Not wired here: the chain registers it.
import { newForbidden, newInvalid, StatusError, type FieldError } from '../../../api/meta/index.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../../registry/admission.js';
import type { ApiObject } from '../../../registry/object.js';
import { deepEqual, isObject } from '../../../registry/object.js';
import { andThen } from '../common.js';
import { evaluatePod, forbiddenDetail, forbiddenReason, type Aggregate, type PodMeta, type PodSpec } from './checks.js';
import { DEFAULT_CONFIGURATION, type PodSecurityConfiguration } from './config.js';
import { compareLevels, lvString, policyFromLabels, sameLV, versionString, type LevelVersion, type Policy } from './levels.js';

export interface PodSecurityDeps {
  /** The namespace store (only `get` is used). */
  readonly namespaces: () => { get(namespace: string, name: string): Promise<ApiObject> };
  /** The namespace when the store has it at once (GenericStore.getSharedNow); undefined: ask namespaces().get. */
  readonly namespaceNow?: (name: string) => ApiObject | undefined;
  /** The pods of a namespace, for the warnings when a namespace's enforce level gets stricter; without it no such warnings. */
  readonly pods?: (namespace: string) => Promise<ApiObject[]>;
  readonly config?: PodSecurityConfiguration;
}

/** Audit annotation keys are prefixed as Kubernetes prefixes them. */
export const AUDIT_ANNOTATION_PREFIX = 'pod-security.kubernetes.io/';

/** At most this many existing pods are checked when a namespace's enforce level changes. */
const MAX_PODS_TO_CHECK = 3000;

/** Pod subresources that cannot change what the checks see. */
const IGNORED_POD_SUBRESOURCES = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);

/** group/resource → where the pod template is (core group is ''). */
const TEMPLATE_PATHS: Record<string, readonly string[]> = {
  '/podtemplates': ['template'],
  '/replicationcontrollers': ['spec', 'template'],
  'apps/replicasets': ['spec', 'template'],
  'apps/deployments': ['spec', 'template'],
  'apps/statefulsets': ['spec', 'template'],
  'apps/daemonsets': ['spec', 'template'],
  'batch/jobs': ['spec', 'template'],
  'batch/cronjobs': ['spec', 'jobTemplate', 'spec', 'template'],
};

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec | undefined => (isObject(v) ? v : undefined);
const annotationsOf = (meta: unknown): Record<string, string> => {
  const a = rec(rec(meta)?.annotations);
  const out: Record<string, string> = {};
  if (a) for (const [k, v] of Object.entries(a)) if (typeof v === 'string') out[k] = v;
  return out;
};
const labelsOf = (obj: ApiObject | undefined): Record<string, string> => {
  const l = rec(obj?.metadata?.labels);
  const out: Record<string, string> = {};
  if (l) for (const [k, v] of Object.entries(l)) if (typeof v === 'string') out[k] = v;
  return out;
};

/** The pod metadata and spec of a pod or of a workload's template; undefined when a workload has none. */
export function extractPodSpec(groupResource: string, obj: ApiObject): { meta: PodMeta; spec: PodSpec } | undefined {
  if (groupResource === '/pods') return { meta: { annotations: annotationsOf(obj.metadata) }, spec: rec(obj.spec) ?? {} };
  const path = TEMPLATE_PATHS[groupResource];
  if (!path) return undefined;
  let t: unknown = obj;
  for (const k of path) t = rec(t)?.[k];
  const template = rec(t);
  if (!template) return undefined;
  return { meta: { annotations: annotationsOf(template.metadata) }, spec: rec(template.spec) ?? {} };
}

const SECCOMP_POD = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER = 'container.seccomp.security.alpha.kubernetes.io/';

/** Whether a pod update can change a check's answer: images, seccomp annotations, containers or ephemeral containers added. */
export function isSignificantPodUpdate(pod: ApiObject, old: ApiObject): boolean {
  const ann = annotationsOf(pod.metadata);
  const oldAnn = annotationsOf(old.metadata);
  if (ann[SECCOMP_POD] !== oldAnn[SECCOMP_POD]) return true;
  const list = (o: ApiObject, k: string): Rec[] => {
    const v = rec(o.spec)?.[k];
    return Array.isArray(v) ? v.map((x) => rec(x) ?? {}) : [];
  };
  const changed = (c: Rec, oc: Rec) => c.image !== oc.image || ann[SECCOMP_CONTAINER + String(c.name)] !== oldAnn[SECCOMP_CONTAINER + String(c.name)];
  for (const k of ['containers', 'initContainers']) {
    const now = list(pod, k);
    const before = list(old, k);
    if (now.length !== before.length) return true;
    if (now.some((c, i) => changed(c, before[i]!))) return true;
  }
  const oldEphemeral = list(old, 'ephemeralContainers');
  for (const c of list(pod, 'ephemeralContainers')) {
    const oc = oldEphemeral.find((x) => x.name === c.name);
    if (!oc || changed(c, oc)) return true;
  }
  return false;
}

function internalError(a: AdmissionAttributes, message: string): StatusError {
  const details = newForbidden({ group: a.resource.group, resource: a.resource.resource }, a.name, '').status.details;
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'InternalError', ...(details ? { details } : {}), code: 500 });
}

export function podSecurityPlugin(deps: PodSecurityDeps): AdmissionPlugin {
  const config = deps.config ?? DEFAULT_CONFIGURATION;
  const defaults: Policy = config.defaults;
  const exemptNamespace = (ns: string) => ns !== '' && config.exemptions.namespaces.includes(ns);
  const exemptUser = (user: string) => user !== '' && config.exemptions.usernames.includes(user);
  const exemptRuntimeClass = (spec: PodSpec) => typeof spec.runtimeClassName === 'string' && spec.runtimeClassName !== '' && config.exemptions.runtimeClasses.includes(spec.runtimeClassName);
  const annotate = (a: AdmissionAttributes, key: string, value: string) => a.annotate?.(AUDIT_ANNOTATION_PREFIX + key, value);

  // The namespace objects come shared from the watch cache (one per stored version): their policy is parsed once.
  const policies = new WeakMap<ApiObject, { policy: Policy; errors: FieldError[] }>();
  type NamespacePolicy = { policy: Policy; errors: FieldError[] };
  function policyOf(ns: ApiObject): NamespacePolicy {
    let p = policies.get(ns);
    if (!p) policies.set(ns, (p = policyFromLabels(labelsOf(ns), defaults)));
    return p;
  }
  function namespacePolicy(a: AdmissionAttributes): NamespacePolicy | Promise<NamespacePolicy> {
    const known = deps.namespaceNow?.(a.namespace);
    return known ? policyOf(known) : namespacePolicyRead(a);
  }
  async function namespacePolicyRead(a: AdmissionAttributes): Promise<NamespacePolicy> {
    let ns: ApiObject;
    try {
      ns = await deps.namespaces().get('', a.namespace);
    } catch {
      throw internalError(a, `failed to lookup namespace ${a.namespace}`);
    }
    return policyOf(ns);
  }

  /** Enforce (pods only), then audit, then warn; results are shared between modes with the same level and version. */
  function evaluate(a: AdmissionAttributes, nsPolicy: { policy: Policy; errors: FieldError[] }, pod: { meta: PodMeta; spec: PodSpec }, enforce: boolean): void {
    if (exemptRuntimeClass(pod.spec)) {
      annotate(a, 'exempt', 'runtimeClass');
      return;
    }
    const { policy, errors } = nsPolicy;
    if (errors.length) annotate(a, 'error', `Failed to parse policy: ${errors.map((e) => `${e.field}: ${e.detail}`).join(', ')}`);
    const cache = new Map<string, Aggregate>();
    const run = (lv: LevelVersion): Aggregate => {
      const key = lvString(lv);
      let r = cache.get(key);
      if (!r) cache.set(key, (r = evaluatePod(lv, pod.meta, pod.spec)));
      return r;
    };
    if (enforce) {
      annotate(a, 'enforce-policy', lvString(policy.enforce));
      const r = run(policy.enforce);
      if (!r.allowed) {
        throw newForbidden({ group: a.resource.group, resource: a.resource.resource }, a.name, `violates PodSecurity ${JSON.stringify(lvString(policy.enforce))}: ${forbiddenDetail(r)}`);
      }
    }
    const audit = run(policy.audit);
    if (!audit.allowed) annotate(a, 'audit-violations', `would violate PodSecurity ${JSON.stringify(lvString(policy.audit))}: ${forbiddenDetail(audit)}`);
    const warn = run(policy.warn);
    if (!warn.allowed) a.warn?.(`would violate PodSecurity ${JSON.stringify(lvString(policy.warn))}: ${forbiddenDetail(warn)}`);
  }

  function validatePod(a: AdmissionAttributes): void | Promise<void> {
    if (a.subresource && IGNORED_POD_SUBRESOURCES.has(a.subresource)) return;
    if (exemptNamespace(a.namespace)) return annotate(a, 'exempt', 'namespace');
    if (exemptUser(a.user?.name ?? '')) return annotate(a, 'exempt', 'user');
    return andThen(namespacePolicy(a), (nsPolicy) => {
      const p = nsPolicy.policy;
      if (!nsPolicy.errors.length && p.enforce.level === 'privileged' && p.warn.level === 'privileged' && p.audit.level === 'privileged') return;
      if (a.operation === 'UPDATE' && a.oldObject && !isSignificantPodUpdate(a.object!, a.oldObject)) return;
      evaluate(a, nsPolicy, extractPodSpec('/pods', a.object!)!, true);
    });
  }

  function validateWorkload(a: AdmissionAttributes, gr: string): void | Promise<void> {
    if (a.subresource) return;
    if (exemptNamespace(a.namespace)) return annotate(a, 'exempt', 'namespace');
    if (exemptUser(a.user?.name ?? '')) return annotate(a, 'exempt', 'user');
    return andThen(namespacePolicy(a), (nsPolicy) => {
      const p = nsPolicy.policy;
      if (!nsPolicy.errors.length && p.warn.level === 'privileged' && p.audit.level === 'privileged') return;
      const pod = extractPodSpec(gr, a.object!);
      if (!pod) return;
      evaluate(a, nsPolicy, pod, false);
    });
  }

  async function validateNamespace(a: AdmissionAttributes): Promise<void> {
    if (a.subresource) return;
    const ns = a.object!;
    const name = ns.metadata.name ?? a.name;
    const next = policyFromLabels(labelsOf(ns), defaults);
    const invalid = () => newInvalid({ group: '', kind: 'Namespace' }, name, next.errors);
    if (a.operation === 'CREATE') {
      if (next.errors.length) throw invalid();
      return;
    }
    const prev = policyFromLabels(labelsOf(a.oldObject), defaults);
    // Labels that were already invalid the same way do not block other changes.
    if (next.errors.length && (!prev.errors.length || !deepEqual(next.errors, prev.errors))) throw invalid();
    const enforce = next.policy.enforce;
    const old = prev.policy.enforce;
    if (sameLV(enforce, old) || enforce.level === 'privileged') return;
    // Same version and a level no stricter: nothing newly forbidden.
    if (versionString(enforce.version) === versionString(old.version) && compareLevels(enforce.level, old.level) < 1) return;
    if (exemptNamespace(name) || !deps.pods) return;
    for (const w of await existingPodWarnings(name, enforce)) a.warn?.(w);
  }

  async function existingPodWarnings(namespace: string, enforce: LevelVersion): Promise<string[]> {
    let pods: ApiObject[];
    try {
      pods = await deps.pods!(namespace);
    } catch {
      return ['failed to list pods while checking new PodSecurity enforce level'];
    }
    const total = pods.length;
    const checked = pods.slice(0, MAX_PODS_TO_CHECK);
    const byReason = new Map<string, { first: string; count: number }>();
    for (const pod of checked) {
      const p = extractPodSpec('/pods', pod)!;
      if (exemptRuntimeClass(p.spec)) continue;
      const r = evaluatePod(enforce, p.meta, p.spec);
      if (r.allowed) continue;
      const reason = forbiddenReason(r);
      const podName = pod.metadata.name ?? '';
      const seen = byReason.get(reason);
      if (!seen) byReason.set(reason, { first: podName, count: 1 });
      else {
        seen.count++;
        if (podName < seen.first) seen.first = podName;
      }
    }
    const warnings: string[] = [];
    if (checked.length < total) warnings.push(`new PodSecurity enforce level only checked against the first ${checked.length} of ${total} existing pods`);
    if (byReason.size) warnings.push(`existing pods in namespace ${JSON.stringify(namespace)} violate the new PodSecurity enforce level ${JSON.stringify(lvString(enforce))}`);
    const perPod = [...byReason].map(([reason, { first, count }]) => {
      if (count === 1) return `${first}: ${reason}`;
      if (count === 2) return `${first} (and 1 other pod): ${reason}`;
      return `${first} (and ${count - 1} other pods): ${reason}`;
    });
    return [...warnings, ...perPod.sort()];
  }

  return {
    name: 'PodSecurity',
    phase: 'validating',
    admit(a) {
      if ((a.operation !== 'CREATE' && a.operation !== 'UPDATE') || !a.object) return;
      const gr = `${a.resource.group}/${a.resource.resource}`;
      if (gr === '/namespaces') return validateNamespace(a);
      if (gr === '/pods') return validatePod(a);
      if (TEMPLATE_PATHS[gr]) return validateWorkload(a, gr);
    },
  };
}
