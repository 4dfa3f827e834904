// scheduling.svc.io: PriorityClass, v1 only.
import { defineGroup } from './define.js';

export const scheduling = defineGroup({
  name: 'scheduling.svc.io',
  groupPriorityMinimum: 16600,
  versions: [{
    version: 'v1',
    enabledByDefault: true,
    versionPriority: 15,
    resources: [{ resource: 'priorityclasses', kind: 'PriorityClass', namespaced: false, shortNames: ['pc'] }],
  }],
});
