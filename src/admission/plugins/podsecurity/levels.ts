// Pod Security levels, policy versions and how a namespace's labels resolve
// to the policy to evaluate (pod-security-admission api/helpers.go, v1.27).
//
// Labels: `pod-security.kubernetes.io/<mode>[-version]` and the svc.io
// spelling `pod-security.svc.io/<mode>[-version]`. Each key is read from the
// svc.io spelling when present, else from the kubernetes.io one: our own
// spelling wins, stock tools that only write kubernetes.io still work. An
// invalid value is reported against the label that was actually read.
import { fieldPath, invalid, type FieldError } from '../../../api/meta/index.js';

export type Level = 'privileged' | 'baseline' | 'restricted';
export const LEVELS: readonly Level[] = ['privileged', 'baseline', 'restricted'];

/** A policy version: 'latest' or v1.<minor>. */
export type Version = { readonly latest: true } | { readonly latest: false; readonly minor: number };
export const LATEST: Version = { latest: true };
export const v1 = (minor: number): Version => ({ latest: false, minor });

/** The newest policy version this server knows (kube-apiserver v1.27): later versions evaluate as it. */
export const MAX_MINOR = 27;

export interface LevelVersion {
  readonly level: Level;
  readonly version: Version;
}
export interface Policy {
  readonly enforce: LevelVersion;
  readonly audit: LevelVersion;
  readonly warn: LevelVersion;
}
export type Mode = keyof Policy;
export const MODES: readonly Mode[] = ['enforce', 'audit', 'warn'];

export const versionString = (v: Version): string => (v.latest ? 'latest' : `v1.${v.minor}`);
export const lvString = (lv: LevelVersion): string => `${lv.level}:${versionString(lv.version)}`;
export const sameLV = (a: LevelVersion, b: LevelVersion): boolean => lvString(a) === lvString(b);

/** The minor version whose checks apply: latest and anything newer than we know is MAX_MINOR. */
export const effectiveMinor = (v: Version): number => (v.latest ? MAX_MINOR : Math.min(v.minor, MAX_MINOR));

export const LEVEL_ERROR = `must be one of ${LEVELS.join(', ')}`;
export const VERSION_ERROR = 'must be "latest" or "v1.x"';

export function parseLevel(s: string): Level | undefined {
  return (LEVELS as readonly string[]).includes(s) ? (s as Level) : undefined;
}

export function parseVersion(s: string): Version | undefined {
  if (s === 'latest') return LATEST;
  const m = /^v1\.(0|[1-9][0-9]*)$/.exec(s);
  if (!m) return undefined;
  const minor = Number(m[1]);
  return Number.isSafeInteger(minor) ? v1(minor) : undefined;
}

/** -1, 0 or 1 as a is less strict than, as strict as, or stricter than b. */
export function compareLevels(a: Level, b: Level): number {
  return Math.sign(LEVELS.indexOf(a) - LEVELS.indexOf(b));
}

export const PRIVILEGED_POLICY: Policy = {
  enforce: { level: 'privileged', version: LATEST },
  audit: { level: 'privileged', version: LATEST },
  warn: { level: 'privileged', version: LATEST },
};

export const LABEL_PREFIXES = ['pod-security.svc.io/', 'pod-security.kubernetes.io/'] as const;

/** The label key that holds `name` (e.g. "enforce-version"), svc.io spelling first; undefined when neither is set. */
function labelKey(labels: Readonly<Record<string, string>>, name: string): string | undefined {
  for (const prefix of LABEL_PREFIXES) if (Object.prototype.hasOwnProperty.call(labels, prefix + name)) return prefix + name;
  return undefined;
}

/**
 * The policy a namespace's labels ask for, falling back to `defaults` per
 * label. Always returns a usable policy: an invalid enforce level is
 * restricted, an invalid audit or warn level privileged (fail open), an
 * invalid version latest; the errors name each bad label.
 */
export function policyFromLabels(labels: Readonly<Record<string, string>> | undefined, defaults: Policy): { policy: Policy; errors: FieldError[] } {
  const errors: FieldError[] = [];
  if (!labels || Object.keys(labels).length === 0) return { policy: defaults, errors };
  const path = fieldPath('metadata.labels');
  const resolve = (mode: Mode): LevelVersion => {
    let { level, version } = defaults[mode];
    const lk = labelKey(labels, mode);
    if (lk !== undefined) {
      const parsed = parseLevel(labels[lk]!);
      if (parsed) level = parsed;
      else {
        errors.push(invalid(path.key(lk), labels[lk], LEVEL_ERROR));
        level = mode === 'enforce' ? 'restricted' : 'privileged';
      }
    }
    const vk = labelKey(labels, `${mode}-version`);
    if (vk !== undefined) {
      const parsed = parseVersion(labels[vk]!);
      if (parsed) version = parsed;
      else {
        errors.push(invalid(path.key(vk), labels[vk], VERSION_ERROR));
        version = LATEST;
      }
    }
    return { level, version };
  };
  const enforce = resolve('enforce');
  const audit = resolve('audit');
  const warn = resolve('warn');
  return { policy: { enforce, audit, warn }, errors };
}
