// Small helpers the built-in plugins share: which request a plugin looks at,
// kube's admission.NewForbidden (the resource and name of the request), the
// plain 500 Kubernetes answers for an error that is no API status, and a walk
// over a pod's containers (init, regular, ephemeral, as kube visits them).
import { StatusError, isStatusError, newForbidden } from '../../api/meta/index.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../registry/admission.js';
import type { ApiObject } from '../../registry/object.js';
import { isObject } from '../../registry/object.js';

/**
 * A plugin with both of kube's interfaces (MutationInterface and
 * ValidationInterface): `admit` is its mutating step, `validate` the check it
 * repeats in the validating phase on the final object (after webhooks).
 */
export interface MutatingAndValidatingPlugin extends AdmissionPlugin {
  readonly phase: 'mutating';
  validate(a: AdmissionAttributes): Promise<void> | void;
}

/** The subresource of the request, when the chain passes one ('' for the resource itself). */
export function subresourceOf(a: AdmissionAttributes): string {
  const s = (a as { subresource?: unknown }).subresource;
  return typeof s === 'string' ? s : '';
}

/** A write (create or update) of the core resource `resource` itself (not a subresource), with its object. */
export function isCoreWrite(a: AdmissionAttributes, resource: string, ops: readonly string[] = ['CREATE', 'UPDATE']): boolean {
  return a.resource.group === '' && a.resource.resource === resource && subresourceOf(a) === '' && a.object !== undefined && ops.includes(a.operation);
}

/** kube's admission.NewForbidden: 403 naming the request's resource and the object's name ("Unknown" when it has none yet). */
export function admissionForbidden(a: AdmissionAttributes, message: string): StatusError {
  let name = a.name;
  if (!name) name = a.object?.metadata.name || a.object?.metadata.generateName || 'Unknown';
  return newForbidden({ group: a.resource.group, resource: a.resource.resource }, name, message);
}

/** kube's admission.NewForbidden of an error: a 403 passes through as it is, others become the request's 403 with their text. */
export function admissionForbiddenOf(a: AdmissionAttributes, err: unknown): StatusError {
  if (isStatusError(err) && err.status.code === 403) return err;
  return admissionForbidden(a, err instanceof Error ? err.message : String(err));
}

/** What Kubernetes answers for an error that is no API status: 500 with the error's text and no reason. */
export function plainError(message: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
}

export type Json = Record<string, unknown>;

export function specOf(o: ApiObject | undefined): Json | undefined {
  return o && isObject(o.spec) ? o.spec : undefined;
}

export function listOf(o: Json | undefined, key: string): Json[] {
  const v = o?.[key];
  return Array.isArray(v) ? v.filter(isObject) : [];
}

export const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/** Every container of a pod spec with its field path (spec.initContainers[0] …), in kube's order. */
export function podContainers(spec: Json | undefined): { container: Json; path: string }[] {
  const out: { container: Json; path: string }[] = [];
  if (!spec) return out;
  for (const list of CONTAINER_LISTS) {
    const v = spec[list];
    if (!Array.isArray(v)) continue;
    v.forEach((c, i) => {
      if (isObject(c)) out.push({ container: c, path: `spec.${list}[${i}]` });
    });
  }
  return out;
}

/** A string annotation of an object ('' when absent). */
export function annotation(o: ApiObject, key: string): string | undefined {
  return o.metadata.annotations?.[key];
}

/** The stores a plugin reads, as thunks (a group may be off, a store built later): only list and get. */
export type Lister = () => { list(namespace: string): Promise<{ readonly items: readonly ApiObject[] }> };
export type Getter = () => { get(namespace: string, name: string): Promise<ApiObject> };

/** Of several default classes the newest wins (ties: the smaller name first), as v1.27 chooses. */
export function newestOf(classes: readonly ApiObject[]): ApiObject | undefined {
  const time = (o: ApiObject) => (typeof o.metadata.creationTimestamp === 'string' ? Date.parse(o.metadata.creationTimestamp) : 0);
  return [...classes].sort((x, y) => time(y) - time(x) || ((x.metadata.name ?? '') < (y.metadata.name ?? '') ? -1 : 1))[0];
}

/**
 * `f` of a value that may still be coming: at once when it is there (a read
 * the watch cache answered, GenericStore.getSharedNow), so the step answers
 * without a promise and the chain awaits nothing; else when it comes.
 */
export function andThen<T, R>(v: T | Promise<T>, f: (t: T) => R | Promise<R>): R | Promise<R> {
  return v instanceof Promise ? v.then(f) : f(v);
}
