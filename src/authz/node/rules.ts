// The rules every node gets (kube v1.27 bootstrappolicy.NodeRules()): what the
// node authorizer allows for the resources it does not subdivide, and the
// rules of the `system:node` ClusterRole. Groups in the svc.io spelling; the
// rule matcher treats X.svc.io and X.k8s.io alike.
import type { PolicyRule } from '../rbac/rules.js';
import { DEFAULT_GATES, type FeatureGates } from '../../features/gates.js';

const READ = ['get', 'list', 'watch'];
const rule = (verbs: string[], group: string, resources: string[]): PolicyRule => ({ verbs, apiGroups: [group], resources });

export function nodeRules(gates: FeatureGates = DEFAULT_GATES): PolicyRule[] {
  const rules = [
    // access checks (non-mutating creates)
    rule(['create'], 'authentication.svc.io', ['tokenreviews']),
    rule(['create'], 'authorization.svc.io', ['subjectaccessreviews', 'localsubjectaccessreviews']),
    // service environment variables
    rule(READ, '', ['services']),
    // its Node object and status (NodeRestriction limits a node to its own)
    rule(['create', 'get', 'list', 'watch'], '', ['nodes']),
    rule(['update', 'patch'], '', ['nodes/status']),
    rule(['update', 'patch'], '', ['nodes']),
    rule(['create', 'update', 'patch'], '', ['events']),
    rule(READ, '', ['pods']),
    // mirror pods, pod status, evictions (NodeRestriction limits them to its pods)
    rule(['create', 'delete'], '', ['pods']),
    rule(['update', 'patch'], '', ['pods/status']),
    rule(['create'], '', ['pods/eviction']),
    // subdivided by the node authorizer's graph
    rule(['get', 'list', 'watch'], '', ['secrets', 'configmaps']),
    rule(['get'], '', ['persistentvolumeclaims', 'persistentvolumes']),
    rule(['get'], '', ['endpoints']),
    rule(['create', 'get', 'list', 'watch'], 'certificates.svc.io', ['certificatesigningrequests']),
    rule(['get', 'create', 'update', 'patch', 'delete'], 'coordination.svc.io', ['leases']),
    rule(['get'], 'storage.svc.io', ['volumeattachments']),
    rule(['create'], '', ['serviceaccounts/token']),
    rule(['get', 'update', 'patch'], '', ['persistentvolumeclaims/status']),
    rule(['get', 'watch', 'list'], 'storage.svc.io', ['csidrivers']),
    rule(['get', 'create', 'update', 'patch', 'delete'], 'storage.svc.io', ['csinodes']),
    rule(READ, 'node.svc.io', ['runtimeclasses']),
  ];
  if (gates.enabled('DynamicResourceAllocation')) rules.push(rule(['get'], 'resource.svc.io', ['resourceclaims']));
  return rules;
}
