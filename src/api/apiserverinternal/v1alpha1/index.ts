// internal.apiserver/v1alpha1: StorageVersion, the encoding versions the API
// servers of a cluster use for one resource (alpha, off by default).
// Protobuf numbers are those of the v1.27 Go types (generated.proto).
import { int64, kind, list, obj, ref, str, Time, type S } from '../../../schema/index.js';

const PKG = 'io.k8s.api.apiserverinternal.v1alpha1';

export const StorageVersionSpec = obj({}).id(`${PKG}.StorageVersionSpec`).desc('Empty: a storage version has no desired state.');

export const ServerStorageVersion = obj({
  apiServerID: str().proto(1).desc('The id of the API server.'),
  encodingVersion: str().proto(2).desc('The version the server writes objects in.'),
  decodableVersions: list(str()).proto(3).set().desc('The versions the server can read; includes encodingVersion.'),
})
  .id(`${PKG}.ServerStorageVersion`)
  .desc('The storage versions of one API server.');

export const StorageVersionCondition = obj({
  type: str().proto(1, { always: true }).required().desc('AllEncodingVersionsEqual, or another type.'),
  status: str().proto(2, { always: true }).required().desc('True, False or Unknown.'),
  observedGeneration: int64().proto(3).desc('The generation the condition was computed from.'),
  lastTransitionTime: ref(Time).proto(4, { always: true }).desc('When the status last changed.'),
  reason: str().proto(5, { always: true }).required().desc('A CamelCase reason for the last transition.'),
  message: str().proto(6).desc('A human-readable explanation of the last transition.'),
})
  .id(`${PKG}.StorageVersionCondition`)
  .desc('One condition of a StorageVersion.');

export const StorageVersionStatus = obj({
  storageVersions: list(ServerStorageVersion).proto(1).map('apiServerID').desc('The storage versions of each API server.'),
  commonEncodingVersion: str().proto(2, { keepZero: true }).desc('The version every server writes in, when they agree.'),
  conditions: list(StorageVersionCondition).proto(3).map('type').desc('The current conditions.'),
})
  .id(`${PKG}.StorageVersionStatus`)
  .desc('The storage versions the API servers report for a resource.');

export const StorageVersion = kind(
  {
    spec: ref(StorageVersionSpec).proto(2).desc('Empty.'),
    status: ref(StorageVersionStatus).proto(3).desc('What the API servers report.'),
  },
  { required: ['spec', 'status'] },
)
  .id(`${PKG}.StorageVersion`)
  .desc('The storage versions of one resource across the API servers, named "<group>.<resource>".');

export const kinds: Readonly<Record<string, S>> = { StorageVersion };
