// The rules every node gets (kube v1.27 bootstrappolicy.NodeRules()): what the
// node authorizer allows for the resources it does not subdivide — the same
// list as the `system:node` ClusterRole of the bootstrap policy.
import type { PolicyRule } from '../rbac/rules.js';
import { DEFAULT_GATES, type FeatureGates } from '../../features/gates.js';
import { nodeRuleBuilders } from '../rbac/bootstrap/policy.js';

export function nodeRules(gates: FeatureGates = DEFAULT_GATES): PolicyRule[] {
  return nodeRuleBuilders(gates).map((r) => r.build());
}
