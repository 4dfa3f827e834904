// apiextensions/v1 CustomResourceDefinition: a new resource served by the
// API server, its names, versions, schemas, subresources and conversion.
// Protobuf numbers are those of the v1.27 Go types (generated.proto).
import { bool, bytes, int32, kind, list, obj, ref, str, Time } from '../../../schema/index.js';
import { JSONSchemaProps, PKG } from './jsonschema.js';

export const ServiceReference = obj({
  namespace: str().proto(1, { keepZero: true }).required().desc('The namespace of the service.'),
  name: str().proto(2, { keepZero: true }).required().desc('The name of the service.'),
  path: str().proto(3, { keepZero: true }).desc('The URL path requests are sent to.'),
  port: int32().proto(4, { keepZero: true }).desc('The service port, 443 when unset.'),
})
  .id(`${PKG}.ServiceReference`)
  .desc('An in-cluster Service that serves a conversion webhook.');

export const WebhookClientConfig = obj({
  url: str().proto(3, { keepZero: true }).desc('An https URL of the webhook; exclusive with service.'),
  service: ref(ServiceReference).proto(1).desc('The in-cluster service of the webhook; exclusive with url.'),
  caBundle: bytes().proto(2).desc('PEM certificates to verify the webhook\'s serving certificate; the system roots when empty.'),
})
  .id(`${PKG}.WebhookClientConfig`)
  .desc('How to make a TLS connection to a conversion webhook.');

export const WebhookConversion = obj({
  clientConfig: ref(WebhookClientConfig).proto(2).desc('How to call the webhook.'),
  conversionReviewVersions: list(str()).proto(3).required().desc('The ConversionReview versions the webhook accepts, in order of preference.'),
})
  .id(`${PKG}.WebhookConversion`)
  .desc('A webhook that converts custom resources between versions.');

export const CustomResourceConversion = obj({
  strategy: str().proto(1, { keepZero: true }).required().desc('None (only apiVersion changes) or Webhook.'),
  webhook: ref(WebhookConversion).proto(2).desc('The webhook, when strategy is Webhook.'),
})
  .id(`${PKG}.CustomResourceConversion`)
  .desc('How custom resources are converted between versions.');

export const CustomResourceDefinitionNames = obj({
  plural: str().proto(1, { always: true }).required().desc('The resource name in URLs, lower case.'),
  singular: str().proto(2).desc('The singular name, lower case; the kind in lower case when empty.'),
  shortNames: list(str()).proto(3).desc('Short names for the resource, lower case.'),
  kind: str().proto(4, { always: true }).required().desc('The kind of the objects, in CamelCase.'),
  listKind: str().proto(5).desc('The kind of lists; the kind followed by "List" when empty.'),
  categories: list(str()).proto(6).desc('Groups of resources the resource belongs to, such as "all".'),
})
  .id(`${PKG}.CustomResourceDefinitionNames`)
  .desc('The names a custom resource is served under.');

export const CustomResourceValidation = obj({
  openAPIV3Schema: ref(JSONSchemaProps).proto(1).desc('The structural schema of the objects.'),
})
  .id(`${PKG}.CustomResourceValidation`)
  .desc('How objects of a custom resource version are validated.');

export const CustomResourceSubresourceStatus = obj({})
  .id(`${PKG}.CustomResourceSubresourceStatus`)
  .desc('Enables the status subresource; it has no settings.');

export const CustomResourceSubresourceScale = obj({
  specReplicasPath: str().proto(1, { keepZero: true }).required().desc('The JSON path (under .spec) of the desired replica count.'),
  statusReplicasPath: str().proto(2, { keepZero: true }).required().desc('The JSON path (under .status) of the observed replica count.'),
  labelSelectorPath: str().proto(3, { keepZero: true }).desc('The JSON path (under .status or .spec) of the label selector in string form.'),
})
  .id(`${PKG}.CustomResourceSubresourceScale`)
  .desc('Enables the scale subresource and says where its values live.');

export const CustomResourceSubresources = obj({
  status: ref(CustomResourceSubresourceStatus).proto(1).desc('Serve a status subresource.'),
  scale: ref(CustomResourceSubresourceScale).proto(2).desc('Serve a scale subresource.'),
})
  .id(`${PKG}.CustomResourceSubresources`)
  .desc('The subresources a custom resource version serves.');

