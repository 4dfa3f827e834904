// LimitRange validation (kube v1.27 ValidateLimitRange, on create and
// update): item types and resource names, one item per type, Pod items
// without defaults, PersistentVolumeClaim items with a storage min or max,
// and per resource min ≤ defaultRequest ≤ default ≤ max, a
// maxLimitRequestRatio of at least 1 and at most max/min, and default =
// defaultRequest for resources that cannot be overcommitted. Go visits maps
// in random order; here keys are sorted.
import { type FieldError, FieldPath, duplicate, forbidden, invalid, required } from '../../meta/field.js';
import { isExtendedResourceName, isNativeResource } from './resourcenames.js';
import { compareQuantities, formatQuantity, quantityOf, type Quantity } from '../../meta/quantity.js';
import { GoValue } from '../../meta/govalue.js';
import { isObj, obj, qualifiedName, type Obj } from '../../meta/checks.js';

const LIMIT_TYPES = new Set(['Pod', 'Container', 'PersistentVolumeClaim']);
const STANDARD_RESOURCES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services',
  'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims', 'storage', 'requests.storage',
  'services.nodeports', 'services.loadbalancers',
]);
const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const isHugePages = (n: string) => n.startsWith('hugepages-');
const overcommitAllowed = (n: string) => isNativeResource(n) && !isHugePages(n);

function typeNameErrors(value: string, path: FieldPath): FieldError[] {
  const errs = qualifiedName(value, path);
  if (errs.length === 0 && !value.includes('/') && !LIMIT_TYPES.has(value)) errs.push(invalid(path, value, 'must be a standard limit type or fully qualified'));
  return errs;
}

function resourceNameErrors(value: string, path: FieldPath): FieldError[] {
  const errs = qualifiedName(value, path);
  if (errs.length > 0) return errs;
  if (!value.includes('/') && !STANDARD_RESOURCES.has(value) && !isHugePages(value) && !value.startsWith('requests.hugepages-')) {
    errs.push(invalid(path, value, 'must be a standard resource type or fully qualified'));
  }
  return errs;
}

function containerResourceNameErrors(value: string, path: FieldPath): FieldError[] {
  const errs = resourceNameErrors(value, path);
  if (!value.includes('/')) {
    if (!STANDARD_CONTAINER_RESOURCES.has(value) && !isHugePages(value)) errs.push(invalid(path, value, 'must be a standard resource for containers'));
  } else if (!isNativeResource(value) && !isExtendedResourceName(value)) {
    errs.push(invalid(path, value, "doesn't follow the extended resource name standard"));
  }
  return errs;
}

/**
 * A quantity as Go's %#v prints a resource.Quantity parsed from `text` on its
 * fast path (int64 value and scale; the text kept when it is canonical).
 * Texts Go parses on its slow path (inf.Dec) print as the plain text here.
 */
export function goQuantity(text: string): GoValue {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$/.exec(text);
  const plain = new GoValue(text, JSON.stringify(text));
  if (!m) return plain;
  const [, sign = '', num = '', denom = '', suffix = ''] = m;
  const binary = ['Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'].indexOf(suffix);
  const si: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
  const format = binary >= 0 ? 'BinarySI' : suffix in si ? 'DecimalSI' : 'DecimalExponent';
  const shifted = (num + denom).replace(/^0+(?=.)/, '');
  let value: bigint;
  let scale: number;
  let canonical: boolean;
  if (binary >= 0) {
    if (denom !== '') return plain;
    value = BigInt(num) << BigInt(10 * (binary + 1));
    scale = 0;
    canonical = (BigInt(num) & 7n) !== 0n;
  } else {
    scale = (format === 'DecimalSI' ? si[suffix]! : Number(suffix.slice(1))) - denom.length;
    if (scale < -9 || shifted.length > 18) return plain;
    value = BigInt(shifted);
    canonical = scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
  }
  if (value > 2n ** 63n - 1n) return plain;
  const v = sign === '-' ? -value : value;
  const s = canonical ? text : '';
  return new GoValue(text, `resource.Quantity{i:resource.int64Amount{value:${v}, scale:${scale}}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:${JSON.stringify(s)}, Format:${JSON.stringify(format)}}`);
}

interface Entry {
  q: Quantity;
  text: string;
}

/** The entries of a resource map that are quantities, with their texts. */
function entries(v: unknown): Map<string, Entry> {
  const out = new Map<string, Entry>();
  if (!isObj(v)) return out;
  for (const k of Object.keys(v).sort()) {
    const q = quantityOf(v[k]);
    if (q) out.set(k, { q, text: String(v[k]) });
  }
  return out;
}

const MAX_MILLI = (2n ** 63n - 1n) / 1000n;
const ceilDiv = (n: bigint, d: bigint) => (n >= 0n ? (n + d - 1n) / d : -(-n / d));
const valueOf = (q: Quantity) => ceilDiv(q.nanos, 1_000_000_000n);
const milliOf = (q: Quantity) => ceilDiv(q.nanos, 1_000_000n);

