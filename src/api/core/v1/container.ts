// Containers: Container and EphemeralContainer with ports, environment,
// resources and mounts. EphemeralContainer has the fields of Container (Go
// embeds EphemeralContainerCommon, so only targetContainerName has a protobuf
// number of its own); the v1.27 addition resizePolicy is in both.
import { bool, int32, list, mapOf, obj, ref, S, str } from '../../../schema/dsl.js';
import { Quantity } from '../../../schema/common.js';
import { Lifecycle, Probe } from './probe.js';
import { ConfigMapKeySelector, ObjectFieldSelector, ResourceFieldSelector, SecretKeySelector } from './refs.js';
import { SecurityContext } from './security.js';
import { core } from './names.js';

export const ContainerPort = obj({
  name: str().proto(1).desc('A name for the port (IANA service name) that services can refer to.'),
  hostPort: int32().proto(2).desc('The port to expose on the host; most containers need none.'),
  containerPort: int32().required().proto(3, { keepZero: true }).desc("The port number on the pod's IP address."),
  protocol: str().default('TCP').proto(4).desc('TCP, UDP or SCTP.'),
  hostIP: str().proto(5).desc('The host IP to bind the host port to.'),
})
  .id(core('ContainerPort'))
  .desc('A network port of a container.');

export const EnvVarSource = obj({
  fieldRef: ref(ObjectFieldSelector).proto(1).desc('A pod field, such as metadata.name or status.podIP.'),
  resourceFieldRef: ref(ResourceFieldSelector).proto(2).desc('A container resource limit or request.'),
  configMapKeyRef: ref(ConfigMapKeySelector).proto(3).desc('A key of a ConfigMap.'),
  secretKeyRef: ref(SecretKeySelector).proto(4).desc("A key of a Secret in the pod's namespace."),
})
  .id(core('EnvVarSource'))
  .desc("Where an environment variable's value comes from.");

export const EnvVar = obj({
  name: str().required().proto(1, { keepZero: true }).desc("The variable's name."),
  value: str().proto(2).desc('The value; $(VAR) references to earlier variables are expanded.'),
  valueFrom: ref(EnvVarSource).proto(3).desc('Where to take the value from, when value is empty.'),
})
  .id(core('EnvVar'))
  .desc('An environment variable of a container.');

export const ResourceClaim = obj({
  name: str().required().proto(1, { keepZero: true }).desc("The name of a claim in the pod's resourceClaims."),
})
  .id(core('ResourceClaim'))
  .desc("Names one of the pod's resource claims for a container.");

export const ResourceRequirements = obj({
  limits: mapOf(ref(Quantity)).proto(1).desc('The most of each resource allowed.'),
  requests: mapOf(ref(Quantity)).proto(2).desc('The least of each resource needed; the limits when unset.'),
  claims: list(ref(ResourceClaim)).map('name').proto(3).desc('Resource claims of the pod this container uses.'),
})
  .id(core('ResourceRequirements'))
  .desc('Compute resources requested and limited.');

export const VolumeMount = obj({
  name: str().required().proto(1, { keepZero: true }).desc('The name of the volume.'),
  readOnly: bool().proto(2).desc('Whether the mount is read-only.'),
  mountPath: str().required().proto(3, { keepZero: true }).desc("The path in the container; must not contain ':'."),
  subPath: str().proto(4).desc('A path within the volume to mount instead of its root.'),
  mountPropagation: str().proto(5, { keepZero: true }).desc('None, HostToContainer or Bidirectional.'),
  subPathExpr: str().proto(6).desc("Like subPath, with $(VAR) references to the container's environment expanded."),
})
  .id(core('VolumeMount'))
  .desc('A volume mounted into a container.');

export const ConfigMapEnvSource = obj({
  name: str().proto(1, { in: 1 }).desc('The name of the ConfigMap.'),
  optional: bool().proto(2, { keepZero: true }).desc('Whether the ConfigMap may be absent.'),
})
  .id(core('ConfigMapEnvSource'))
  .desc('A ConfigMap whose keys become environment variables.');

export const SecretEnvSource = obj({
  name: str().proto(1, { in: 1 }).desc('The name of the Secret.'),
  optional: bool().proto(2, { keepZero: true }).desc('Whether the Secret may be absent.'),
})
  .id(core('SecretEnvSource'))
  .desc('A Secret whose keys become environment variables.');

export const EnvFromSource = obj({
  prefix: str().proto(1).desc('A prefix to add to each variable name.'),
  configMapRef: ref(ConfigMapEnvSource).proto(2).desc('The ConfigMap to read.'),
  secretRef: ref(SecretEnvSource).proto(3).desc('The Secret to read.'),
})
  .id(core('EnvFromSource'))
  .desc('A ConfigMap or Secret whose keys become environment variables.');

