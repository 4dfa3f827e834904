// Static pods as the kubelet reads them (pkg/kubelet/config common.go): a
// manifest (YAML or JSON) decoded as a v1 Pod with the API's defaults, then
//   uid         md5 hex of "host:<node>file:<path>" (or "url:<url>") and the
//               pod, unless the manifest gives one
//   name        <name>-<node name, lowercased>
//   namespace   default when none
//   spec        nodeName = the node; files also tolerate every NoExecute taint
//   annotations config.hash = the uid (staticpod.ts)
// and validated as a pod.
import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { aggregateErrors } from '../../api/meta/aggregate.js';
import { errorBody } from '../../api/meta/field.js';
import { defaultPod } from '../../api/core/v1/defaults-pod.js';
import { validatePod } from '../../api/core/v1/validation.js';
import type { ApiObject } from '../../registry/object.js';
import { isObject } from '../../registry/object.js';
import { CONFIG_HASH, ManifestError, staticPodName, type PodSource } from './staticpod.js';

/** Go's json.Marshal of a value: object keys sorted (so a hash does not depend on the manifest's key order). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** The text as a JSON value (YAML is a superset of JSON); a ManifestError when it is neither. */
export function parseManifest(text: string): unknown {
  try {
    return parseYaml(text);
  } catch (err) {
    throw new ManifestError(`error converting YAML to JSON: ${(err as Error).message.split('\n')[0]}`);
  }
}

function asPod(doc: unknown): ApiObject {
  if (!isObject(doc)) throw new ManifestError("Object 'Kind' is missing in manifest");
  if (typeof doc.kind !== 'string' || doc.kind === '') throw new ManifestError(`Object 'Kind' is missing in '${JSON.stringify(doc)}'`);
  if (doc.kind !== 'Pod' || doc.apiVersion !== 'v1') throw new ManifestError(`invalid pod: kind ${JSON.stringify(doc.kind)} of apiVersion ${JSON.stringify(doc.apiVersion)} is not a v1 Pod`);
  return doc as unknown as ApiObject;
}

export interface DefaultingOptions {
  readonly nodeName: string;
  readonly source: PodSource;
  /** The file's path or the URL. */
  readonly origin: string;
}

/** A decoded manifest made into the static pod the agent runs (kube's applyDefaults, then validation). */
export function staticPod(doc: unknown, o: DefaultingOptions): ApiObject {
  const pod = structuredClone(asPod(doc));
  pod.metadata ??= {};
  defaultPod(pod as unknown as Record<string, unknown>);
  const spec = (isObject(pod.spec) ? pod.spec : (pod.spec = {})) as Record<string, unknown>;
  if (!pod.metadata.uid) {
    const h = createHash('md5');
    h.update(o.source === 'file' ? `host:${o.nodeName}file:${o.origin}` : `url:${o.origin}`);
    h.update(canonical(pod));
    pod.metadata.uid = h.digest('hex');
  }
  pod.metadata.name = staticPodName(pod.metadata.name ?? '', o.nodeName);
  if (!pod.metadata.namespace) pod.metadata.namespace = 'default';
  spec.nodeName = o.nodeName;
  const annotations: Record<string, string> = { ...(pod.metadata.annotations ?? {}) };
  for (const k of CONFIG_HASH) annotations[k] = pod.metadata.uid;
  pod.metadata.annotations = annotations;
  if (o.source === 'file') {
    const tolerations = Array.isArray(spec.tolerations) ? spec.tolerations.filter(isObject) : [];
    const everyNoExecute = { operator: 'Exists', effect: 'NoExecute' };
    const i = tolerations.findIndex((t) => (t.key ?? '') === '' && t.operator === 'Exists' && t.effect === 'NoExecute');
    if (i < 0) tolerations.push(everyNoExecute);
    else tolerations[i] = everyNoExecute;
    spec.tolerations = tolerations;
  }
  pod.status = { phase: 'Pending' };
  const errs = validatePod(pod as unknown as Record<string, unknown>);
  if (!pod.metadata.name || pod.metadata.name === staticPodName('', o.nodeName)) errs.unshift({ type: 'Required', field: 'metadata.name', detail: 'name or generateName is required' });
  if (errs.length > 0) throw new ManifestError(`invalid pod: ${aggregateErrors(errs.map((e) => `${e.field}: ${errorBody(e)}`))}`);
  return pod;
}

/** A file's or URL's pods: one Pod, or (from a URL) a PodList. */
export function decodePods(text: string, o: DefaultingOptions): ApiObject[] {
  const doc = parseManifest(text);
  if (o.source === 'http' && isObject(doc) && doc.kind === 'PodList') {
    const items = Array.isArray(doc.items) ? doc.items : [];
    return items.map((item) => staticPod({ apiVersion: 'v1', kind: 'Pod', ...(isObject(item) ? item : {}) }, o));
  }
  return [staticPod(doc, o)];
}

