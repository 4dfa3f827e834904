// node.svc.io: RuntimeClass, v1 only (v1beta1 was removed in 1.25).
import { defineGroup } from './define.js';

export const node = defineGroup({
  name: 'node.svc.io',
  groupPriorityMinimum: 16300,
  versions: [{
    version: 'v1',
    enabledByDefault: true,
    versionPriority: 15,
    resources: [{ resource: 'runtimeclasses', kind: 'RuntimeClass', namespaced: false }],
  }],
});
