// Server-side defaulting for networking.svc.io/v1 as kube-apiserver v1.27
// applies it: NetworkPolicy policyTypes and port protocols, IngressClass
// parameters scope. Ingress has no defaults (pathType is required). In place.
import { at, each, orSet, struct, type Gates, type Json } from '../../core/v1/defaults.js';

export function defaultNetworkPolicy(np: Json): void {
  const spec = struct(np, 'spec');
  if (!spec) return;
  for (const direction of ['ingress', 'egress']) {
    for (const rule of each(spec, direction)) for (const port of each(rule, 'ports')) orSet(port, 'protocol', 'TCP');
  }
  if (!Array.isArray(spec.policyTypes) || spec.policyTypes.length === 0) {
    // a policy without policyTypes is an ingress policy, and an egress one when it has egress rules
    spec.policyTypes = Array.isArray(spec.egress) && spec.egress.length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
  }
}

export function defaultIngressClass(ic: Json): void {
  const parameters = at(at(ic, 'spec') ?? {}, 'parameters');
  if (parameters) orSet(parameters, 'scope', 'Cluster');
}

/** The networking.svc.io/v1 defaulters by kind. */
export const defaulters: Readonly<Record<string, (obj: Json, gates: Gates) => void>> = {
  NetworkPolicy: defaultNetworkPolicy,
  IngressClass: defaultIngressClass,
};
