// The node agent's probes (kubelet v1.27's prober): liveness, readiness and
// startup probes of every container, run by one worker per container per
// probe, with exec (CRI ExecSync), httpGet, tcpSocket and grpc handlers.
//
//   pod worker ──addPod/removePod──▶ ProberManager ──▶ Worker (per probe) ──▶ Prober ──▶ exec | http | tcp | grpc
//       ▲   ──updatePodStatus(started/ready)──▶ │            │ results per container ID
//       └──── onChange / onLivenessFailure ◀────┴────────────┘ events (Unhealthy, ProbeWarning) ──▶ recorder
export { ProberManager, probeKillGracePeriod, probeKillMessage, type LivenessFailure, type ProbeKillReason, type ProberManagerOptions } from './manager.js';
export { Prober, containerRef, runHandler, REASON_PROBE_WARNING, REASON_UNHEALTHY, type ProbeEventSink, type ProbeFeatures, type ProbeTarget } from './prober.js';
export { REAL_CLOCK, type ProbeClock } from './clock.js';
export type { ProbeUpdate } from './results.js';
export { probeSpecOf, resolveContainerPort, type ProbeHandler, type ProbeSpec } from './spec.js';
export { expandCommand, expandReferences } from './expand.js';
export { PROBE_USER_AGENT } from './httprequest.js';
export { HEALTH_SERVICE, HEALTH_CHECK_METHOD } from './health.js';
export { ProbeError, type ContainerStatusView, type PodStatusView, type ProbeKind, type ProbeResult, type ProbeOutcome } from './types.js';
