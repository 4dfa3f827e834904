// Services (kube's serviceEvaluator): each uses `services` and
// `count/services`; a NodePort service uses one `services.nodeports` per
// port; a LoadBalancer one `services.loadbalancers` and as many node ports —
// or, with allocateLoadBalancerNodePorts false, only the ports that name a
// nodePort. Creates and updates are measured (the type can change); no scopes.
import type { ApiObject } from '../../registry/object.js';
import type { UsageEvaluator } from '../evaluator.js';
import { NO_SCOPES, count, intersect, rec } from './common.js';

const SERVICE_RESOURCES = new Set(['count/services', 'services', 'services.nodeports', 'services.loadbalancers']);

/** How many node ports a service holds, as quota counts them (its intent: ports not yet allocated count). */
export function serviceNodePorts(svc: ApiObject): number {
  const spec = rec(svc.spec);
  const ports = Array.isArray(spec.ports) ? spec.ports : [];
  switch (spec.type) {
    case 'NodePort':
      return ports.length;
    case 'LoadBalancer':
      if (spec.allocateLoadBalancerNodePorts === false) return ports.filter((p) => Number(rec(p).nodePort ?? 0) !== 0).length;
      return ports.length;
    default:
      return 0;
  }
}

/** The service type quota tells apart (kube's GetQuotaServiceType): NodePort, LoadBalancer, or '' for any other. */
export function quotaServiceType(svc: ApiObject): string {
  const type = rec(svc.spec).type;
  return type === 'NodePort' || type === 'LoadBalancer' ? type : '';
}

export function serviceEvaluator(): UsageEvaluator {
  return {
    group: '',
    resource: 'services',
    ...NO_SCOPES,
    handles: (operation, subresource) => (operation === 'CREATE' || operation === 'UPDATE') && subresource === '',
    matchingResources: (input) => intersect(input, SERVICE_RESOURCES),
    usage: (svc) => ({
      'count/services': count(1),
      services: count(1),
      'services.nodeports': count(serviceNodePorts(svc)),
      'services.loadbalancers': count(rec(svc.spec).type === 'LoadBalancer' ? 1 : 0),
    }),
    counts: () => true,
    releasedByUpdate: (old, cur) => quotaServiceType(old) !== quotaServiceType(cur),
  };
}
