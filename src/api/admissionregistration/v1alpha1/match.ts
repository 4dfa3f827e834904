// admissionregistration/v1alpha1: which requests a ValidatingAdmissionPolicy
// or one of its bindings applies to.
// Protobuf numbers are left out in this version: not yet checked against its generated.proto.
import { LabelSelector, list, obj, ref, str } from '../../../schema/index.js';

const PKG = 'io.k8s.api.admissionregistration.v1alpha1';

export const NamedRuleWithOperations = obj({
  resourceNames: list(str()).atomic().desc('Object names the rule is limited to; any name when empty.'),
  operations: list(str()).atomic().desc('CREATE, UPDATE, DELETE, CONNECT, or "*" for all.'),
  apiGroups: list(str()).atomic().desc('The API groups of the resources; "*" for all.'),
  apiVersions: list(str()).atomic().desc('The API versions of the resources; "*" for all.'),
  resources: list(str()).atomic().desc('Resources and subresources, such as "pods", "pods/log", "*" or "*/*".'),
  scope: str().desc('Cluster, Namespaced or "*" (the default): which scopes of resource match.'),
})
  .atomic()
  .id(`${PKG}.NamedRuleWithOperations`)
  .desc('Operations on resources, optionally limited to some object names.');

export const MatchResources = obj({
  namespaceSelector: ref(LabelSelector).desc('Which namespaces\' objects match; everything when empty.'),
  objectSelector: ref(LabelSelector).desc('Which objects, by label, match; everything when empty.'),
  resourceRules: list(NamedRuleWithOperations).atomic().desc('The operations and resources that match; any rule may match.'),
  excludeResourceRules: list(NamedRuleWithOperations).atomic().desc('Operations and resources excluded even when another rule matches.'),
  matchPolicy: str().desc('Exact or Equivalent (the default): whether requests through other versions of a matched resource match too.'),
})
  .atomic()
  .id(`${PKG}.MatchResources`)
  .desc('Which requests a policy or binding applies to; exclusions win over rules.');

export const MatchCondition = obj({
  name: str().required().desc('A qualified name identifying the condition, unique in its list.'),
  expression: str().required().desc('A CEL expression over the request that must evaluate to a boolean.'),
})
  .id(`${PKG}.MatchCondition`)
  .desc('A CEL condition a request must satisfy for the policy to be evaluated.');
