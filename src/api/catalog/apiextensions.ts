// apiextensions.svc.io: CustomResourceDefinition, v1 only.
import { defineGroup, status } from './define.js';

export const apiextensions = defineGroup({
  name: 'apiextensions.svc.io',
  groupPriorityMinimum: 16700,
  versions: [{
    version: 'v1',
    enabledByDefault: true,
    versionPriority: 15,
    resources: [{
      resource: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false,
      shortNames: ['crd', 'crds'], categories: ['api-extensions'], subresources: [status('CustomResourceDefinition')],
    }],
  }],
});
