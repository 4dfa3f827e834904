// The kubelet's runtime manager (kube's pkg/kubelet/kuberuntime, v1.27): pod
// specs turned into CRI calls, one concept per file.
//
//   types.ts       the pod fields read here (typed views of the API JSON)
//   labels.ts      kube's CRI labels/annotations, the container hash
//   dns.ts         dnsPolicy/dnsConfig → DNSConfig, with kube's limits and Events
//   resources.ts   requests/limits → cpu shares, CFS quota, memory, oom_score_adj
//   sandbox.ts     pod → PodSandboxConfig (hostname, logs, ports, namespaces, sysctls, security)
//   expansion.ts   $(VAR) expansion
//   env.ts         env, envFrom, valueFrom refs, service environment variables
//   mounts.ts      volume mounts (subPath, propagation) and the termination-message file
//   etchosts.ts    the pod's managed /etc/hosts
//   security.ts    container security context, seccomp, runAsNonRoot
//   container.ts   container → ContainerConfig
//   images.ts      image pull policy, pull back-off, image Events
//   backoff.ts     client-go's Backoff (crash loop, image pulls)
//   hooks.ts       postStart/preStop handlers (exec over ExecSync, httpGet)
//   actions.ts     computePodActions
//   podstatus.ts   the runtime's view of a pod (GetPodStatus), termination messages
//   manager.ts     SyncPod / KillPod over CRI
//   apistatus.ts   API container statuses (convertToAPIContainerStatuses) + reason cache
//   port.ts        the pod lifecycle's RuntimePort (src/agent/pods/ports.ts)
//   gc.ts          dead container and sandbox collection
//   events.ts      the EventSink and kube's event reasons
//   fake.ts        in-memory RuntimeService/ImageService for tests
export { computePodActions, type PodActions, type ProbeResults } from './actions.js';
export { apiContainerStatuses, ReasonCache } from './apistatus.js';
export { Backoff, containerBackoff } from './backoff.js';
export { Reasons, MemoryEvents, type EventSink, type EventType } from './events.js';
export { FakeImages, FakeRuntime } from './fake.js';
export { garbageCollect } from './gc.js';
export { RuntimeManager, type PodContext, type RuntimeManagerOptions, type SyncResult, type SyncStep } from './manager.js';
export { podStatus, type RuntimeContainerStatus, type RuntimePodStatus } from './podstatus.js';
export { KubeRuntimePort } from './port.js';
export { sandboxConfig, podLogsDirectory } from './sandbox.js';
export type { EnvSources, ServiceLike } from './env.js';
export type { Pod } from './types.js';
