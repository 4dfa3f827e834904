// The labels and annotations a kubelet puts on its Node at registration
// (kubelet_node_status.go initialNode), in the kubernetes.io spellings stock
// tools select on and this project's svc.io ones (kubernetes.io/os →
// svc.io/os, beta.kubernetes.io/os → beta.svc.io/os). simnodes shares them.

export interface LabelFacts {
  readonly hostname: string;
  readonly os: string;
  readonly arch: string;
  /** node.kubernetes.io/instance-type, when a provider names one. */
  readonly instanceType?: string;
}

const sorted = (o: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The keys of the kubelet's default labels (kube's updateDefaultLabels list), both spellings: reconciled on an adopted Node. */
export const DEFAULT_LABEL_KEYS: readonly string[] = [
  'kubernetes.io/hostname', 'topology.kubernetes.io/zone', 'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/region',
  'node.kubernetes.io/instance-type', 'beta.kubernetes.io/instance-type', 'kubernetes.io/os', 'kubernetes.io/arch',
  'node.kubernetes.io/windows-build', 'beta.kubernetes.io/os', 'beta.kubernetes.io/arch',
].flatMap((k) => [k, k.replace('kubernetes.io/', 'svc.io/')]);

/** The kubelet's default labels, both spellings, keys sorted. */
export function kubeletLabels(f: LabelFacts): Record<string, string> {
  const base: Record<string, string> = {
    'kubernetes.io/hostname': f.hostname,
    'kubernetes.io/os': f.os,
    'kubernetes.io/arch': f.arch,
    'beta.kubernetes.io/os': f.os,
    'beta.kubernetes.io/arch': f.arch,
    ...(f.instanceType ? { 'node.kubernetes.io/instance-type': f.instanceType } : {}),
  };
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) {
    out[k] = v;
    out[k.replace('kubernetes.io/', 'svc.io/')] = v;
  }
  return sorted(out);
}

/** The labels registration sets: `--node-labels` first, the kubelet's own over them (kube's order). */
export function registrationLabels(f: LabelFacts, nodeLabels: Readonly<Record<string, string>> = {}): Record<string, string> {
  return sorted({ ...nodeLabels, ...kubeletLabels(f) });
}

export const ATTACH_DETACH_ANNOTATION = 'volumes.kubernetes.io/controller-managed-attach-detach';
export const KEEP_TERMINATED_POD_VOLUMES_ANNOTATION = 'volumes.kubernetes.io/keep-terminated-pod-volumes';
/** Written by kube's TTL controller, which this server lacks: the agent writes the value it would give a small cluster. */
export const NODE_TTL_ANNOTATION = 'node.alpha.kubernetes.io/ttl';

export interface AnnotationFacts {
  /** `--enable-controller-attach-detach` (default true). */
  readonly controllerAttachDetach: boolean;
  /** `--keep-terminated-pod-volumes`. */
  readonly keepTerminatedPodVolumes?: boolean;
}

export function registrationAnnotations(f: AnnotationFacts): Record<string, string> {
  const out: Record<string, string> = { [NODE_TTL_ANNOTATION]: '0' };
  if (f.controllerAttachDetach) out[ATTACH_DETACH_ANNOTATION] = 'true';
  if (f.keepTerminatedPodVolumes) out[KEEP_TERMINATED_POD_VOLUMES_ANNOTATION] = 'true';
  return out;
}
