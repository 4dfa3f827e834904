// Jobs: unless spec.manualSelector is set, the server picks the selector
// from the job's uid (Kubernetes' generateSelector) and labels the pod
// template to match, before validation. Server-set keys use the svc.io
// spelling (DESIGN §2), with the unprefixed legacy keys Kubernetes also sets.
import { baseStrategy, type Strategy } from '../strategy.js';
import { isObject, type ApiObject } from '../object.js';
import { subdomainName } from './names.js';

export const CONTROLLER_UID = 'batch.svc.io/controller-uid';
export const JOB_NAME = 'batch.svc.io/job-name';

export function generateJobSelector(job: ApiObject): void {
  const spec = isObject(job.spec) ? job.spec : (job.spec = {});
  if (spec.manualSelector === true) return;
  const uid = job.metadata.uid ?? '';
  const name = job.metadata.name ?? '';
  const template = isObject(spec.template) ? spec.template : (spec.template = {});
  const meta = isObject(template.metadata) ? template.metadata : (template.metadata = {});
  const labels = isObject(meta.labels) ? (meta.labels as Record<string, unknown>) : (meta.labels = {} as Record<string, unknown>);
  Object.assign(labels, { [CONTROLLER_UID]: uid, [JOB_NAME]: name, 'controller-uid': uid, 'job-name': name });
  if (spec.selector === undefined || spec.selector === null) spec.selector = { matchLabels: { [CONTROLLER_UID]: uid } };
}

export const jobs: Strategy = baseStrategy({
  namespaced: true,
  validateName: subdomainName,
  hasStatus: true,
  tracksGeneration: true,
  prepareForCreate: generateJobSelector,
});
