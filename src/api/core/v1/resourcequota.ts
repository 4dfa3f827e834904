// ResourceQuota validation as kube-apiserver v1.27 answers it
// (pkg/apis/core/validation: ValidateResourceQuota, …Update, …StatusUpdate;
// the name and scope sets of pkg/apis/core/helper).
//
//   create: spec.hard (name, quantity) → spec.scopes → spec.scopeSelector → status.hard → status.used
//   update: spec as on create → spec.scopes immutable → status when it changed (the /status write)
//
// The validator registry has no subresource: a main update keeps the live
// status and a /status write keeps the live spec, so validating the spec
// always and the status only when it differs from the live one gives each
// write kube's causes. Go map order is replaced by sorted keys.
//
// Resource names may use the svc.io spelling: `svc.io/x` is as native as
// `kubernetes.io/x`; group domains (`count/deployments.apps`,
// `gold.storageclass.storage.svc.io/requests.storage`) are fully qualified
// names either way, checked as their k8s.io forms are.
import { type FieldError, FieldPath, fieldPath, invalid, required } from '../../meta/field.js';
import { isExtendedResourceName, isNativeResource } from './resourcenames.js';
import { type Obj, FIELD_IMMUTABLE, IS_NEGATIVE, arr, isObj, obj, qualifiedName, semanticEqual, str } from '../../meta/checks.js';
import { formatQuantity, quantityOf } from '../../meta/quantity.js';
import { GoValue, goStringSlice } from '../../meta/govalue.js';

export const INVALID_QUOTA_RESOURCE = 'must be a standard resource for quota';
export const NOT_STANDARD_RESOURCE = 'must be a standard resource type or fully qualified';
export const NOT_INTEGER = 'must be an integer';

// ---------------------------------------------------------------- name sets (helper package facts)

const STANDARD_QUOTA_RESOURCES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.storage', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers',
  'secrets', 'persistentvolumeclaims', 'configmaps', 'services.nodeports', 'services.loadbalancers',
]);

const STANDARD_RESOURCES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers',
  'secrets', 'configmaps', 'persistentvolumeclaims', 'storage', 'requests.storage', 'services.nodeports', 'services.loadbalancers',
]);

const INTEGER_RESOURCES = new Set([
  'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims',
  'services.nodeports', 'services.loadbalancers',
]);

export const QUOTA_SCOPES = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'] as const;
const STANDARD_SCOPES = new Set<string>(QUOTA_SCOPES);
const POD_COUNT_RESOURCES = new Set(['pods']);
const POD_COMPUTE_RESOURCES = new Set(['cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory']);

/** Scopes that select by existence only (their selector operator must be Exists). */
const EXISTS_ONLY_SCOPES = new Set(['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity']);
const CONFLICTING_SCOPES: readonly (readonly [string, string])[] = [
  ['BestEffort', 'NotBestEffort'],
  ['Terminating', 'NotTerminating'],
];

const isQuotaHugePages = (n: string) => n.startsWith('hugepages-') || n.startsWith('requests.hugepages-');

/** helper.IsStandardQuotaResourceName: a name the quota system tracks without a domain. */
export function isStandardQuotaResourceName(n: string): boolean {
  return STANDARD_QUOTA_RESOURCES.has(n) || isQuotaHugePages(n);
}

/** helper.IsStandardResourceName. */
export function isStandardResourceName(n: string): boolean {
  return STANDARD_RESOURCES.has(n) || isQuotaHugePages(n);
}

/** helper.IsStandardResourceQuotaScope. */
export function isStandardQuotaScope(scope: string): boolean {
  return STANDARD_SCOPES.has(scope);
}

/** helper.IsResourceQuotaScopeValidForResource: the pod scopes only apply to pod counts and compute. */
export function isScopeValidForResource(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating':
    case 'NotTerminating':
    case 'NotBestEffort':
    case 'PriorityClass':
    case 'CrossNamespacePodAffinity':
      return POD_COUNT_RESOURCES.has(resource) || POD_COMPUTE_RESOURCES.has(resource);
    case 'BestEffort':
      return POD_COUNT_RESOURCES.has(resource);
    default:
      return true;
  }
}

/** helper.IsIntegerResourceName: object counts and extended resources (which include count/… and storage-class names). */
export function isIntegerResourceName(n: string): boolean {
  return INTEGER_RESOURCES.has(n) || isExtendedResourceName(n);
}

// ---------------------------------------------------------------- names and values

/** validateResourceQuotaResourceName: a qualified name, standard when it has no domain. */
export function validateQuotaResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = qualifiedName(name, path);
  if (errs.length === 0 && !name.includes('/') && !isStandardResourceName(name)) errs.push(invalid(path, name, NOT_STANDARD_RESOURCE));
  if (!name.includes('/') && !isStandardQuotaResourceName(name)) errs.push(invalid(path, name, INVALID_QUOTA_RESOURCE));
  return errs;
}

