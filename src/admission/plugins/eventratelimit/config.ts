// EventRateLimit's configuration (kube's plugin/pkg/admission/eventratelimit
// apis): kind Configuration of eventratelimit.admission.k8s.io/v1alpha1 (or
// the svc.io spelling), `limits` of {type, qps, burst, cacheSize}, validated
// as kube's ValidateConfiguration words it. No configuration is the default,
// empty one — which validation refuses (kube's plugin needs a file).
import { parse as parseYaml } from 'yaml';
import { isObject } from '../../../registry/object.js';

export type LimitType = 'Server' | 'Namespace' | 'User' | 'SourceAndObject';
export const LIMIT_TYPES: readonly LimitType[] = ['Server', 'Namespace', 'User', 'SourceAndObject'];

export interface Limit {
  readonly type: LimitType;
  readonly qps: number;
  readonly burst: number;
  /** Buckets kept (least recently used dropped); 0: the default, 4096. Not used by Server. */
  readonly cacheSize: number;
}

export interface EventRateLimitConfiguration {
  readonly limits: readonly Limit[];
}

const API_VERSIONS = new Set(['eventratelimit.admission.k8s.io/v1alpha1', 'eventratelimit.admission.svc.io/v1alpha1']);

/** A start-up refusal, worded as kube's (`couldn't init admission plugin "EventRateLimit": …`). */
export class EventRateLimitConfigError extends Error {
  constructor(detail: string) {
    super(`couldn't init admission plugin "EventRateLimit": ${detail}`);
  }
}

/** An int32 field as Go's decoder reads it; the decoder's error for anything else. */
function int32(v: unknown, field: string): number {
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < -(2 ** 31) || v >= 2 ** 31) {
    throw new EventRateLimitConfigError(`json: cannot unmarshal ${typeof v === 'number' ? 'number' : typeof v} into Go struct field Limit.limits.${field} of type int32`);
  }
  return v;
}

/** Parses and validates the configuration (an embedded object or the text of its file). */
export function parseEventRateLimitConfiguration(config: unknown): EventRateLimitConfiguration {
  let doc: unknown = config ?? {};
  if (typeof config === 'string') {
    try {
      doc = parseYaml(config);
    } catch (err) {
      throw new EventRateLimitConfigError(`error converting YAML to JSON: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  if (!isObject(doc)) throw new EventRateLimitConfigError("Object 'Kind' is missing in configuration");
  const given = config !== undefined && config !== null;
  if (given) {
    const apiVersion = typeof doc.apiVersion === 'string' ? doc.apiVersion : '';
    const kind = typeof doc.kind === 'string' ? doc.kind : '';
    if (!kind) throw new EventRateLimitConfigError(`Object 'Kind' is missing in ${JSON.stringify(doc)}`);
    if (!API_VERSIONS.has(apiVersion) || kind !== 'Configuration') throw new EventRateLimitConfigError(`no kind "${kind}" is registered for version "${apiVersion}"`);
  }
  const raw = doc.limits;
  if (raw !== undefined && raw !== null && !Array.isArray(raw)) throw new EventRateLimitConfigError('json: cannot unmarshal into Go struct field Configuration.limits of type []v1alpha1.Limit');
  const items = Array.isArray(raw) ? raw : [];
  const errors: string[] = [];
  if (items.length === 0) errors.push(`limits: Invalid value: ${Array.isArray(raw) ? '[]eventratelimit.Limit{}' : '[]eventratelimit.Limit(nil)'}: must not be empty`);
  const limits: Limit[] = items.map((item, i) => {
    if (!isObject(item)) throw new EventRateLimitConfigError(`json: cannot unmarshal into Go struct field Configuration.limits of type v1alpha1.Limit`);
    const at = `limits[${i}]`;
    const type = typeof item.type === 'string' ? item.type : '';
    const qps = int32(item.qps, 'qps');
    const burst = int32(item.burst, 'burst');
    const cacheSize = int32(item.cacheSize, 'cacheSize');
    if (!(LIMIT_TYPES as readonly string[]).includes(type)) {
      errors.push(`${at}.type: Unsupported value: ${JSON.stringify(type)}: supported values: ${LIMIT_TYPES.map((t) => JSON.stringify(t)).join(', ')}`);
    }
    if (burst <= 0) errors.push(`${at}.burst: Invalid value: ${burst}: must be positive`);
    if (qps <= 0) errors.push(`${at}.qps: Invalid value: ${qps}: must be positive`);
    if (type !== 'Server' && cacheSize < 0) errors.push(`${at}.cacheSize: Invalid value: ${cacheSize}: must not be negative`);
    return { type: type as LimitType, qps, burst, cacheSize };
  });
  // as Go's ErrorList.ToAggregate(): one error alone, several in brackets
  if (errors.length === 1) throw new EventRateLimitConfigError(errors[0]!);
  if (errors.length > 1) throw new EventRateLimitConfigError(`[${errors.join(', ')}]`);
  return { limits };
}
