// internal.apiserver.svc.io: StorageVersion (alpha since 1.20, off by default;
// kube v1.27 generates no prerelease lifecycle for it, so it never warns).
import { defineGroup, status } from './define.js';

export const apiserverinternal = defineGroup({
  name: 'internal.apiserver.svc.io',
  groupPriorityMinimum: 16000,
  versions: [{
    version: 'v1alpha1',
    enabledByDefault: false,
    versionPriority: 9,
    resources: [{ resource: 'storageversions', kind: 'StorageVersion', namespaced: false, subresources: [status('StorageVersion')] }],
  }],
});