export const CustomResourceColumnDefinition = obj({
  name: str().proto(1, { keepZero: true }).required().desc('The column header.'),
  type: str().proto(2, { keepZero: true }).required().desc('The OpenAPI type of the column: integer, number, string, boolean or date.'),
  format: str().proto(3).desc('An OpenAPI format for the column.'),
  description: str().proto(4).desc('What the column shows.'),
  priority: int32().proto(5).desc('0 for the default view, higher for wide views.'),
  jsonPath: str().proto(6, { keepZero: true }).required().desc('A simple JSON path evaluated against each object for the cell.'),
})
  .id(`${PKG}.CustomResourceColumnDefinition`)
  .desc('An extra column of server-side tables.');

export const CustomResourceDefinitionVersion = obj({
  name: str().proto(1, { keepZero: true }).required().desc('The version name, such as v1 or v2beta1.'),
  served: bool().proto(2, { keepZero: true }).required().desc('Whether the version is served.'),
  storage: bool().proto(3, { keepZero: true }).required().desc('Whether objects are stored in this version; exactly one version is.'),
  deprecated: bool().proto(7).desc('Whether responses carry a deprecation warning.'),
  deprecationWarning: str().proto(8, { keepZero: true }).desc('The warning to send instead of the default one.'),
  schema: ref(CustomResourceValidation).proto(4).desc('The schema of objects in this version.'),
  subresources: ref(CustomResourceSubresources).proto(5).desc('The subresources this version serves.'),
  additionalPrinterColumns: list(CustomResourceColumnDefinition).proto(6).desc('Extra table columns; name and age when empty.'),
})
  .id(`${PKG}.CustomResourceDefinitionVersion`)
  .desc('One version of a custom resource.');

export const CustomResourceDefinitionSpec = obj({
  group: str().proto(1, { keepZero: true }).required().desc('The API group of the resource.'),
  names: ref(CustomResourceDefinitionNames).proto(3).required().desc('The names of the resource.'),
  scope: str().proto(4, { keepZero: true }).required().desc('Cluster or Namespaced.'),
  versions: list(CustomResourceDefinitionVersion).proto(7).required().desc('The versions of the resource.'),
  conversion: ref(CustomResourceConversion).proto(9).desc('How objects are converted between versions.'),
  preserveUnknownFields: bool().proto(10).desc('Deprecated: whether unknown fields are kept; must be false in v1.'),
})
  .id(`${PKG}.CustomResourceDefinitionSpec`)
  .desc('What a custom resource is and how it is served.');

export const CustomResourceDefinitionCondition = obj({
  type: str().proto(1, { always: true }).required().desc('Established, NamesAccepted, Terminating, or another type.'),
  status: str().proto(2, { always: true }).required().desc('True, False or Unknown.'),
  lastTransitionTime: ref(Time).proto(3, { always: true }).desc('When the status last changed.'),
  reason: str().proto(4).desc('A CamelCase reason for the last transition.'),
  message: str().proto(5).desc('A human-readable explanation of the last transition.'),
})
  .id(`${PKG}.CustomResourceDefinitionCondition`)
  .desc('One condition of a CustomResourceDefinition.');

export const CustomResourceDefinitionStatus = obj({
  conditions: list(CustomResourceDefinitionCondition).proto(1, { always: true }).map('type').desc('The current conditions.'),
  acceptedNames: ref(CustomResourceDefinitionNames).proto(2, { always: true }).desc('The names actually served, which may differ from the spec\'s while they conflict.'),
  storedVersions: list(str()).proto(3, { always: true }).desc('Every version objects have been stored in.'),
})
  .id(`${PKG}.CustomResourceDefinitionStatus`)
  .desc('The observed state of a CustomResourceDefinition.');

export const CustomResourceDefinition = kind(
  {
    spec: ref(CustomResourceDefinitionSpec).proto(2).desc('The resource to serve.'),
    status: ref(CustomResourceDefinitionStatus).proto(3).desc('The observed state.'),
  },
  { required: ['spec'] },
)
  .id(`${PKG}.CustomResourceDefinition`)
  .desc('A resource served by the API server, defined by its users.');
