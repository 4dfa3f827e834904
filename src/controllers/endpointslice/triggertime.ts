// kube's TriggerTimeTracker: the time of the earliest change — a pod's Ready
// transition or the service's creation — the endpoints did not yet reflect,
// written as the endpoints.kubernetes.io/last-change-trigger-time annotation.
// A service seen for the first time answers its creationTimestamp.
import { podTriggerTime } from './pods.js';
import type { Pod, Service } from './types.js';

interface ServiceState {
  readonly podTimes: Map<string, string>;
  readonly serviceTime: string;
}

const earlier = (a: string | undefined, b: string): string => (a === undefined || Date.parse(b) < Date.parse(a) ? b : a);

export class TriggerTimeTracker {
  private readonly states = new Map<string, ServiceState>();

  /** The trigger time for this sync (undefined: none; the annotation is cleared), and the state remembered for the next. */
  compute(svc: Service, pods: readonly Pod[]): string | undefined {
    const key = `${svc.metadata.namespace}/${svc.metadata.name}`;
    const state = this.states.get(key);
    const podTimes = new Map<string, string>();
    let min: string | undefined;
    for (const pod of pods) {
      const t = podTriggerTime(pod);
      if (!t) continue;
      podTimes.set(pod.metadata.name!, t);
      if (state?.podTimes.get(pod.metadata.name!) !== t) min = earlier(min, t);
    }
    const serviceTime = svc.metadata.creationTimestamp ?? '';
    if (serviceTime && state?.serviceTime !== serviceTime) min = earlier(min, serviceTime);
    this.states.set(key, { podTimes, serviceTime });
    if (!state) return serviceTime || undefined;
    return min;
  }

  delete(namespace: string, name: string): void {
    this.states.delete(`${namespace}/${name}`);
  }
}
