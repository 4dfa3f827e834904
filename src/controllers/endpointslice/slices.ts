// What an EndpointSlice managed for a Service looks like (kube's
// staging/src/k8s.io/endpointslice utils): the endpoint of a pod for one
// address type, the ports a pod serves for the service, a new slice's name
// prefix, owner and labels, the address types a service has.
import { clone } from '../../registry/object.js';
import { findPort, isIPv6, isPodReady, isServiceIPSet, podIPs, shouldSetHostname } from './pods.js';
import {
  ANNOTATION_TRIGGER_TIME, LABEL_HEADLESS, LABEL_MANAGED_BY, LABEL_SERVICE_NAME,
  type AddressType, type Endpoint, type EndpointSlice, type Pod, type Service, type SlicePort,
} from './types.js';

export const CONTROLLER_NAME = 'endpointslice-controller.k8s.io';

/** The endpoint of a pod in a slice of this address type (kube's podToEndpoint). */
export function podToEndpoint(pod: Pod, zone: string | undefined, svc: Service, addressType: AddressType): Endpoint {
  const serving = isPodReady(pod);
  const terminating = !!pod.metadata.deletionTimestamp;
  // "ready" is never true for a terminating pod, unless publishNotReadyAddresses
  const ready = !!svc.spec?.publishNotReadyAddresses || (serving && !terminating);
  const ep: Endpoint = {
    addresses: podIPs(pod).filter((ip) => (addressType === 'IPv6') === isIPv6(ip)),
    conditions: { ready, serving, terminating },
    targetRef: { kind: 'Pod', namespace: pod.metadata.namespace!, name: pod.metadata.name!, uid: pod.metadata.uid! },
  };
  if (pod.spec?.nodeName) ep.nodeName = pod.spec.nodeName;
  if (zone) ep.zone = zone;
  if (shouldSetHostname(pod, svc)) ep.hostname = pod.spec!.hostname!;
  return ep;
}

/** The ports a pod serves for the service; a headless service may have none. */
export function endpointPorts(svc: Service, pod: Pod): SlicePort[] {
  const out: SlicePort[] = [];
  const ports = svc.spec?.ports ?? [];
  if (ports.length === 0 && svc.spec?.clusterIP === 'None') return out;
  for (const sp of ports) {
    const port = findPort(pod, sp);
    if (port === undefined) continue;
    out.push({ name: sp.name ?? '', port, protocol: sp.protocol ?? 'TCP', ...(sp.appProtocol !== undefined ? { appProtocol: sp.appProtocol } : {}) });
  }
  return out;
}

/** The address types of the service's slices: its IP families (or, without them, its cluster IP's family; both for headless). */
export function addressTypesFor(svc: Service): Set<AddressType> {
  const types = new Set<AddressType>();
  for (const f of svc.spec?.ipFamilies ?? []) {
    if (f === 'IPv4') types.add('IPv4');
    if (f === 'IPv6') types.add('IPv6');
  }
  if (types.size > 0) return types;
  if (isServiceIPSet(svc)) return new Set([isIPv6(svc.spec!.clusterIP!) ? 'IPv6' : 'IPv4']);
  return new Set(['IPv4', 'IPv6']);
}

const RESERVED = new Set([LABEL_SERVICE_NAME, LABEL_MANAGED_BY, LABEL_HEADLESS]);

/**
 * A slice's labels for the service (kube's setEndpointSliceLabels): the
 * service's labels but the reserved ones, the headless label for a service
 * without a cluster IP, the service name and manager; `changed` when the
 * service's labels differ from the slice's own.
 */
export function sliceLabels(slice: EndpointSlice | undefined, svc: Service, controllerName: string): { labels: Record<string, string>; changed: boolean } {
  const own: Record<string, string> = {};
  for (const [k, v] of Object.entries(slice?.metadata.labels ?? {})) if (!RESERVED.has(k)) own[k] = v;
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(svc.metadata.labels ?? {})) if (!RESERVED.has(k)) labels[k] = v;
  const changed = !sameMap(own, labels);
  if (!isServiceIPSet(svc)) labels[LABEL_HEADLESS] = '';
  labels[LABEL_SERVICE_NAME] = svc.metadata.name!;
  labels[LABEL_MANAGED_BY] = controllerName;
  return { labels, changed };
}

export function sameMap(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => b[k] === a[k]);
}

/** The prefix of a slice's generated name: `<name>-`, or the name when that would be too long. */
export function slicePrefix(name: string): string {
  return name.length + 1 <= 253 - 5 ? `${name}-` : name;
}

/** An owner reference making `owner` the slice's controller (kube's NewControllerRef). */
export function controllerRef(owner: { metadata: { name?: string; uid?: string } }, kind: string) {
  return { apiVersion: 'v1', kind, name: owner.metadata.name!, uid: owner.metadata.uid!, controller: true, blockOwnerDeletion: true };
}

/** A new, empty slice for the service (kube's newEndpointSlice). */
export function newSlice(svc: Service, ports: readonly SlicePort[], addressType: AddressType, controllerName: string): EndpointSlice {
  const slice: EndpointSlice = {
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
    metadata: {
      generateName: slicePrefix(svc.metadata.name!), namespace: svc.metadata.namespace!, labels: {},
      ownerReferences: [controllerRef(svc, 'Service')],
    },
    addressType, endpoints: [], ports: clone([...ports]),
  };
  slice.metadata.labels = sliceLabels(slice, svc, controllerName).labels;
  return slice;
}

export function ownedBy(slice: EndpointSlice, svc: Service): boolean {
  return (slice.metadata.ownerReferences ?? []).some((r) => r.kind === 'Service' && r.uid === svc.metadata.uid);
}

/** Sets or clears the trigger-time annotation. */
export function withTriggerTime(slice: EndpointSlice, triggerTime: string | undefined): void {
  const annotations = { ...(slice.metadata.annotations ?? {}) };
  if (triggerTime) annotations[ANNOTATION_TRIGGER_TIME] = triggerTime;
  else delete annotations[ANNOTATION_TRIGGER_TIME];
  slice.metadata.annotations = annotations;
}
