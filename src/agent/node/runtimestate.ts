// The kubelet's runtimeState: what the last CRI Status() said, checked every
// few seconds (updateRuntimeUp), turned into the errors the Ready condition
// reports — kube's texts:
//   never answered              container runtime status check may not have completed yet
//   no good answer for 30 s     container runtime is down
//   RuntimeReady false          container runtime not ready: RuntimeReady=false reason:… message:…
//   NetworkReady false          container runtime network not ready: NetworkReady=false reason:… message:…
//   a health check failing      <name> is not healthy: <error>   (PLEG's, given by the pod workers)
import type { RuntimeCondition, RuntimeService } from '../cri/types.js';

/** kube's baseRuntimeSyncThreshold / maxWaitForContainerRuntime. */
export const RUNTIME_SYNC_THRESHOLD_MS = 30_000;

const describe = (c: RuntimeCondition | undefined, type: string): string =>
  c ? `${c.type}=${c.status} reason:${c.reason} message:${c.message}` : `${type}=false reason: message:`;

export class RuntimeState {
  private lastSync = 0;
  private runtimeError: string | undefined;
  private networkError: string | undefined;

  constructor(private readonly thresholdMs = RUNTIME_SYNC_THRESHOLD_MS) {}

  /** Records a Status() answer at `now`; a failed call changes nothing (the sync grows old). */
  observe(conditions: readonly RuntimeCondition[], now: number): void {
    const runtime = conditions.find((c) => c.type === 'RuntimeReady');
    const network = conditions.find((c) => c.type === 'NetworkReady');
    this.networkError = network?.status ? undefined : `container runtime network not ready: ${describe(network, 'NetworkReady')}`;
    if (!runtime?.status) {
      this.runtimeError = `container runtime not ready: ${describe(runtime, 'RuntimeReady')}`;
      return;
    }
    this.runtimeError = undefined;
    this.lastSync = now;
  }

  /** Asks the runtime once (kube's updateRuntimeUp). */
  async check(runtime: Pick<RuntimeService, 'status'>, now: () => number): Promise<void> {
    let conditions: readonly RuntimeCondition[];
    try {
      conditions = await runtime.status();
    } catch {
      return;
    }
    this.observe(conditions, now());
  }

  /** The runtime's errors at `now`, in kube's order; `health`: the failed health checks' texts (they go before the runtime's own error). */
  runtimeErrors(now: number, health: readonly string[] = []): string[] {
    const errs: string[] = [];
    if (this.lastSync === 0) errs.push('container runtime status check may not have completed yet');
    else if (this.lastSync + this.thresholdMs <= now) errs.push('container runtime is down');
    errs.push(...health);
    if (this.runtimeError) errs.push(this.runtimeError);
    return errs;
  }

  networkErrors(): string[] {
    return this.networkError ? [this.networkError] : [];
  }
}
