// The --audit-policy-file: an audit.svc.io/v1 (or audit.k8s.io/v1) Policy in
// YAML or JSON, decoded and validated as kube's policy reader does
// (pkg/audit/policy/reader.go, pkg/apis/audit/validation): unknown fields are
// ignored with a warning (kube's strict decoding falling back to lenient), a
// wrong type fails decoding, the rules are checked with kube's
// field-error texts, and a policy without rules is refused. Errors carry the
// file name, as kube's "…: from file <path>".
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { aggregateErrors } from '../api/meta/aggregate.js';
import { errorBody, invalid, notSupported, required, type FieldError } from '../api/meta/field.js';
import { dns1123SubdomainErrors } from '../api/meta/validation.js';
import { LEVELS, STAGES, type GroupResources, type Level, type Policy, type PolicyRule, type Stage } from './types.js';

export const POLICY_VERSIONS = ['audit.svc.io/v1', 'audit.k8s.io/v1'] as const;

export class AuditPolicyError extends Error {
  override readonly name = 'AuditPolicyError';
}

export function loadPolicyFile(path: string): Policy {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    // Go's *PathError text for the common cases
    const why = e.code === 'ENOENT' ? `open ${path}: no such file or directory` : e.code === 'EACCES' ? `open ${path}: permission denied` : e.message;
    throw new AuditPolicyError(`failed to read file path ${JSON.stringify(path)}: ${why}`);
  }
  try {
    return parsePolicy(text);
  } catch (err) {
    if (err instanceof AuditPolicyError) throw new AuditPolicyError(`${err.message}: from file ${path}`);
    throw err;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A decoding failure in the words of Go's JSON decoder (`json: cannot unmarshal …`). */
function decodeError(field: string, want: string, got: unknown): AuditPolicyError {
  const kind = Array.isArray(got) ? 'array' : got === null ? 'null' : typeof got === 'object' ? 'object' : typeof got;
  return new AuditPolicyError(`failed decoding: json: cannot unmarshal ${kind} into Go struct field ${field} of type ${want}`);
}

function strings(v: unknown, field: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) throw decodeError(field, '[]string', v);
  return v.map((s) => {
    if (typeof s !== 'string') throw decodeError(field, 'string', s);
    return s;
  });
}

function bool(v: unknown, field: string): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw decodeError(field, 'bool', v);
  return v;
}

function str(v: unknown, field: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw decodeError(field, 'string', v);
  return v;
}

function groupResources(v: unknown): GroupResources[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) throw decodeError('PolicyRule.resources', '[]v1.GroupResources', v);
  return v.map((g) => {
    if (!isRecord(g)) throw decodeError('PolicyRule.resources', 'v1.GroupResources', g);
    const resources = strings(g.resources, 'GroupResources.resources');
    const resourceNames = strings(g.resourceNames, 'GroupResources.resourceNames');
    return { group: str(g.group, 'GroupResources.group'), ...(resources ? { resources } : {}), ...(resourceNames ? { resourceNames } : {}) };
  });
}

const POLICY_FIELDS = new Set(['apiVersion', 'kind', 'metadata', 'rules', 'omitStages', 'omitManagedFields']);
const RULE_FIELDS = new Set(['level', 'users', 'userGroups', 'verbs', 'resources', 'namespaces', 'nonResourceURLs', 'omitStages', 'omitManagedFields']);
const GROUP_FIELDS = new Set(['group', 'resources', 'resourceNames']);

/** Fields strict decoding would refuse, with their paths. */
function unknownFields(doc: Record<string, unknown>): string[] {
  const out: string[] = [];
  const check = (o: Record<string, unknown>, known: Set<string>, at: string) => {
    for (const k of Object.keys(o)) if (!known.has(k)) out.push(`${at}${k}`);
  };
  check(doc, POLICY_FIELDS, '');
  if (Array.isArray(doc.rules)) {
    doc.rules.forEach((r, i) => {
      if (!isRecord(r)) return;
      check(r, RULE_FIELDS, `rules[${i}].`);
      if (Array.isArray(r.resources)) r.resources.forEach((g, j) => isRecord(g) && check(g, GROUP_FIELDS, `rules[${i}].resources[${j}].`));
    });
  }
  return out;
}

function rule(v: unknown): PolicyRule {
  if (!isRecord(v)) throw decodeError('Policy.rules', 'v1.PolicyRule', v);
  const out: Record<string, unknown> = { level: str(v.level, 'PolicyRule.level') };
  for (const k of ['users', 'userGroups', 'verbs', 'namespaces', 'nonResourceURLs', 'omitStages'] as const) {
    const s = strings(v[k], `PolicyRule.${k}`);
    if (s) out[k] = s;
  }
  const resources = groupResources(v.resources);
  if (resources) out.resources = resources;
  const omf = bool(v.omitManagedFields, 'PolicyRule.omitManagedFields');
  if (omf !== undefined) out.omitManagedFields = omf;
  return out as unknown as PolicyRule;
}

