// What the pod worker needs to kill a container after a failed liveness or
// startup probe, as kuberuntime computes it: the Killing event's message
// ("Container web failed liveness probe, will be restarted") and the grace
// period (setTerminationGracePeriod).
import { probeSpecOf, restartPolicyOf } from './spec.js';
import type { Json, Pod } from './types.js';

/** Why the pod worker kills a container after a probe (kuberuntime's containerKillReason). */
export type ProbeKillReason = 'LivenessProbe' | 'StartupProbe';

export interface LivenessFailure {
  readonly podUid: string;
  readonly containerName: string;
  /** The status containerID of the container to kill. */
  readonly containerId: string;
  readonly reason: ProbeKillReason;
  /** The Killing event's message, as kuberuntime writes it. */
  readonly message: string;
  /** The grace period to stop it with (the probe's terminationGracePeriodSeconds, the pod's, or 2 s). */
  readonly gracePeriodSeconds: number;
}

/** kuberuntime's minimumGracePeriodInSeconds. */
const MINIMUM_GRACE_PERIOD_SECONDS = 2;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * kuberuntime's setTerminationGracePeriod for a probe kill: the pod's deletion grace period when it is
 * being deleted, else the probe's terminationGracePeriodSeconds when set (and the ProbeTerminationGracePeriod
 * gate is on), else the pod's, else 2.
 */
export function probeKillGracePeriod(pod: Pod, container: Json | undefined, reason: ProbeKillReason, probeTerminationGracePeriod = true): number {
  const dgp = pod.metadata.deletionGracePeriodSeconds;
  if (typeof dgp === 'number') return dgp;
  const spec = isObj(pod.spec) ? pod.spec : {};
  if (typeof spec.terminationGracePeriodSeconds !== 'number') return MINIMUM_GRACE_PERIOD_SECONDS;
  const probe = container && probeTerminationGracePeriod ? probeSpecOf(container, reason === 'LivenessProbe' ? 'liveness' : 'startup') : undefined;
  if (probe?.terminationGracePeriodSeconds !== undefined) return probe.terminationGracePeriodSeconds;
  return spec.terminationGracePeriodSeconds;
}

/** kuberuntime's kill message after a failed probe: `Container web failed liveness probe, will be restarted`. */
export function probeKillMessage(pod: Pod, containerName: string, reason: ProbeKillReason): string {
  const what = reason === 'LivenessProbe' ? 'liveness' : 'startup';
  const base = `Container ${containerName} failed ${what} probe`;
  return restartPolicyOf(pod) !== 'Never' ? `${base}, will be restarted` : base;
}
