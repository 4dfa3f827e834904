// authorization.svc.io: create-only access reviews, answered by the
// authorizer and never stored.
import { CREATE, defineGroup } from './define.js';

const review = (resource: string, kind: string, namespaced = false) =>
  ({ resource, kind, namespaced, verbs: CREATE, virtual: true });

export const authorization = defineGroup({
  name: 'authorization.svc.io',
  groupPriorityMinimum: 17600,
  versions: [{
    version: 'v1',
    enabledByDefault: true,
    versionPriority: 15,
    resources: [
      review('localsubjectaccessreviews', 'LocalSubjectAccessReview', true),
      review('selfsubjectaccessreviews', 'SelfSubjectAccessReview'),
      review('selfsubjectrulesreviews', 'SelfSubjectRulesReview'),
      review('subjectaccessreviews', 'SubjectAccessReview'),
    ],
  }],
});