/** Decodes and validates a policy document (no file name in the errors); `warn` hears about unknown fields. */
export function parsePolicy(text: string, warn: (msg: string) => void = (m) => console.warn(`svc: ${m}`)): Policy {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new AuditPolicyError(`failed decoding: error converting YAML to JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  if (!isRecord(doc)) throw new AuditPolicyError(`failed decoding: couldn't get version/kind; json parse error: the policy must be an object`);
  const apiVersion = str(doc.apiVersion, 'TypeMeta.apiVersion');
  const kind = str(doc.kind, 'TypeMeta.kind');
  if (kind === '') throw new AuditPolicyError(`failed decoding: Object 'Kind' is missing in '${JSON.stringify(doc)}'`);
  if (apiVersion === '') throw new AuditPolicyError(`failed decoding: Object 'apiVersion' is missing in '${JSON.stringify(doc)}'`);
  if (!(POLICY_VERSIONS as readonly string[]).includes(apiVersion) || kind !== 'Policy') {
    throw new AuditPolicyError(`failed decoding: no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}`);
  }
  const unknown = unknownFields(doc);
  if (unknown.length > 0) warn(`Audit policy contains errors, falling back to lenient decoding: strict decoding error: ${unknown.map((f) => `unknown field ${JSON.stringify(f)}`).join(', ')}`);
  const rawRules = doc.rules ?? [];
  if (!Array.isArray(rawRules)) throw decodeError('Policy.rules', '[]v1.PolicyRule', rawRules);
  const omitStages = strings(doc.omitStages, 'Policy.omitStages');
  const omitManagedFields = bool(doc.omitManagedFields, 'Policy.omitManagedFields');
  const policy: Policy = {
    rules: rawRules.map(rule),
    ...(omitStages ? { omitStages: omitStages as Stage[] } : {}),
    ...(omitManagedFields !== undefined ? { omitManagedFields } : {}),
  };
  const errs = validatePolicy(policy);
  if (errs.length > 0) throw new AuditPolicyError(aggregateErrors(errs.map((e) => `${e.field}: ${errorBody(e)}`)));
  if (policy.rules.length === 0) throw new AuditPolicyError('loaded illegal policy with 0 rules');
  return policy;
}

/** kube's ValidatePolicy. */
export function validatePolicy(p: Policy): FieldError[] {
  const errs = validateOmitStages(p.omitStages, 'omitStages');
  p.rules.forEach((r, i) => errs.push(...validateRule(r, `rules[${i}]`)));
  return errs;
}

function validateRule(r: PolicyRule, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const level = r.level as string;
  if (level === '') errs.push(required(`${path}.level`));
  else if (!(LEVELS as readonly string[]).includes(level)) errs.push(notSupported(`${path}.level`, level, LEVELS));
  (r.nonResourceURLs ?? []).forEach((url, i) => {
    if (url === '*') return;
    if (!url.startsWith('/')) errs.push(invalid(`${path}.nonResourceURLs[${i}]`, url, "non-resource URL rules must begin with a '/' character"));
    if (url !== '' && url.slice(0, -1).includes('*')) errs.push(invalid(`${path}.nonResourceURLs[${i}]`, url, "non-resource URL wildcards '*' must be the final character of the rule"));
  });
  for (const g of r.resources ?? []) {
    if (g.group) {
      const msgs = dns1123SubdomainErrors(g.group);
      if (msgs.length > 0) errs.push(invalid(`${path}.resources.group`, g.group, msgs.join(',')));
    }
    if ((g.resourceNames?.length ?? 0) > 0 && (g.resources?.length ?? 0) === 0) {
      errs.push(invalid(`${path}.resources.resourceNames`, g.resourceNames, 'using resourceNames requires at least one resource'));
    }
  }
  errs.push(...validateOmitStages(r.omitStages, `${path}.omitStages`));
  if ((r.nonResourceURLs?.length ?? 0) > 0 && ((r.resources?.length ?? 0) > 0 || (r.namespaces?.length ?? 0) > 0)) {
    errs.push(invalid(`${path}.nonResourceURLs`, r.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
  }
  return errs;
}

function validateOmitStages(stages: readonly string[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (stages ?? []).forEach((s, i) => {
    if (!(STAGES as readonly string[]).includes(s)) errs.push(invalid(`${path}[${i}]`, s, `allowed stages are ${STAGES.join(',')}`));
  });
  return errs;
}

export type { Level };
