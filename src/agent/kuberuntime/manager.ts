// The runtime manager (kube's kubeGenericRuntimeManager SyncPod / KillPod /
// GetPodStatus): carries out computePodActions over CRI.
//
//   SyncPod:  actions → kill the pod (sandbox changing) or the listed containers
//             → prune old init containers → create the sandbox
//             → next init container → containers to start; each start is
//               back-off check → image → config → CreateContainer → StartContainer → postStart
//   KillPod:  every running container (preStop, then stop with the grace period) in
//             parallel, then every sandbox stopped
// A step's failure is reported in the SyncResult (kube's PodSyncResult): its
// reason (CrashLoopBackOff, ErrImagePull, CreateContainerConfigError, …) and
// message become the container's waiting state in the pod status.
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ContainerConfig, ImageService, PodSandboxConfig, RuntimeService } from '../cri/types.js';
import { CriError } from '../cri/types.js';
import { computePodActions, type KillReason, type ProbeResults } from './actions.js';
import { containerBackoff, type Backoff } from './backoff.js';
import { containerConfig, type ContainerConfigOptions } from './container.js';
import type { EnvSources } from './env.js';
import { Reasons, type EventSink } from './events.js';
import { HookError, runHandler } from './hooks.js';
import { ImageError, ImagePuller } from './images.js';
import { containerInfo, hashContainer } from './labels.js';
import type { VolumeHostPath } from './mounts.js';
import { findContainer, podStatus, type RuntimePodStatus } from './podstatus.js';
import type { CpuQuotaOptions } from './resources.js';
import { DEFAULT_POD_LOGS_ROOT, podLogsDirectory, sandboxConfig, type SandboxOptions } from './sandbox.js';
import { containerSpec, formatPod, goDuration, type Container, type LifecycleHandler, type Pod } from './types.js';
import type { DnsOptions } from './dns.js';
import { within } from '../../async/within.js';

/** kube's minimumGracePeriodInSeconds. */
export const MIN_GRACE_PERIOD_SECONDS = 2;

export type SyncAction = 'CreatePodSandbox' | 'KillPodSandbox' | 'StartContainer' | 'KillContainer' | 'InitContainer';

/** One step of a sync and how it ended (kube's SyncResult). */
export interface SyncStep {
  readonly action: SyncAction;
  /** The container's name, or the pod's `name_namespace(uid)`. */
  readonly target: string;
  /** Failure reason: CrashLoopBackOff, ErrImagePull, CreateContainerConfigError, CreateContainerError, RunContainerError, PostStartHookError, … */
  readonly error?: string;
  readonly message?: string;
  /** For back-offs: how soon (ms) a sync may get further. */
  readonly retryAfterMs?: number;
}

export interface SyncResult {
  readonly steps: SyncStep[];
  /** Whether any step failed. */
  readonly failed: boolean;
}

export interface RuntimeManagerOptions extends CpuQuotaOptions {
  readonly runtime: RuntimeService;
  readonly images: ImageService;
  readonly events: EventSink;
  readonly dns: DnsOptions;
  /** `<root-dir>/pods` (termination-message files). */
  readonly podsDir: string;
  /** /var/log/pods by default. */
  readonly podLogsRoot?: string;
  /** The machine's memory (Burstable oom_score_adj). */
  readonly memoryCapacity: number;
  readonly nodeAllocatable: Readonly<Record<string, string>>;
  readonly hostIPs: readonly string[];
  /** --master-service-namespace (default `default`). */
  readonly masterServiceNamespace?: string;
  /** ConfigMaps, Secrets, Services; absent in standalone mode. */
  readonly envSources?: EnvSources;
  readonly seccompDefault?: boolean;
  /** The node's hosts file, copied for host-network pods (default /etc/hosts). */
  readonly nodeHostsFile?: string;
  /** `<root-dir>/seccomp`. */
  readonly seccompProfileRoot?: string;
  /** The runtime's name in container IDs (`containerd`). */
  readonly runtimeName?: string;
  readonly probes?: ProbeResults;
  readonly now?: () => number;
  /** The crash-loop back-off (shared across syncs); one is made when absent. */
  readonly backoff?: Backoff;
  /** The image-pull back-off; one is made when absent. */
  readonly imageBackoff?: Backoff;
}

