// core/v1 defaulting of Services and Endpoints.
import { at, each, orSet, orStr, struct, unset, type Json } from './defaults-common.js';

/** 3 hours, the ClientIP session affinity timeout. */
export const DEFAULT_CLIENT_IP_TIMEOUT = 10800;

/**
 * SetDefaults_Service. The registry, not defaulting, fills clusterIP and
 * clusterIPs (allocation, and ["None"] for headless), ipFamilies,
 * ipFamilyPolicy, nodePorts, healthCheckNodePort and status.loadBalancer.
 */
export function defaultService(svc: Json): void {
  const spec = struct(svc, 'spec');
  if (!spec) return;
  orStr(spec, 'sessionAffinity', 'None');
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const clientIP = at(at(spec, 'sessionAffinityConfig') ?? {}, 'clientIP');
    if (!clientIP || unset(clientIP, 'timeoutSeconds')) spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_TIMEOUT } };
  }
  orStr(spec, 'type', 'ClusterIP');
  for (const port of each(spec, 'ports')) {
    orStr(port, 'protocol', 'TCP');
    if (port.targetPort === undefined || port.targetPort === null || port.targetPort === 0 || port.targetPort === '') {
      port.targetPort = port.port ?? 0;
    }
  }
  const type = spec.type;
  if (type === 'NodePort' || type === 'LoadBalancer') orStr(spec, 'externalTrafficPolicy', 'Cluster');
  if (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP') orSet(spec, 'internalTrafficPolicy', 'Cluster');
  if (type === 'LoadBalancer') orSet(spec, 'allocateLoadBalancerNodePorts', true);
}

export function defaultEndpoints(ep: Json): void {
  for (const subset of each(ep, 'subsets')) for (const port of each(subset, 'ports')) orStr(port, 'protocol', 'TCP');
}