/** ValidateResourceQuantityValue: not negative, and whole for the integer resources. */
export function validateQuantityValue(name: string, value: unknown, path: FieldPath): FieldError[] {
  const q = quantityOf(value);
  if (!q) return [];
  const errs: FieldError[] = [];
  if (q.nanos < 0n) errs.push(invalid(path, formatQuantity(q), IS_NEGATIVE));
  if (isIntegerResourceName(name) && q.nanos % 1_000_000_000n !== 0n) errs.push(invalid(path, goQuantity(value), NOT_INTEGER));
  return errs;
}

/**
 * The resource.Quantity value as Go's %#v prints it (kube passes the struct,
 * not its text, to field.Invalid for "must be an integer"). This follows
 * ParseQuantity's exact path: an int64 mantissa and decimal scale, the text
 * kept only when it is already canonical. Values that take Go's inf.Dec path
 * (binary suffixes with a fraction, more than 18 digits) print a pointer in
 * Go; they get a fixed placeholder here.
 */
export function goQuantity(value: unknown): GoValue {
  const text = typeof value === 'number' ? String(value) : str(value);
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)$/.exec(text);
  const q = quantityOf(value);
  const dec = (v: bigint | number, scale: number, s: string, format: string, inf = '(*inf.Dec)(nil)') =>
    new GoValue(value, `resource.Quantity{i:resource.int64Amount{value:${v}, scale:${scale}}, d:resource.infDecAmount{Dec:${inf}}, s:${JSON.stringify(s)}, Format:${JSON.stringify(format)}}`);
  if (!m || !q) return dec(0, 0, '', 'DecimalSI');
  const [, sign = '', num = '', denom = '', suffix = ''] = m;
  const si: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
  const binary = /^[KMGTPE]i$/.test(suffix);
  const exponent = binary ? 0 : suffix in si ? si[suffix]! : Number(suffix.slice(1));
  const format = binary ? 'BinarySI' : suffix in si ? 'DecimalSI' : 'DecimalExponent';
  const digits = num.length + denom.length;
  if (binary || 18 - digits < 0 || exponent - denom.length < -9) return dec(0, 0, '', format, '(*inf.Dec)(0xc000000000)');
  const scale = exponent - denom.length;
  const shifted = num + denom;
  const v = BigInt(shifted || '0') * (sign === '-' ? -1n : 1n);
  const canonical = scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
  return dec(v, scale, canonical ? text : '', format);
}

/** Names and name → value texts found valid: quota lists repeat them on every status write (the checks depend on nothing else). */
const validNames = new Set<string>();
const validValues = new Set<string>();
const VALID_MAX = 4096;
const remember = (set: Set<string>, key: string): void => {
  if (set.size >= VALID_MAX) set.clear();
  set.add(key);
};

function resourceListErrors(list: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const l = obj(list);
  for (const name of Object.keys(l).sort()) {
    const value = l[name];
    const valueKey = typeof value === 'string' ? `${name}\u0000${value}` : undefined;
    const nameOk = validNames.has(name);
    if (nameOk && valueKey !== undefined && validValues.has(valueKey)) continue;
    const at = path.key(name);
    const nameErrs = nameOk ? [] : validateQuotaResourceName(name, at);
    const valueErrs = validateQuantityValue(name, value, at);
    if (nameErrs.length === 0) remember(validNames, name);
    if (valueErrs.length === 0 && valueKey !== undefined) remember(validValues, valueKey);
    errs.push(...nameErrs, ...valueErrs);
  }
  return errs;
}

// ---------------------------------------------------------------- scopes

const scopesValue = (spec: Obj) => goStringSlice('core.ResourceQuotaScope', Array.isArray(spec.scopes) ? spec.scopes : null);

/** validateResourceQuotaScopes: known scopes, each valid for every standard hard resource, no conflicting pair. */
function scopeErrors(spec: Obj, path: FieldPath): FieldError[] {
  const scopes = arr(spec.scopes).map((s) => str(s));
  if (scopes.length === 0) return [];
  const errs: FieldError[] = [];
  const at = path.child('scopes');
  const hard = Object.keys(obj(spec.hard)).sort();
  for (const scope of scopes) {
    if (!isStandardQuotaScope(scope)) errs.push(invalid(at, scopesValue(spec), 'unsupported scope'));
    for (const r of hard) {
      if (isStandardQuotaResourceName(r) && !isScopeValidForResource(scope, r)) errs.push(invalid(at, scopesValue(spec), 'unsupported scope applied to resource'));
    }
  }
  for (const [a, b] of CONFLICTING_SCOPES) {
    if (scopes.includes(a) && scopes.includes(b)) errs.push(invalid(at, scopesValue(spec), 'conflicting scopes'));
  }
  return errs;
}

const goRequirement = (e: Obj) =>
  `core.ScopedResourceSelectorRequirement{ScopeName:${JSON.stringify(str(e.scopeName))}, Operator:${JSON.stringify(str(e.operator))}, Values:${goStringSlice('string', Array.isArray(e.values) ? e.values : null).goText}}`;

