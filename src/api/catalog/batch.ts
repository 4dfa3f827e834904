// batch: Job and CronJob, batch/v1 only (CronJob v1beta1 was removed in 1.25).
import { defineGroup, status } from './define.js';

export const batch = defineGroup({
  name: 'batch',
  groupPriorityMinimum: 17400,
  versions: [{
    version: 'v1',
    enabledByDefault: true,
    versionPriority: 15,
    resources: [
      {
        resource: 'cronjobs', kind: 'CronJob', namespaced: true, shortNames: ['cj'], categories: ['all'],
        subresources: [status('CronJob')],
      },
      { resource: 'jobs', kind: 'Job', namespaced: true, categories: ['all'], subresources: [status('Job')] },
    ],
  }],
});
