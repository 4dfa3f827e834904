// The Events the kubelet records while it runs pods (kube's
// pkg/kubelet/events), written through a small sink the agent wires to its
// event recorder. Container events carry the container's field path
// (`spec.containers{name}`, `spec.initContainers{name}`), as kube's
// GenerateContainerRef.
import type { Pod } from './types.js';

export type EventType = 'Normal' | 'Warning';

export interface EventSink {
  event(pod: Pod, type: EventType, reason: string, message: string, fieldPath?: string): void;
}

export const Reasons = {
  Created: 'Created',
  Started: 'Started',
  Failed: 'Failed',
  Killing: 'Killing',
  BackOff: 'BackOff',
  Pulling: 'Pulling',
  Pulled: 'Pulled',
  InspectFailed: 'InspectFailed',
  ErrImageNeverPull: 'ErrImageNeverPull',
  FailedPostStartHook: 'FailedPostStartHook',
  FailedPreStopHook: 'FailedPreStopHook',
  SandboxChanged: 'SandboxChanged',
  FailedCreatePodSandBox: 'FailedCreatePodSandBox',
  FailedPodSandBoxStatus: 'FailedPodSandBoxStatus',
  FailedKillPod: 'FailedKillPod',
  DNSConfigForming: 'DNSConfigForming',
  MissingClusterDNS: 'MissingClusterDNS',
  InvalidEnvironmentVariableNames: 'InvalidEnvironmentVariableNames',
} as const;

/** An EventSink that keeps what it is given (tests, and the agent before its recorder starts). */
export class MemoryEvents implements EventSink {
  readonly events: { pod: string; type: EventType; reason: string; message: string; fieldPath?: string }[] = [];
  event(pod: Pod, type: EventType, reason: string, message: string, fieldPath?: string): void {
    this.events.push({ pod: `${pod.metadata.namespace}/${pod.metadata.name}`, type, reason, message, ...(fieldPath ? { fieldPath } : {}) });
  }
  reasons(): string[] {
    return this.events.map((e) => e.reason);
  }
}
