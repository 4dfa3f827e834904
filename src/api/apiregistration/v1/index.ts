// apiregistration/v1: APIService, which tells the aggregator which server
// serves a group-version.
// Protobuf numbers are those of the v1.27 Go types (generated.proto).
import { bool, bytes, int32, kind, list, obj, ref, S, str, Time } from '../../../schema/index.js';

const PKG = 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1';

export const ServiceReference = obj({
  namespace: str().proto(1).desc('The namespace of the service.'),
  name: str().proto(2).desc('The name of the service.'),
  port: int32().proto(3, { keepZero: true }).desc('The service port, 443 when unset.'),
})
  .id(`${PKG}.ServiceReference`)
  .desc('The in-cluster Service of an extension API server.');

export const APIServiceSpec = obj({
  service: ref(ServiceReference).proto(1).desc('The service that serves the group-version; served locally when unset.'),
  group: str().proto(2).desc('The API group served.'),
  version: str().proto(3).desc('The API version served.'),
  insecureSkipTLSVerify: bool().proto(4).desc('Whether the server\'s certificate goes unchecked; discouraged.'),
  caBundle: new S({ ...bytes().schema, 'x-kubernetes-list-type': 'atomic' }).proto(5).desc('PEM certificates to verify the server\'s serving certificate.'),
  groupPriorityMinimum: int32().proto(7, { keepZero: true }).required().desc('The group\'s place in discovery: higher comes first.'),
  versionPriority: int32().proto(8, { keepZero: true }).required().desc('The version\'s place within its group: higher comes first.'),
})
  .id(`${PKG}.APIServiceSpec`)
  .desc('Where a group-version is served and how it is listed.');

export const APIServiceCondition = obj({
  type: str().proto(1, { always: true }).required().desc('Available, or another type.'),
  status: str().proto(2, { always: true }).required().desc('True, False or Unknown.'),
  lastTransitionTime: ref(Time).proto(3, { always: true }).desc('When the status last changed.'),
  reason: str().proto(4).desc('A CamelCase reason for the last transition.'),
  message: str().proto(5).desc('A human-readable explanation of the last transition.'),
})
  .id(`${PKG}.APIServiceCondition`)
  .desc('One condition of an APIService.');

export const APIServiceStatus = obj({
  conditions: list(APIServiceCondition).proto(1).map('type').patch('merge', 'type').desc('The current conditions.'),
})
  .id(`${PKG}.APIServiceStatus`)
  .desc('The observed state of an APIService.');

export const APIService = kind({
  spec: ref(APIServiceSpec).proto(2).desc('Where the group-version is served.'),
  status: ref(APIServiceStatus).proto(3).desc('Whether it is available.'),
})
  .id(`${PKG}.APIService`)
  .desc('A group-version and the server that serves it, named "<version>.<group>".');

export const kinds: Readonly<Record<string, S>> = { APIService };
