// discovery.svc.io: EndpointSlice, v1 only (v1beta1 was removed in 1.25).
import { defineGroup } from './define.js';

export const discovery = defineGroup({
  name: 'discovery.svc.io',
  groupPriorityMinimum: 16200,
  versions: [{
    version: 'v1',
    enabledByDefault: true,
    versionPriority: 15,
    resources: [{ resource: 'endpointslices', kind: 'EndpointSlice', namespaced: true }],
  }],
});
