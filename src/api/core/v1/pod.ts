// Pod, PodTemplate and Binding, with PodSpec, PodTemplateSpec (used by every
// workload group), PodStatus and the container statuses. The v1.27 additions
// for in-place resize are here: status.resize and the container statuses'
// allocatedResources and resources.
import { bool, int32, int64, list, mapOf, obj, ref, str } from '../../../schema/dsl.js';
import { ObjectMeta, Quantity, Time, kind } from '../../../schema/common.js';
import { Container, EphemeralContainer, ResourceRequirements } from './container.js';
import { LocalObjectReference, ObjectReference } from './refs.js';
import { Affinity, Toleration, TopologySpreadConstraint } from './scheduling.js';
import { PodSecurityContext } from './security.js';
import { Volume } from './volume.js';
import { classicCondition, lastProbeTime } from './condition.js';
import { core } from './names.js';

export const HostAlias = obj({
  ip: str().proto(1).desc('The IP address.'),
  hostnames: list(str()).proto(2).desc('The hostnames for that address.'),
})
  .id(core('HostAlias'))
  .desc("An entry added to the pod's hosts file.");

export const PodDNSConfigOption = obj({
  name: str().proto(1).desc("The option's name."),
  value: str().proto(2, { keepZero: true }).desc("The option's value."),
})
  .id(core('PodDNSConfigOption'))
  .desc('A DNS resolver option.');

export const PodDNSConfig = obj({
  nameservers: list(str()).proto(1).desc('DNS server IP addresses.'),
  searches: list(str()).proto(2).desc('DNS search domains.'),
  options: list(ref(PodDNSConfigOption)).proto(3).desc('Resolver options.'),
})
  .id(core('PodDNSConfig'))
  .desc('DNS settings of a pod, added to those from its DNS policy.');

export const PodReadinessGate = obj({
  conditionType: str().required().proto(1, { keepZero: true }).desc('The type of that condition.'),
})
  .id(core('PodReadinessGate'))
  .desc('An extra pod condition that must be True for the pod to be ready.');

export const PodOS = obj({
  name: str().required().proto(1, { keepZero: true }).desc('linux or windows.'),
})
  .id(core('PodOS'))
  .desc("The operating system of a pod's containers.");

export const PodSchedulingGate = obj({
  name: str().required().proto(1, { keepZero: true }).desc('The name of the gate.'),
})
  .id(core('PodSchedulingGate'))
  .desc('A gate that holds a pod back from scheduling until it is removed.');

export const ClaimSource = obj({
  resourceClaimName: str().proto(1, { keepZero: true }).desc("The name of an existing ResourceClaim in the pod's namespace."),
  resourceClaimTemplateName: str().proto(2, { keepZero: true }).desc('The name of a ResourceClaimTemplate from which a claim is created for the pod.'),
})
  .id(core('ClaimSource'))
  .desc("Where a pod's resource claim comes from: an existing ResourceClaim or a template.");

export const PodResourceClaim = obj({
  name: str().required().proto(1, { keepZero: true }).desc('The name of the claim within the pod.'),
  source: ref(ClaimSource).proto(2).desc('Where the claim comes from.'),
})
  .id(core('PodResourceClaim'))
  .desc('A resource claim of a pod, named for its containers to refer to.');

