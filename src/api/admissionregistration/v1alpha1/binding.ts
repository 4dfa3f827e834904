// admissionregistration/v1alpha1: ValidatingAdmissionPolicyBinding, which
// puts a policy into effect with its parameters and scope.
// Protobuf numbers are left out in this version: not yet checked against its generated.proto.
import { kind, list, obj, ref, str } from '../../../schema/index.js';
import { MatchResources } from './match.js';

const PKG = 'io.k8s.api.admissionregistration.v1alpha1';

export const ParamRef = obj({
  name: str().proto(1).desc('The name of the parameter resource.'),
  namespace: str().proto(2).desc('The namespace of the parameter resource, for namespaced parameter kinds.'),
})
  .atomic()
  .id(`${PKG}.ParamRef`)
  .desc('The parameter resource a binding gives its policy.');

export const ValidatingAdmissionPolicyBindingSpec = obj({
  policyName: str().proto(1).desc('The ValidatingAdmissionPolicy this binding puts into effect.'),
  paramRef: ref(ParamRef).proto(2).desc('The parameters; ignored when the policy has no paramKind.'),
  matchResources: ref(MatchResources).proto(3).desc('Narrows the requests the policy applies to; every request it matches when unset.'),
  validationActions: list(str()).proto(4).set().desc('Deny, Warn and/or Audit: how failed validations are enforced.'),
})
  .id(`${PKG}.ValidatingAdmissionPolicyBindingSpec`)
  .desc('Which policy a binding enforces, with which parameters, where and how.');

export const ValidatingAdmissionPolicyBinding = kind({
  spec: ref(ValidatingAdmissionPolicyBindingSpec).proto(2).desc('The policy, parameters and scope of the binding.'),
})
  .id(`${PKG}.ValidatingAdmissionPolicyBinding`)
  .desc('Puts a ValidatingAdmissionPolicy into effect with parameters and a scope.');