export const VolumeDevice = obj({
  name: str().required().proto(1, { keepZero: true }).desc('The name of a persistentVolumeClaim volume of the pod.'),
  devicePath: str().required().proto(2, { keepZero: true }).desc('The device path inside the container.'),
})
  .id(core('VolumeDevice'))
  .desc('A raw block device exposed to a container.');

export const ContainerResizePolicy = obj({
  resourceName: str().required().proto(1, { keepZero: true }).desc('The resource the policy applies to: cpu or memory.'),
  restartPolicy: str().required().proto(2, { keepZero: true }).desc('NotRequired or RestartContainer.'),
})
  .id(core('ContainerResizePolicy'))
  .desc('How one resource of a container may be resized.');

/** The fields of Container, which EphemeralContainer shares. */
const containerFields = {
  name: str().required().proto(1, { keepZero: true }).desc("The container's name, a DNS label unique within the pod."),
  image: str().proto(2).desc('The container image reference.'),
  command: list(str()).proto(3).desc("The entrypoint, run without a shell; the image's ENTRYPOINT when empty. $(VAR) references are expanded."),
  args: list(str()).proto(4).desc("Arguments to the entrypoint; the image's CMD when empty. $(VAR) references are expanded."),
  workingDir: str().proto(5).desc("The working directory; the runtime's default when empty."),
  ports: list(ref(ContainerPort)).map('containerPort', 'protocol').patch('merge', 'containerPort').proto(6).desc('Ports the container exposes; informational, other ports stay reachable.'),
  envFrom: list(ref(EnvFromSource)).proto(19).desc('Sources whose keys all become environment variables; env entries take precedence.'),
  env: list(ref(EnvVar)).patch('merge', 'name').proto(7).desc('Environment variables to set in the container.'),
  resources: ref(ResourceRequirements).proto(8).desc('Compute resources the container requests and is limited to.'),
  resizePolicy: list(ref(ContainerResizePolicy)).atomic().proto(23).desc('How each resource may be resized in place (alpha, InPlacePodVerticalScaling).'),
  volumeMounts: list(ref(VolumeMount)).patch('merge', 'mountPath').proto(9).desc("Pod volumes to mount into the container's filesystem."),
  volumeDevices: list(ref(VolumeDevice)).patch('merge', 'devicePath').proto(21).desc("Block devices from the pod's volumes to expose to the container."),
  livenessProbe: ref(Probe).proto(10).desc('A periodic check whose failure restarts the container.'),
  readinessProbe: ref(Probe).proto(11).desc('A periodic check whose failure takes the container out of service endpoints.'),
  startupProbe: ref(Probe).proto(22).desc('A check that must succeed before the other probes start.'),
  lifecycle: ref(Lifecycle).proto(12).desc('Actions to run after the container starts and before it stops.'),
  terminationMessagePath: str().proto(13).desc('The file whose content becomes the termination message; /dev/termination-log by default.'),
  terminationMessagePolicy: str().proto(20).desc('File, or FallbackToLogsOnError to use the log tail when the file is empty.'),
  imagePullPolicy: str().proto(14).desc('Always, Never or IfNotPresent.'),
  securityContext: ref(SecurityContext).proto(15).desc("Security options of the container; they override the pod's."),
  stdin: bool().proto(16).desc('Whether to keep a stdin buffer open for the container.'),
  stdinOnce: bool().proto(17).desc('Whether stdin closes after the first attached client disconnects.'),
  tty: bool().proto(18).desc('Whether to allocate a TTY; needs stdin.'),
};

export const Container = obj(containerFields)
  .id(core('Container'))
  .desc('An application container of a pod.');

/** A field of Container as EphemeralContainer has it: inside its embedded EphemeralContainerCommon (field 1). */
function embedded(f: S): S {
  return new S({ ...f.schema, protoIn: [1] }, f.isRequired);
}

const notAllowed = 'Not allowed for ephemeral containers.';

export const EphemeralContainer = obj({
  ...Object.fromEntries(Object.entries(containerFields).map(([k, f]) => [k, embedded(f)])),
  name: embedded(containerFields.name).desc("The container's name, unique among all containers of the pod."),
  ports: embedded(containerFields.ports).desc(notAllowed),
  resources: embedded(containerFields.resources).desc("Not allowed for ephemeral containers; they use the pod's spare resources."),
  volumeMounts: embedded(containerFields.volumeMounts).desc('Pod volumes to mount; subPath mounts are not allowed.'),
  livenessProbe: embedded(containerFields.livenessProbe).desc(notAllowed),
  readinessProbe: embedded(containerFields.readinessProbe).desc(notAllowed),
  startupProbe: embedded(containerFields.startupProbe).desc(notAllowed),
  lifecycle: embedded(containerFields.lifecycle).desc(notAllowed),
  targetContainerName: str().proto(2).desc('The container whose namespaces (process, IPC, ...) this one joins.'),
})
  .id(core('EphemeralContainer'))
  .desc('A temporary container added to a running pod, for example to debug it.');
