// Server-side defaulting for admissionregistration.svc.io/v1alpha1 as
// kube-apiserver v1.27 applies it (SetDefaults_ValidatingAdmissionPolicySpec,
// SetDefaults_MatchResources, SetDefaults_Rule): a policy's failurePolicy
// Fail; every MatchResources (the policy's matchConstraints, a binding's
// matchResources) matchPolicy Equivalent and empty selectors; every rule's
// scope "*". In place.
import { at, each, orSet, type Json } from '../../core/v1/defaults-common.js';

function defaultMatchResources(m: Json | undefined): void {
  if (!m) return;
  orSet(m, 'namespaceSelector', {});
  orSet(m, 'objectSelector', {});
  orSet(m, 'matchPolicy', 'Equivalent');
  for (const r of each(m, 'resourceRules')) orSet(r, 'scope', '*');
  for (const r of each(m, 'excludeResourceRules')) orSet(r, 'scope', '*');
}

export function defaultValidatingAdmissionPolicy(policy: Json): void {
  const spec = at(policy, 'spec');
  if (!spec) return;
  orSet(spec, 'failurePolicy', 'Fail');
  defaultMatchResources(at(spec, 'matchConstraints'));
}

export function defaultValidatingAdmissionPolicyBinding(binding: Json): void {
  defaultMatchResources(at(at(binding, 'spec') ?? {}, 'matchResources'));
}

/** The admissionregistration.svc.io/v1alpha1 defaulters by kind. */
export const defaulters: Readonly<Record<string, (obj: Json) => void>> = {
  ValidatingAdmissionPolicy: defaultValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding: defaultValidatingAdmissionPolicyBinding,
};
