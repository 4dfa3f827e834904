// One probe of one container, as kube's prober.probe: the handler runs (an
// error — bad port, runtime failure — is retried up to 3 times), a Warning
// counts as success, and the outcome is reported as kube's events on the
// container:
//   Warning Unhealthy     "Liveness probe failed: HTTP probe failed with statuscode: 500"
//   Warning Unhealthy     "Readiness probe errored: strconv.Atoi: parsing \"web\": invalid syntax"
//   Warning ProbeWarning  "Readiness probe warning: Probe terminated redirects, Response body: …"
import type { InvolvedObject } from '../../controllers/events/reference.js';
import type { RuntimeService } from '../cri/types.js';
import { execProbe } from './exec.js';
import { expandCommand } from './expand.js';
import { grpcProbe } from './grpc.js';
import { buildHttpRequest, httpProbe } from './http.js';
import { formatPod, probeTitle, resolveContainerPort, type ProbeSpec } from './spec.js';
import { tcpProbe } from './tcp.js';
import { ProbeError, type Json, type Pod, type ProbeKind, type ProbeOutcome, type ProbeResult } from './types.js';

/** kube's maxProbeRetries: a handler error is retried this many times in one probe. */
export const MAX_PROBE_RETRIES = 3;

export const REASON_UNHEALTHY = 'Unhealthy';
export const REASON_PROBE_WARNING = 'ProbeWarning';

/** Where probe events go; the agent's EventRecorder fits. */
export interface ProbeEventSink {
  event(ref: InvolvedObject, type: 'Normal' | 'Warning', reason: string, message: string): unknown;
}

/** What one container probe needs to know. */
export interface ProbeTarget {
  readonly pod: Pod;
  readonly container: Json;
  /** The status containerID (`containerd://…`). */
  readonly containerId: string;
  /** The pod's IP from its status ("" when none yet). */
  readonly podIP: string;
}

/** kube's GenerateContainerRef: the pod, with `spec.containers{name}` as field path. */
export function containerRef(pod: Pod, containerName: string): InvolvedObject {
  const m = pod.metadata;
  return {
    apiVersion: 'v1', kind: 'Pod', name: m.name ?? '',
    ...(m.namespace ? { namespace: m.namespace } : {}),
    ...(m.uid ? { uid: m.uid } : {}),
    ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}),
    fieldPath: `spec.containers{${String(containerName)}}`,
  };
}

/** The kubelet feature gates the prober reads (both on by default in 1.27). */
export interface ProbeFeatures {
  /** ExecProbeTimeout (GA-track, default true): an exec probe's timeout is a failure. */
  readonly execProbeTimeout?: boolean;
  /** ProbeTerminationGracePeriod (beta, default true): a probe's terminationGracePeriodSeconds applies to its kill. */
  readonly probeTerminationGracePeriod?: boolean;
}

/** Runs a probe's handler once. Throws ProbeError when it could not run. */
export async function runHandler(runtime: RuntimeService, spec: ProbeSpec, t: ProbeTarget, features: ProbeFeatures = {}): Promise<ProbeOutcome> {
  const h = spec.handler;
  switch (h.kind) {
    case 'exec':
      return execProbe(runtime, t.containerId, expandCommand(h.command, t.container.env), spec.timeoutSeconds, features.execProbeTimeout ?? true);
    case 'httpGet':
      return httpProbe(buildHttpRequest(h, t.container, t.podIP), spec.timeoutSeconds);
    case 'tcpSocket': {
      const port = resolveContainerPort(h.port, t.container);
      return tcpProbe(h.host !== '' ? h.host : t.podIP, port, spec.timeoutSeconds);
    }
    case 'grpc':
      return grpcProbe(t.podIP, h.port, h.service, spec.timeoutSeconds);
    case 'none':
      throw new ProbeError(`missing probe handler for ${formatPod(t.pod)}:${String(t.container.name)}`);
  }
}

export interface ProbeRun {
  readonly result: ProbeResult;
  /** Set when the handler errored every time: the worker throws the result away. */
  readonly error?: string;
  readonly output: string;
}

export class Prober {
  constructor(private readonly runtime: RuntimeService, private readonly recorder?: ProbeEventSink, private readonly features: ProbeFeatures = {}) {}

  async probe(kind: ProbeKind, spec: ProbeSpec, t: ProbeTarget): Promise<ProbeRun> {
    let outcome: ProbeOutcome | undefined;
    let error = '';
    for (let i = 0; i < MAX_PROBE_RETRIES && !outcome; i++) {
      try {
        outcome = await runHandler(this.runtime, spec, t, this.features);
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
      }
    }
    const title = probeTitle(kind);
    const name = String(t.container.name);
    if (!outcome) {
      this.record(t.pod, name, 'Warning', REASON_UNHEALTHY, `${title} probe errored: ${error}`);
      return { result: 'Failure', error, output: '' };
    }
    if (outcome.result === 'Success') return { result: 'Success', output: outcome.output };
    if (outcome.result === 'Warning') {
      this.record(t.pod, name, 'Warning', REASON_PROBE_WARNING, `${title} probe warning: ${outcome.output}`);
      return { result: 'Success', output: outcome.output };
    }
    this.record(t.pod, name, 'Warning', REASON_UNHEALTHY, `${title} probe failed: ${outcome.output}`);
    return { result: 'Failure', output: outcome.output };
  }

  private record(pod: Pod, containerName: string, type: 'Normal' | 'Warning', reason: string, message: string): void {
    if (!this.recorder) return;
    try {
      const done = this.recorder.event(containerRef(pod, containerName), type, reason, message);
      if (done instanceof Promise) done.catch(() => undefined);
    } catch {
      // Events are best effort, as the kubelet's recorder.
    }
  }
}
