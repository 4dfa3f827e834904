// authorization/v1 access reviews: "may this user do this?" (SubjectAccessReview,
// its namespaced and self forms) and "what may I do here?" (SelfSubjectRulesReview).
import { bool, kind, list, mapOf, obj, ref, str, type S } from '../../../schema/index.js';

const PKG = 'io.k8s.api.authorization.v1';

export const ResourceAttributes = obj({
  namespace: str().proto(1).desc('The namespace of the action; all namespaces when empty for namespaced resources.'),
  verb: str().proto(2).desc('The API verb, such as get, list or create; "*" for all.'),
  group: str().proto(3).desc('The API group of the resource; "*" for all.'),
  version: str().proto(4).desc('The API version of the resource; "*" for all.'),
  resource: str().proto(5).desc('The resource; "*" for all.'),
  subresource: str().proto(6).desc('The subresource; empty for none.'),
  name: str().proto(7).desc('The name of the object; all names when empty.'),
})
  .id(`${PKG}.ResourceAttributes`)
  .desc('An action on a resource, as an authorizer sees it.');

export const NonResourceAttributes = obj({
  path: str().proto(1).desc('The URL path.'),
  verb: str().proto(2).desc('The HTTP verb, in lower case.'),
})
  .id(`${PKG}.NonResourceAttributes`)
  .desc('A request for a non-resource URL, as an authorizer sees it.');

export const SubjectAccessReviewSpec = obj({
  resourceAttributes: ref(ResourceAttributes).proto(1).desc('The resource action asked about; exclusive with nonResourceAttributes.'),
  nonResourceAttributes: ref(NonResourceAttributes).proto(2).desc('The non-resource request asked about; exclusive with resourceAttributes.'),
  user: str().proto(3).desc('The user asked about; this or groups must be set.'),
  groups: list(str()).proto(4).desc('The groups of the user asked about.'),
  extra: mapOf(list(str())).proto(5).desc('Further attributes of the user asked about.'),
  uid: str().proto(6).desc('The uid of the user asked about.'),
})
  .id(`${PKG}.SubjectAccessReviewSpec`)
  .desc('A user and an action to authorize.');

export const SubjectAccessReviewStatus = obj({
  allowed: bool().proto(1, { always: true }).required().desc('Whether the action is allowed.'),
  denied: bool().proto(4).desc('Whether an authorizer denied the action outright; never true with allowed.'),
  reason: str().proto(2).desc('Why the action is allowed or not.'),
  evaluationError: str().proto(3).desc('An error while authorizing; the answer may still stand.'),
})
  .id(`${PKG}.SubjectAccessReviewStatus`)
  .desc('The answer to an access review.');

export const SelfSubjectAccessReviewSpec = obj({
  resourceAttributes: ref(ResourceAttributes).proto(1).desc('The resource action asked about; exclusive with nonResourceAttributes.'),
  nonResourceAttributes: ref(NonResourceAttributes).proto(2).desc('The non-resource request asked about; exclusive with resourceAttributes.'),
})
  .id(`${PKG}.SelfSubjectAccessReviewSpec`)
  .desc('An action of the caller\'s to authorize.');

const review = (name: string, spec: S, what: string) =>
  kind(
    {
      spec: ref(spec).proto(2).desc('The question.'),
      status: ref(SubjectAccessReviewStatus).proto(3).desc('The answer, filled in by the server.'),
    },
    { required: ['spec'] },
  )
    .id(`${PKG}.${name}`)
    .desc(what);

export const SubjectAccessReview = review('SubjectAccessReview', SubjectAccessReviewSpec, 'Asks whether a user may take an action; answered, never stored.');
export const LocalSubjectAccessReview = review(
  'LocalSubjectAccessReview', SubjectAccessReviewSpec, 'Asks whether a user may take an action in the namespace of the request; answered, never stored.',
);
export const SelfSubjectAccessReview = review('SelfSubjectAccessReview', SelfSubjectAccessReviewSpec, 'Asks whether the caller may take an action; answered, never stored.');

export const ResourceRule = obj({
  verbs: list(str()).proto(1, { always: true }).required().desc('The verbs allowed; "*" for all.'),
  apiGroups: list(str()).proto(2).desc('The API groups of the resources; "*" for all.'),
  resources: list(str()).proto(3).desc('The resources; "*" for all.'),
  resourceNames: list(str()).proto(4).desc('The object names; all names when empty.'),
})
  .id(`${PKG}.ResourceRule`)
  .desc('Verbs allowed on some resources; may be incomplete for some authorizers.');

export const NonResourceRule = obj({
  verbs: list(str()).proto(1, { always: true }).required().desc('The HTTP verbs allowed; "*" for all.'),
  nonResourceURLs: list(str()).proto(2).desc('The URL paths, with a trailing "*" as a prefix match.'),
})
  .id(`${PKG}.NonResourceRule`)
  .desc('Verbs allowed on some non-resource URLs.');

export const SelfSubjectRulesReviewSpec = obj({
  namespace: str().proto(1).desc('The namespace to list the caller\'s rules in.'),
})
  .id(`${PKG}.SelfSubjectRulesReviewSpec`)
  .desc('Where to list the caller\'s rules.');

export const SubjectRulesReviewStatus = obj({
  resourceRules: list(ResourceRule).proto(1, { always: true }).required().desc('What the caller may do with resources.'),
  nonResourceRules: list(NonResourceRule).proto(2, { always: true }).required().desc('What the caller may do with non-resource URLs.'),
  incomplete: bool().proto(3, { always: true }).required().desc('Whether some authorizer could not list its rules.'),
  evaluationError: str().proto(4).desc('Errors while listing rules; the lists may still be of use.'),
})
  .id(`${PKG}.SubjectRulesReviewStatus`)
  .desc('The rules a subject has in a namespace.');

export const SelfSubjectRulesReview = kind(
  {
    spec: ref(SelfSubjectRulesReviewSpec).proto(2).desc('The namespace asked about.'),
    status: ref(SubjectRulesReviewStatus).proto(3).desc('The rules, filled in by the server.'),
  },
  { required: ['spec'] },
)
  .id(`${PKG}.SelfSubjectRulesReview`)
  .desc('Lists what the caller may do in a namespace; answered, never stored.');
