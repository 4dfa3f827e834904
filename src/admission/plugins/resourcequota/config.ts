// The ResourceQuota plugin's configuration (kube's apis/resourcequota):
// `limitedResources`, resources whose consumption needs a covering quota.
// Accepted spellings: kind ResourceQuotaConfiguration of
// apiserver.config.k8s.io/v1 (and v1beta1), kind Configuration of
// resourcequota.admission.k8s.io/v1, v1beta1 or v1alpha1 — each also with
// svc.io for k8s.io. No configuration: no limited resources.
import { parse as parseYaml } from 'yaml';
import { isObject } from '../../../registry/object.js';
import { canonicalGroup } from '../../../endpoints/requestinfo.js';
import type { ScopedResourceSelectorRequirement } from '../../../quota/evaluator.js';

export interface LimitedResource {
  /** The group as written ('' core); compared in either spelling. */
  readonly apiGroup: string;
  readonly resource: string;
  /** A consumed resource name containing any of these needs a covering quota. */
  readonly matchContains: readonly string[];
  /** An object matching any of these scopes needs a quota covering the scope. */
  readonly matchScopes: readonly ScopedResourceSelectorRequirement[];
}

export interface ResourceQuotaConfiguration {
  readonly limitedResources: readonly LimitedResource[];
}

const KINDS: Record<string, string> = {};
for (const domain of ['k8s.io', 'svc.io']) {
  for (const v of ['v1', 'v1beta1']) KINDS[`apiserver.config.${domain}/${v}`] = 'ResourceQuotaConfiguration';
  for (const v of ['v1', 'v1beta1', 'v1alpha1']) KINDS[`resourcequota.admission.${domain}/${v}`] = 'Configuration';
}

const OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

/** Go's %T-free errors the way kube's strict decoder and ValidateConfiguration word them. */
class ConfigError extends Error {}

function stringsAt(v: unknown, path: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw new ConfigError(`${path}: must be a list of strings`);
  return v;
}

function scopesAt(v: unknown, path: string): ScopedResourceSelectorRequirement[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new ConfigError(`${path}: must be a list of scoped resource selector requirements`);
  return v.map((s, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(s)) throw new ConfigError(`${at}: must be an object`);
    if (typeof s.scopeName !== 'string') throw new ConfigError(`${at}.scopeName: must be a string`);
    if (typeof s.operator !== 'string' || !OPERATORS.includes(s.operator)) {
      throw new ConfigError(`${at}.operator: Unsupported value: ${JSON.stringify(s.operator ?? '')}: supported values: "${OPERATORS.join('", "')}"`);
    }
    const values = stringsAt(s.values, `${at}.values`);
    return { scopeName: s.scopeName, operator: s.operator as ScopedResourceSelectorRequirement['operator'], ...(values.length ? { values } : {}) };
  });
}

/**
 * The configuration from the admission configuration file (an embedded
 * object, or the text of the file its `path` names); undefined: the default
 * (nothing limited). Throws (start-up fails) with a message naming the field.
 */
export function parseResourceQuotaConfiguration(config: unknown): ResourceQuotaConfiguration {
  if (config === undefined || config === null) return { limitedResources: [] };
  const doc: unknown = typeof config === 'string' ? parseYaml(config) : config;
  if (!isObject(doc)) throw new Error("Object 'Kind' is missing in configuration");
  const apiVersion = typeof doc.apiVersion === 'string' ? doc.apiVersion : '';
  const kind = typeof doc.kind === 'string' ? doc.kind : '';
  if (!kind) throw new Error(`Object 'Kind' is missing in ${JSON.stringify(doc)}`);
  if (KINDS[apiVersion] !== kind) throw new Error(`no kind "${kind}" is registered for version "${apiVersion}"`);
  const raw = doc.limitedResources;
  if (raw !== undefined && raw !== null && !Array.isArray(raw)) throw new Error('limitedResources: must be a list');
  const problems: string[] = [];
  const limitedResources: LimitedResource[] = [];
  (Array.isArray(raw) ? raw : []).forEach((r, i) => {
    const at = `limitedResources[${i}]`;
    try {
      if (!isObject(r)) throw new ConfigError(`${at}: must be an object`);
      for (const f of ['apiGroup', 'resource'] as const) {
        if (r[f] !== undefined && typeof r[f] !== 'string') throw new ConfigError(`${at}.${f}: must be a string`);
      }
      const resource = (r.resource as string | undefined) ?? '';
      if (resource === '') problems.push(`${at}.resource: Required value`);
      limitedResources.push({
        apiGroup: (r.apiGroup as string | undefined) ?? '', resource,
        matchContains: stringsAt(r.matchContains, `${at}.matchContains`),
        matchScopes: scopesAt(r.matchScopes, `${at}.matchScopes`),
      });
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(err.message);
    }
  });
  if (problems.length === 1) throw new Error(problems[0]);
  if (problems.length > 1) throw new Error(`[${problems.join(', ')}]`);
  return { limitedResources };
}

/** Both spellings of a group name: `x.k8s.io` ≡ `x.svc.io`. */
export const sameGroup = (a: string, b: string): boolean => canonicalGroup(a) === canonicalGroup(b);
