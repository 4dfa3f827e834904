// PodTolerationRestriction (mutating and validating, off by default): a new
// pod gets its namespace's default tolerations (annotation
// scheduler.alpha.kubernetes.io/defaultTolerations, else the configuration's
// `default`) merged in, and any pod not BestEffort a memory-pressure NoSchedule
// toleration; on create and update the pod's tolerations must all be covered
// by the namespace's whitelist (annotation …/tolerationsWhitelist, else the
// configuration's `whitelist`). Its refusals are plain errors (500), as kube's.
import { parse as parseYaml } from 'yaml';
import { isStatusError, newInternalError } from '../../api/meta/index.js';
import { validateTolerations } from '../../api/core/v1/validation.js';
import { fieldPath, errorBody } from '../../api/meta/field.js';
import type { AdmissionAttributes } from '../../registry/admission.js';
import type { ApiObject } from '../../registry/object.js';
import { isObject } from '../../registry/object.js';
import { podQOSClass } from '../../registry/strategies/podqos.js';
import type { Getter, Json, MutatingAndValidatingPlugin } from './common.js';
import { isCoreWrite, listOf, plainError, specOf } from './common.js';
import { mergeTolerations, verifyAgainstWhitelist } from './tolerations.js';
import { aggregateErrors } from '../../api/meta/index.js';

export const DEFAULT_TOLERATIONS_ANNOTATION = 'scheduler.alpha.kubernetes.io/defaultTolerations';
export const TOLERATIONS_WHITELIST_ANNOTATION = 'scheduler.alpha.kubernetes.io/tolerationsWhitelist';
export const TAINT_NODE_MEMORY_PRESSURE = 'node.svc.io/memory-pressure';

export interface PodTolerationRestrictionConfig {
  readonly default?: Json[];
  readonly whitelist?: Json[];
}

const CONFIG_GROUPS = ['podtolerationrestriction.admission.k8s.io', 'podtolerationrestriction.admission.svc.io'];

/**
 * The configuration file: kind Configuration of
 * podtolerationrestriction.admission.k8s.io (or svc.io) v1alpha1 or v1, with
 * `default` and `whitelist` toleration lists. No file: an empty configuration.
 * Throws (start-up fails) on a file of another kind or with invalid tolerations.
 */
export function parsePodTolerationRestrictionConfig(text: string | undefined): PodTolerationRestrictionConfig {
  if (text === undefined) return {};
  const doc: unknown = parseYaml(text);
  if (!isObject(doc)) throw new Error("Object 'Kind' is missing in configuration");
  const [group, version] = typeof doc.apiVersion === 'string' ? doc.apiVersion.split('/') : [];
  if (!CONFIG_GROUPS.includes(group ?? '') || !['v1alpha1', 'v1'].includes(version ?? '') || doc.kind !== 'Configuration') {
    throw new Error(`no kind "${String(doc.kind ?? '')}" is registered for version "${String(doc.apiVersion ?? '')}"`);
  }
  const lists = { default: doc.default, whitelist: doc.whitelist };
  const problems: string[] = [];
  for (const [key, v] of Object.entries(lists)) {
    if (v !== undefined && v !== null && !Array.isArray(v)) throw new Error(`${key}: must be a list of tolerations`);
    for (const fe of validateTolerations(Array.isArray(v) ? v : [], fieldPath(key))) problems.push(`${fe.field}: ${errorBody(fe)}`);
  }
  if (problems.length > 0) throw new Error(aggregateErrors(problems));
  return { default: Array.isArray(lists.default) ? lists.default.filter(isObject) : undefined, whitelist: Array.isArray(lists.whitelist) ? lists.whitelist.filter(isObject) : undefined };
}

/** A namespace annotation's tolerations: undefined when absent, [] when empty. */
function annotationTolerations(ns: ApiObject, key: string): Json[] | undefined {
  const text = ns.metadata.annotations?.[key];
  if (text === undefined) return undefined;
  if (text === '') return [];
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw plainError((err as Error).message);
  }
  if (v === null) return [];
  if (!Array.isArray(v) || !v.every(isObject)) throw plainError('json: cannot unmarshal into Go value of type []v1.Toleration');
  return v;
}

/** The node.kubernetes.io and node.svc.io taint keys are one: a whitelist entry for one covers both. */
function withBothSpellings(whitelist: Json[]): Json[] {
  const out = [...whitelist];
  for (const w of whitelist) {
    const key = typeof w.key === 'string' ? w.key : '';
    if (key.startsWith('node.kubernetes.io/')) out.push({ ...w, key: `node.svc.io/${key.slice('node.kubernetes.io/'.length)}` });
    else if (key.startsWith('node.svc.io/')) out.push({ ...w, key: `node.kubernetes.io/${key.slice('node.svc.io/'.length)}` });
  }
  return out;
}

export function podTolerationRestriction(namespaces: Getter, config: PodTolerationRestrictionConfig = {}): MutatingAndValidatingPlugin {
  async function namespace(name: string): Promise<ApiObject> {
    try {
      return await namespaces().get('', name);
    } catch (err) {
      if (isStatusError(err) && err.status.code === 404) throw err;
      throw newInternalError(err instanceof Error ? err : new Error(String(err)));
    }
  }

  async function validate(a: AdmissionAttributes): Promise<void> {
    if (!isCoreWrite(a, 'pods')) return;
    const tolerations = listOf(specOf(a.object), 'tolerations');
    if (tolerations.length === 0) return;
    let whitelist = annotationTolerations(await namespace(a.namespace), TOLERATIONS_WHITELIST_ANNOTATION);
    let scope = 'namespace';
    if (whitelist === undefined) {
      whitelist = config.whitelist ?? [];
      scope = 'cluster';
    }
    if (whitelist.length > 0 && !verifyAgainstWhitelist(tolerations, withBothSpellings(whitelist))) {
      throw plainError(`pod tolerations (possibly merged with namespace default tolerations) conflict with its ${scope} whitelist`);
    }
  }

  return {
    name: 'PodTolerationRestriction',
    phase: 'mutating',
    async admit(a) {
      if (!isCoreWrite(a, 'pods')) return;
      const extra: Json[] = [];
      if (a.operation === 'CREATE') {
        const ns = await namespace(a.namespace);
        extra.push(...(annotationTolerations(ns, DEFAULT_TOLERATIONS_ANNOTATION) ?? config.default ?? []));
      }
      if (podQOSClass(a.object!) !== 'BestEffort') extra.push({ key: TAINT_NODE_MEMORY_PRESSURE, operator: 'Exists', effect: 'NoSchedule' });
      if (extra.length > 0) {
        const spec = specOf(a.object);
        if (spec) spec.tolerations = mergeTolerations(listOf(spec, 'tolerations'), extra);
      }
      await validate(a);
    },
    validate,
  };
}
