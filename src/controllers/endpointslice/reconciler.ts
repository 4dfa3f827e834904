// kube's EndpointSlice reconciler as a pure plan: from a service, its pods and
// the slices it has, which slices to create, update and delete. Per address
// type and per port set (pods whose named ports resolve differently get
// different slices): existing slices keep the endpoints still desired (changed
// ones updated in place), emptied slices go, slices being updated are filled
// up first (fullest first), then the remainder goes into the unchanged slice
// it fits best, then into new slices of at most maxEndpointsPerSlice. A
// service with no endpoints keeps one empty placeholder slice. Creates are
// turned into updates of slices that would be deleted (kube's finalize).
import { clone } from '../../registry/object.js';
import { EndpointSet, endpointsEqualBeyondKey, portMapKey } from './endpointset.js';
import { shouldPodBeInEndpoints } from './pods.js';
import { addressTypesFor, endpointPorts, newSlice, ownedBy, podToEndpoint, sliceLabels } from './slices.js';
import type { AddressType, EndpointSlice, Pod, Service, SlicePort } from './types.js';

export const MAX_ENDPOINTS_PER_SLICE = 100;

/** A node as the reconciler sees it: absent (undefined) or present with its zone label. */
export type NodeLookup = (name: string) => { readonly zone: string | undefined } | undefined;

export interface ReconcileInput {
  readonly service: Service;
  readonly pods: readonly Pod[];
  /** The service's slices managed by this controller, none pending deletion. */
  readonly existing: readonly EndpointSlice[];
  readonly nodes: NodeLookup;
  readonly maxEndpointsPerSlice?: number;
  readonly controllerName: string;
}

export interface Plan {
  readonly create: EndpointSlice[];
  readonly update: EndpointSlice[];
  readonly delete: EndpointSlice[];
  /** Pods left out for now (their node is unknown): the service is synced again later. */
  readonly errors: string[];
}

export function planSlices(input: ReconcileInput): Plan {
  const { service } = input;
  const types = addressTypesFor(service);
  const plan: Plan = { create: [], update: [], delete: [], errors: [] };
  const byType = new Map<AddressType, EndpointSlice[]>();
  // a stored slice without endpoints may have no list at all
  for (const s of input.existing.map((e) => (Array.isArray(e.endpoints) ? e : { ...e, endpoints: [] }))) {
    if (!types.has(s.addressType)) plan.delete.push(s);
    else byType.set(s.addressType, [...(byType.get(s.addressType) ?? []), s]);
  }
  for (const t of types) {
    const p = planForAddressType(input, t, byType.get(t) ?? []);
    plan.create.push(...p.create);
    plan.update.push(...p.update);
    plan.delete.push(...p.delete);
    plan.errors.push(...p.errors);
  }
  return plan;
}

function planForAddressType(input: ReconcileInput, addressType: AddressType, existing: readonly EndpointSlice[]): Plan {
  const { service, controllerName } = input;
  const max = input.maxEndpointsPerSlice ?? MAX_ENDPOINTS_PER_SLICE;
  const errors: string[] = [];
  let toCreate: EndpointSlice[] = [];
  const toUpdate: EndpointSlice[] = [];
  const toDelete: EndpointSlice[] = [];

  const existingByPorts = new Map<string, EndpointSlice[]>();
  for (const s of existing) {
    if (!ownedBy(s, service)) {
      toDelete.push(s);
      continue;
    }
    const k = portMapKey(s.ports ?? []);
    existingByPorts.set(k, [...(existingByPorts.get(k) ?? []), s]);
  }

  const desired = new Map<string, { ports: SlicePort[]; set: EndpointSet }>();
  for (const pod of input.pods) {
    if (!shouldPodBeInEndpoints(pod, true)) continue;
    const ports = endpointPorts(service, pod);
    const k = portMapKey(ports);
    let d = desired.get(k);
    if (!d) desired.set(k, (d = { ports, set: new EndpointSet() }));
    const node = input.nodes(pod.spec?.nodeName ?? '');
    if (!node && !service.spec?.publishNotReadyAddresses) {
      errors.push(`skipping Pod ${pod.metadata.name} for Service ${service.metadata.namespace}/${service.metadata.name}: Node ${pod.spec?.nodeName ?? ''} Not Found`);
      continue;
    }
    const ep = podToEndpoint(pod, node?.zone, service, addressType);
    if (ep.addresses.length > 0) d.set.insert(ep);
  }

  for (const [k, d] of desired) {
    const p = planForPorts({ service, existing: existingByPorts.get(k) ?? [], desired: d.set, ports: d.ports, addressType, max, controllerName });
    toCreate.push(...p.create);
    toUpdate.push(...p.update);
    toDelete.push(...p.delete);
  }
  for (const [k, slices] of existingByPorts) if (!desired.has(k)) toDelete.push(...slices);

  // a service without endpoints keeps one empty placeholder slice
  if (existing.length === toDelete.length && toCreate.length === 0) {
    const placeholder = newSlice(service, [], addressType, controllerName);
    if (toDelete.length === 1 && isPlaceholderOf(toDelete[0]!, placeholder)) toDelete.length = 0;
    else toCreate.push(placeholder);
  }

  // creates become updates of slices that would otherwise be deleted
  for (let i = 0; i < toDelete.length && toCreate.length > 0;) {
    const gone = toDelete[i]!;
    const slice = toCreate[toCreate.length - 1]!;
    if (gone.addressType === slice.addressType && ownedBy(gone, service)) {
      slice.metadata.name = gone.metadata.name!;
      delete slice.metadata.generateName;
      toCreate = toCreate.slice(0, -1);
      toUpdate.push(slice);
      toDelete.splice(i, 1);
    } else i++;
  }
  return { create: toCreate, update: toUpdate, delete: toDelete, errors };
}

