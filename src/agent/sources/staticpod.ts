// Static pods as the kubelet reads them (pkg/kubelet/config common.go): a
// manifest (YAML or JSON) decoded as a v1 Pod with the API's defaults, then
//   uid         md5 hex of "host:<node>file:<path>" (or "url:<url>") and the
//               pod, unless the manifest gives one
//   name        <name>-<node name, lowercased>
//   namespace   default when none
//   spec        nodeName = the node; files also tolerate every NoExecute taint
//   annotations config.hash = the uid; config.source (file, http) and
//               config.seen (first seen) as the kubelet's pod config adds them
// and validated as a pod. The annotations are written in kube's spelling
// (kubernetes.io/config.*) and this project's (svc.io/config.*).
import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { aggregateErrors } from '../../api/meta/aggregate.js';
import { errorBody } from '../../api/meta/field.js';
import { defaultPod } from '../../api/core/v1/defaults-pod.js';
import { validatePod } from '../../api/core/v1/validation.js';
import type { ApiObject } from '../../registry/object.js';
import { isObject } from '../../registry/object.js';

export type PodSource = 'file' | 'http';

const both = (key: string): [string, string] => [`kubernetes.io/${key}`, `svc.io/${key}`];
export const CONFIG_HASH = both('config.hash');
export const CONFIG_SOURCE = both('config.source');
export const CONFIG_SEEN = both('config.seen');
export const CONFIG_MIRROR = both('config.mirror');

export class ManifestError extends Error {
  override readonly name = 'ManifestError';
}

/** Go's json.Marshal of a value: object keys sorted (so a hash does not depend on the manifest's key order). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** The annotation value in either spelling. */
export function annotation(pod: ApiObject, keys: readonly [string, string]): string | undefined {
  const a = pod.metadata.annotations ?? {};
  return a[keys[0]] ?? a[keys[1]];
}

/** The static pod's hash (its config.hash annotation): what its mirror pod's config.mirror must say. */
export const podHash = (pod: ApiObject): string | undefined => annotation(pod, CONFIG_HASH);

/** Whether the pod is a mirror pod. */
export const isMirrorPod = (pod: ApiObject): boolean => annotation(pod, CONFIG_MIRROR) !== undefined;

/** kube's generatePodName. */
export const staticPodName = (name: string, nodeName: string): string => `${name}-${nodeName.toLowerCase()}`;

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

/** Stamps the pod config's annotations: source, and when first seen (RFC 3339 with nanoseconds, kept from `seen` when known). */
export function stampSeen(pod: ApiObject, source: PodSource, seen: string): ApiObject {
  const annotations = { ...(pod.metadata.annotations ?? {}) };
  for (const k of CONFIG_SOURCE) annotations[k] = source;
  for (const k of CONFIG_SEEN) annotations[k] = seen;
  return { ...pod, metadata: { ...pod.metadata, annotations } };
}

/** Go's time.RFC3339Nano of a millisecond time. */
export const rfc3339Nano = (ms: number): string => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, (_, f: string) => `.${f}000000Z`).replace(/\.?0+Z$/, 'Z');
