// One worker per container per probe kind (kube's prober worker). It waits a
// random part of the period when the agent has just started (so probes of
// many pods do not fire together), then probes on every period tick and on
// manual triggers, until stopped or its pod ends:
//
//   no status / no container ID yet ........ wait
//   new container ID ....................... drop the old result, set the
//                                            initial one (readiness Failure,
//                                            liveness Success, startup Unknown),
//                                            leave hold
//   on hold (after a liveness/startup failure) wait for a new container
//   container not running .................. Failure; stop unless it will restart
//   pod being deleted (liveness, startup) .. Success, stop
//   within initialDelaySeconds ............. wait
//   startup: container started ............. wait; others: not started ... wait
//   probe → same result N times in a row (failureThreshold / successThreshold)
//         → cache it; a liveness/startup Failure also tells the pod worker to
//           restart the container and holds the worker
import type { ProbeClock } from './clock.js';
import type { Prober } from './prober.js';
import type { ResultsCache } from './results.js';
import { restartPolicyOf, type ProbeSpec } from './spec.js';
import type { ContainerStatusView, Json, Pod, PodStatusView, ProbeKind, ProbeResult } from './types.js';

/** What a worker needs from its manager. */
export interface WorkerHost {
  readonly clock: ProbeClock;
  readonly random: () => number;
  /** When the manager started (ms): workers started within one period of it wait a random part of the period. */
  readonly startedAt: number;
  readonly prober: Prober;
  statusOf(podUid: string): PodStatusView | undefined;
  /** A liveness or startup probe crossed its failure threshold for a running container. */
  probeFailed(w: Worker): void;
  workerDone(w: Worker): void;
  track(p: Promise<unknown>): void;
}

const INITIAL: Readonly<Record<ProbeKind, ProbeResult>> = { readiness: 'Failure', liveness: 'Success', startup: 'Unknown' };

const findStatus = (list: readonly ContainerStatusView[] | undefined, name: string): ContainerStatusView | undefined =>
  list?.find((c) => c.name === name);

export class Worker {
  readonly podUid: string;
  readonly containerName: string;
  /** The last container ID seen (status form, `containerd://…`). */
  containerId = '';
  private lastResult: ProbeResult | undefined;
  private resultRun = 0;
  private onHold = false;
  private stopped = false;
  private pendingTick = false;
  private pendingManual = false;
  private wake: (() => void) | undefined;
  private ticker: unknown;
  private done: Promise<void> | undefined;

  constructor(
    private readonly host: WorkerHost,
    readonly kind: ProbeKind,
    /** The pod as last given (its deletionTimestamp ends liveness/startup probing). */
    public pod: Pod,
    readonly container: Json,
    readonly spec: ProbeSpec,
    private readonly results: ResultsCache,
  ) {
    this.podUid = pod.metadata.uid ?? '';
    this.containerName = String(container.name);
  }

  start(): void {
    this.done ??= this.run();
  }

  /** Ends the worker (it cleans up and leaves its manager); safe to call more than once. */
  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  /** Runs a probe now (kube's manual trigger; at most one pending). */
  trigger(): void {
    this.pendingManual = true;
    this.wake?.();
  }

  /** Resolves when the worker has ended. */
  finished(): Promise<void> {
    return this.done ?? Promise.resolve();
  }

  private async run(): Promise<void> {
    const period = this.spec.periodSeconds * 1000;
    try {
      if (period > this.host.clock.now() - this.host.startedAt) await this.sleep(Math.floor(this.host.random() * period));
      if (this.stopped) return;
      this.tick(period);
      while (!this.stopped) {
        const probing = this.doProbe().catch(() => true);
        this.host.track(probing);
        if (!(await probing) || this.stopped) break;
        await this.nextSignal();
      }
    } finally {
      if (this.ticker !== undefined) this.host.clock.clearTimeout(this.ticker);
      if (this.containerId !== '') this.results.remove(this.containerId);
      this.host.workerDone(this);
    }
  }

  private tick(period: number): void {
    this.ticker = this.host.clock.setTimeout(() => {
      if (this.stopped) return;
      this.pendingTick = true;
      this.wake?.();
      this.tick(period);
    }, period);
  }

  private sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const t = this.host.clock.setTimeout(() => {
        this.wake = undefined;
        resolve();
      }, ms);
      this.wake = () => {
        if (!this.stopped) return;
        this.host.clock.clearTimeout(t);
        this.wake = undefined;
        resolve();
      };
    });
  }

  /** Waits for a tick, a manual trigger or stop; one pending signal is consumed per call. */
  private async nextSignal(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      if (this.pendingManual) {
        this.pendingManual = false;
        return;
      }
      if (this.pendingTick) {
        this.pendingTick = false;
        return;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
  }

  private set(result: ProbeResult): void {
    this.results.set(this.containerId, result, this.podUid, this.containerName);
  }

  /** One round; returns whether the worker keeps going. */
  private async doProbe(): Promise<boolean> {
    const status = this.host.statusOf(this.podUid);
    if (!status) return true;
    if (status.phase === 'Failed' || status.phase === 'Succeeded') return false;
    let c = findStatus(status.containerStatuses, this.containerName);
    if (!c?.containerID) c = findStatus(status.initContainerStatuses, this.containerName);
    if (!c?.containerID) return true;

    if (c.containerID !== this.containerId) {
      if (this.containerId !== '') this.results.remove(this.containerId);
      this.containerId = c.containerID;
      this.set(INITIAL[this.kind]);
      this.onHold = false;
    }
    if (this.onHold) return true;

    const running = c.state?.running;
    if (!running) {
      this.set('Failure');
      return !c.state?.terminated || restartPolicyOf(this.pod) !== 'Never';
    }
    if (this.pod.metadata.deletionTimestamp && (this.kind === 'liveness' || this.kind === 'startup')) {
      this.set('Success');
      return false;
    }
    const startedAt = typeof running.startedAt === 'string' ? Date.parse(running.startedAt) : NaN;
    const sinceStart = Number.isNaN(startedAt) ? Infinity : Math.trunc((this.host.clock.now() - startedAt) / 1000);
    if (sinceStart < this.spec.initialDelaySeconds) return true;

    if (c.started === true) {
      if (this.kind === 'startup') return true;
    } else if (this.kind !== 'startup') return true;

    const run = await this.host.prober.probe(this.kind, this.spec, {
      pod: this.pod, container: this.container, containerId: this.containerId, podIP: status.podIP ?? status.podIPs?.[0]?.ip ?? '',
    });
    if (this.stopped) return false;
    if (run.error !== undefined) return true;

    if (this.lastResult === run.result) this.resultRun++;
    else {
      this.lastResult = run.result;
      this.resultRun = 1;
    }
    if ((run.result === 'Failure' && this.resultRun < this.spec.failureThreshold) ||
        (run.result === 'Success' && this.resultRun < this.spec.successThreshold)) return true;

    this.set(run.result);
    if ((this.kind === 'liveness' || this.kind === 'startup') && run.result === 'Failure') {
      this.onHold = true;
      this.resultRun = 0;
      this.host.probeFailed(this);
    }
    return true;
  }
}
