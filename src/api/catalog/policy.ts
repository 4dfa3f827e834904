// policy: PodDisruptionBudget, policy/v1 only (v1beta1 and PodSecurityPolicy
// were removed in 1.25). Eviction is the pods/eviction subresource (core.ts).
import { defineGroup, status } from './define.js';

export const policy = defineGroup({
  name: 'policy',
  groupPriorityMinimum: 17100,
  versions: [{
    version: 'v1',
    enabledByDefault: true,
    versionPriority: 15,
    resources: [{
      resource: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', namespaced: true, shortNames: ['pdb'],
      subresources: [status('PodDisruptionBudget')],
    }],
  }],
});
