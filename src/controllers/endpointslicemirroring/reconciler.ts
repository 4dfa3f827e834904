// kube's EndpointSlice mirroring reconciler as a pure plan: the Endpoints of a
// selector-less Service, repacked, become one EndpointSlice per subset (port
// set) and address type, owned by the Endpoints and labelled/annotated as it
// (but kube's reserved labels and the trigger-time and last-applied
// annotations). At most maxEndpointsPerSubset addresses of a subset are
// mirrored; addresses that are not IPs are skipped (both reported, for kube's
// events). Existing slices of a port set: the first is kept (updated when it
// differs), the others deleted; creates recycle slices being deleted.
import { clone, deepEqual } from '../../registry/object.js';
import { repackSubsets } from '../endpoints/repack.js';
import { EndpointSet, endpointsEqualBeyondKey, portMapKey } from '../endpointslice/endpointset.js';
import { controllerRef, slicePrefix } from '../endpointslice/slices.js';
import {
  ANNOTATION_LAST_APPLIED, ANNOTATION_TRIGGER_TIME, LABEL_MANAGED_BY, LABEL_SERVICE_NAME,
  type AddressType, type Endpoint, type EndpointAddress, type EndpointSlice, type Endpoints, type EndpointSubset, type SlicePort,
} from '../endpointslice/types.js';

export const CONTROLLER_NAME = 'endpointslicemirroring-controller.k8s.io';
export const MAX_ENDPOINTS_PER_SUBSET = 1000;

export interface MirrorPlan {
  readonly create: EndpointSlice[];
  readonly update: EndpointSlice[];
  readonly delete: EndpointSlice[];
  /** Addresses that are not IPs. */
  readonly invalid: number;
  /** Addresses not mirrored (invalid ones included). */
  readonly skipped: number;
}

/** The address type of an IP, or undefined for what is not one (Go's ParseIPSloppy). */
export function addressTypeOf(ip: string): AddressType | undefined {
  if (/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.test(ip)) return ip.split('.').every((o) => Number(o) <= 255) ? 'IPv4' : undefined;
  if (ip.includes(':') && /^[0-9a-fA-F:.]+$/.test(ip) && isIPv6(ip)) {
    // an IPv4-mapped IPv6 address is IPv4 to Go (To4() != nil)
    return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip) ? 'IPv4' : 'IPv6';
  }
  return undefined;
}

function isIPv6(ip: string): boolean {
  const parts = ip.split('::');
  if (parts.length > 2) return false;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const all = [...groups(parts[0]!), ...(parts.length === 2 ? groups(parts[1]!) : [])];
  let n = 0;
  for (const [i, g] of all.entries()) {
    if (i === all.length - 1 && g.includes('.')) {
      if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(g) || !g.split('.').every((o) => Number(o) <= 255)) return false;
      n += 2;
    } else if (/^[0-9a-fA-F]{1,4}$/.test(g)) n++;
    else return false;
  }
  return parts.length === 2 ? n < 8 : n === 8;
}

export function addressToEndpoint(a: EndpointAddress, ready: boolean): Endpoint {
  return {
    addresses: [a.ip], conditions: { ready },
    ...(a.targetRef ? { targetRef: clone(a.targetRef) } : {}),
    ...(a.nodeName !== undefined ? { nodeName: a.nodeName } : {}),
    ...(a.hostname ? { hostname: a.hostname } : {}),
  };
}

const TYPES: readonly AddressType[] = ['IPv4', 'IPv6'];

/** The slice labels and annotations mirrored from the Endpoints. */
function mirroredMeta(ep: Endpoints): { labels: Record<string, string>; annotations: Record<string, string> } {
  const labels: Record<string, string> = { ...(ep.metadata.labels ?? {}) };
  labels[LABEL_SERVICE_NAME] = ep.metadata.name!;
  labels[LABEL_MANAGED_BY] = CONTROLLER_NAME;
  const annotations: Record<string, string> = {};
  for (const [k, v] of Object.entries(ep.metadata.annotations ?? {})) {
    if (k !== ANNOTATION_TRIGGER_TIME && k !== ANNOTATION_LAST_APPLIED) annotations[k] = v;
  }
  return { labels, annotations };
}

