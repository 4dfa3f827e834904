// admissionregistration/v1: MutatingWebhookConfiguration and
// ValidatingWebhookConfiguration, each a list of webhooks keyed by name.
import { int32, kind, LabelSelector, list, obj, ref, str, type Field } from '../../../schema/index.js';
import { MatchCondition, RuleWithOperations, WebhookClientConfig } from './client.js';

const PKG = 'io.k8s.api.admissionregistration.v1';

/** The fields both webhook kinds share (protobuf numbers differ only for objectSelector and matchConditions). */
const common = (objectSelector: number, matchConditions: number): { [name: string]: Field } => ({
  name: str().required().proto(1, { keepZero: true }).desc('The fully qualified name of the webhook, unique in its configuration.'),
  clientConfig: ref(WebhookClientConfig).required().proto(2).desc('How to call the webhook.'),
  rules: list(RuleWithOperations).proto(3).desc('The operations and resources the webhook is called for; any rule may match.'),
  failurePolicy: str().proto(4, { keepZero: true }).desc('Ignore or Fail (the default): what a failed call means.'),
  matchPolicy: str().proto(9, { keepZero: true }).desc('Exact or Equivalent (the default): whether requests through other versions of a matched resource match too.'),
  namespaceSelector: ref(LabelSelector).proto(5).desc('Which namespaces\' objects the webhook sees; everything when empty.'),
  objectSelector: ref(LabelSelector).proto(objectSelector).desc('Which objects, by label, the webhook sees; everything when empty.'),
  sideEffects: str().required().proto(6, { keepZero: true }).desc('None or NoneOnDryRun: whether calls have side effects outside the request.'),
  timeoutSeconds: int32().proto(7, { keepZero: true }).desc('How long to wait for the webhook, 1 to 30 seconds, 10 by default.'),
  admissionReviewVersions: list(str()).required().proto(8).desc('The AdmissionReview versions the webhook accepts, in order of preference.'),
  matchConditions: list(MatchCondition).map('name').patch('merge', 'name').proto(matchConditions)
    .desc('CEL conditions that must all hold for a matched request to be sent; at most 64.'),
});

export const MutatingWebhook = obj({
  ...common(11, 12),
  reinvocationPolicy: str().proto(10, { keepZero: true }).desc('Never (the default) or IfNeeded: whether to call again after later mutations.'),
})
  .id(`${PKG}.MutatingWebhook`)
  .desc('A webhook that may change objects, and the requests it is called for.');

export const ValidatingWebhook = obj(common(10, 11))
  .id(`${PKG}.ValidatingWebhook`)
  .desc('A webhook that accepts or rejects requests, and the requests it is called for.');

export const MutatingWebhookConfiguration = kind({
  webhooks: list(MutatingWebhook).patch('merge', 'name').proto(2).desc('The mutating webhooks, by name.'),
})
  .id(`${PKG}.MutatingWebhookConfiguration`)
  .desc('A set of mutating admission webhooks.');

export const ValidatingWebhookConfiguration = kind({
  webhooks: list(ValidatingWebhook).patch('merge', 'name').proto(2).desc('The validating webhooks, by name.'),
})
  .id(`${PKG}.ValidatingWebhookConfiguration`)
  .desc('A set of validating admission webhooks.');
