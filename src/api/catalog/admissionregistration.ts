// admissionregistration.svc.io: admission webhook configurations (v1) and
// ValidatingAdmissionPolicy with its bindings (v1alpha1, alpha since 1.26,
// off by default; the policy's status subresource arrived in 1.27).
import { defineGroup, status } from './define.js';

const API_EXTENSIONS = ['api-extensions'];

export const admissionregistration = defineGroup({
  name: 'admissionregistration.svc.io',
  groupPriorityMinimum: 16700,
  versions: [
    {
      version: 'v1',
      enabledByDefault: true,
      versionPriority: 15,
      resources: [
        { resource: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration', namespaced: false, categories: API_EXTENSIONS },
        { resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false, categories: API_EXTENSIONS },
      ],
    },
    {
      version: 'v1alpha1',
      enabledByDefault: false,
      versionPriority: 9,
      resources: [
        {
          resource: 'validatingadmissionpolicies', kind: 'ValidatingAdmissionPolicy', namespaced: false,
          categories: API_EXTENSIONS, subresources: [status('ValidatingAdmissionPolicy')], lifecycle: { introduced: '1.26' },
        },
        { resource: 'validatingadmissionpolicybindings', kind: 'ValidatingAdmissionPolicyBinding', namespaced: false, categories: API_EXTENSIONS, lifecycle: { introduced: '1.26' } },
      ],
    },
  ],
});
