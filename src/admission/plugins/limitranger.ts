// LimitRanger (mutating and validating, on by default): the namespace's
// LimitRanges applied to pods and PersistentVolumeClaims, as kube v1.27
// (plugin/pkg/admission/limitranger).
//
//   mutating   pods (create only): each container and init container missing a
//              request or limit gets the `defaultRequest` / `default` of every
//              Container item; the pod is annotated kubernetes.io/limit-ranger
//              with what was set.
//   validating Container items: min, max, maxLimitRequestRatio per container
//              and init container; Pod items: the same on the pod's totals
//              (containers summed, then the larger of that and each init
//              container); PersistentVolumeClaim items: min and max of
//              spec.resources.requests (a claim is never defaulted).
//
// Requests on a subresource, pod updates (containers are immutable) and
// updates of an object being deleted are left alone. The first LimitRange
// a request breaks answers 403 with all of its causes.
import type { AdmissionAttributes } from '../../registry/admission.js';
import type { ApiObject } from '../../registry/object.js';
import { isObject } from '../../registry/object.js';
import { formatQuantity, type Quantity } from '../../api/meta/quantity.js';
import { aggregateErrors } from '../../api/meta/aggregate.js';
import { addLists, maxLists, parseResourceList, type ResourceList } from '../../quota/resources.js';
import { admissionForbidden, admissionForbiddenOf, andThen, listOf, specOf, subresourceOf, type Json, type MutatingAndValidatingPlugin } from './common.js';

export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

export interface LimitRangerOptions {
  /** The LimitRanges of a namespace (kube reads an informer's lister). */
  limitRanges(namespace: string): Promise<readonly ApiObject[]>;
  /** The same when the store knows them at once (GenericStore.listSharedNow); undefined: ask limitRanges. */
  limitRangesNow?(namespace: string): readonly ApiObject[] | undefined;
}

interface LimitItem {
  type: string;
  min: ResourceList;
  max: ResourceList;
  default: ResourceList;
  defaultRequest: ResourceList;
  maxLimitRequestRatio: ResourceList;
  /** The names of min, max and maxLimitRequestRatio, sorted (the order the causes are reported in). */
  readonly names: { readonly min: readonly string[]; readonly max: readonly string[]; readonly ratio: readonly string[] };
}

function itemsOf(lr: ApiObject): LimitItem[] {
  return listOf(specOf(lr), 'limits').map((l) => {
    const min = parseResourceList(l.min);
    const max = parseResourceList(l.max);
    const maxLimitRequestRatio = parseResourceList(l.maxLimitRequestRatio);
    return {
      type: typeof l.type === 'string' ? l.type : '',
      min, max, maxLimitRequestRatio,
      default: parseResourceList(l.default),
      defaultRequest: parseResourceList(l.defaultRequest),
      names: { min: sorted(min), max: sorted(max), ratio: sorted(maxLimitRequestRatio) },
    };
  });
}

// ---------------------------------------------------------------- defaults

/** The defaults of a LimitRange's Container items (a later item's value wins); made once per parsed LimitRange. */
function containerDefaults(items: readonly LimitItem[]): { requests: Json; limits: Json } {
  let d = defaultsOf.get(items);
  if (!d) defaultsOf.set(items, (d = makeDefaults(items)));
  return d;
}
const defaultsOf = new WeakMap<readonly LimitItem[], { requests: Json; limits: Json }>();

function makeDefaults(items: readonly LimitItem[]): { requests: Json; limits: Json } {
  const requests: Json = {};
  const limits: Json = {};
  for (const it of items) {
    if (it.type !== 'Container') continue;
    for (const [k, q] of Object.entries(it.defaultRequest)) requests[k] = formatQuantity(q);
    for (const [k, q] of Object.entries(it.default)) limits[k] = formatQuantity(q);
  }
  return { requests, limits };
}

/** Fills a container's missing requests and limits; the annotation's parts for it. */
function defaultContainer(c: Json, defaults: { requests: Json; limits: Json }, what: string): string[] {
  const resources: Json = isObject(c.resources) ? c.resources : (c.resources = {});
  const fill = (key: 'requests' | 'limits'): string[] => {
    const have = isObject(resources[key]) ? resources[key] : {};
    const set = Object.keys(defaults[key]).filter((k) => !(k in have));
    if (set.length === 0) return set;
    resources[key] = have;
    for (const k of set) have[k] = defaults[key][k];
    return set.sort();
  };
  const limits = fill('limits');
  const requests = fill('requests');
  const out: string[] = [];
  if (requests.length > 0) out.push(`${requests.join(', ')} request for ${what} ${String(c.name ?? '')}`);
  if (limits.length > 0) out.push(`${limits.join(', ')} limit for ${what} ${String(c.name ?? '')}`);
  return out;
}

