// Server-side defaulting for batch/v1 as kube-apiserver v1.27 applies it
// (SetDefaults_Job, SetDefaults_CronJob, and the core/v1 defaults of the pod
// templates). In place. A CronJob's jobTemplate.spec gets the pod template's
// defaults only: SetDefaults_Job runs on Job objects, not on JobSpecs.
// The registry, not defaulting, generates a Job's selector and the
// controller-uid / job-name labels (they need the uid) unless
// spec.manualSelector is true.
import { each, emptyStr, filledMap, orSet, orStr, struct, at, defaultPodTemplateSpec, type Gates, type Json } from '../../core/v1/defaults.js';

export function defaultJob(job: Json): void {
  const spec = struct(job, 'spec');
  if (!spec) return;
  if (spec.completions == null && spec.parallelism == null) spec.completions = 1;
  orSet(spec, 'parallelism', 1);
  orSet(spec, 'backoffLimit', 6);
  const template = struct(spec, 'template');
  const labels = template && at(at(template, 'metadata') ?? {}, 'labels');
  if (labels) {
    const metadata = struct(job, 'metadata');
    if (metadata && !filledMap(metadata, 'labels')) metadata.labels = { ...labels };
  }
  orSet(spec, 'completionMode', 'NonIndexed');
  orSet(spec, 'suspend', false);
  for (const rule of each(at(spec, 'podFailurePolicy'), 'rules')) {
    for (const pattern of each(rule, 'onPodConditions')) if (emptyStr(pattern, 'status')) pattern.status = 'True';
  }
  if (template) defaultPodTemplateSpec(template);
}

export function defaultCronJob(cj: Json): void {
  const spec = struct(cj, 'spec');
  if (!spec) return;
  orStr(spec, 'concurrencyPolicy', 'Allow');
  orSet(spec, 'suspend', false);
  orSet(spec, 'successfulJobsHistoryLimit', 3);
  orSet(spec, 'failedJobsHistoryLimit', 1);
  const template = struct(struct(struct(spec, 'jobTemplate') ?? {}, 'spec') ?? {}, 'template');
  if (template) defaultPodTemplateSpec(template);
}

/** The batch/v1 defaulters by kind. */
export const defaulters: Readonly<Record<string, (obj: Json, gates: Gates) => void>> = {
  Job: defaultJob,
  CronJob: defaultCronJob,
};
