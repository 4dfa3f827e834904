// The shapes the prober works with: probe kinds, results, a probe's outcome,
// and typed views of the pod JSON parts it reads (container statuses as the
// pod workers generate them, the pod status the status manager holds).
import type { ApiObject } from '../../registry/object.js';

/** Which of a container's probes: kube's probeType. */
export type ProbeKind = 'liveness' | 'readiness' | 'startup';

/** The name used in events and messages ("Liveness probe failed: …"). */
export const PROBE_KIND_TITLE: Readonly<Record<ProbeKind, string>> = { liveness: 'Liveness', readiness: 'Readiness', startup: 'Startup' };

/** A cached probe result (kube's results.Result). */
export type ProbeResult = 'Success' | 'Failure' | 'Unknown';

/** What one run of a probe handler found (kube's probe.Result and its output text). */
export interface ProbeOutcome {
  /** Warning counts as a success, reported with a ProbeWarning event (an HTTP redirect not followed). */
  readonly result: 'Success' | 'Warning' | 'Failure' | 'Unknown';
  readonly output: string;
}

/** A probe handler could not run at all (bad port, runtime error): the result is thrown away, the event says "errored". */
export class ProbeError extends Error {
  override readonly name = 'ProbeError';
}

export type Pod = ApiObject;
export type Json = Record<string, unknown>;

/** A container status as the pod workers write it (the fields the prober reads and fills). */
export interface ContainerStatusView {
  name: string;
  /** `containerd://<id>`; empty before the container exists. */
  containerID?: string;
  state?: {
    running?: { startedAt?: string | null };
    terminated?: { exitCode?: number };
    waiting?: Json;
  };
  ready?: boolean;
  started?: boolean;
  [k: string]: unknown;
}

/** The pod status the prober probes against (what kube's status manager caches). */
export interface PodStatusView {
  phase?: string;
  podIP?: string;
  podIPs?: readonly { readonly ip: string }[];
  containerStatuses?: ContainerStatusView[];
  initContainerStatuses?: ContainerStatusView[];
  [k: string]: unknown;
}
