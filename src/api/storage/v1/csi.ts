// storage/v1 CSI objects: CSIDriver (how Kubernetes treats a CSI driver),
// CSINode (the drivers on a node) and CSIStorageCapacity (capacity a driver
// reports for a topology segment).
import { bool, int32, int64, kind, LabelSelector, list, obj, Quantity, ref, str } from '../../../schema/index.js';

const PKG = 'io.k8s.api.storage.v1';

export const TokenRequest = obj({
  audience: str().proto(1, { keepZero: true }).required().desc('The audience of the service account token.'),
  expirationSeconds: int64().proto(2, { keepZero: true }).desc('How long the token is valid.'),
})
  .id(`${PKG}.TokenRequest`)
  .desc('A service account token the kubelet passes to the driver.');

export const CSIDriverSpec = obj({
  attachRequired: bool().proto(1, { keepZero: true }).desc('Whether volumes need an attach step (VolumeAttachment) before mounting; immutable.'),
  podInfoOnMount: bool().proto(2, { keepZero: true }).desc('Whether mount calls receive the pod\'s name, namespace, uid and service account; immutable.'),
  volumeLifecycleModes: list(str()).proto(3).set().desc('Persistent and/or Ephemeral: the volume modes the driver supports; immutable.'),
  storageCapacity: bool().proto(4, { keepZero: true }).desc('Whether the scheduler considers the driver\'s CSIStorageCapacity objects.'),
  fsGroupPolicy: str().proto(5, { keepZero: true }).desc('ReadWriteOnceWithFSType, File or None: whether the kubelet applies fsGroup ownership; immutable.'),
  tokenRequests: list(TokenRequest).proto(6).atomic().desc('Service account tokens the kubelet passes on mount.'),
  requiresRepublish: bool().proto(7, { keepZero: true }).desc('Whether the kubelet calls NodePublishVolume periodically.'),
  seLinuxMount: bool().proto(8, { keepZero: true }).desc('Whether the driver supports the SELinux context mount option.'),
})
  .id(`${PKG}.CSIDriverSpec`)
  .desc('How Kubernetes works with a CSI driver.');

export const CSIDriver = kind({ spec: ref(CSIDriverSpec).proto(2).desc('How the driver is used.') }, { required: ['spec'] })
  .id(`${PKG}.CSIDriver`)
  .desc('A CSI volume driver on the cluster, named like the driver.');

export const VolumeNodeResources = obj({
  count: int32().proto(1, { keepZero: true }).desc('How many of the driver\'s volumes the node can hold; unlimited when unset.'),
})
  .id(`${PKG}.VolumeNodeResources`)
  .desc('Limits of a driver on a node.');

export const CSINodeDriver = obj({
  name: str().proto(1, { keepZero: true }).required().desc('The name of the driver.'),
  nodeID: str().proto(2, { keepZero: true }).required().desc('The node\'s id as the driver knows it.'),
  topologyKeys: list(str()).proto(3).desc('The topology label keys the driver supports.'),
  allocatable: ref(VolumeNodeResources).proto(4).desc('The volume limits of the driver on the node.'),
})
  .id(`${PKG}.CSINodeDriver`)
  .desc('A CSI driver installed on a node.');

export const CSINodeSpec = obj({
  drivers: list(CSINodeDriver).proto(1).patch('merge', 'name').required().desc('The CSI drivers on the node.'),
})
  .id(`${PKG}.CSINodeSpec`)
  .desc('The CSI drivers of a node.');

export const CSINode = kind({ spec: ref(CSINodeSpec).proto(2).desc('The drivers on the node.') }, { required: ['spec'] })
  .id(`${PKG}.CSINode`)
  .desc('The CSI drivers of a node, named like the node.');

export const CSIStorageCapacity = kind(
  {
    nodeTopology: ref(LabelSelector).proto(2).desc('The nodes that can reach this storage; none when unset. Immutable.'),
    storageClassName: str().proto(3, { keepZero: true }).desc('The StorageClass the capacity is for; immutable.'),
    capacity: ref(Quantity).proto(4).desc('The capacity reported by the driver; none known when unset.'),
    maximumVolumeSize: ref(Quantity).proto(5).desc('The largest volume that can be created; capacity when unset.'),
  },
  { required: ['storageClassName'] },
)
  .id(`${PKG}.CSIStorageCapacity`)
  .desc('Storage capacity a CSI driver reports for a topology segment and storage class.');