/** The *core.ScopeSelector as %#v prints the dereferenced struct. */
function goScopeSelector(sel: Obj): GoValue {
  const exprs = Array.isArray(sel.matchExpressions)
    ? `[]core.ScopedResourceSelectorRequirement{${sel.matchExpressions.map((e) => goRequirement(obj(e))).join(', ')}}`
    : '[]core.ScopedResourceSelectorRequirement(nil)';
  return new GoValue(sel, `core.ScopeSelector{MatchExpressions:${exprs}}`);
}

const EXISTS_ONLY_MSG =
  "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity";

/** validateScopeSelector / validateScopedResourceSelectorRequirement. */
function scopeSelectorErrors(spec: Obj, path: FieldPath): FieldError[] {
  if (!isObj(spec.scopeSelector)) return [];
  const sel = spec.scopeSelector;
  const at = path.child('scopeSelector').child('matchExpressions');
  const hard = Object.keys(obj(spec.hard)).sort();
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of arr(sel.matchExpressions).map((x) => obj(x))) {
    const scope = str(e.scopeName);
    const op = str(e.operator);
    const values = Array.isArray(e.values) ? e.values : [];
    if (!isStandardQuotaScope(scope)) errs.push(invalid(at.child('scopeName'), scope, 'unsupported scope'));
    for (const r of hard) {
      if (isStandardQuotaResourceName(r) && !isScopeValidForResource(scope, r)) errs.push(invalid(at, goScopeSelector(sel), 'unsupported scope applied to resource'));
    }
    if (EXISTS_ONLY_SCOPES.has(scope) && op !== 'Exists') errs.push(invalid(at.child('operator'), op, EXISTS_ONLY_MSG));
    switch (op) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(required(at.child('values'), "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length !== 0) errs.push(invalid(at.child('values'), values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
        break;
      default:
        errs.push(invalid(at.child('operator'), op, 'not a valid selector operator'));
    }
    seen.add(scope);
  }
  for (const [a, b] of CONFLICTING_SCOPES) {
    // kube reports spec.scopes (not the selector) as the value here.
    if (seen.has(a) && seen.has(b)) errs.push(invalid(at, scopesValue(spec), 'conflicting scopes'));
  }
  return errs;
}

// ---------------------------------------------------------------- entry points

/** ValidateResourceQuotaSpec. */
export function validateResourceQuotaSpec(spec: Obj, path: FieldPath = fieldPath('spec')): FieldError[] {
  return [...resourceListErrors(spec.hard, path.child('hard')), ...scopeErrors(spec, path), ...scopeSelectorErrors(spec, path)];
}

/** ValidateResourceQuotaStatus: status.hard and status.used names and values. */
export function validateResourceQuotaStatus(status: Obj, path: FieldPath = fieldPath('status')): FieldError[] {
  return [...resourceListErrors(status.hard, path.child('hard')), ...resourceListErrors(status.used, path.child('used'))];
}

/** ValidateResourceQuota (ObjectMeta is the store's). */
export function validateResourceQuota(rq: Obj): FieldError[] {
  return [...validateResourceQuotaSpec(obj(rq.spec)), ...validateResourceQuotaStatus(obj(rq.status))];
}

/** ValidateResourceQuotaUpdate: the spec again, and spec.scopes compared as a set. */
export function validateResourceQuotaUpdate(rq: Obj, old: Obj): FieldError[] {
  const spec = obj(rq.spec);
  const errs = validateResourceQuotaSpec(spec);
  const now = new Set(arr(spec.scopes).map((s) => str(s)));
  const before = new Set(arr(obj(old.spec).scopes).map((s) => str(s)));
  if (now.size !== before.size || [...now].some((s) => !before.has(s))) errs.push(invalid(fieldPath('spec').child('scopes'), scopesValue(spec), FIELD_IMMUTABLE));
  return errs;
}

/** ValidateResourceQuotaStatusUpdate (the resourceVersion is always set by the store here). */
export function validateResourceQuotaStatusUpdate(rq: Obj): FieldError[] {
  return validateResourceQuotaStatus(obj(rq.status));
}

/**
 * The registry entry, as kube's two strategies: create validates spec and
 * status; a /status write validates the status alone
 * (resourcequotaStatusStrategy: its spec is the live one); any other update
 * validates the spec (and its scopes' immutability), and the status only if
 * it changed (it cannot: the main update keeps the live status).
 */
export const resourceQuotaValidator = {
  validate: validateResourceQuota,
  validateUpdate(rq: Obj, old: Obj, subresource?: string): FieldError[] {
    if (subresource === 'status') return validateResourceQuotaStatusUpdate(rq);
    const errs = validateResourceQuotaUpdate(rq, old);
    if (!semanticEqual(rq.status, old.status)) errs.push(...validateResourceQuotaStatusUpdate(rq));
    return errs;
  },
};
