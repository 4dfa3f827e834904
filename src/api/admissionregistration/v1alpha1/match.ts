// admissionregistration/v1alpha1: which requests a ValidatingAdmissionPolicy
// or one of its bindings applies to.
// Protobuf numbers are left out in this version: not yet checked against its generated.proto.
import { LabelSelector, list, obj, ref, str } from '../../../schema/index.js';

const PKG = 'io.k8s.api.admissionregistration.v1alpha1';

export const NamedRuleWithOperations = obj({
  resourceNames: list(str()).proto(1).atomic().desc('Object names the rule is limited to; any name when empty.'),
  operations: list(str()).proto(1, { in: 2 }).atomic().desc('CREATE, UPDATE, DELETE, CONNECT, or "*" for all.'),
  apiGroups: list(str()).proto(1, { in: [2, 2] }).atomic().desc('The API groups of the resources; "*" for all.'),
  apiVersions: list(str()).proto(2, { in: [2, 2] }).atomic().desc('The API versions of the resources; "*" for all.'),
  resources: list(str()).proto(3, { in: [2, 2] }).atomic().desc('Resources and subresources, such as "pods", "pods/log", "*" or "*/*".'),
  scope: str().proto(4, { in: [2, 2], keepZero: true }).desc('Cluster, Namespaced or "*" (the default): which scopes of resource match.'),
})
  .atomic()
  .id(`${PKG}.NamedRuleWithOperations`)
  .desc('Operations on resources, optionally limited to some object names.');

export const MatchResources = obj({
  namespaceSelector: ref(LabelSelector).proto(1).desc('Which namespaces\' objects match; everything when empty.'),
  objectSelector: ref(LabelSelector).proto(2).desc('Which objects, by label, match; everything when empty.'),
  resourceRules: list(NamedRuleWithOperations).proto(3).atomic().desc('The operations and resources that match; any rule may match.'),
  excludeResourceRules: list(NamedRuleWithOperations).proto(4).atomic().desc('Operations and resources excluded even when another rule matches.'),
  matchPolicy: str().proto(7, { keepZero: true }).desc('Exact or Equivalent (the default): whether requests through other versions of a matched resource match too.'),
})
  .atomic()
  .id(`${PKG}.MatchResources`)
  .desc('Which requests a policy or binding applies to; exclusions win over rules.');

export const MatchCondition = obj({
  name: str().proto(1, { keepZero: true }).required().desc('A qualified name identifying the condition, unique in its list.'),
  expression: str().proto(2, { keepZero: true }).required().desc('A CEL expression over the request that must evaluate to a boolean.'),
})
  .id(`${PKG}.MatchCondition`)
  .desc('A CEL condition a request must satisfy for the policy to be evaluated.');
