// resource.svc.io: dynamic resource allocation. 1.27 replaced v1alpha1 with
// v1alpha2 and renamed PodScheduling to PodSchedulingContext; alpha, off by
// default; kube v1.27 generates no prerelease lifecycle for it (no warnings).
import { defineGroup, status } from './define.js';

export const resource = defineGroup({
  name: 'resource.svc.io',
  groupPriorityMinimum: 15900,
  versions: [{
    version: 'v1alpha2',
    enabledByDefault: false,
    versionPriority: 9,
    resources: [
      { resource: 'podschedulingcontexts', kind: 'PodSchedulingContext', namespaced: true, subresources: [status('PodSchedulingContext')] },
      { resource: 'resourceclaims', kind: 'ResourceClaim', namespaced: true, subresources: [status('ResourceClaim')] },
      { resource: 'resourceclaimtemplates', kind: 'ResourceClaimTemplate', namespaced: true },
      { resource: 'resourceclasses', kind: 'ResourceClass', namespaced: false },
    ],
  }],
});
