// storage/v1 CSI objects: CSIDriver (how Kubernetes treats a CSI driver),
// CSINode (the drivers on a node) and CSIStorageCapacity (capacity a driver
// reports for a topology segment).
import { bool, int32, int64, kind, LabelSelector, list, obj, Quantity, ref, str } from '../../../schema/index.js';

const PKG = 'io.k8s.api.storage.v1';

export const TokenRequest = obj({
  audience: str().required().desc('The audience of the service account token.'),
  expirationSeconds: int64().desc('How long the token is valid.'),
})
  .id(`${PKG}.TokenRequest`)
  .desc('A service account token the kubelet passes to the driver.');

export const CSIDriverSpec = obj({
  attachRequired: bool().desc('Whether volumes need an attach step (VolumeAttachment) before mounting; immutable.'),
  podInfoOnMount: bool().desc('Whether mount calls receive the pod\'s name, namespace, uid and service account; immutable.'),
  volumeLifecycleModes: list(str()).set().desc('Persistent and/or Ephemeral: the volume modes the driver supports; immutable.'),
  storageCapacity: bool().desc('Whether the scheduler considers the driver\'s CSIStorageCapacity objects.'),
  fsGroupPolicy: str().desc('ReadWriteOnceWithFSType, File or None: whether the kubelet applies fsGroup ownership; immutable.'),
  tokenRequests: list(TokenRequest).atomic().desc('Service account tokens the kubelet passes on mount.'),
  requiresRepublish: bool().desc('Whether the kubelet calls NodePublishVolume periodically.'),
  seLinuxMount: bool().desc('Whether the driver supports the SELinux context mount option.'),
})
  .id(`${PKG}.CSIDriverSpec`)
  .desc('How Kubernetes works with a CSI driver.');

export const CSIDriver = kind({ spec: ref(CSIDriverSpec).desc('How the driver is used.') }, { required: ['spec'] })
  .id(`${PKG}.CSIDriver`)
  .desc('A CSI volume driver on the cluster, named like the driver.');

export const VolumeNodeResources = obj({
  count: int32().desc('How many of the driver\'s volumes the node can hold; unlimited when unset.'),
})
  .id(`${PKG}.VolumeNodeResources`)
  .desc('Limits of a driver on a node.');

export const CSINodeDriver = obj({
  name: str().required().desc('The name of the driver.'),
  nodeID: str().required().desc('The node\'s id as the driver knows it.'),
  topologyKeys: list(str()).desc('The topology label keys the driver supports.'),
  allocatable: ref(VolumeNodeResources).desc('The volume limits of the driver on the node.'),
})
  .id(`${PKG}.CSINodeDriver`)
  .desc('A CSI driver installed on a node.');

export const CSINodeSpec = obj({
  drivers: list(CSINodeDriver).patch('merge', 'name').required().desc('The CSI drivers on the node.'),
})
  .id(`${PKG}.CSINodeSpec`)
  .desc('The CSI drivers of a node.');

export const CSINode = kind({ spec: ref(CSINodeSpec).desc('The drivers on the node.') }, { required: ['spec'] })
  .id(`${PKG}.CSINode`)
  .desc('The CSI drivers of a node, named like the node.');

export const CSIStorageCapacity = kind(
  {
    nodeTopology: ref(LabelSelector).desc('The nodes that can reach this storage; none when unset. Immutable.'),
    storageClassName: str().desc('The StorageClass the capacity is for; immutable.'),
    capacity: ref(Quantity).desc('The capacity reported by the driver; none known when unset.'),
    maximumVolumeSize: ref(Quantity).desc('The largest volume that can be created; capacity when unset.'),
  },
  { required: ['storageClassName'] },
)
  .id(`${PKG}.CSIStorageCapacity`)
  .desc('Storage capacity a CSI driver reports for a topology segment and storage class.');