/** kube's PodMutateLimitFunc: one LimitRange's defaults on every container and init container. */
export function defaultPod(pod: ApiObject, items: readonly LimitItem[]): void {
  const spec = specOf(pod);
  if (!spec) return;
  const defaults = containerDefaults(items);
  const parts: string[] = [];
  for (const c of listOf(spec, 'containers')) parts.push(...defaultContainer(c, defaults, 'container'));
  for (const c of listOf(spec, 'initContainers')) parts.push(...defaultContainer(c, defaults, 'init container'));
  if (parts.length === 0) return;
  pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${parts.join('; ')}` };
}

// ---------------------------------------------------------------- checks

const NANO = 1_000_000_000n;
const MAX_MILLI = (2n ** 63n - 1n) / 1000n;
/** Quantity.Value() and MilliValue(): rounded up. */
const ceilDiv = (n: bigint, d: bigint) => (n >= 0n ? (n + d - 1n) / d : -(-n / d));
const valueOf = (q: Quantity | undefined) => (q ? ceilDiv(q.nanos, NANO) : 0n);
const milliOf = (q: Quantity | undefined) => (q ? ceilDiv(q.nanos, 1_000_000n) : 0n);

/** Request, limit and enforced value at one precision: milli-units unless one would overflow them. */
function comparable(req: Quantity | undefined, lim: Quantity | undefined, enforced: Quantity): [bigint, bigint, bigint] {
  const values: [bigint, bigint, bigint] = [valueOf(req), valueOf(lim), valueOf(enforced)];
  if (values.every((v) => v <= MAX_MILLI)) return [milliOf(req), milliOf(lim), milliOf(enforced)];
  return values;
}

const fmt = formatQuantity;

function minConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests[name];
  const lim = limits[name];
  const [r, l, e] = comparable(req, lim, enforced);
  if (!req) return `minimum ${name} usage per ${type} is ${fmt(enforced)}.  No request is specified`;
  if (r < e) return `minimum ${name} usage per ${type} is ${fmt(enforced)}, but request is ${fmt(req)}`;
  if (lim && l < e) return `minimum ${name} usage per ${type} is ${fmt(enforced)}, but limit is ${fmt(lim)}`;
  return undefined;
}

function maxConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests[name];
  const lim = limits[name];
  const [r, l, e] = comparable(req, lim, enforced);
  if (!lim) return `maximum ${name} usage per ${type} is ${fmt(enforced)}.  No limit is specified`;
  if (l > e) return `maximum ${name} usage per ${type} is ${fmt(enforced)}, but limit is ${fmt(lim)}`;
  if (req && r > e) return `maximum ${name} usage per ${type} is ${fmt(enforced)}, but request is ${fmt(req)}`;
  return undefined;
}

/** The max of a type whose objects have no limits (PersistentVolumeClaim): checked against the request. */
function maxRequestConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList): string | undefined {
  const req = requests[name];
  const [r, , e] = comparable(req, undefined, enforced);
  if (!req) return `maximum ${name} usage per ${type} is ${fmt(enforced)}.  No request is specified`;
  if (r > e) return `maximum ${name} usage per ${type} is ${fmt(enforced)}, but request is ${fmt(req)}`;
  return undefined;
}

function ratioConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests[name];
  const lim = limits[name];
  const [r, l] = comparable(req, lim, enforced);
  const head = `${name} max limit to request ratio per ${type} is ${fmt(enforced)}`;
  if (!req || r === 0n) return `${head}, but no request is specified or request is 0`;
  if (!lim || l === 0n) return `${head}, but no limit is specified or limit is 0`;
  const shown = Number(l) / Number(r);
  let observed = shown;
  let allowed = Number(valueOf(enforced));
  if (valueOf(enforced) <= MAX_MILLI) {
    observed = shown * 1000;
    allowed = Number(milliOf(enforced));
  }
  return observed > allowed ? `${head}, but provided ratio is ${shown.toFixed(6)}` : undefined;
}

const sorted = (l: ResourceList) => Object.keys(l).sort();

/** min, max and maxLimitRequestRatio of one item against one set of requests and limits. */
function checkAll(it: LimitItem, requests: ResourceList, limits: ResourceList, errs: string[]): void {
  const push = (m: string | undefined) => m !== undefined && errs.push(m);
  for (const k of it.names.min) push(minConstraint(it.type, k, it.min[k]!, requests, limits));
  for (const k of it.names.max) push(maxConstraint(it.type, k, it.max[k]!, requests, limits));
  for (const k of it.names.ratio) push(ratioConstraint(it.type, k, it.maxLimitRequestRatio[k]!, requests, limits));
}

function resourcesOf(c: Json): { requests: ResourceList; limits: ResourceList } {
  const r = isObject(c.resources) ? c.resources : {};
  return { requests: parseResourceList(r.requests), limits: parseResourceList(r.limits) };
}

/** The pod's totals as v1.27 counts them: containers summed, then per name the larger of that and any init container. */
function podTotals(spec: Json | undefined): { requests: ResourceList; limits: ResourceList } {
  let requests: ResourceList = {};
  let limits: ResourceList = {};
  for (const c of listOf(spec, 'containers')) {
    const r = resourcesOf(c);
    requests = addLists(requests, r.requests);
    limits = addLists(limits, r.limits);
  }
  let initRequests: ResourceList = {};
  let initLimits: ResourceList = {};
  for (const c of listOf(spec, 'initContainers')) {
    const r = resourcesOf(c);
    initRequests = maxLists(initRequests, r.requests);
    initLimits = maxLists(initLimits, r.limits);
  }
  return { requests: maxLists(requests, initRequests), limits: maxLists(limits, initLimits) };
}

/** kube's PodValidateLimitFunc: the causes one LimitRange finds in a pod. */
export function checkPod(pod: ApiObject, items: readonly LimitItem[]): string[] {
  const spec = specOf(pod);
  const errs: string[] = [];
  for (const it of items) {
    if (it.type === 'Container') {
      for (const c of [...listOf(spec, 'containers'), ...listOf(spec, 'initContainers')]) {
        const r = resourcesOf(c);
        checkAll(it, r.requests, r.limits, errs);
      }
    } else if (it.type === 'Pod') {
      const t = podTotals(spec);
      checkAll(it, t.requests, t.limits, errs);
    }
  }
  return errs;
}

/** kube's PersistentVolumeClaimValidateLimitFunc: min and max of the claim's requests. */
export function checkClaim(pvc: ApiObject, items: readonly LimitItem[]): string[] {
  const spec = specOf(pvc);
  const requests = parseResourceList(isObject(spec?.resources) ? spec.resources.requests : undefined);
  const errs: string[] = [];
  for (const it of items) {
    if (it.type !== 'PersistentVolumeClaim') continue;
    for (const k of it.names.min) {
      const m = minConstraint(it.type, k, it.min[k]!, requests, {});
      if (m !== undefined) errs.push(m);
    }
    for (const k of it.names.max) {
      const m = maxRequestConstraint(it.type, k, it.max[k]!, requests);
      if (m !== undefined) errs.push(m);
    }
  }
  return errs;
}

// ---------------------------------------------------------------- the plugin

/** kube's SupportsAttributes, plus the skip of objects being deleted: which requests the plugin looks at. */
function applies(a: AdmissionAttributes): 'pods' | 'persistentvolumeclaims' | undefined {
  if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return undefined;
  if (subresourceOf(a) !== '' || a.resource.group !== '' || !a.object) return undefined;
  const r = a.resource.resource;
  if (r === 'pods' && a.operation === 'UPDATE') return undefined;
  if (r !== 'pods' && r !== 'persistentvolumeclaims') return undefined;
  if (a.oldObject?.metadata.deletionTimestamp) return undefined;
  return r;
}

export function limitRanger(opts: LimitRangerOptions): MutatingAndValidatingPlugin {
  // LimitRanges come shared from the watch cache (one object per stored version): their items are parsed once.
  const parsed = new WeakMap<ApiObject, LimitItem[]>();
  const items = (lr: ApiObject): LimitItem[] => {
    let it = parsed.get(lr);
    if (!it) parsed.set(lr, (it = itemsOf(lr)));
    return it;
  };
  function ranges(a: AdmissionAttributes): LimitItem[][] | Promise<LimitItem[][]> {
    const known = opts.limitRangesNow?.(a.namespace);
    return known ? known.map(items) : rangesRead(a);
  }
  async function rangesRead(a: AdmissionAttributes): Promise<LimitItem[][]> {
    try {
      return (await opts.limitRanges(a.namespace)).map(items);
    } catch (err) {
      throw admissionForbiddenOf(a, err);
    }
  }
  return {
    name: 'LimitRanger',
    phase: 'mutating',
    admit(a) {
      if (applies(a) !== 'pods') return;
      return andThen(ranges(a), (all) => {
        for (const items of all) defaultPod(a.object!, items);
      });
    },
    validate(a) {
      const r = applies(a);
      if (!r) return;
      return andThen(ranges(a), (all) => {
        for (const items of all) {
          const errs = r === 'pods' ? checkPod(a.object!, items) : checkClaim(a.object!, items);
          if (errs.length > 0) throw admissionForbidden(a, aggregateErrors(errs));
        }
      });
    },
  };
}
