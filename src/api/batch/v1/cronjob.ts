// CronJob: a Job created from a template on a cron schedule.
import { bool, int32, int64, kind, list, obj, ObjectMeta, ref, str, Time } from '../../../schema/index.js';
import { ObjectReference } from '../../core/v1/index.js';
import { BATCH, JobSpec } from './job.js';

export const JobTemplateSpec = obj({
  metadata: ref(ObjectMeta).proto(1).desc('Metadata of the created Jobs.'),
  spec: ref(JobSpec).proto(2).desc('The spec of the created Jobs.'),
})
  .id(`${BATCH}.JobTemplateSpec`)
  .desc('The metadata and spec of Jobs created from a template.');

export const CronJobSpec = obj({
  schedule: str().required().proto(1, { keepZero: true }).desc('When to run, in cron syntax.'),
  timeZone: str().proto(8, { keepZero: true }).desc('The time zone of the schedule; the controller manager\'s when unset.'),
  startingDeadlineSeconds: int64().proto(2, { keepZero: true }).desc('Seconds after a missed start within which the run may still begin.'),
  concurrencyPolicy: str().proto(3).desc('Allow (the default), Forbid or Replace runs that overlap.'),
  suspend: bool().proto(4, { keepZero: true }).desc('Whether later runs are suspended; running ones are left alone.'),
  jobTemplate: ref(JobTemplateSpec).required().proto(5).desc('The Job to create on each run.'),
  successfulJobsHistoryLimit: int32().proto(6, { keepZero: true }).desc('Succeeded Jobs to keep; 3 when unset.'),
  failedJobsHistoryLimit: int32().proto(7, { keepZero: true }).desc('Failed Jobs to keep; 1 when unset.'),
})
  .id(`${BATCH}.CronJobSpec`)
  .desc('The schedule of a CronJob and the Job it runs.');

export const CronJobStatus = obj({
  active: list(ObjectReference).atomic().proto(1).desc('The Jobs currently running.'),
  lastScheduleTime: ref(Time).proto(4).desc('When a Job was last scheduled.'),
  lastSuccessfulTime: ref(Time).proto(5).desc('When a Job last completed successfully.'),
})
  .id(`${BATCH}.CronJobStatus`)
  .desc('The observed state of a CronJob.');

export const CronJob = kind({
  spec: ref(CronJobSpec).proto(2).desc('The schedule and the Job to run.'),
  status: ref(CronJobStatus).proto(3).desc('The observed state of the CronJob.'),
})
  .id(`${BATCH}.CronJob`)
  .desc('Runs a Job on a repeating schedule.');
