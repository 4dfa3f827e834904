// The options object of a write as Kubernetes hands it to admission (and so
// to webhooks in AdmissionReview `options`): CreateOptions, UpdateOptions or
// PatchOptions from the query, DeleteOptions from the body or query; always
// `meta.k8s.io/v1`, fields as Go's omitempty JSON writes them.
import type { DeleteOptions } from '../registry/store.js';

type Options = Record<string, unknown>;

/** CreateOptions / UpdateOptions / PatchOptions of a request's query. */
export function writeOptions(kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions', q: URLSearchParams): Options {
  const o: Options = { kind, apiVersion: 'meta.k8s.io/v1' };
  const dryRun = q.getAll('dryRun').filter((v) => v !== '');
  if (dryRun.length > 0) o.dryRun = dryRun;
  if (kind === 'PatchOptions' && q.has('force')) o.force = q.get('force') === 'true';
  const manager = q.get('fieldManager');
  if (manager) o.fieldManager = manager;
  const validation = q.get('fieldValidation');
  if (validation) o.fieldValidation = validation;
  return o;
}

/** The DeleteOptions object of a delete, from what the endpoint read. */
export function deleteOptionsObject(d: Pick<DeleteOptions, 'dryRun' | 'gracePeriodSeconds' | 'preconditions' | 'propagationPolicy'>): Options {
  const o: Options = { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' };
  if (d.gracePeriodSeconds !== undefined) o.gracePeriodSeconds = d.gracePeriodSeconds;
  if (d.preconditions !== undefined) o.preconditions = d.preconditions;
  if (d.propagationPolicy !== undefined) o.propagationPolicy = d.propagationPolicy;
  if (d.dryRun) o.dryRun = ['All'];
  return o;
}
