// networking.svc.io: Ingress, IngressClass, NetworkPolicy (v1; its status
// subresource exists in 1.27 and was dropped in 1.28), and the 1.27 alphas
// ClusterCIDR and IPAddress (v1alpha1, off by default).
import { defineGroup, status } from './define.js';

export const networking = defineGroup({
  name: 'networking.svc.io',
  groupPriorityMinimum: 17200,
  versions: [
    {
      version: 'v1',
      enabledByDefault: true,
      versionPriority: 15,
      resources: [
        { resource: 'ingressclasses', kind: 'IngressClass', namespaced: false },
        { resource: 'ingresses', kind: 'Ingress', namespaced: true, shortNames: ['ing'], subresources: [status('Ingress')] },
        {
          resource: 'networkpolicies', kind: 'NetworkPolicy', namespaced: true, shortNames: ['netpol'],
          subresources: [status('NetworkPolicy')],
        },
      ],
    },
    {
      version: 'v1alpha1',
      enabledByDefault: false,
      versionPriority: 1,
      resources: [
        { resource: 'clustercidrs', kind: 'ClusterCIDR', namespaced: false, shortNames: ['cc'], lifecycle: { introduced: '1.25' } },
        { resource: 'ipaddresses', kind: 'IPAddress', namespaced: false, shortNames: ['ip'], lifecycle: { introduced: '1.27' } },
      ],
    },
  ],
});