export const PodSpec = obj({
  volumes: list(ref(Volume)).patch('merge,retainKeys', 'name').proto(1).desc("Volumes the pod's containers can mount."),
  initContainers: list(ref(Container)).patch('merge', 'name').proto(20).desc('Containers run in order, each to completion, before the app containers start.'),
  containers: list(ref(Container)).patch('merge', 'name').required().proto(2).desc('The app containers; at least one.'),
  ephemeralContainers: list(ref(EphemeralContainer)).patch('merge', 'name').proto(34).desc('Debugging containers added through the ephemeralcontainers subresource.'),
  restartPolicy: str().proto(3).desc('Always, OnFailure or Never.'),
  terminationGracePeriodSeconds: int64().proto(4, { keepZero: true }).desc('Seconds between the termination signal and the kill signal.'),
  activeDeadlineSeconds: int64().proto(5, { keepZero: true }).desc('Seconds the pod may be active before it is failed.'),
  dnsPolicy: str().proto(6).desc('ClusterFirst, ClusterFirstWithHostNet, Default or None.'),
  nodeSelector: mapOf(str()).atomic().proto(7).desc('Labels a node must have for the pod to run on it.'),
  serviceAccountName: str().proto(8).desc('The ServiceAccount the pod runs as.'),
  serviceAccount: str().proto(9).desc('Deprecated alias of serviceAccountName.'),
  automountServiceAccountToken: bool().proto(21, { keepZero: true }).desc('Whether to mount a service account token.'),
  nodeName: str().proto(10).desc('The node the pod is bound to.'),
  hostNetwork: bool().proto(11).desc("Whether to use the node's network namespace."),
  hostPID: bool().proto(12).desc("Whether to use the node's process namespace."),
  hostIPC: bool().proto(13).desc("Whether to use the node's IPC namespace."),
  shareProcessNamespace: bool().proto(27, { keepZero: true }).desc('Whether the containers share one process namespace.'),
  securityContext: ref(PodSecurityContext).proto(14).desc('Pod-level security settings.'),
  imagePullSecrets: list(ref(LocalObjectReference)).patch('merge', 'name').proto(15).desc("Secrets used to pull the pod's images."),
  hostname: str().proto(16).desc("The pod's hostname; system-defined when empty."),
  subdomain: str().proto(17).desc('A subdomain that gives the pod a fully qualified name with the hostname.'),
  affinity: ref(Affinity).proto(18).desc('Scheduling constraints.'),
  schedulerName: str().proto(19).desc('The scheduler to dispatch the pod.'),
  tolerations: list(ref(Toleration)).proto(22).desc('Taints the pod tolerates.'),
  hostAliases: list(ref(HostAlias)).patch('merge', 'ip').proto(23).desc("Entries to add to the pod's hosts file."),
  priorityClassName: str().proto(24).desc('The PriorityClass of the pod.'),
  priority: int32().proto(25, { keepZero: true }).desc("The pod's priority, filled in from the PriorityClass."),
  dnsConfig: ref(PodDNSConfig).proto(26).desc('Extra DNS settings.'),
  readinessGates: list(ref(PodReadinessGate)).proto(28).desc('Extra conditions that must hold for the pod to be ready.'),
  runtimeClassName: str().proto(29, { keepZero: true }).desc('The RuntimeClass to run the pod with.'),
  enableServiceLinks: bool().proto(30, { keepZero: true }).desc('Whether service information is injected as environment variables; true by default.'),
  preemptionPolicy: str().proto(31, { keepZero: true }).desc('PreemptLowerPriority or Never.'),
  overhead: mapOf(ref(Quantity)).proto(32).desc("Resources consumed by the pod's sandbox, set from the RuntimeClass."),
  topologySpreadConstraints: list(ref(TopologySpreadConstraint)).map('topologyKey', 'whenUnsatisfiable').patch('merge', 'topologyKey').proto(33).desc("How the pod's group spreads across topology domains."),
  setHostnameAsFQDN: bool().proto(35, { keepZero: true }).desc("Whether the hostname is the pod's fully qualified name."),
  os: ref(PodOS).proto(36).desc('The operating system of the containers.'),
  hostUsers: bool().proto(37, { keepZero: true }).desc("Whether to use the node's user namespace; true by default."),
  schedulingGates: list(ref(PodSchedulingGate)).map('name').patch('merge', 'name').proto(38).desc('Gates that keep the pod from being scheduled while present.'),
  resourceClaims: list(ref(PodResourceClaim)).map('name').patch('merge,retainKeys', 'name').proto(39).desc('Resource claims the pod needs before it starts (alpha).'),
})
  .id(core('PodSpec'))
  .desc('The desired state of a pod.');

export const PodCondition = classicCondition({
  id: core('PodCondition'), of: 'a pod', type: 'The condition type, such as Ready or PodScheduled.', transition: 4, extra: lastProbeTime,
});

export const PodIP = obj({
  ip: str().proto(1).desc('The IP address.'),
})
  .id(core('PodIP'))
  .desc('An IP address of a pod.');

export const ContainerStateWaiting = obj({
  reason: str().proto(1).desc('A short reason why the container is not running.'),
  message: str().proto(2).desc('Details of why the container is not running.'),
})
  .id(core('ContainerStateWaiting'))
  .desc('A container that is not running yet.');

export const ContainerStateRunning = obj({
  startedAt: ref(Time).proto(1, { always: true }).desc('When the container last (re)started.'),
})
  .id(core('ContainerStateRunning'))
  .desc('A running container.');

