// admissionregistration/v1: how the API server reaches a webhook, and which
// requests a webhook rule selects.
import { bytes, int32, list, obj, ref, str } from '../../../schema/index.js';

const PKG = 'io.k8s.api.admissionregistration.v1';

export const ServiceReference = obj({
  namespace: str().required().proto(1, { keepZero: true }).desc('The namespace of the service.'),
  name: str().required().proto(2, { keepZero: true }).desc('The name of the service.'),
  path: str().proto(3, { keepZero: true }).desc('The URL path requests are sent to.'),
  port: int32().proto(4, { keepZero: true }).desc('The service port, 443 when unset.'),
})
  .id(`${PKG}.ServiceReference`)
  .desc('An in-cluster Service that serves a webhook.');

export const WebhookClientConfig = obj({
  url: str().proto(3, { keepZero: true }).desc('An https URL of the webhook; exclusive with service.'),
  service: ref(ServiceReference).proto(1).desc('The in-cluster service of the webhook; exclusive with url.'),
  caBundle: bytes().proto(2).desc('PEM certificates to verify the webhook\'s serving certificate; the system roots when empty.'),
})
  .id(`${PKG}.WebhookClientConfig`)
  .desc('How to make a TLS connection to a webhook.');

// The rule fields are embedded from Rule in Go (one protobuf field), so only
// `operations` has a number of its own here.
export const RuleWithOperations = obj({
  operations: list(str()).atomic().proto(1).desc('CREATE, UPDATE, DELETE, CONNECT, or "*" for all.'),
  apiGroups: list(str()).proto(1, { in: 2 }).atomic().desc('The API groups of the resources; "*" for all.'),
  apiVersions: list(str()).proto(2, { in: 2 }).atomic().desc('The API versions of the resources; "*" for all.'),
  resources: list(str()).proto(3, { in: 2 }).atomic().desc('Resources and subresources, such as "pods", "pods/log", "*" or "*/*".'),
  scope: str().proto(4, { in: 2, keepZero: true }).desc('Cluster, Namespaced or "*" (the default): which scopes of resource match.'),
})
  .id(`${PKG}.RuleWithOperations`)
  .desc('Operations on resources that a webhook is called for.');

export const MatchCondition = obj({
  name: str().required().proto(1, { keepZero: true }).desc('A qualified name identifying the condition, unique in its list.'),
  expression: str().required().proto(2, { keepZero: true }).desc('A CEL expression over the request that must evaluate to a boolean.'),
})
  .id(`${PKG}.MatchCondition`)
  .desc('A CEL condition a request must satisfy to be sent to the webhook.');
