// autoscaling: HorizontalPodAutoscaler in v2 (preferred, storage) and v1.
// v2beta1 and v2beta2 were removed in 1.25 and 1.26. The Scale kind of every
// `scale` subresource is autoscaling/v1 Scale (see define.ts).
import { defineGroup, status } from './define.js';

const hpa = {
  resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', namespaced: true,
  shortNames: ['hpa'], categories: ['all'], subresources: [status('HorizontalPodAutoscaler')],
} as const;

export const autoscaling = defineGroup({
  name: 'autoscaling',
  groupPriorityMinimum: 17500,
  storageVersions: { horizontalpodautoscalers: 'v2' },
  versions: [
    { version: 'v2', enabledByDefault: true, versionPriority: 30, resources: [hpa] },
    { version: 'v1', enabledByDefault: true, versionPriority: 15, resources: [hpa] },
  ],
});