/** What a sync of one pod needs besides the pod: its volumes' host paths and its cgroup parent. */
export interface PodContext {
  readonly volumes?: ReadonlyMap<string, VolumeHostPath>;
  readonly cgroupParent?: string;
}

const fieldPathOf = (pod: Pod, name: string): string => {
  const c = containerSpec(pod, name);
  if (!c) return '';
  const list = c.init ? pod.spec.initContainers ?? [] : pod.spec.containers;
  return `${c.init ? 'spec.initContainers' : 'spec.containers'}{${list.find((x) => x.name === name)!.name}}`;
};

/** A container could not be started: kube's reason and message. */
class StartError extends Error {
  constructor(readonly reason: string, message: string, readonly retryAfterMs?: number) {
    super(message);
  }
}

/**
 * The restart count of a container the runtime no longer knows: one past the newest `<n>.log` in its log folder, so a
 * runtime that lost its state does not write over old logs (kube's calcRestartCountByLogDir).
 */
export function restartCountFromLogs(dir: string): number {
  let max = -1;
  try {
    for (const f of readdirSync(dir)) {
      const m = /^(\d+)\.log$/.exec(f);
      if (m) max = Math.max(max, Number(m[1]));
    }
  } catch {
    return 0;
  }
  return max + 1;
}

