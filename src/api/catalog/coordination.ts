// coordination.svc.io: Lease, v1 only.
import { defineGroup } from './define.js';

export const coordination = defineGroup({
  name: 'coordination.svc.io',
  groupPriorityMinimum: 16500,
  versions: [{
    version: 'v1',
    enabledByDefault: true,
    versionPriority: 15,
    resources: [{ resource: 'leases', kind: 'Lease', namespaced: true }],
  }],
});