/** Whether a slice equals the placeholder (namespace, labels, address type, no endpoints, no ports). */
function isPlaceholderOf(slice: EndpointSlice, placeholder: EndpointSlice): boolean {
  const labels = slice.metadata.labels ?? {};
  const want = placeholder.metadata.labels ?? {};
  return slice.metadata.namespace === placeholder.metadata.namespace && slice.addressType === placeholder.addressType &&
    (slice.endpoints ?? []).length === 0 && (slice.ports ?? []).length === 0 &&
    Object.keys(labels).length === Object.keys(want).length && Object.entries(want).every(([k, v]) => labels[k] === v);
}

interface PortsInput {
  readonly service: Service;
  readonly existing: readonly EndpointSlice[];
  readonly desired: EndpointSet;
  readonly ports: readonly SlicePort[];
  readonly addressType: AddressType;
  readonly max: number;
  readonly controllerName: string;
}

/** kube's reconcileByPortMapping. */
function planForPorts(input: PortsInput): { create: EndpointSlice[]; update: EndpointSlice[]; delete: EndpointSlice[] } {
  const { service, desired, max, controllerName } = input;
  const byName = new Map<string, EndpointSlice>();
  const unchanged = new Set<string>();
  const toUpdate = new Set<string>();
  const toDelete = new Set<string>();

  // 1. existing slices: drop endpoints no longer desired, refresh changed ones
  for (const s of input.existing) {
    const name = s.metadata.name!;
    byName.set(name, s);
    const kept: EndpointSlice['endpoints'] = [];
    let changed = false;
    for (const ep of s.endpoints ?? []) {
      const want = desired.get(ep);
      if (!want) continue;
      kept.push(want);
      if (!endpointsEqualBeyondKey(want, ep)) changed = true;
      desired.delete(ep);
    }
    const { labels, changed: labelsChanged } = sliceLabels(s, service, controllerName);
    if (changed || kept.length !== (s.endpoints ?? []).length) {
      if (kept.length === 0) toDelete.add(name);
      else {
        byName.set(name, { ...clone(s), endpoints: kept, metadata: { ...clone(s.metadata), labels } });
        toUpdate.add(name);
      }
    } else if (labelsChanged) {
      byName.set(name, { ...clone(s), metadata: { ...clone(s.metadata), labels } });
      toUpdate.add(name);
    } else unchanged.add(name);
  }

  // 2. fill the slices being updated, fullest first
  if (desired.size > 0 && toUpdate.size > 0) {
    const slices = [...toUpdate].map((n) => byName.get(n)!).sort((a, b) => b.endpoints.length - a.endpoints.length);
    for (const s of slices) while (desired.size > 0 && s.endpoints.length < max) s.endpoints.push(desired.popAny());
  }

  // 3. the rest into the unchanged slice it fits best, else into new slices
  const toCreate: EndpointSlice[] = [];
  while (desired.size > 0) {
    let fill: EndpointSlice | undefined;
    if (desired.size < max && unchanged.size > 0) {
      const best = sliceToFill([...unchanged].map((n) => byName.get(n)!), desired.size, max);
      if (best) {
        fill = { ...clone(best), endpoints: [...clone(best.endpoints)] };
        byName.set(best.metadata.name!, fill);
      }
    }
    fill ??= newSlice(service, input.ports, input.addressType, controllerName);
    while (desired.size > 0 && fill.endpoints.length < max) fill.endpoints.push(desired.popAny());
    if (fill.metadata.name) {
      toUpdate.add(fill.metadata.name);
      unchanged.delete(fill.metadata.name);
    } else toCreate.push(fill);
  }
  return { create: toCreate, update: [...toUpdate].map((n) => byName.get(n)!), delete: [...toDelete].map((n) => byName.get(n)!) };
}

/** The slice closest to full once `n` endpoints are added, if one has room (kube's getSliceToFill). */
export function sliceToFill(slices: readonly EndpointSlice[], n: number, max: number): EndpointSlice | undefined {
  let closest = max;
  let best: EndpointSlice | undefined;
  for (const s of slices) {
    const diff = max - (n + s.endpoints.length);
    if (diff >= 0 && diff < closest) {
      closest = diff;
      best = s;
      if (diff === 0) break;
    }
  }
  return best;
}