const criMessage = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export class RuntimeManager {
  readonly backoff: Backoff;
  private readonly puller: ImagePuller;
  private readonly now: () => number;

  constructor(private readonly opts: RuntimeManagerOptions) {
    this.now = opts.now ?? Date.now;
    this.backoff = opts.backoff ?? containerBackoff(this.now);
    this.puller = new ImagePuller({ images: opts.images, events: opts.events, backoff: opts.imageBackoff ?? containerBackoff(this.now) });
  }

  /** kube's GetPodStatus. */
  getPodStatus(pod: { uid: string; name: string; namespace: string }): Promise<RuntimePodStatus> {
    return podStatus(this.opts.runtime, pod, this.opts.runtimeName ?? 'containerd');
  }

  private sandboxOptions(ctx: PodContext): SandboxOptions {
    const o = this.opts;
    return { dns: o.dns, cpuCFSQuota: o.cpuCFSQuota, cpuCFSQuotaPeriodUs: o.cpuCFSQuotaPeriodUs, podLogsRoot: o.podLogsRoot, cgroupParent: ctx.cgroupParent, events: o.events };
  }

  private event(pod: Pod, type: 'Normal' | 'Warning', reason: string, message: string, container?: string): void {
    this.opts.events.event(pod, type, reason, message, container ? fieldPathOf(pod, container) : undefined);
  }

  async syncPod(pod: Pod, status: RuntimePodStatus, ctx: PodContext = {}): Promise<SyncResult> {
    const steps: SyncStep[] = [];
    const result = (): SyncResult => ({ steps, failed: steps.some((s) => s.error !== undefined) });
    const actions = computePodActions(pod, status, this.opts.probes);
    if (actions.createSandbox && actions.sandboxId !== '') {
      this.event(pod, 'Normal', Reasons.SandboxChanged, 'Pod sandbox changed, it will be killed and re-created.');
    }
    if (actions.killPod) {
      const killed = await this.killRunning(pod, status, undefined);
      steps.push(...killed);
      if (killed.some((s) => s.error)) return result();
      if (actions.createSandbox) await this.purgeInitContainers(pod, status);
    } else {
      for (const [id, k] of actions.containersToKill) {
        try {
          await this.killContainer(pod, id, k.name, k.message, k.reason);
          steps.push({ action: 'KillContainer', target: k.name });
        } catch (err) {
          steps.push({ action: 'KillContainer', target: k.name, error: 'KillContainerError', message: criMessage(err) });
          return result();
        }
      }
    }
    if (actions.nextInitContainer) await this.pruneInitContainers(pod, status);
    if (!actions.createSandbox && !actions.nextInitContainer && actions.containersToStart.length === 0) return result();

    const sbOpts = this.sandboxOptions(ctx);
    let sandboxId = actions.sandboxId;
    let sbConfig: PodSandboxConfig;
    let podIPs = [...status.ips];
    try {
      sbConfig = sandboxConfig(pod, actions.attempt, sbOpts);
    } catch (err) {
      steps.push({ action: 'CreatePodSandbox', target: formatPod(pod), error: 'ConfigPodSandboxError', message: criMessage(err) });
      return result();
    }
    if (actions.createSandbox) {
      try {
        if (sbConfig.logDirectory) mkdirSync(sbConfig.logDirectory, { recursive: true, mode: 0o755 });
        sandboxId = await this.opts.runtime.runPodSandbox(sbConfig);
      } catch (err) {
        const msg = criMessage(err);
        this.event(pod, 'Warning', Reasons.FailedCreatePodSandBox, `Failed to create pod sandbox: ${msg}`);
        steps.push({ action: 'CreatePodSandbox', target: formatPod(pod), error: 'CreatePodSandboxError', message: `Failed to create sandbox for pod "${formatPod(pod)}": ${msg}` });
        return result();
      }
      steps.push({ action: 'CreatePodSandbox', target: formatPod(pod) });
      try {
        const s = await this.opts.runtime.podSandboxStatus(sandboxId);
        if (!pod.spec.hostNetwork) podIPs = s.network?.ip ? [s.network.ip, ...(s.network.additionalIps ?? []).map((x) => x.ip)] : [];
      } catch (err) {
        this.event(pod, 'Warning', Reasons.FailedPodSandBoxStatus, `Unable to get pod sandbox status: ${criMessage(err)}`);
        steps.push({ action: 'CreatePodSandbox', target: formatPod(pod), error: 'CreatePodSandboxError', message: criMessage(err) });
        return result();
      }
    }
    if (pod.spec.hostNetwork && podIPs.length === 0) podIPs = [...this.opts.hostIPs];

    const start = async (c: Container, action: SyncAction): Promise<boolean> => {
      try {
        this.checkBackoff(pod, c, status);
        await this.startContainer(pod, c, { sandboxId, sandboxConfig: sbConfig, status, podIPs, volumes: ctx.volumes ?? new Map() });
        steps.push({ action, target: c.name });
        return true;
      } catch (err) {
        const e = err instanceof StartError ? err : new StartError('RunContainerError', criMessage(err));
        steps.push({ action, target: c.name, error: e.reason, message: e.message, ...(e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {}) });
        return false;
      }
    };
    if (actions.nextInitContainer) {
      if (!(await start(actions.nextInitContainer, 'InitContainer'))) return result();
    }
    for (const idx of actions.containersToStart) await start(pod.spec.containers[idx], 'StartContainer');
    return result();
  }

  /** kube's doBackOff: throws CrashLoopBackOff while the container's back-off since its last exit runs. */
  private checkBackoff(pod: Pod, c: Container, status: RuntimePodStatus): void {
    const exited = status.containers.find((s) => s.name === c.name && s.state === 'exited');
    if (!exited) return;
    const key = `${pod.metadata.name}_${pod.metadata.namespace}_${pod.metadata.uid}_${c.name}_${hashContainer(c)}`;
    if (this.backoff.inBackOffSince(key, exited.finishedAt)) {
      this.event(pod, 'Warning', Reasons.BackOff, `Back-off restarting failed container ${c.name} in pod ${formatPod(pod)}`, c.name);
      throw new StartError('CrashLoopBackOff', `back-off ${goDuration(this.backoff.get(key))} restarting failed container=${c.name} pod=${formatPod(pod)}`,
        this.backoff.remainingSince(key, exited.finishedAt));
    }
    this.backoff.next(key, exited.finishedAt);
  }

  private async startContainer(pod: Pod, c: Container, a: { sandboxId: string; sandboxConfig: PodSandboxConfig; status: RuntimePodStatus; podIPs: string[]; volumes: ReadonlyMap<string, VolumeHostPath> }): Promise<void> {
    const o = this.opts;
    const fp = fieldPathOf(pod, c.name);
    let imageRef: string;
    try {
      imageRef = await this.puller.ensure(pod, c, fp);
    } catch (err) {
      if (err instanceof ImageError) throw new StartError(err.reason, err.message, err.retryAfterMs);
      throw err;
    }
    const prev = findContainer(a.status, c.name);
    const restartCount = prev ? prev.restartCount + 1 : restartCountFromLogs(join(podLogsDirectory(o.podLogsRoot ?? DEFAULT_POD_LOGS_ROOT, pod), c.name));
    let config: ContainerConfig;
    try {
      const img = await o.images.imageStatus(imageRef);
      const cfgOpts: ContainerConfigOptions = {
        env: { sources: o.envSources, masterServiceNamespace: o.masterServiceNamespace ?? 'default', podIPs: a.podIPs, hostIPs: o.hostIPs, nodeAllocatable: o.nodeAllocatable, events: o.events },
        resources: { cpuCFSQuota: o.cpuCFSQuota, cpuCFSQuotaPeriodUs: o.cpuCFSQuotaPeriodUs, memoryCapacity: o.memoryCapacity },
        seccomp: { seccompDefault: o.seccompDefault ?? false, seccompProfileRoot: o.seccompProfileRoot ?? '/var/lib/kubelet/seccomp' },
        volumes: a.volumes,
        podsDir: o.podsDir,
        podLogsRoot: o.podLogsRoot,
        etcHosts: { clusterDomain: o.dns.clusterDomain, podIPs: a.podIPs, nodeHostsFile: o.nodeHostsFile },
      };
      config = await containerConfig(pod, c, { imageRef, restartCount, imageUser: { uid: img?.uid?.value, username: img?.username ?? '' } }, cfgOpts);
    } catch (err) {
      const msg = criMessage(err);
      this.event(pod, 'Warning', Reasons.Failed, `Error: ${msg}`, c.name);
      throw new StartError('CreateContainerConfigError', msg);
    }
    let id: string;
    try {
      id = await o.runtime.createContainer(a.sandboxId, config, a.sandboxConfig);
    } catch (err) {
      this.event(pod, 'Warning', Reasons.Failed, `Error: ${criMessage(err)}`, c.name);
      throw new StartError('CreateContainerError', criMessage(err));
    }
    this.event(pod, 'Normal', Reasons.Created, `Created container ${c.name}`, c.name);
    try {
      await o.runtime.startContainer(id);
    } catch (err) {
      this.event(pod, 'Warning', Reasons.Failed, `Error: ${criMessage(err)}`, c.name);
      throw new StartError('RunContainerError', criMessage(err));
    }
    this.event(pod, 'Normal', Reasons.Started, `Started container ${c.name}`, c.name);
    const postStart = c.lifecycle?.postStart;
    if (postStart) {
      try {
        await runHandler({ runtime: o.runtime, podIP: a.podIPs[0] ?? '' }, id, pod, c, postStart);
      } catch (err) {
        this.event(pod, 'Warning', Reasons.FailedPostStartHook, 'PostStartHook failed', c.name);
        await this.killContainer(pod, id, c.name, 'FailedPostStartHook', 'FailedPostStartHook').catch(() => undefined);
        throw new StartError('PostStartHookError', err instanceof HookError ? err.message : criMessage(err));
      }
    }
  }

  /** kube's setTerminationGracePeriod. */
  private gracePeriod(pod: Pod, c: Container, reason: KillReason): number {
    if (pod.metadata.deletionGracePeriodSeconds !== undefined) return pod.metadata.deletionGracePeriodSeconds;
    const t = pod.spec.terminationGracePeriodSeconds;
    if (t === undefined) return MIN_GRACE_PERIOD_SECONDS;
    if (reason === 'StartupProbe' && c.startupProbe?.terminationGracePeriodSeconds !== undefined) return c.startupProbe.terminationGracePeriodSeconds;
    if (reason === 'LivenessProbe' && c.livenessProbe?.terminationGracePeriodSeconds !== undefined) return c.livenessProbe.terminationGracePeriodSeconds;
    return t;
  }

  /**
   * kube's killContainer: Killing event, preStop within the grace period, StopContainer with what is left (at least
   * 2 s). `id` is the CRI id or the status containerID (`containerd://<id>`).
   */
  async killContainer(pod: Pod, containerId: string, name: string, message: string, reason: KillReason, gracePeriodOverride?: number): Promise<void> {
    const id = containerId.replace(/^[a-z0-9.-]+:\/\//, '');
    const spec = containerSpec(pod, name)?.container ?? (await this.restoreSpec(id, name));
    let grace = this.gracePeriod(pod, spec, reason);
    this.event(pod, 'Normal', Reasons.Killing, message || `Stopping container ${name}`, containerSpec(pod, name) ? name : undefined);
    const preStop = spec.lifecycle?.preStop;
    if (preStop && grace > 0) {
      const started = this.now();
      const hook = runHandler({ runtime: this.opts.runtime, podIP: pod.status?.podIP ?? this.opts.hostIPs[0] ?? '' }, id, pod, spec, preStop)
        .catch(() => this.event(pod, 'Warning', Reasons.FailedPreStopHook, 'PreStopHook failed', containerSpec(pod, name) ? name : undefined));
      await within(hook, grace * 1000);
      grace -= Math.floor((this.now() - started) / 1000);
    }
    if (grace < MIN_GRACE_PERIOD_SECONDS) grace = MIN_GRACE_PERIOD_SECONDS;
    if (gracePeriodOverride !== undefined) grace = gracePeriodOverride;
    try {
      await this.opts.runtime.stopContainer(id, grace);
    } catch (err) {
      if (!(err instanceof CriError && err.notFound)) throw err;
    }
  }

  /** A container's spec from what the kubelet stored on it (a pod no longer known). */
  private async restoreSpec(id: string, name: string): Promise<Container> {
    try {
      const s = await this.opts.runtime.containerStatus(id);
      const info = containerInfo(s.labels, s.annotations);
      return { name, ...(info.preStop ? { lifecycle: { preStop: info.preStop as LifecycleHandler } } : {}) };
    } catch {
      return { name };
    }
  }

  /** Every running container killed in parallel, then every sandbox stopped (kube's killPodWithSyncResult). */
  private async killRunning(pod: Pod, status: RuntimePodStatus, gracePeriodOverride: number | undefined): Promise<SyncStep[]> {
    const running = status.containers.filter((c) => c.state === 'running');
    const steps = await Promise.all(running.map(async (c): Promise<SyncStep> => {
      try {
        await this.killContainer(pod, c.id, c.name, '', 'Unknown', gracePeriodOverride);
        return { action: 'KillContainer', target: c.name };
      } catch (err) {
        return { action: 'KillContainer', target: c.name, error: 'KillContainerError', message: criMessage(err) };
      }
    }));
    for (const sb of status.sandboxes) {
      try {
        await this.opts.runtime.stopPodSandbox(sb.id);
        steps.push({ action: 'KillPodSandbox', target: formatPod(pod) });
      } catch (err) {
        if (err instanceof CriError && err.notFound) continue;
        steps.push({ action: 'KillPodSandbox', target: formatPod(pod), error: 'KillPodSandboxError', message: criMessage(err) });
      }
    }
    return steps;
  }

  /** kube's KillPod: all containers (preStop, grace period or the override), then the sandboxes. */
  async killPod(pod: Pod, status: RuntimePodStatus, gracePeriodOverride?: number): Promise<SyncResult> {
    const steps = await this.killRunning(pod, status, gracePeriodOverride);
    const failed = steps.some((s) => s.error !== undefined);
    if (failed) {
      const msg = steps.filter((s) => s.error).map((s) => s.message).join('; ');
      this.event(pod, 'Warning', Reasons.FailedKillPod, `error killing pod: ${msg}`);
    }
    return { steps, failed };
  }

  /** Every init container instance removed (a new sandbox starts initialization over). */
  private async purgeInitContainers(pod: Pod, status: RuntimePodStatus): Promise<void> {
    const names = new Set((pod.spec.initContainers ?? []).map((c) => c.name));
    for (const c of status.containers) if (names.has(c.name)) await this.removeContainer(c.id);
  }

  /** All but the newest exited instance of each init container removed (kube's pruneInitContainersBeforeStart). */
  private async pruneInitContainers(pod: Pod, status: RuntimePodStatus): Promise<void> {
    for (const ic of pod.spec.initContainers ?? []) {
      let count = 0;
      for (const c of status.containers) {
        if (c.name !== ic.name || (c.state !== 'exited' && c.state !== 'unknown')) continue;
        if (++count === 1) continue;
        await this.removeContainer(c.id);
      }
    }
  }

  private async removeContainer(id: string): Promise<void> {
    await this.opts.runtime.removeContainer(id).catch((err: unknown) => {
      if (!(err instanceof CriError && err.notFound)) throw err;
    });
  }
}