function newMirrorSlice(ep: Endpoints, ports: readonly SlicePort[], addressType: AddressType, name: string | undefined): EndpointSlice {
  const { labels, annotations } = mirroredMeta(ep);
  return {
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
    metadata: {
      ...(name ? { name } : { generateName: slicePrefix(ep.metadata.name!) }),
      namespace: ep.metadata.namespace!, labels, annotations, ownerReferences: [controllerRef(ep, 'Endpoints')],
    },
    addressType, endpoints: [], ports: clone([...ports]),
  };
}

export function planMirror(ep: Endpoints, existing: readonly EndpointSlice[], maxPerSubset = MAX_ENDPOINTS_PER_SUBSET): MirrorPlan {
  // desired: per (address type, port set), the endpoints
  const desired = new Map<string, { type: AddressType; ports: SlicePort[]; set: EndpointSet }>();
  let invalid = 0;
  let skipped = 0;
  for (const subset of repackSubsets(ep.subsets ?? []) as EndpointSubset[]) {
    const ports: SlicePort[] = (subset.ports ?? []).map((p) => ({
      name: p.name ?? '', port: p.port, protocol: p.protocol ?? '', ...(p.appProtocol !== undefined ? { appProtocol: p.appProtocol } : {}),
    }));
    const pk = portMapKey(ports);
    for (const t of TYPES) if (!desired.has(`${t}-${pk}`)) desired.set(`${t}-${pk}`, { type: t, ports, set: new EndpointSet() });
    const total = (subset.addresses?.length ?? 0) + (subset.notReadyAddresses?.length ?? 0);
    let added = 0;
    const add = (a: EndpointAddress, ready: boolean) => {
      if (added >= maxPerSubset) return;
      const t = addressTypeOf(a.ip);
      if (!t) {
        invalid++;
        return;
      }
      desired.get(`${t}-${pk}`)!.set.insert(addressToEndpoint(a, ready));
      added++;
    };
    for (const a of subset.addresses ?? []) add(a, true);
    for (const a of subset.notReadyAddresses ?? []) add(a, false);
    skipped += total - added;
  }

  const existingByKey = new Map<string, EndpointSlice[]>();
  for (const s of existing) {
    const k = `${s.addressType}-${portMapKey(s.ports ?? [])}`;
    existingByKey.set(k, [...(existingByKey.get(k) ?? []), s]);
  }
  const want = mirroredMeta(ep);
  const create: EndpointSlice[] = [];
  const update: EndpointSlice[] = [];
  const del: EndpointSlice[] = [];
  for (const [k, d] of desired) {
    const slices = existingByKey.get(k) ?? [];
    if (d.set.size === 0) {
      del.push(...slices);
      continue;
    }
    const first = slices[0];
    if (first) {
      del.push(...slices.slice(1));
      if (sameEndpoints(first, d.set) && deepEqual(first.metadata.labels ?? {}, want.labels) && deepEqual(first.metadata.annotations ?? {}, want.annotations)) continue;
    }
    const slice = newMirrorSlice(ep, d.ports, d.type, first?.metadata.name);
    while (d.set.size > 0 && slice.endpoints.length < maxPerSubset) slice.endpoints.push(d.set.popAny());
    (first ? update : create).push(slice);
  }
  for (const [k, slices] of existingByKey) if (!desired.has(k)) del.push(...slices);

  // recycle: creates become updates of slices that would be deleted, of the same address type
  for (let i = del.length - 1; i >= 0; i--) {
    const gone = del[i]!;
    const j = create.map((c) => c.addressType).lastIndexOf(gone.addressType);
    if (j < 0) continue;
    const slice = create.splice(j, 1)[0]!;
    slice.metadata.name = gone.metadata.name!;
    delete slice.metadata.generateName;
    update.push(slice);
    del.splice(i, 1);
  }
  return { create, update, delete: del, invalid, skipped };
}

/** Whether the slice holds exactly the desired endpoints, unchanged (kube's totalChanges all zero). */
function sameEndpoints(slice: EndpointSlice, desired: EndpointSet): boolean {
  if ((slice.endpoints ?? []).length !== desired.size) return false;
  for (const e of slice.endpoints ?? []) {
    const d = desired.get(e);
    if (!d || !endpointsEqualBeyondKey(d, e)) return false;
  }
  return true;
}