export const ContainerStateTerminated = obj({
  exitCode: int32().required().proto(1, { always: true }).desc('The exit status of the last run.'),
  signal: int32().proto(2).desc('The signal that ended the last run.'),
  reason: str().proto(3).desc('A short reason for the termination.'),
  message: str().proto(4).desc('Details of the termination.'),
  startedAt: ref(Time).proto(5, { always: true }).desc('When the last run started.'),
  finishedAt: ref(Time).proto(6, { always: true }).desc('When the last run ended.'),
  containerID: str().proto(7).desc('The container ID, as <type>://<id>.'),
})
  .id(core('ContainerStateTerminated'))
  .desc('A terminated container.');

export const ContainerState = obj({
  waiting: ref(ContainerStateWaiting).proto(1).desc('Set while the container waits to run.'),
  running: ref(ContainerStateRunning).proto(2).desc('Set while the container runs.'),
  terminated: ref(ContainerStateTerminated).proto(3).desc('Set after the container ended.'),
})
  .id(core('ContainerState'))
  .desc('The state of a container: waiting, running or terminated; only one is set.');

export const ContainerStatus = obj({
  name: str().required().proto(1, { always: true }).desc("The container's name."),
  state: ref(ContainerState).proto(2, { always: true }).desc('The current state.'),
  lastState: ref(ContainerState).proto(3, { always: true }).desc('The previous termination, kept to help debug restarts.'),
  ready: bool().required().proto(4, { always: true }).desc('Whether the container passes its readiness check.'),
  restartCount: int32().required().proto(5, { always: true }).desc('How many times the container restarted.'),
  image: str().required().proto(6, { always: true }).desc('The image the container runs.'),
  imageID: str().required().proto(7, { always: true }).desc('The ID of the image the container runs.'),
  containerID: str().proto(8).desc('The container ID, as <type>://<id>.'),
  started: bool().proto(9, { keepZero: true }).desc('Whether the container passed its postStart hook and startup probe.'),
  allocatedResources: mapOf(ref(Quantity)).proto(10).desc('The resources the node allocated to the container (alpha).'),
  resources: ref(ResourceRequirements).proto(11).desc('The resource requests and limits in effect for the running container (alpha).'),
})
  .id(core('ContainerStatus'))
  .desc('The observed state of one container of a pod.');

export const PodStatus = obj({
  phase: str().proto(1).desc('Pending, Running, Succeeded, Failed or Unknown.'),
  conditions: list(ref(PodCondition)).patch('merge', 'type').proto(2).desc('The observed conditions of the pod.'),
  message: str().proto(3).desc('Why the pod is in this state.'),
  reason: str().proto(4).desc('A short CamelCase reason, such as Evicted.'),
  nominatedNodeName: str().proto(11).desc('The node this pod preempted others on and may be scheduled to.'),
  hostIP: str().proto(5).desc("The IP of the pod's node."),
  podIP: str().proto(6).desc("The pod's IP address."),
  podIPs: list(ref(PodIP)).patch('merge', 'ip').proto(12).desc("The pod's IP addresses, at most one per IP family."),
  startTime: ref(Time).proto(7).desc('When the kubelet accepted the pod.'),
  initContainerStatuses: list(ref(ContainerStatus)).proto(10).desc('The status of each init container.'),
  containerStatuses: list(ref(ContainerStatus)).proto(8).desc('The status of each app container.'),
  qosClass: str().proto(9).desc('Guaranteed, Burstable or BestEffort.'),
  ephemeralContainerStatuses: list(ref(ContainerStatus)).proto(13).desc('The status of each ephemeral container.'),
  resize: str().proto(14).desc('The state of a pending in-place resize (alpha).'),
})
  .id(core('PodStatus'))
  .desc('The observed state of a pod.');

export const Pod = kind({
  spec: ref(PodSpec).proto(2).desc('The desired state of the pod.'),
  status: ref(PodStatus).proto(3).desc('The observed state of the pod.'),
})
  .id(core('Pod'))
  .desc('A group of containers that run together on a node.');

export const PodTemplateSpec = obj({
  metadata: ref(ObjectMeta).proto(1).desc('Metadata of the created pods.'),
  spec: ref(PodSpec).proto(2).desc('The spec of the created pods.'),
})
  .id(core('PodTemplateSpec'))
  .desc('The metadata and spec of pods created from a template.');

export const PodTemplate = kind({
  template: ref(PodTemplateSpec).proto(2).desc('The pods to create.'),
})
  .id(core('PodTemplate'))
  .desc('A template for pods.');

export const Binding = kind({
  target: ref(ObjectReference).required().proto(2).desc('The object to bind to.'),
})
  .id(core('Binding'))
  .desc('Binds an object to another, such as a pod to a node; use the pods/binding subresource.');
