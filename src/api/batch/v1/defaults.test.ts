// batch/v1 defaulting, case by case (v1.27 behaviour).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../core/v1/defaults.js';
import { defaulters } from './defaults.js';

const gates = { enabled: () => false };
const SPEC = { dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', securityContext: {}, terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler' };
const template = { metadata: { labels: { app: 'j' } }, spec: { restartPolicy: 'Never' } };
const templateOut = { metadata: { labels: { app: 'j' } }, spec: { ...SPEC, restartPolicy: 'Never' } };

const rows: [kind: string, name: string, input: Json, want: Json][] = [
  ['Job', 'a non-parallel job', { spec: { template } }, {
    metadata: { labels: { app: 'j' } },
    spec: { completions: 1, parallelism: 1, backoffLimit: 6, completionMode: 'NonIndexed', suspend: false, template: templateOut },
  }],
  ['Job', 'completions alone: parallelism 1; own labels kept', { metadata: { labels: { x: 'y' } }, spec: { completions: 5, template } }, {
    metadata: { labels: { x: 'y' } },
    spec: { completions: 5, parallelism: 1, backoffLimit: 6, completionMode: 'NonIndexed', suspend: false, template: templateOut },
  }],
  ['Job', 'parallelism alone leaves completions unset', { spec: { parallelism: 3, backoffLimit: 0, suspend: true, completionMode: 'Indexed', template: { spec: {} } } }, {
    spec: { parallelism: 3, backoffLimit: 0, completionMode: 'Indexed', suspend: true, template: { spec: SPEC } },
  }],
  ['Job', 'pod failure policy condition status True', {
    spec: { template: { spec: {} }, podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }, { type: 'X', status: 'False' }] }] } },
  }, {
    spec: {
      completions: 1, parallelism: 1, backoffLimit: 6, completionMode: 'NonIndexed', suspend: false, template: { spec: SPEC },
      podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }, { type: 'X', status: 'False' }] }] },
    },
  }],
  ['CronJob', 'policies and history; the job template gets pod defaults only', { spec: { schedule: '* * * * *', jobTemplate: { spec: { template } } } }, {
    spec: { schedule: '* * * * *', concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1, jobTemplate: { spec: { template: templateOut } } },
  }],
  ['CronJob', 'given values kept', { spec: { concurrencyPolicy: 'Forbid', suspend: true, successfulJobsHistoryLimit: 0, failedJobsHistoryLimit: 0, jobTemplate: { spec: { template } } } }, {
    spec: { concurrencyPolicy: 'Forbid', suspend: true, successfulJobsHistoryLimit: 0, failedJobsHistoryLimit: 0, jobTemplate: { spec: { template: templateOut } } },
  }],
];

describe('batch/v1 defaults', () => {
  for (const [kind, name, input, want] of rows) {
    it(`${kind}: ${name}`, () => {
      const obj = structuredClone(input);
      defaulters[kind]!(obj, gates);
      assert.deepEqual(obj, want);
    });
  }
});
