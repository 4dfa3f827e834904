// apiregistration.svc.io: APIService, served by the aggregator in front of
// kube-apiserver. It has no group priority: the aggregator always lists its
// own group first in /apis.
import { defineGroup, status } from './define.js';

export const apiregistration = defineGroup({
  name: 'apiregistration.svc.io',
  versions: [{
    version: 'v1',
    enabledByDefault: true,
    versionPriority: 15,
    resources: [{
      resource: 'apiservices', kind: 'APIService', namespaced: false,
      categories: ['api-extensions'], subresources: [status('APIService')],
    }],
  }],
});