function validateItem(limit: Obj, path: FieldPath, types: Set<string>, errs: FieldError[]): void {
  const type = typeof limit.type === 'string' ? limit.type : '';
  errs.push(...typeNameErrors(type, path.child('type')));
  if (types.has(type)) errs.push(duplicate(path.child('type'), type));
  types.add(type);
  const nameErrors = (name: string, p: FieldPath) => (type === 'Pod' || type === 'Container' ? containerResourceNameErrors(name, p) : resourceNameErrors(name, p));
  const keys = new Set<string>();
  const read = (field: string): Map<string, Entry> => {
    const m = entries(limit[field]);
    for (const k of m.keys()) {
      errs.push(...nameErrors(k, path.child(field).key(k)));
      keys.add(k);
    }
    return m;
  };
  const max = read('max');
  const min = read('min');
  let defaults = new Map<string, Entry>();
  let defaultRequests = new Map<string, Entry>();
  if (type === 'Pod') {
    if (Object.keys(obj(limit.default)).length > 0) errs.push(forbidden(path.child('default'), "may not be specified when `type` is 'Pod'"));
    if (Object.keys(obj(limit.defaultRequest)).length > 0) errs.push(forbidden(path.child('defaultRequest'), "may not be specified when `type` is 'Pod'"));
  } else {
    defaults = read('default');
    defaultRequests = read('defaultRequest');
  }
  if (type === 'PersistentVolumeClaim' && !min.has('storage') && !max.has('storage')) {
    errs.push(required(path.child('limits'), 'either minimum or maximum storage value is required, but neither was provided'));
  }
  const ratios = read('maxLimitRequestRatio');
  const f = formatQuantity;
  for (const k of [...keys].sort()) {
    const mn = min.get(k);
    const mx = max.get(k);
    const def = defaults.get(k);
    const req = defaultRequests.get(k);
    const ratio = ratios.get(k);
    const cmp = (a: Entry, b: Entry) => compareQuantities(a.q, b.q);
    if (mn && mx && cmp(mn, mx) > 0) errs.push(invalid(path.child('min').key(k), goQuantity(mn.text), `min value ${f(mn.q)} is greater than max value ${f(mx.q)}`));
    if (req && mn && cmp(mn, req) > 0) errs.push(invalid(path.child('defaultRequest').key(k), goQuantity(req.text), `min value ${f(mn.q)} is greater than default request value ${f(req.q)}`));
    if (req && mx && cmp(req, mx) > 0) errs.push(invalid(path.child('defaultRequest').key(k), goQuantity(req.text), `default request value ${f(req.q)} is greater than max value ${f(mx.q)}`));
    if (req && def && cmp(req, def) > 0) errs.push(invalid(path.child('defaultRequest').key(k), goQuantity(req.text), `default request value ${f(req.q)} is greater than default limit value ${f(def.q)}`));
    if (def && mn && cmp(mn, def) > 0) errs.push(invalid(path.child('default').key(k), goQuantity(mn.text), `min value ${f(mn.q)} is greater than default value ${f(def.q)}`));
    if (def && mx && cmp(def, mx) > 0) errs.push(invalid(path.child('default').key(k), goQuantity(mx.text), `default value ${f(def.q)} is greater than max value ${f(mx.q)}`));
    if (ratio && ratio.q.nanos < 1_000_000_000n) errs.push(invalid(path.child('maxLimitRequestRatio').key(k), goQuantity(ratio.text), `ratio ${f(ratio.q)} is less than 1`));
    if (ratio && mn && mx) {
      let ratioValue = Number(valueOf(ratio.q));
      let minValue = valueOf(mn.q);
      let maxValue = valueOf(mx.q);
      if (valueOf(ratio.q) < MAX_MILLI && minValue < MAX_MILLI && maxValue < MAX_MILLI) {
        ratioValue = Number(milliOf(ratio.q)) / 1000;
        minValue = milliOf(mn.q);
        maxValue = milliOf(mx.q);
      }
      const allowed = Number(maxValue) / Number(minValue);
      if (ratioValue > allowed) errs.push(invalid(path.child('maxLimitRequestRatio').key(k), goQuantity(ratio.text), `ratio ${f(ratio.q)} is greater than max/min = ${allowed.toFixed(6)}`));
    }
    if (!overcommitAllowed(k) && def && req && cmp(def, req) !== 0) {
      errs.push(invalid(path.child('defaultRequest').key(k), goQuantity(req.text), `default value ${f(def.q)} must equal to defaultRequest value ${f(req.q)} in ${k}`));
    }
  }
}

/** ValidateLimitRange: the causes of a LimitRange (metadata is the store's). */
export function validateLimitRange(lr: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const limits = Array.isArray(obj(lr.spec).limits) ? (obj(lr.spec).limits as unknown[]) : [];
  const types = new Set<string>();
  const path = new FieldPath('spec.limits');
  limits.forEach((l, i) => validateItem(obj(l), path.index(i), types, errs));
  return errs;
}
