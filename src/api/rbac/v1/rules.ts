// rbac/v1 roles: the rules a Role or ClusterRole grants, and how a
// ClusterRole gathers the rules of others by label.
import { kind, LabelSelector, list, obj, ref, str } from '../../../schema/index.js';

const PKG = 'io.k8s.api.rbac.v1';

export const PolicyRule = obj({
  verbs: list(str()).required().proto(1).desc('The verbs the rule allows; "*" stands for all.'),
  apiGroups: list(str()).proto(2).desc('The API groups of the resources; "" is the core group and "*" any group.'),
  resources: list(str()).proto(3).desc('The resources the rule covers; "*" stands for all.'),
  resourceNames: list(str()).proto(4).desc('Object names the rule is limited to; empty means any name.'),
  nonResourceURLs: list(str()).proto(5).desc('Non-resource URL paths the rule covers, with a trailing "*" as a prefix match.'),
})
  .id(`${PKG}.PolicyRule`)
  .desc('Verbs allowed on some resources or non-resource URLs.');

export const AggregationRule = obj({
  clusterRoleSelectors: list(ref(LabelSelector)).proto(1).desc('Selectors of the ClusterRoles whose rules are gathered; any match counts.'),
})
  .id(`${PKG}.AggregationRule`)
  .desc('How a ClusterRole gathers the rules of other ClusterRoles.');

export const Role = kind({
  rules: list(PolicyRule).proto(2, { always: true }).desc('The rules the role grants.'),
})
  .id(`${PKG}.Role`)
  .desc('A namespaced set of rules that a RoleBinding grants.');

export const ClusterRole = kind({
  rules: list(PolicyRule).proto(2, { always: true }).desc('The rules the role grants; written by the controller when aggregationRule is set.'),
  aggregationRule: ref(AggregationRule).proto(3).desc('When set, rules are gathered from the ClusterRoles it selects.'),
})
  .id(`${PKG}.ClusterRole`)
  .desc('A cluster-wide set of rules that a RoleBinding or ClusterRoleBinding grants.');
