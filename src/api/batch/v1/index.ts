// batch/v1: Job and CronJob. Pod templates and object references come from
// core/v1.
import { definitionsOf, type S } from '../../../schema/index.js';
import * as cronjob from './cronjob.js';
import * as job from './job.js';

export * from './cronjob.js';
export * from './job.js';

export const kinds: Readonly<Record<string, S>> = { CronJob: cronjob.CronJob, Job: job.Job };

/** Every batch/v1 type as written at its definition. */
export const definitions: readonly S[] = definitionsOf(cronjob, job);
