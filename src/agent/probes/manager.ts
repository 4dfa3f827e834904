// The prober manager (kube's prober.Manager): a worker per container per
// probe (startup, readiness, liveness), the three result caches, and
// UpdatePodStatus, which fills each container status's `started` and
// `ready` from them:
//
//   started  not running → false; else the startup result is Success, or
//            there is no startup probe
//   ready    (only once started) not running → false; else the readiness
//            result is Success, or there is no readiness probe (a probe that
//            has not succeeded yet is triggered at once)
//   init containers: ready when terminated with exit code 0
//
// The statuses given to updatePodStatus are what the workers probe against
// (pod IP, container IDs, running state), as the kubelet's status manager.
// Every change of a cached result goes to `onChange`; a liveness or startup
// failure of a running container also goes to `onLivenessFailure` with the
// message the kill is recorded with ("Container web failed liveness probe,
// will be restarted") and kube's grace period for it.
import type { RuntimeService } from '../cri/types.js';
import { REAL_CLOCK, type ProbeClock } from './clock.js';
import { Prober, type ProbeEventSink, type ProbeFeatures } from './prober.js';
import { ResultsCache, type ProbeUpdate } from './results.js';
import { probeKillGracePeriod, probeKillMessage, type LivenessFailure, type ProbeKillReason } from './kill.js';
import { containerNamed, containersOf, probeSpecOf } from './spec.js';
import type { ContainerStatusView, Json, Pod, PodStatusView, ProbeKind, ProbeResult } from './types.js';
import { Worker, type WorkerHost } from './worker.js';

export { probeKillGracePeriod, probeKillMessage, type LivenessFailure, type ProbeKillReason } from './kill.js';

export interface ProberManagerOptions {
  readonly runtime: RuntimeService;
  /** Every change of a cached result (readiness and startup changes update the pod's status). */
  readonly onChange?: (u: ProbeUpdate) => void;
  /** A liveness or startup probe failed: kill the container (and restart it per the pod's restartPolicy). */
  readonly onLivenessFailure?: (podUid: string, containerName: string, message: string, failure: LivenessFailure) => void;
  readonly recorder?: ProbeEventSink;
  /** Feature gates (ExecProbeTimeout, ProbeTerminationGracePeriod); both on when unset. */
  readonly features?: ProbeFeatures;
  readonly clock?: ProbeClock;
  /** [0,1) for the initial jitter; Math.random by default. */
  readonly random?: () => number;
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const KINDS: readonly ProbeKind[] = ['startup', 'readiness', 'liveness'];
const key = (uid: string, container: string, kind: ProbeKind): string => `${uid}\u0000${container}\u0000${kind}`;

function snapshot(status: PodStatusView): PodStatusView {
  const copy = (l: ContainerStatusView[] | undefined): ContainerStatusView[] | undefined => l?.map((c) => ({ ...c }));
  return {
    ...(status.phase !== undefined ? { phase: status.phase } : {}),
    ...(status.podIP !== undefined ? { podIP: status.podIP } : {}),
    ...(status.podIPs !== undefined ? { podIPs: status.podIPs } : {}),
    ...(status.containerStatuses ? { containerStatuses: copy(status.containerStatuses) } : {}),
    ...(status.initContainerStatuses ? { initContainerStatuses: copy(status.initContainerStatuses) } : {}),
  };
}

export class ProberManager {
  private readonly workers = new Map<string, Worker>();
  private readonly statuses = new Map<string, PodStatusView>();
  private readonly caches: Readonly<Record<ProbeKind, ResultsCache>>;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly host: WorkerHost;

  constructor(private readonly opts: ProberManagerOptions) {
    const onUpdate = (u: ProbeUpdate): void => {
      try {
        opts.onChange?.(u);
      } catch {
        // A listener's failure does not stop probing.
      }
    };
    this.caches = {
      liveness: new ResultsCache('liveness', onUpdate),
      readiness: new ResultsCache('readiness', onUpdate),
      startup: new ResultsCache('startup', onUpdate),
    };
    const clock = opts.clock ?? REAL_CLOCK;
    this.host = {
      clock,
      random: opts.random ?? Math.random,
      startedAt: clock.now(),
      prober: new Prober(opts.runtime, opts.recorder, opts.features),
      statusOf: (uid) => this.statuses.get(uid),
      probeFailed: (w) => this.probeFailed(w),
      workerDone: (w) => {
        const k = key(w.podUid, w.containerName, w.kind);
        if (this.workers.get(k) === w) this.workers.delete(k);
      },
      track: (p) => {
        this.inFlight.add(p);
        void p.finally(() => this.inFlight.delete(p));
      },
    };
  }

