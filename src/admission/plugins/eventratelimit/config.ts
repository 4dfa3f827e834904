// The EventRateLimit configuration, as kube-apiserver v1.27 reads it
// (plugin/pkg/admission/eventratelimit: config.go decodes it with the
// plugin's scheme, validation/validation.go checks it):
//
//   apiVersion: eventratelimit.admission.svc.io/v1alpha1   (or …k8s.io)
//   kind: Configuration
//   limits:
//   - type: Namespace        Server | Namespace | User | SourceAndObject
//     qps: 50                int32, > 0: tokens added per second
//     burst: 100             int32, > 0: the bucket's size (it starts full)
//     cacheSize: 2000        int32, >= 0, not for Server: buckets kept (LRU); 0 → 4096
//
// Decoding is Go's encoding/json into the v1alpha1 types (case-sensitive,
// unknown fields ignored, its type-mismatch texts); validation gathers every
// problem as kube's field errors, aggregated. No configuration at all is the
// defaulted empty one, which validation refuses ("limits … must not be
// empty"), so the plugin cannot run without one.
import { aggregateErrors, errorBody, fieldPath, invalid, notSupported, type FieldError } from '../../../api/meta/index.js';
import { goJsonKind } from '../../../schema/gotypes.js';
import { isObject } from '../../../registry/object.js';

export const LIMIT_TYPES = ['Server', 'Namespace', 'User', 'SourceAndObject'] as const;
export type LimitType = (typeof LIMIT_TYPES)[number];

export const CONFIGURATION_VERSIONS = ['eventratelimit.admission.svc.io/v1alpha1', 'eventratelimit.admission.k8s.io/v1alpha1'] as const;
export const CONFIGURATION_KIND = 'Configuration';
/** Buckets an LRU keeps when `cacheSize` is 0 (kube's defaultCacheSize). */
export const DEFAULT_CACHE_SIZE = 4096;

export interface Limit {
  readonly type: LimitType;
  readonly qps: number;
  readonly burst: number;
  /** As configured (0: the default, see DEFAULT_CACHE_SIZE); ignored for Server. */
  readonly cacheSize: number;
}

export interface EventRateLimitConfig {
  readonly limits: readonly Limit[];
}

/** A configuration kube would refuse; the message is kube's. */
export class EventRateLimitConfigError extends Error {
  override readonly name = 'EventRateLimitConfigError';
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** The decoded, not yet validated, form (Go's zero values for what is absent). */
interface RawLimit {
  type: string;
  qps: number;
  burst: number;
  cacheSize: number;
}

/**
 * The plugin's configuration (the admission configuration's embedded object,
 * its file's parsed content, or undefined without one), decoded and
 * validated.
 */
export function parseEventRateLimitConfig(raw: unknown): EventRateLimitConfig {
  const limits = raw === undefined || raw === null ? null : decode(raw);
  const errs = validate(limits);
  if (errs.length > 0) throw new EventRateLimitConfigError(aggregateErrors(errs.map((e) => `${e.field}: ${errorBody(e)}`)));
  return { limits: (limits ?? []) as Limit[] };
}

/** The Go type apimachinery's SimpleMetaFactory reads apiVersion and kind into, as Go prints it. */
const FIND_KIND = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** runtime.Decode with the plugin's scheme: apiVersion and kind, then the v1alpha1 fields. */
function decode(raw: unknown): RawLimit[] | null {
  const parse = (msg: string) => new EventRateLimitConfigError(`couldn't get version/kind; json parse error: ${msg}`);
  if (!isObject(raw)) throw parse(`json: cannot unmarshal ${goJsonKind(raw)} into Go value of type ${FIND_KIND}`);
  const { apiVersion, kind } = raw;
  for (const [key, v] of [['apiVersion', apiVersion], ['kind', kind]] as const) {
    if (v !== undefined && v !== null && typeof v !== 'string') throw parse(`json: cannot unmarshal ${goJsonKind(v)} into Go struct field .${key} of type string`);
  }
  const text = JSON.stringify(raw);
  if (typeof kind !== 'string' || kind === '') throw new EventRateLimitConfigError(`Object 'Kind' is missing in '${text}'`);
  if (typeof apiVersion !== 'string' || apiVersion === '') throw new EventRateLimitConfigError(`Object 'apiVersion' is missing in '${text}'`);
  if (!(CONFIGURATION_VERSIONS as readonly string[]).includes(apiVersion) || kind !== CONFIGURATION_KIND) {
    throw new EventRateLimitConfigError(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} (want kind "${CONFIGURATION_KIND}" in ${CONFIGURATION_VERSIONS.join(', ')})`);
  }
  const limits = raw.limits;
  if (limits === undefined || limits === null) return null;
  if (!Array.isArray(limits)) throw unmarshal(limits, 'Configuration', 'limits', '[]v1alpha1.Limit');
  return limits.map((l: unknown) => {
    if (l === null) return { type: '', qps: 0, burst: 0, cacheSize: 0 };
    if (!isObject(l)) throw unmarshal(l, 'Configuration', 'limits', 'v1alpha1.Limit');
    const type = l.type;
    if (type !== undefined && type !== null && typeof type !== 'string') throw unmarshal(type, 'Limit', 'limits.type', 'v1alpha1.LimitType');
    return { type: typeof type === 'string' ? type : '', qps: int32(l, 'qps'), burst: int32(l, 'burst'), cacheSize: int32(l, 'cacheSize') };
  });
}

function int32(l: Record<string, unknown>, key: 'qps' | 'burst' | 'cacheSize'): number {
  const v = l[key];
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'number') throw unmarshal(v, 'Limit', `limits.${key}`, 'int32');
  if (!Number.isInteger(v) || v < INT32_MIN || v > INT32_MAX) {
    throw new EventRateLimitConfigError(`json: cannot unmarshal number ${String(v)} into Go struct field Limit.limits.${key} of type int32`);
  }
  return v;
}

/** Go's UnmarshalTypeError text (Go ≥ 1.20: the field's whole path). */
function unmarshal(v: unknown, struct: string, field: string, type: string): EventRateLimitConfigError {
  return new EventRateLimitConfigError(`json: cannot unmarshal ${goJsonKind(v)} into Go struct field ${struct}.${field} of type ${type}`);
}

/**
 * kube's ValidateConfiguration: limits not empty; per limit its type, then
 * burst and qps positive, then cacheSize not negative (except for Server).
 * Several limits of one type are allowed (each is enforced).
 */
function validate(limits: readonly RawLimit[] | null): FieldError[] {
  const errs: FieldError[] = [];
  const path = fieldPath('limits');
  if (!limits || limits.length === 0) errs.push(invalid(path, { goText: limits ? '[]eventratelimit.Limit{}' : '[]eventratelimit.Limit(nil)' }, 'must not be empty'));
  (limits ?? []).forEach((l, i) => {
    const at = path.index(i);
    // kube lists the supported values from a Go map (in no fixed order); ours are in the declared order.
    if (!(LIMIT_TYPES as readonly string[]).includes(l.type)) errs.push(notSupported(at.child('type'), l.type, LIMIT_TYPES));
    if (l.burst <= 0) errs.push(invalid(at.child('burst'), l.burst, 'must be positive'));
    if (l.qps <= 0) errs.push(invalid(at.child('qps'), l.qps, 'must be positive'));
    if (l.type !== 'Server' && l.cacheSize < 0) errs.push(invalid(at.child('cacheSize'), l.cacheSize, 'must not be negative'));
  });
  return errs;
}
