// admissionregistration/v1alpha1: ValidatingAdmissionPolicyBinding, which
// puts a policy into effect with its parameters and scope.
// Protobuf numbers are left out in this version: not yet checked against its generated.proto.
import { kind, list, obj, ref, str } from '../../../schema/index.js';
import { MatchResources } from './match.js';

const PKG = 'io.k8s.api.admissionregistration.v1alpha1';

export const ParamRef = obj({
  name: str().desc('The name of the parameter resource.'),
  namespace: str().desc('The namespace of the parameter resource, for namespaced parameter kinds.'),
})
  .atomic()
  .id(`${PKG}.ParamRef`)
  .desc('The parameter resource a binding gives its policy.');

export const ValidatingAdmissionPolicyBindingSpec = obj({
  policyName: str().desc('The ValidatingAdmissionPolicy this binding puts into effect.'),
  paramRef: ref(ParamRef).desc('The parameters; ignored when the policy has no paramKind.'),
  matchResources: ref(MatchResources).desc('Narrows the requests the policy applies to; every request it matches when unset.'),
  validationActions: list(str()).set().desc('Deny, Warn and/or Audit: how failed validations are enforced.'),
})
  .id(`${PKG}.ValidatingAdmissionPolicyBindingSpec`)
  .desc('Which policy a binding enforces, with which parameters, where and how.');

export const ValidatingAdmissionPolicyBinding = kind({
  spec: ref(ValidatingAdmissionPolicyBindingSpec).desc('The policy, parameters and scope of the binding.'),
})
  .id(`${PKG}.ValidatingAdmissionPolicyBinding`)
  .desc('Puts a ValidatingAdmissionPolicy into effect with parameters and a scope.');
