// authentication.svc.io: create-only reviews, answered from the request's
// authenticated user and never stored. SelfSubjectReview is beta in 1.27
// (v1beta1, off by default like every beta introduced after 1.24) and alpha
// in v1alpha1.
import { CREATE, defineGroup } from './define.js';

const selfSubjectReviews = { resource: 'selfsubjectreviews', kind: 'SelfSubjectReview', namespaced: false, verbs: CREATE, virtual: true } as const;

export const authentication = defineGroup({
  name: 'authentication.svc.io',
  groupPriorityMinimum: 17700,
  versions: [
    {
      version: 'v1',
      enabledByDefault: true,
      versionPriority: 15,
      resources: [{ resource: 'tokenreviews', kind: 'TokenReview', namespaced: false, verbs: CREATE, virtual: true }],
    },
    { version: 'v1beta1', enabledByDefault: false, versionPriority: 9, resources: [{ ...selfSubjectReviews, lifecycle: { introduced: '1.27' } }] },
    { version: 'v1alpha1', enabledByDefault: false, versionPriority: 1, resources: [{ ...selfSubjectReviews, lifecycle: { introduced: '1.26' } }] },
  ],
});
