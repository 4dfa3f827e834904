// PodSecurityConfiguration, the PodSecurity plugin's configuration (from the
// admission configuration file, a `path` or an embedded `configuration`):
// default levels and versions for namespaces without labels, and exemptions.
// Served as pod-security.admission.config.k8s.io/{v1,v1beta1,v1alpha1} and the
// svc.io spelling of the group. Validated as Kubernetes validates it.
import { parse as parseYaml } from 'yaml';
import { dns1123LabelErrors, dns1123SubdomainErrors, duplicate, errorBody, invalid, required, type FieldError } from '../../../api/meta/index.js';
import { LEVEL_ERROR, parseLevel, parseVersion, VERSION_ERROR, type Level, type Policy, type Version } from './levels.js';

export interface PodSecurityConfiguration {
  readonly defaults: Policy;
  readonly exemptions: {
    readonly usernames: readonly string[];
    readonly runtimeClasses: readonly string[];
    readonly namespaces: readonly string[];
  };
}

const GROUPS = ['pod-security.admission.config.k8s.io', 'pod-security.admission.config.svc.io'];
const VERSIONS = ['v1', 'v1beta1', 'v1alpha1'];
export const ACCEPTED_API_VERSIONS: readonly string[] = GROUPS.flatMap((g) => VERSIONS.map((v) => `${g}/${v}`));

/** privileged:latest for every mode, no exemptions: what the plugin does without a configuration. */
export const DEFAULT_CONFIGURATION: PodSecurityConfiguration = {
  defaults: {
    enforce: { level: 'privileged', version: { latest: true } },
    audit: { level: 'privileged', version: { latest: true } },
    warn: { level: 'privileged', version: { latest: true } },
  },
  exemptions: { usernames: [], runtimeClasses: [], namespaces: [] },
};

const DEFAULT_KEYS = ['enforce', 'enforce-version', 'audit', 'audit-version', 'warn', 'warn-version'];
const EXEMPTION_KEYS = ['usernames', 'runtimeClasses', 'namespaces'];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function unknownFields(obj: Record<string, unknown>, known: readonly string[], prefix: string): string[] {
  return Object.keys(obj)
    .filter((k) => !known.includes(k))
    .map((k) => `unknown field "${prefix}${k}"`);
}

function stringList(v: unknown, path: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new Error(`PodSecurityConfiguration: ${path} must be a list of strings`);
  return v as string[];
}

/**
 * Reads a PodSecurityConfiguration from YAML/JSON text or an already-parsed
 * object (an embedded `configuration`); `undefined` or empty text gives the
 * default. Throws an Error naming the field for anything Kubernetes refuses.
 */
export function parsePodSecurityConfiguration(input: unknown): PodSecurityConfiguration {
  let doc = input;
  if (typeof input === 'string') {
    if (input.trim() === '') return DEFAULT_CONFIGURATION;
    try {
      doc = parseYaml(input);
    } catch (err) {
      throw new Error(`PodSecurityConfiguration: ${(err as Error).message}`);
    }
  }
  if (doc === undefined || doc === null) return DEFAULT_CONFIGURATION;
  if (!isRecord(doc)) throw new Error('PodSecurityConfiguration: expected an object');
  const apiVersion = doc.apiVersion;
  if (typeof apiVersion !== 'string' || apiVersion === '') throw new Error(`PodSecurityConfiguration: apiVersion is required (one of ${ACCEPTED_API_VERSIONS.join(', ')})`);
  if (!ACCEPTED_API_VERSIONS.includes(apiVersion)) throw new Error(`PodSecurityConfiguration: no kind "${String(doc.kind)}" is registered for version "${apiVersion}"`);
  if (doc.kind !== 'PodSecurityConfiguration') throw new Error(`PodSecurityConfiguration: no kind "${String(doc.kind)}" is registered for version "${apiVersion}"`);

  const defaults = doc.defaults ?? {};
  const exemptions = doc.exemptions ?? {};
  if (!isRecord(defaults)) throw new Error('PodSecurityConfiguration: defaults must be an object');
  if (!isRecord(exemptions)) throw new Error('PodSecurityConfiguration: exemptions must be an object');
  const strict = [...unknownFields(doc, ['apiVersion', 'kind', 'defaults', 'exemptions'], ''), ...unknownFields(defaults, DEFAULT_KEYS, 'defaults.'), ...unknownFields(exemptions, EXEMPTION_KEYS, 'exemptions.')];
  if (strict.length) throw new Error(`PodSecurityConfiguration: strict decoding error: ${strict.join(', ')}`);

  const errors: FieldError[] = [];
  const level = (key: string): Level => {
    const raw = defaults[key] ?? 'privileged';
    const l = typeof raw === 'string' ? parseLevel(raw) : undefined;
    if (!l) errors.push(invalid(`defaults.${key}`, raw, LEVEL_ERROR));
    return l ?? 'restricted';
  };
  const version = (key: string): Version => {
    const raw = defaults[key] ?? 'latest';
    const v = typeof raw === 'string' ? parseVersion(raw) : undefined;
    if (!v) errors.push(invalid(`defaults.${key}`, raw, VERSION_ERROR));
    return v ?? { latest: true };
  };
  // Kubernetes validates enforce, warn, then audit.
  const enforce = { level: level('enforce'), version: version('enforce-version') };
  const warn = { level: level('warn'), version: version('warn-version') };
  const audit = { level: level('audit'), version: version('audit-version') };

  const unique = (key: string, check: (s: string, path: string) => FieldError | undefined): string[] => {
    const list = stringList(exemptions[key], `exemptions.${key}`);
    const seen = new Set<string>();
    list.forEach((s, i) => {
      const path = `exemptions.${key}[${i}]`;
      const bad = check(s, path) ?? (seen.has(s) ? duplicate(path, s) : undefined);
      if (bad) errors.push(bad);
      else seen.add(s);
    });
    return list;
  };
  const namespaces = unique('namespaces', (s, path) => {
    const e = dns1123LabelErrors(s);
    return e.length ? invalid(path, s, e.join(', ')) : undefined;
  });
  const runtimeClasses = unique('runtimeClasses', (s, path) => {
    const e = dns1123SubdomainErrors(s);
    return e.length ? invalid(path, s, e.join(', ')) : undefined;
  });
  const usernames = unique('usernames', (s, path) => (s === '' ? required(path) : undefined));

  if (errors.length) {
    const list = errors.map((e) => `${e.field}: ${errorBody(e)}`);
    throw new Error(`PodSecurity invalid: ${list.length === 1 ? list[0] : `[${list.join(', ')}]`}`);
  }
  return { defaults: { enforce, audit, warn }, exemptions: { usernames, runtimeClasses, namespaces } };
}
