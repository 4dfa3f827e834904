// flowcontrol.apiserver.svc.io: API priority and fairness. In 1.27 v1beta3
// (introduced 1.26, preferred, and the storage version from 1.27 on) and
// v1beta2 (introduced 1.23, deprecated in 1.26 for v1beta3, removed in 1.29)
// are served. kube-apiserver lists both versions
// as off by default but keeps their two resources on
// (legacyBetaEnabledByDefaultResources), so both versions are served.
import { defineGroup, status } from './define.js';
import type { ResourceSpec } from './define.js';

const resources = (v1beta2: boolean): ResourceSpec[] =>
  ([['flowschemas', 'FlowSchema'], ['prioritylevelconfigurations', 'PriorityLevelConfiguration']] as const).map(([resource, kind]) => ({
    resource, kind, namespaced: false, subresources: [status(kind)], enabledByDefault: true,
    lifecycle: v1beta2
      ? { introduced: '1.23', deprecated: '1.26', replacement: { group: 'flowcontrol.apiserver.svc.io', version: 'v1beta3', kind } }
      : { introduced: '1.26' },
  }));

export const flowcontrol = defineGroup({
  name: 'flowcontrol.apiserver.svc.io',
  groupPriorityMinimum: 16100,
  storageVersions: { flowschemas: 'v1beta3', prioritylevelconfigurations: 'v1beta3' },
  versions: [
    { version: 'v1beta3', enabledByDefault: false, versionPriority: 18, resources: resources(false) },
    { version: 'v1beta2', enabledByDefault: false, versionPriority: 15, resources: resources(true) },
  ],
});
