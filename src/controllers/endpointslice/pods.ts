// What the endpoint controllers ask of a pod and a service (kube's podutil and
// staging/src/k8s.io/endpointslice/util): readiness, whether the pod belongs
// in endpoints at all, its IPs by family, the port a service port resolves to.
import type { Pod, Service, ServicePort } from './types.js';

export const isPodReady = (pod: Pod): boolean =>
  (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** Succeeded or Failed: the pod's containers will not run again. */
export const isPodTerminal = (pod: Pod): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

/** The pod's IPs: status.podIPs, or status.podIP when the list is missing. */
export function podIPs(pod: Pod): string[] {
  const list = (pod.status?.podIPs ?? []).map((p) => p.ip).filter((ip) => !!ip);
  if (list.length > 0) return list;
  return pod.status?.podIP ? [pod.status.podIP] : [];
}

/** kube's ShouldPodBeInEndpoints: not terminal, has an IP, and not terminating unless those are included. */
export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  if (isPodTerminal(pod)) return false;
  if (podIPs(pod).length === 0) return false;
  if (!includeTerminating && pod.metadata.deletionTimestamp) return false;
  return true;
}

/** The pod publishes its hostname for this service: it names the service as its subdomain. */
export const shouldSetHostname = (pod: Pod, svc: Service): boolean =>
  !!pod.spec?.hostname && pod.spec?.subdomain === svc.metadata.name && pod.metadata.namespace === svc.metadata.namespace;

export const isIPv6 = (ip: string): boolean => ip.includes(':');

/** A service with a cluster IP (not headless). */
export const isServiceIPSet = (svc: Service): boolean => !!svc.spec?.clusterIP && svc.spec.clusterIP !== 'None';

/** The service's selector, or undefined when it has none (an empty selector is none: it does not survive Go's protobuf storage). */
export function selectorOf(svc: Service): Record<string, string> | undefined {
  const sel = svc.spec?.selector;
  return sel && Object.keys(sel).length > 0 ? sel : undefined;
}

export function selects(selector: Record<string, string>, labels: Record<string, string> | undefined): boolean {
  for (const [k, v] of Object.entries(selector)) if (labels?.[k] !== v) return false;
  return true;
}

/**
 * The container port a service port targets on this pod (kube's podutil.FindPort):
 * a named targetPort is looked up among the containers' ports of the same
 * protocol; a number is taken as it is. Undefined when nothing matches.
 */
export function findPort(pod: Pod, sp: ServicePort): number | undefined {
  const target = sp.targetPort ?? sp.port;
  const protocol = sp.protocol ?? 'TCP';
  if (typeof target === 'number') return target;
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? []) if (p.name === target && (p.protocol ?? 'TCP') === protocol) return p.containerPort;
  }
  return undefined;
}

/** The time a pod's change reached the endpoints: its Ready condition's last transition. */
export function podTriggerTime(pod: Pod): string | undefined {
  return (pod.status?.conditions ?? []).find((c) => c.type === 'Ready')?.lastTransitionTime ?? undefined;
}

/**
 * Whether a pod update can change any service's endpoints (kube's
 * podEndpointsChanged plus label changes): labels, readiness, IPs, deletion,
 * node, hostname, subdomain, phase, container ports.
 */
export function podChangeMatters(old: Pod, cur: Pod): boolean {
  const facts = (p: Pod) => JSON.stringify([
    p.metadata.labels ?? {}, isPodReady(p), podIPs(p), !!p.metadata.deletionTimestamp, p.spec?.nodeName ?? '',
    p.spec?.hostname ?? '', p.spec?.subdomain ?? '', p.status?.phase ?? '', p.spec?.containers?.map((c) => c.ports ?? []) ?? [],
    podTriggerTime(p) ?? '',
  ]);
  return facts(old) !== facts(cur);
}
