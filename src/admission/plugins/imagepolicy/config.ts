// The ImagePolicyWebhook configuration, as kube-apiserver v1.27 reads it
// (plugin/pkg/admission/imagepolicy config.go): an object with `imagePolicy`
// holding
//   kubeConfigFile  the connection-credentials file naming the backend (https)
//   allowTTL        seconds an approval is cached   (default 300, 1 s … 30 min)
//   denyTTL         seconds a rejection is cached   (default 30,  1 s … 30 min)
//   retryBackoff    milliseconds of the first retry wait (default 500, 1 ns … 5 min)
//   defaultAllow    the decision when the backend cannot be asked
// 0 (or absent) means the default; -1 turns the TTL or the wait off. The
// numbers are Go time.Durations read from JSON (integers), then scaled; out of
// range values fail with kube's text ("valid value is between 1s and 30m0s,
// got 1h0m0s"), which we prefix with the field. Field names match
// case-insensitively, unknown fields are ignored (Go's encoding/json).
import { goJsonKind } from '../../../schema/gotypes.js';
import { isObject } from '../../../registry/object.js';
import { formatGoNanos } from '../../../api/meta/goduration.js';

export interface ImagePolicyConfig {
  readonly kubeConfigFile: string;
  /** 0: approvals are not cached. */
  readonly allowTtlMs: number;
  /** 0: rejections are not cached. */
  readonly denyTtlMs: number;
  /** The first wait between attempts (kube's DefaultRetryBackoffWithInitialDelay: × 1.5, jitter 0.2, 5 attempts). */
  readonly retryBackoffMs: number;
  readonly defaultAllow: boolean;
}

/** A configuration kube would refuse; the message names the field. */
export class ImagePolicyConfigError extends Error {
  override readonly name = 'ImagePolicyConfigError';
}

const NS = 1n;
const MS = 1_000_000n;
const SECOND = 1_000_000_000n;
const MINUTE = 60n * SECOND;

interface DurationField {
  readonly key: 'allowTTL' | 'denyTTL' | 'retryBackoff';
  readonly scale: bigint;
  readonly min: bigint;
  readonly max: bigint;
  readonly default: bigint;
}

const FIELDS: readonly DurationField[] = [
  { key: 'retryBackoff', scale: MS, min: NS, max: 5n * MINUTE, default: 500n * MS },
  { key: 'allowTTL', scale: SECOND, min: SECOND, max: 30n * MINUTE, default: 5n * MINUTE },
  { key: 'denyTTL', scale: SECOND, min: SECOND, max: 30n * MINUTE, default: 30n * SECOND },
];

const STRUCT = 'imagePolicyWebhookConfig';

/** The plugin's configuration (the admission configuration's embedded object or its file's content). */
export function parseImagePolicyConfig(raw: unknown): ImagePolicyConfig {
  if (raw === undefined || raw === null) throw new ImagePolicyConfigError('no config specified');
  if (!isObject(raw)) throw new ImagePolicyConfigError(`json: cannot unmarshal ${goJsonKind(raw)} into Go value of type imagepolicy.AdmissionConfig`);
  const section = field(raw, 'imagePolicy');
  if (section !== undefined && section !== null && !isObject(section)) {
    throw new ImagePolicyConfigError(`json: cannot unmarshal ${goJsonKind(section)} into Go struct field AdmissionConfig.imagePolicy of type imagepolicy.${STRUCT}`);
  }
  const c = isObject(section) ? section : {};
  const unmarshal = (key: string, v: unknown, type: string) =>
    new ImagePolicyConfigError(`json: cannot unmarshal ${goJsonKind(v) === 'number' ? `number ${String(v)}` : goJsonKind(v)} into Go struct field ${STRUCT}.imagePolicy.${key} of type ${type}`);

  const file = field(c, 'kubeConfigFile');
  if (file !== undefined && file !== null && typeof file !== 'string') throw unmarshal('kubeConfigFile', file, 'string');
  const allow = field(c, 'defaultAllow');
  if (allow !== undefined && allow !== null && typeof allow !== 'boolean') throw unmarshal('defaultAllow', allow, 'bool');
  // Decoding comes first (the whole object), then kube's normalizeWebhookConfig in its order.
  const raws = FIELDS.map((f) => {
    const v = field(c, f.key);
    if (v === undefined || v === null) return 0n;
    if (typeof v !== 'number' || !Number.isInteger(v) || Math.abs(v) > 2 ** 63) throw unmarshal(f.key, v, 'time.Duration');
    return BigInt(v);
  });
  const ns = FIELDS.map((f, i) => normalize(f, raws[i]!));
  if (typeof file !== 'string' || file === '') {
    throw new ImagePolicyConfigError('imagePolicy.kubeConfigFile: Required value: the connection-credentials file naming the image policy backend');
  }
  const [retry, allowTtl, denyTtl] = ns.map((d) => Number(d) / 1e6) as [number, number, number];
  return { kubeConfigFile: file, allowTtlMs: allowTtl, denyTtlMs: denyTtl, retryBackoffMs: retry, defaultAllow: allow === true };
}

/** kube's normalizeConfigDuration, in nanoseconds: -1 off, 0 the default, else scaled (int64, as Go multiplies) and bounded. */
function normalize(f: DurationField, value: bigint): bigint {
  if (value === -1n) return 0n;
  if (value === 0n) return f.default;
  const scaled = BigInt.asIntN(64, value * f.scale);
  if (scaled < f.min || scaled > f.max) {
    throw new ImagePolicyConfigError(`imagePolicy.${f.key}: valid value is between ${formatGoNanos(f.min)} and ${formatGoNanos(f.max)}, got ${formatGoNanos(scaled)}`);
  }
  return scaled;
}

/** A field as Go's encoding/json finds it: the exact key, else one equal ignoring case. */
function field(o: Record<string, unknown>, key: string): unknown {
  if (key in o) return o[key];
  const lower = key.toLowerCase();
  const k = Object.keys(o).find((x) => x.toLowerCase() === lower);
  return k === undefined ? undefined : o[k];
}