  /** Starts workers for every probe of the pod's containers (existing workers are kept: probes are not updated). */
  addPod(pod: Pod): void {
    const uid = pod.metadata.uid ?? '';
    for (const c of containersOf(pod)) {
      const name = String(c.name);
      for (const kind of KINDS) {
        const spec = probeSpecOf(c, kind);
        if (!spec) continue;
        const k = key(uid, name, kind);
        if (this.workers.has(k)) continue;
        const w = new Worker(this.host, kind, pod, c, spec, this.caches[kind]);
        this.workers.set(k, w);
        w.start();
      }
    }
  }

  /** Stops the pod's liveness and startup workers (the pod is terminating). */
  stopLivenessAndStartup(uid: string): void {
    for (const w of this.workers.values()) if (w.podUid === uid && w.kind !== 'readiness') w.stop();
  }

  /** Stops every worker of the pod (their results are dropped) and forgets its status. */
  removePod(uid: string): void {
    for (const w of this.workers.values()) if (w.podUid === uid) w.stop();
    this.statuses.delete(uid);
  }

  /** Stops the workers of pods not in `desired`. */
  cleanupPods(desired: Iterable<string>): void {
    const keep = new Set(desired);
    for (const w of this.workers.values()) if (!keep.has(w.podUid)) w.stop();
    for (const uid of [...this.statuses.keys()]) if (!keep.has(uid)) this.statuses.delete(uid);
  }

  /**
   * Fills `started` and `ready` of the container statuses (in place; also returned) as kube's
   * UpdatePodStatus, and keeps the status as what the workers probe against. Takes the pod's full
   * status, or just its container statuses (phase, pod IPs and init containers then come from `pod.status`).
   */
  updatePodStatus(pod: Pod, status: PodStatusView | ContainerStatusView[]): PodStatusView {
    const uid = pod.metadata.uid ?? '';
    const podStatus = isObj(pod.status) ? (pod.status as PodStatusView) : {};
    const s: PodStatusView = Array.isArray(status)
      ? {
        ...podStatus,
        containerStatuses: status,
        ...(podStatus.initContainerStatuses ? { initContainerStatuses: podStatus.initContainerStatuses.map((c) => ({ ...c })) } : {}),
      }
      : status;
    for (const c of s.containerStatuses ?? []) {
      const running = c.state?.running !== undefined && c.state.running !== null;
      const id = c.containerID ?? '';
      let started: boolean;
      if (!running) started = false;
      else {
        const r = this.caches.startup.get(id);
        started = r !== undefined ? r === 'Success' : !this.workers.has(key(uid, c.name, 'startup'));
      }
      c.started = started;
      if (started) {
        let ready: boolean;
        if (!running) ready = false;
        else if (this.caches.readiness.get(id) === 'Success') ready = true;
        else {
          const w = this.workers.get(key(uid, c.name, 'readiness'));
          ready = w === undefined;
          w?.trigger();
        }
        c.ready = ready;
      } else if (typeof c.ready !== 'boolean') c.ready = false;
    }
    for (const c of s.initContainerStatuses ?? []) {
      const t = c.state?.terminated;
      c.ready = t !== undefined && t !== null && t.exitCode === 0;
    }
    this.statuses.set(uid, snapshot(s));
    for (const w of this.workers.values()) if (w.podUid === uid) w.pod = pod;
    return s;
  }

  /** The cached result of a container's probe (what computePodActions reads for liveness and startup). */
  result(kind: ProbeKind, containerId: string): ProbeResult | undefined {
    return this.caches[kind].get(containerId);
  }

  /** How many workers run (tests, metrics). */
  get workerCount(): number {
    return this.workers.size;
  }

  /** Whether a worker runs for this container probe. */
  hasWorker(uid: string, containerName: string, kind: ProbeKind): boolean {
    return this.workers.has(key(uid, containerName, kind));
  }

  /** Resolves once no probe is running (tests drive the workers with a fake clock and wait on this). */
  async settled(): Promise<void> {
    for (;;) {
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
      if (this.inFlight.size === 0) return;
      await Promise.allSettled([...this.inFlight]);
    }
  }

  /** Stops every worker and waits for them to end. */
  async close(): Promise<void> {
    const all = [...this.workers.values()];
    for (const w of all) w.stop();
    await Promise.all(all.map((w) => w.finished()));
    this.statuses.clear();
  }

  private probeFailed(w: Worker): void {
    const reason: ProbeKillReason = w.kind === 'startup' ? 'StartupProbe' : 'LivenessProbe';
    const container = containerNamed(w.pod, w.containerName) ?? w.container;
    const failure: LivenessFailure = {
      podUid: w.podUid, containerName: w.containerName, containerId: w.containerId, reason,
      message: probeKillMessage(w.pod, w.containerName, reason),
      gracePeriodSeconds: probeKillGracePeriod(w.pod, container, reason, this.opts.features?.probeTerminationGracePeriod ?? true),
    };
    try {
      this.opts.onLivenessFailure?.(failure.podUid, failure.containerName, failure.message, failure);
    } catch {
      // The pod worker's failure does not stop probing.
    }
  }
}
