// Node with its spec and status: addresses, conditions, daemon endpoints,
// system info, images and volumes. Dynamic kubelet configuration
// (configSource, status.config) is deprecated but still served.
import { bool, int32, int64, list, mapOf, obj, ref, str } from '../../../schema/dsl.js';
import { Quantity, Time, kind } from '../../../schema/common.js';
import { Taint } from './scheduling.js';
import { classicCondition } from './condition.js';
import { core } from './names.js';

export const ConfigMapNodeConfigSource = obj({
  namespace: str().required().proto(1, { keepZero: true }).desc('The namespace of the ConfigMap.'),
  name: str().required().proto(2, { keepZero: true }).desc('The name of the ConfigMap.'),
  uid: str().proto(3).desc('The UID of the ConfigMap; only in node status.'),
  resourceVersion: str().proto(4).desc('The resourceVersion of the ConfigMap; only in node status.'),
  kubeletConfigKey: str().required().proto(5, { keepZero: true }).desc('The key of the ConfigMap holding the KubeletConfiguration.'),
})
  .id(core('ConfigMapNodeConfigSource'))
  .desc("A ConfigMap holding a node's kubelet configuration (deprecated).");

export const NodeConfigSource = obj({
  configMap: ref(ConfigMapNodeConfigSource).proto(2).desc('A ConfigMap holding the configuration.'),
})
  .id(core('NodeConfigSource'))
  .desc("Where a node's configuration comes from (deprecated).");

export const NodeSpec = obj({
  podCIDR: str().proto(1).desc('The pod IP range assigned to the node.'),
  podCIDRs: list(str()).patch('merge').proto(7).desc('The pod IP ranges assigned to the node, at most one per IP family.'),
  providerID: str().proto(3).desc("The node's ID at the cloud provider, as <provider>://<id>."),
  unschedulable: bool().proto(4).desc('Whether new pods may not be scheduled onto the node.'),
  taints: list(ref(Taint)).proto(5).desc("The node's taints."),
  configSource: ref(NodeConfigSource).proto(6).desc('Deprecated and unused.'),
  externalID: str().proto(2).desc('Deprecated and unused.'),
})
  .id(core('NodeSpec'))
  .desc('The desired state of a node.');

export const NodeCondition = classicCondition({
  id: core('NodeCondition'),
  of: 'a node',
  type: 'The condition type, such as Ready or MemoryPressure.',
  transition: 4,
  extra: { lastHeartbeatTime: ref(Time).proto(3, { always: true }).desc('When the condition was last reported.') },
});

export const NodeAddress = obj({
  type: str().required().proto(1, { always: true }).desc('Hostname, InternalIP, ExternalIP, InternalDNS or ExternalDNS.'),
  address: str().required().proto(2, { always: true }).desc('The address.'),
})
  .id(core('NodeAddress'))
  .desc('An address of a node.');

export const DaemonEndpoint = obj({
  Port: int32().required().proto(1, { always: true }).desc('The port number.'),
})
  .id(core('DaemonEndpoint'))
  .desc('A port a node daemon listens on.');

export const NodeDaemonEndpoints = obj({
  kubeletEndpoint: ref(DaemonEndpoint).proto(1, { always: true }).desc('The port the kubelet listens on.'),
})
  .id(core('NodeDaemonEndpoints'))
  .desc('Ports of daemons running on a node.');

export const NodeSystemInfo = obj({
  machineID: str().required().proto(1, { always: true }).desc('The machine ID of the node.'),
  systemUUID: str().required().proto(2, { always: true }).desc('The system UUID of the node.'),
  bootID: str().required().proto(3, { always: true }).desc('The boot ID of the node.'),
  kernelVersion: str().required().proto(4, { always: true }).desc('The kernel version (uname -r).'),
  osImage: str().required().proto(5, { always: true }).desc('The OS image, from /etc/os-release.'),
  containerRuntimeVersion: str().required().proto(6, { always: true }).desc('The container runtime and its version, such as containerd://1.6.8.'),
  kubeletVersion: str().required().proto(7, { always: true }).desc('The kubelet version.'),
  kubeProxyVersion: str().required().proto(8, { always: true }).desc('The kube-proxy version.'),
  operatingSystem: str().required().proto(9, { always: true }).desc('The operating system, such as linux.'),
  architecture: str().required().proto(10, { always: true }).desc('The CPU architecture, such as amd64.'),
})
  .id(core('NodeSystemInfo'))
  .desc('Identifiers and versions reported by a node.');

export const ContainerImage = obj({
  names: list(str()).proto(1, { always: true }).desc('The names the image is known by.'),
  sizeBytes: int64().proto(2).desc('The size of the image in bytes.'),
})
  .id(core('ContainerImage'))
  .desc('An image present on a node.');

export const AttachedVolume = obj({
  name: str().required().proto(1, { always: true }).desc('The name of the attached volume.'),
  devicePath: str().required().proto(2, { always: true }).desc('The device path where the volume is available on the node.'),
})
  .id(core('AttachedVolume'))
  .desc('A volume the node has attached.');

export const NodeConfigStatus = obj({
  assigned: ref(NodeConfigSource).proto(1).desc('The configuration the node will try to use.'),
  active: ref(NodeConfigSource).proto(2).desc('The configuration the node uses.'),
  lastKnownGood: ref(NodeConfigSource).proto(3).desc('The configuration the node falls back to on errors.'),
  error: str().proto(4).desc('Problems reconciling the configuration, if any.'),
})
  .id(core('NodeConfigStatus'))
  .desc("The status of a node's dynamic configuration (deprecated).");

export const NodeStatus = obj({
  capacity: mapOf(ref(Quantity)).proto(1).desc('The total resources of the node.'),
  allocatable: mapOf(ref(Quantity)).proto(2).desc('The resources available to pods.'),
  phase: str().proto(3).desc('Deprecated and unused.'),
  conditions: list(ref(NodeCondition)).patch('merge', 'type').proto(4).desc('The observed conditions of the node.'),
  addresses: list(ref(NodeAddress)).patch('merge', 'type').proto(5).desc('The addresses of the node.'),
  daemonEndpoints: ref(NodeDaemonEndpoints).proto(6, { always: true }).desc('Ports of daemons running on the node.'),
  nodeInfo: ref(NodeSystemInfo).proto(7, { always: true }).desc('Identifiers and versions reported by the node.'),
  images: list(ref(ContainerImage)).proto(8).desc('Container images present on the node.'),
  volumesInUse: list(str()).proto(9).desc('Attachable volumes mounted on the node.'),
  volumesAttached: list(ref(AttachedVolume)).proto(10).desc('Volumes attached to the node.'),
  config: ref(NodeConfigStatus).proto(11).desc("The status of the node's dynamic configuration (deprecated)."),
})
  .id(core('NodeStatus'))
  .desc('The observed state of a node.');

export const Node = kind({
  spec: ref(NodeSpec).proto(2).desc('The desired state of the node.'),
  status: ref(NodeStatus).proto(3).desc('The observed state of the node.'),
})
  .id(core('Node'))
  .desc('A worker node of the cluster.');
