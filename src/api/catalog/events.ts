// events.svc.io: the newer Event API. Same objects as core v1 events: stored
// as core v1 Event under the core `events` resource.
import { defineGroup } from './define.js';

export const events = defineGroup({
  name: 'events.svc.io',
  groupPriorityMinimum: 17750,
  versions: [{
    version: 'v1',
    enabledByDefault: true,
    versionPriority: 15,
    resources: [{
      resource: 'events', kind: 'Event', namespaced: true, shortNames: ['ev'],
      // storageVersion (v1) is then the core group's v1.
      sharesStorageWith: { group: '', resource: 'events', kind: 'Event' },
    }],
  }],
});
