// apiregistration/v1: APIService, which tells the aggregator which server
// serves a group-version.
// Protobuf numbers are left out: not checked against the generated.proto.
import { bool, bytes, int32, kind, list, obj, ref, S, str, Time } from '../../../schema/index.js';

const PKG = 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1';

export const ServiceReference = obj({
  namespace: str().desc('The namespace of the service.'),
  name: str().desc('The name of the service.'),
  port: int32().desc('The service port, 443 when unset.'),
})
  .id(`${PKG}.ServiceReference`)
  .desc('The in-cluster Service of an extension API server.');

export const APIServiceSpec = obj({
  service: ref(ServiceReference).desc('The service that serves the group-version; served locally when unset.'),
  group: str().desc('The API group served.'),
  version: str().desc('The API version served.'),
  insecureSkipTLSVerify: bool().desc('Whether the server\'s certificate goes unchecked; discouraged.'),
  caBundle: new S({ ...bytes().schema, 'x-kubernetes-list-type': 'atomic' }).desc('PEM certificates to verify the server\'s serving certificate.'),
  groupPriorityMinimum: int32().required().desc('The group\'s place in discovery: higher comes first.'),
  versionPriority: int32().required().desc('The version\'s place within its group: higher comes first.'),
})
  .id(`${PKG}.APIServiceSpec`)
  .desc('Where a group-version is served and how it is listed.');

export const APIServiceCondition = obj({
  type: str().required().desc('Available, or another type.'),
  status: str().required().desc('True, False or Unknown.'),
  lastTransitionTime: ref(Time).desc('When the status last changed.'),
  reason: str().desc('A CamelCase reason for the last transition.'),
  message: str().desc('A human-readable explanation of the last transition.'),
})
  .id(`${PKG}.APIServiceCondition`)
  .desc('One condition of an APIService.');

export const APIServiceStatus = obj({
  conditions: list(APIServiceCondition).map('type').patch('merge', 'type').desc('The current conditions.'),
})
  .id(`${PKG}.APIServiceStatus`)
  .desc('The observed state of an APIService.');

export const APIService = kind({
  spec: ref(APIServiceSpec).desc('Where the group-version is served.'),
  status: ref(APIServiceStatus).desc('Whether it is available.'),
})
  .id(`${PKG}.APIService`)
  .desc('A group-version and the server that serves it, named "<version>.<group>".');

export const kinds: Readonly<Record<string, S>> = { APIService };
