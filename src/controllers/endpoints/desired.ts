// The Endpoints a Service should have (kube's endpoints controller syncService
// without the writes): an address per selected pod that belongs in endpoints
// (of the service's first IP family), ready or not ready, with the port each
// service port resolves to on that pod, repacked; at most 1000 addresses
// (kube's truncateEndpoints: ready ones first, each subset keeping its share).
import { findPort, isIPv6, isPodReady, isServiceIPSet, podIPs, shouldPodBeInEndpoints, shouldSetHostname } from '../endpointslice/pods.js';
import { ANNOTATION_OVER_CAPACITY, type EndpointAddress, type EndpointPort, type EndpointSubset, type Pod, type Service } from '../endpointslice/types.js';
import { repackSubsets } from './repack.js';

export const MAX_CAPACITY = 1000;

/** The pod's address for the service: its IP of the service's family (kube's podToEndpointAddressForService). */
export function podAddress(svc: Service, pod: Pod): EndpointAddress | undefined {
  let v6: boolean;
  const families = svc.spec?.ipFamilies ?? [];
  if (families.length > 0) v6 = families[0] === 'IPv6';
  else if (isServiceIPSet(svc)) v6 = isIPv6(svc.spec!.clusterIP!);
  else v6 = isIPv6(pod.status?.podIP ?? '');
  const ip = podIPs(pod).find((i) => isIPv6(i) === v6);
  if (!ip) return undefined;
  return {
    ip,
    // kube writes the pod's nodeName even when empty, which its own validation refuses; an unscheduled pod has no node here
    ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
    targetRef: { kind: 'Pod', namespace: pod.metadata.namespace!, name: pod.metadata.name!, uid: pod.metadata.uid! },
  };
}

export function desiredSubsets(svc: Service, pods: readonly Pod[]): EndpointSubset[] {
  const publishNotReady = !!svc.spec?.publishNotReadyAddresses;
  const subsets: EndpointSubset[] = [];
  const add = (pod: Pod, addr: EndpointAddress, port: EndpointPort | undefined) => {
    const ports = port ? [port] : [];
    if (publishNotReady || isPodReady(pod)) subsets.push({ addresses: [addr], ports });
    else subsets.push({ notReadyAddresses: [addr], ports });
  };
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, publishNotReady)) continue;
    const base = podAddress(svc, pod);
    if (!base) continue;
    const addr = shouldSetHostname(pod, svc) ? { ...base, hostname: pod.spec!.hostname! } : base;
    const servicePorts = svc.spec?.ports ?? [];
    if (servicePorts.length === 0) {
      // a headless service may have no ports
      if (svc.spec?.clusterIP === 'None') add(pod, addr, undefined);
      continue;
    }
    for (const sp of servicePorts) {
      const port = findPort(pod, sp);
      if (port === undefined) continue;
      add(pod, addr, { name: sp.name ?? '', port, protocol: sp.protocol ?? 'TCP', ...(sp.appProtocol !== undefined ? { appProtocol: sp.appProtocol } : {}) });
    }
  }
  return repackSubsets(subsets);
}

const count = (subsets: readonly EndpointSubset[]) => subsets.reduce((n, s) => n + (s.addresses?.length ?? 0) + (s.notReadyAddresses?.length ?? 0), 0);

/**
 * Cuts the subsets down to MAX_CAPACITY addresses (kube's truncateEndpoints):
 * not-ready addresses go first; when the ready ones alone are too many, every
 * not-ready one goes and the ready ones are cut. Each subset keeps its share
 * (rounded up, the last ones getting what is left). True when something was cut.
 */
export function truncateSubsets(subsets: EndpointSubset[], capacity = MAX_CAPACITY): boolean {
  let totalReady = 0;
  let totalNotReady = 0;
  for (const s of subsets) {
    totalReady += s.addresses?.length ?? 0;
    totalNotReady += s.notReadyAddresses?.length ?? 0;
  }
  if (totalReady + totalNotReady <= capacity) return false;
  const truncateReady = totalReady > capacity;
  const max = truncateReady ? capacity : capacity - totalReady;
  const numTotal = truncateReady ? totalReady : totalNotReady;
  let canBeAdded = max;
  for (const s of subsets) {
    const inSubset = truncateReady ? (s.addresses?.length ?? 0) : (s.notReadyAddresses?.length ?? 0);
    const toBeAdded = Math.min(Math.ceil((inSubset / numTotal) * max), canBeAdded);
    if (truncateReady) {
      const kept = (s.addresses ?? []).slice(0, toBeAdded);
      if (kept.length > 0) s.addresses = kept;
      else delete s.addresses;
      delete s.notReadyAddresses;
      canBeAdded -= kept.length;
    } else {
      const kept = (s.notReadyAddresses ?? []).slice(0, toBeAdded);
      if (kept.length > 0) s.notReadyAddresses = kept;
      else delete s.notReadyAddresses;
      canBeAdded -= kept.length;
    }
  }
  return true;
}

/** kube's capacityAnnotationSetCorrectly: under capacity and not marked truncated. */
export function capacityAnnotationCorrect(annotations: Record<string, string> | undefined, subsets: readonly EndpointSubset[], capacity = MAX_CAPACITY): boolean {
  if (count(subsets) > capacity) return false;
  return !(annotations && ANNOTATION_OVER_CAPACITY in annotations);
}

/** Subsets compared as kube's endpointSubsetsEqualIgnoreResourceVersion: targets' resourceVersions and empty lists do not count. */
export function subsetsEqual(a: readonly EndpointSubset[] | undefined, b: readonly EndpointSubset[] | undefined): boolean {
  const norm = (subsets: readonly EndpointSubset[] | undefined) => JSON.stringify((subsets ?? []).map((s) => {
    const addr = (list: EndpointAddress[] | undefined) => (list ?? []).map((x) => [x.ip, x.hostname ?? '', x.nodeName ?? null,
      x.targetRef ? [x.targetRef.kind, x.targetRef.namespace, x.targetRef.name, x.targetRef.uid, x.targetRef.apiVersion, x.targetRef.fieldPath] : null]);
    return [addr(s.addresses), addr(s.notReadyAddresses), (s.ports ?? []).map((p) => [p.name ?? '', p.port, p.protocol ?? '', p.appProtocol ?? null])];
  }));
  return norm(a) === norm(b);
}
