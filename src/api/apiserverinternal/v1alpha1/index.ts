// internal.apiserver/v1alpha1: StorageVersion, the encoding versions the API
// servers of a cluster use for one resource (alpha, off by default).
// Protobuf numbers are left out: not checked against the generated.proto.
import { int64, kind, list, obj, ref, str, Time, type S } from '../../../schema/index.js';

const PKG = 'io.k8s.api.apiserverinternal.v1alpha1';

export const StorageVersionSpec = obj({}).id(`${PKG}.StorageVersionSpec`).desc('Empty: a storage version has no desired state.');

export const ServerStorageVersion = obj({
  apiServerID: str().desc('The id of the API server.'),
  encodingVersion: str().desc('The version the server writes objects in.'),
  decodableVersions: list(str()).set().desc('The versions the server can read; includes encodingVersion.'),
})
  .id(`${PKG}.ServerStorageVersion`)
  .desc('The storage versions of one API server.');

export const StorageVersionCondition = obj({
  type: str().required().desc('AllEncodingVersionsEqual, or another type.'),
  status: str().required().desc('True, False or Unknown.'),
  observedGeneration: int64().desc('The generation the condition was computed from.'),
  lastTransitionTime: ref(Time).desc('When the status last changed.'),
  reason: str().required().desc('A CamelCase reason for the last transition.'),
  message: str().desc('A human-readable explanation of the last transition.'),
})
  .id(`${PKG}.StorageVersionCondition`)
  .desc('One condition of a StorageVersion.');

export const StorageVersionStatus = obj({
  storageVersions: list(ServerStorageVersion).map('apiServerID').desc('The storage versions of each API server.'),
  commonEncodingVersion: str().desc('The version every server writes in, when they agree.'),
  conditions: list(StorageVersionCondition).map('type').desc('The current conditions.'),
})
  .id(`${PKG}.StorageVersionStatus`)
  .desc('The storage versions the API servers report for a resource.');

export const StorageVersion = kind(
  {
    spec: ref(StorageVersionSpec).desc('Empty.'),
    status: ref(StorageVersionStatus).desc('What the API servers report.'),
  },
  { required: ['spec', 'status'] },
)
  .id(`${PKG}.StorageVersion`)
  .desc('The storage versions of one resource across the API servers, named "<group>.<resource>".');

export const kinds: Readonly<Record<string, S>> = { StorageVersion };
