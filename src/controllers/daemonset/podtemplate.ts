// What a DaemonSet's pods look like (kube's daemon/util): the template with
// the daemon tolerations, the labels `controller-revision-hash` (the current
// ControllerRevision's hash) and `pod-template-generation` (the deprecated
// template generation, still written), and a required node affinity naming
// the target node (`matchFields metadata.name In [node]`, replacing any
// required terms the template had), so the default scheduler binds the pod
// there. A pod's target node is its nodeName once bound, else the one that
// affinity names.
import { isObject, type ApiObject } from '../../registry/object.js';
import { parseTemplateGeneration, TEMPLATE_GENERATION } from '../../api/apps/v1/templategeneration.js';
import { addDaemonPodTolerations } from './tolerations.js';

/** apps.DefaultDaemonSetUniqueLabelKey (= ControllerRevisionHashLabelKey). */
export const REVISION_HASH_LABEL = 'controller-revision-hash';
/** extensions.DaemonSetTemplateGenerationKey. */
export const TEMPLATE_GENERATION_LABEL = 'pod-template-generation';

type Obj = Record<string, unknown>;

/** The template generation of the DaemonSet's annotation; undefined when absent or malformed (kube's GetTemplateGeneration, errors treated as nil). */
export function templateGenerationOf(ds: ApiObject): bigint | undefined {
  const v = ds.metadata.annotations?.[TEMPLATE_GENERATION];
  if (v === undefined) return undefined;
  const parsed = parseTemplateGeneration(String(v));
  return typeof parsed === 'bigint' ? parsed : undefined;
}

/** kube's CreatePodTemplate: a copy of the template with the daemon tolerations and the generation and hash labels. */
export function createPodTemplate(template: unknown, generation: bigint | undefined, hash: string): Obj {
  const t = structuredClone(isObject(template) ? template : {}) as Obj;
  const spec = (isObject(t.spec) ? t.spec : (t.spec = {})) as Obj;
  addDaemonPodTolerations(spec);
  const meta = (isObject(t.metadata) ? t.metadata : (t.metadata = {})) as Obj;
  const labels = { ...(isObject(meta.labels) ? meta.labels : {}) } as Record<string, string>;
  if (generation !== undefined) labels[TEMPLATE_GENERATION_LABEL] = generation.toString();
  if (hash) labels[REVISION_HASH_LABEL] = hash;
  meta.labels = labels;
  return t;
}

/** kube's ReplaceDaemonSetPodNodeNameNodeAffinity: the affinity (a new object) whose required node terms are exactly `metadata.name In [node]`. */
export function replaceNodeNameAffinity(affinity: unknown, nodeName: string): Obj {
  const term = { matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] };
  const a = structuredClone(isObject(affinity) ? affinity : {}) as Obj;
  const na = (isObject(a.nodeAffinity) ? a.nodeAffinity : (a.nodeAffinity = {})) as Obj;
  const required = isObject(na.requiredDuringSchedulingIgnoredDuringExecution) ? na.requiredDuringSchedulingIgnoredDuringExecution : {};
  na.requiredDuringSchedulingIgnoredDuringExecution = { ...required, nodeSelectorTerms: [term] };
  return a;
}

/** kube's GetTargetNodeName: spec.nodeName, else the single `metadata.name In` value of the required affinity; undefined when neither. */
export function targetNodeName(pod: ApiObject): string | undefined {
  const spec = (isObject(pod.spec) ? pod.spec : {}) as Obj;
  if (typeof spec.nodeName === 'string' && spec.nodeName !== '') return spec.nodeName;
  const affinity = isObject(spec.affinity) ? spec.affinity : {};
  const na = isObject(affinity.nodeAffinity) ? affinity.nodeAffinity : {};
  const required = isObject(na.requiredDuringSchedulingIgnoredDuringExecution) ? na.requiredDuringSchedulingIgnoredDuringExecution : undefined;
  const terms = required && Array.isArray(required.nodeSelectorTerms) ? required.nodeSelectorTerms : [];
  for (const term of terms) {
    const fields = isObject(term) && Array.isArray(term.matchFields) ? term.matchFields : [];
    for (const f of fields) {
      if (!isObject(f) || f.key !== 'metadata.name' || f.operator !== 'In') continue;
      const values = Array.isArray(f.values) ? f.values : [];
      return values.length === 1 ? String(values[0]) : undefined;
    }
  }
  return undefined;
}

/** kube's IsPodUpdated: the pod carries the current hash, or the current template generation. */
export function isPodUpdated(pod: ApiObject, hash: string, generation: bigint | undefined): boolean {
  const labels = pod.metadata.labels ?? {};
  const templateMatches = generation !== undefined && labels[TEMPLATE_GENERATION_LABEL] === generation.toString();
  const hashMatches = hash !== '' && labels[REVISION_HASH_LABEL] === hash;
  return hashMatches || templateMatches;
}
