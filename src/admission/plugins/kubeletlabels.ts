// The label keys a node agent may set on its Node (kube's kubelet labels,
// k8s.io/kubelet/pkg/apis: IsKubeletLabel), in both spellings — shared by
// NodeRestriction and the agent's --node-labels check, in a module of its own
// so the agent does not load the admission plugin (and the authorizer and
// RBAC policy under it) for a list of labels.

/** Label keys a node agent may set on its Node (kube's kubelet labels), in both spellings. */
const KUBELET_LABELS = new Set(
  [
    'kubernetes.io/hostname',
    'topology.kubernetes.io/zone',
    'topology.kubernetes.io/region',
    'failure-domain.beta.kubernetes.io/zone',
    'failure-domain.beta.kubernetes.io/region',
    'beta.kubernetes.io/instance-type',
    'node.kubernetes.io/instance-type',
    'kubernetes.io/os',
    'kubernetes.io/arch',
    'beta.kubernetes.io/os',
    'beta.kubernetes.io/arch',
  ].flatMap((k) => [k, k.replace('kubernetes.io/', 'svc.io/')]),
);
/** Label namespaces (and their subdomains) a node agent may set. */
const KUBELET_LABEL_NAMESPACES = ['kubelet.kubernetes.io', 'node.kubernetes.io', 'kubelet.svc.io', 'node.svc.io'];
/** The namespace of a label key: the part before the slash ('' without one). */
export const labelNamespace = (key: string): string => (key.includes('/') ? key.slice(0, key.indexOf('/')) : '');
const inNamespace = (ns: string, domains: readonly string[]) => domains.some((d) => ns === d || ns.endsWith(`.${d}`));

export function isKubeletLabel(key: string): boolean {
  return KUBELET_LABELS.has(key) || inNamespace(labelNamespace(key), KUBELET_LABEL_NAMESPACES);
}
