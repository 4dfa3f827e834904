// The scheduler (kube-scheduler's scheduleOne loop) inside the server:
//
//   pods/nodes informers ──► cache (nodes + bound/assumed pods)
//            │                      │ snapshot
//            └─► queue ──pop──► filter ─► score ─► select ─► assume ─► bind (async)
//                  ▲                 │ no node fits                      │ fails
//                  │                 ▼                                   ▼
//                  └──── unschedulable: FailedScheduling event,     forget, requeue
//                        PodScheduled=False, preemption
//
// It schedules pending pods (no spec.nodeName) whose schedulerName is one of
// its profiles', acting as the user system:svc-scheduler (kube's
// system:kube-scheduler): bindings through pods/binding, status writes
// through pods/status, events as the profile's scheduler name.
import type { UserInfo } from '../authn/user.js';
import { ControllerClient, StartWhenAuthorized } from '../controllers/client.js';
import type { Controller, ControllerContext } from '../controllers/context.js';
import { schedulerEventRecorder, type EventsV1Recorder } from '../controllers/events.js';
import type { SharedInformer } from '../controllers/shared.js';
import type { ApiObject } from '../registry/object.js';
import { isObject, nowTimestamp } from '../registry/object.js';
import { buildProfile } from './build.js';
import { SchedulerCache } from './cache.js';
import { DEFAULT_SCHEDULER_CONFIG, type SchedulerConfig } from './config.js';
import { EVENT_PLUGINS, nodeSchedulingPropertiesChanged, type ClusterEvent } from './events.js';
import { fitErrorMessage } from './fiterror.js';
import { preempt, type Candidate } from './preemption.js';
import type { Profile } from './profile.js';
import { feasibleNodesToFind, runPreBind, runReserve, runUnreserve, selectHost } from './profile.js';
import type { CycleState } from './framework.js';
import { isTerminal, nodeName, podKey, schedulerNameOf } from './pods.js';
import { SchedulingQueue, type QueuedPod } from './queue.js';
import { Nominator, nominatedNodeOf } from './nominator.js';
import { spreadSelectors } from './spreading.js';

/** The scheduler's user (kube's system:kube-scheduler, named for svc as the bootstrap policy binds it). */
export const SCHEDULER_USER: UserInfo = { name: 'system:svc-scheduler', groups: ['system:authenticated'] };
/** The field manager of its writes (kube-scheduler's user agent). */
export const SCHEDULER_MANAGER = 'kube-scheduler';

const PODS = { group: '', version: 'v1', resource: 'pods' };
const BINDING = { ...PODS, subresource: 'binding' };
const POD_STATUS = { ...PODS, subresource: 'status' };
const PVS = { group: '', version: 'v1', resource: 'persistentvolumes' };
const PVCS = { group: '', version: 'v1', resource: 'persistentvolumeclaims' };
/** kube's noteLengthLimit for event messages. */
const NOTE_LIMIT = 1024;

export const ERR_NO_NODES = 'no nodes available to schedule pods';

export interface SchedulerOptions {
  readonly config?: SchedulerConfig;
  /** Tie-breaking between equally scored nodes (tests pass a fixed one). */
  readonly random?: () => number;
}

export class Scheduler implements Controller {
  readonly cache = new SchedulerCache();
  readonly queue: SchedulingQueue;
  readonly profiles = new Map<string, Profile>();
  readonly nominator = new Nominator();
  private readonly client: ControllerClient;
  private readonly recorders = new Map<string, EventsV1Recorder>();
  private readonly random: () => number;
  private readonly percentageOfNodesToScore: number;
  private nextStartNodeIndex = 0;
  private pods!: SharedInformer;
  private nodes!: SharedInformer;
  private timers: NodeJS.Timeout[] = [];
  private stopped = false;
  private loop: Promise<void> | undefined;
  private starter: StartWhenAuthorized | undefined;
  private readonly lister: (group: string, resource: string) => SharedInformer | undefined;

  constructor(private readonly ctx: ControllerContext, opts: SchedulerOptions = {}) {
    const config = opts.config ?? DEFAULT_SCHEDULER_CONFIG;
    this.random = opts.random ?? Math.random;
    this.percentageOfNodesToScore = config.percentageOfNodesToScore;
    this.queue = new SchedulingQueue({ initialBackoffMs: config.podInitialBackoffSeconds * 1000, maxBackoffMs: config.podMaxBackoffSeconds * 1000 });
    this.client = new ControllerClient(ctx.registry, ctx.authorizer, SCHEDULER_USER, ctx.gates, SCHEDULER_MANAGER);
    const inf = ctx.informers;
    /** A lister of a resource this server serves (a group turned off with --runtime-config has none: nothing to read). */
    const lister = (group: string, resource: string): SharedInformer | undefined => {
      try {
        return inf.informer(group, resource);
      } catch {
        return undefined;
      }
    };
    const selectors = spreadSelectors({
      services: (ns) => lister('', 'services')?.list(ns) ?? [],
      get: (kind, ns, name) => (kind === 'ReplicationController' ? lister('', 'replicationcontrollers') : lister('apps', kind === 'ReplicaSet' ? 'replicasets' : 'statefulsets'))?.get(ns, name),
    });
    const volumes = {
      claim: (ns: string, name: string) => lister('', 'persistentvolumeclaims')?.get(ns, name),
      volume: (name: string) => lister('', 'persistentvolumes')?.get('', name),
      storageClass: (name: string) => lister('storage.svc.io', 'storageclasses')?.get('', name),
      volumes: () => lister('', 'persistentvolumes')?.list() ?? [],
      csiNode: (name: string) => lister('storage.svc.io', 'csinodes')?.get('', name),
      // VolumeBinding's PreBind: claimRefs and selected-node written as PUTs of what was read (a stale read is a conflict)
      writer: {
        updateVolume: (pv: ApiObject) => this.client.replace(PVS, '', pv.metadata.name!, pv),
        updateClaim: (c: ApiObject) => this.client.replace(PVCS, c.metadata.namespace ?? '', c.metadata.name!, c),
      },
      stopped: () => this.stopped,
    };
    this.lister = lister;
    for (const p of config.profiles) {
      this.profiles.set(p.schedulerName, buildProfile(p, { selectors, namespaceLabels: (n) => lister('', 'namespaces')?.get('', n)?.metadata.labels, volumes }));
      this.recorders.set(p.schedulerName, schedulerEventRecorder(this.client, p.schedulerName));
    }
  }

  /** Starts once the scheduler's user may list and watch pods (at a fresh start its binding may not be in the authorizer yet). */
  start(): Promise<void> {
    this.starter = new StartWhenAuthorized(this.client, PODS, 'scheduler', () => this.begin());
    return this.starter.start();
  }

  private async begin(): Promise<void> {
    const inf = this.ctx.informers;
    this.nodes = inf.informer('', 'nodes');
    this.pods = inf.informer('', 'pods');
    for (const [g, r] of [['', 'namespaces'], ['', 'services'], ['', 'replicationcontrollers'], ['apps', 'replicasets'], ['apps', 'statefulsets'], ['policy', 'poddisruptionbudgets']] as const) this.lister(g, r);
    // A claim, volume or class appearing or changing may unblock pods the volume plugins refused.
    for (const [g, r] of [['', 'persistentvolumeclaims'], ['', 'persistentvolumes'], ['storage.svc.io', 'storageclasses'], ['storage.svc.io', 'csinodes']] as const) {
      this.lister(g, r)?.addHandler({ onAdd: () => this.move('VolumeChange'), onUpdate: () => this.move('VolumeChange') });
    }
    this.nodes.addHandler({
      onAdd: (n) => {
        this.cache.addOrUpdateNode(n);
        this.move('NodeAdd');
      },
      onUpdate: (old, n) => {
        this.cache.addOrUpdateNode(n);
        if (nodeSchedulingPropertiesChanged(old, n)) this.move('NodeChange');
      },
      onDelete: (n) => this.cache.removeNode(n.metadata.name!),
    });
    this.pods.addHandler({
      onAdd: (p) => this.podAdded(p),
      onUpdate: (old, p) => this.podUpdated(old, p),
      onDelete: (p) => this.podDeleted(p),
    });
    await inf.start();
    await Promise.all([this.nodes.waitForSync(), this.pods.waitForSync()]);
    if (this.stopped) return;
    this.timers.push(setInterval(() => this.queue.flushBackoffCompleted(), 1000).unref());
    this.timers.push(setInterval(() => this.queue.flushUnschedulableLeftover(), 30_000).unref());
    this.loop = this.run();
  }

  stop(): void {
    this.stopped = true;
    this.starter?.stop();
    for (const t of this.timers) clearInterval(t);
    for (const r of this.recorders.values()) r.stop();
    this.queue.close();
  }

  private responsible(pod: ApiObject): boolean {
    return this.profiles.has(schedulerNameOf(pod));
  }

  private move(event: ClusterEvent): void {
    this.queue.moveAllToActiveOrBackoff(EVENT_PLUGINS[event]);
  }

  private podAdded(pod: ApiObject): void {
    const node = nodeName(pod);
    if (node) {
      if (isTerminal(pod)) return;
      this.cache.addOrUpdatePod(pod, node);
      this.move('AssignedPodAdd');
    } else if (this.responsible(pod) && !pod.metadata.deletionTimestamp && !gated(pod)) {
      this.nominator.set(pod, nominatedNodeOf(pod));
      this.queue.add(pod);
    }
  }

  private podUpdated(old: ApiObject, pod: ApiObject): void {
    const key = podKey(pod);
    const node = nodeName(pod);
    if (node) {
      this.queue.delete(key);
      this.nominator.delete(key);
      if (isTerminal(pod)) {
        this.cache.removePod(key);
        this.move('AssignedPodDelete');
        return;
      }
      this.cache.addOrUpdatePod(pod, node);
      this.move(nodeName(old) ? 'AssignedPodUpdate' : 'AssignedPodAdd');
      return;
    }
    if (!this.responsible(pod) || pod.metadata.deletionTimestamp || gated(pod)) {
      this.queue.delete(key);
      this.nominator.delete(key);
      return;
    }
    // The status write of a nomination is seen here; a nomination made in this process is kept until then.
    if (nominatedNodeOf(pod) || nominatedNodeOf(old)) this.nominator.set(pod, nominatedNodeOf(pod));
    this.queue.update(old, pod);
  }

  private podDeleted(pod: ApiObject): void {
    const key = podKey(pod);
    this.queue.delete(key);
    this.nominator.delete(key);
    if (nodeName(pod) || this.cache.isAssumed(key)) {
      this.cache.removePod(key);
      this.move('AssignedPodDelete');
    }
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const qp = await this.queue.pop();
      if (!qp) return;
      try {
        await this.scheduleOne(qp);
      } catch (err) {
        console.error(`scheduler: scheduling ${qp.key} failed:`, err);
        this.queue.addUnschedulable(qp, this.queue.schedulingCycle);
      }
    }
  }

  /** One scheduling cycle for one pod; the binding goes on asynchronously. */
  async scheduleOne(qp: QueuedPod): Promise<void> {
    const cycle = this.queue.schedulingCycle;
    const pod = this.queue.current(qp.key);
    const live = pod && this.pods.get(pod.metadata.namespace ?? '', pod.metadata.name!);
    if (!pod || !live || live.metadata.deletionTimestamp || nodeName(live) || this.cache.isAssumed(qp.key)) {
      this.queue.done(qp.key);
      return;
    }
    const profile = this.profiles.get(schedulerNameOf(pod));
    if (!profile) {
      this.queue.done(qp.key);
      return;
    }
    const snapshot = this.cache.snapshot();
    if (snapshot.nodes.length === 0) return this.failed(qp, cycle, { reason: 'Unschedulable', message: ERR_NO_NODES, plugins: new Set() });
    const state = profile.newCycle(snapshot);
    const nominated = (node: string, p: ApiObject) => this.nominator.ahead(node, p);
    const search = { start: this.nextStartNodeIndex % snapshot.nodes.length, limit: feasibleNodesToFind(this.percentageOfNodesToScore, snapshot.nodes.length) };
    const found = profile.findFeasible(state, pod, snapshot.nodes, nominated, nominatedNodeOf(pod) || this.nominator.nodeFor(qp.key), search);
    // the next cycle starts where this one stopped, so that every node gets its turn (kube's nextStartNodeIndex)
    this.nextStartNodeIndex = (search.start + found.processed) % snapshot.nodes.length;
    if (found.feasible.length === 0) {
      let postFilterMsg = '';
      let candidate: Candidate | undefined;
      if (profile.preemption) {
        const r = preempt(profile, state, pod, snapshot.nodes, found.statuses, nominated, (ns) => this.lister('policy', 'poddisruptionbudgets')?.list(ns) ?? []);
        if (r.kind === 'candidate') candidate = r.candidate;
        else postFilterMsg = `preemption: ${r.message}`;
      }
      const message = fitErrorMessage(snapshot.nodes.length, { nodeStatuses: found.statuses, ...(found.preFilterMsg ? { preFilterMsg: found.preFilterMsg } : {}), postFilterMsg });
      const plugins = new Set([...found.statuses.values()].map((s) => s.plugin ?? ''));
      if (candidate) {
        this.nominator.set(pod, candidate.node);
        await this.prepareCandidate(pod, candidate, profile);
      }
      return this.failed(qp, cycle, { reason: 'Unschedulable', message, plugins, ...(candidate ? { nominatedNode: candidate.node } : {}) });
    }
    let host = found.feasible[0]!.name;
    if (found.feasible.length > 1) host = selectHost(profile.score(state, pod, found.feasible).totals, this.random)!;
    this.cache.assume(pod, host);
    this.nominator.delete(qp.key);
    const reserved = runReserve(profile, state, pod, host);
    if (reserved) {
      this.cache.forget(pod);
      return this.failed(qp, cycle, { reason: 'SchedulerError', message: `running Reserve plugin ${JSON.stringify(reserved.plugin)}: ${reserved.reasons.join(', ')}`, plugins: new Set() });
    }
    void this.bind(qp, cycle, pod, host, profile, state);
  }

  private async bind(qp: QueuedPod, cycle: number, pod: ApiObject, host: string, profile: Profile, state: CycleState): Promise<void> {
    const ns = pod.metadata.namespace ?? '';
    const name = pod.metadata.name!;
    const pre = await runPreBind(profile, state, pod, host);
    if (this.stopped) {
      runUnreserve(profile, state, pod, host);
      this.cache.forget(pod);
      return;
    }
    if (pre) {
      runUnreserve(profile, state, pod, host);
      this.cache.forget(pod);
      return this.failed(qp, cycle, { reason: 'SchedulerError', message: `running PreBind plugin ${JSON.stringify(pre.plugin)}: ${pre.reasons.join(', ')}`, plugins: new Set() });
    }
    try {
      await this.client.createSubresource(BINDING, ns, name, {
        apiVersion: 'v1', kind: 'Binding',
        metadata: { name, namespace: ns, ...(pod.metadata.uid ? { uid: pod.metadata.uid } : {}) },
        target: { kind: 'Node', name: host },
      } as ApiObject);
    } catch (err) {
      runUnreserve(profile, state, pod, host);
      this.cache.forget(pod);
      if (this.stopped) return;
      return this.failed(qp, cycle, { reason: 'SchedulerError', message: `binding rejected: running Bind plugin "DefaultBinder": ${(err as Error).message}`, plugins: new Set() });
    }
    this.queue.done(qp.key);
    await this.recorders.get(profile.schedulerName)!.event(pod, 'Normal', 'Scheduled', `Successfully assigned ${ns}/${name} to ${host}`);
  }

  /** kube's handleSchedulingFailure: requeued, a FailedScheduling event, PodScheduled=False (and the nominated node). */
  private async failed(qp: QueuedPod, cycle: number, f: { reason: string; message: string; plugins: ReadonlySet<string>; nominatedNode?: string }): Promise<void> {
    const pod = this.queue.current(qp.key) ?? qp.pod;
    const live = this.pods.get(pod.metadata.namespace ?? '', pod.metadata.name!);
    if (live && !nodeName(live)) this.queue.addUnschedulable(qp, cycle, f.plugins);
    else this.queue.done(qp.key);
    const msg = f.message.length > NOTE_LIMIT ? `${f.message.slice(0, NOTE_LIMIT - 3)}...` : f.message;
    const recorder = this.recorders.get(schedulerNameOf(pod)) ?? this.recorders.values().next().value!;
    await recorder.event(pod, 'Warning', 'FailedScheduling', msg);
    if (!live) return;
    try {
      await this.updatePodCondition(live, { type: 'PodScheduled', status: 'False', reason: f.reason, message: f.message }, f.nominatedNode);
    } catch (err) {
      console.error(`scheduler: updating the status of pod ${qp.key} failed: ${(err as Error).message}`);
    }
  }

  /** kube's updatePod: written only when the condition or the nominated node changes. */
  private async updatePodCondition(pod: ApiObject, condition: { type: string; status: string; reason: string; message: string }, nominatedNode?: string): Promise<void> {
    const status = isObject(pod.status) ? pod.status : {};
    const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isObject) : [];
    const old = conditions.find((c) => c.type === condition.type);
    const nnnChanges = nominatedNode !== undefined && status.nominatedNodeName !== nominatedNode;
    const same = old && old.status === condition.status && old.reason === condition.reason && old.message === condition.message;
    if (same && !nnnChanges) return;
    await this.client.update(POD_STATUS, pod.metadata.namespace ?? '', pod.metadata.name!, (cur) => {
      const curStatus = isObject(cur.status) ? { ...cur.status } : {};
      const list = Array.isArray(curStatus.conditions) ? curStatus.conditions.filter(isObject).map((c) => ({ ...c })) : [];
      const i = list.findIndex((c) => c.type === condition.type);
      const prior = i >= 0 ? list[i] : undefined;
      const next = { ...condition, lastProbeTime: null, lastTransitionTime: prior && prior.status === condition.status ? prior.lastTransitionTime : nowTimestamp() };
      if (i >= 0) list[i] = next;
      else list.push(next);
      curStatus.conditions = list;
      if (nnnChanges) curStatus.nominatedNodeName = nominatedNode;
      return { ...cur, status: curStatus };
    });
  }

  /**
   * Preemption's prepareCandidate: each victim gets the DisruptionTarget
   * condition (PodDisruptionConditions), is deleted and told why.
   */
  private async prepareCandidate(pod: ApiObject, c: Candidate, profile: Profile): Promise<void> {
    const recorder = this.recorders.get(profile.schedulerName)!;
    const conditions = this.ctx.gates.enabled('PodDisruptionConditions');
    await Promise.all(c.victims.map(async (v) => {
      const ns = v.metadata.namespace ?? '';
      try {
        if (conditions) {
          await this.updatePodCondition(v, { type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler', message: `${profile.schedulerName}: preempting to accommodate a higher priority pod` });
        }
        await this.client.delete(PODS, ns, v.metadata.name!);
        await recorder.event(v, 'Normal', 'Preempted', `Preempted by pod ${pod.metadata.uid ?? ''} on node ${c.node}`);
      } catch (err) {
        console.error(`scheduler: preempting ${podKey(v)} failed: ${(err as Error).message}`);
      }
    }));
  }

  /** Resolves when the loop has ended (after stop). */
  async finished(): Promise<void> {
    await this.loop;
  }
}

/** A pod with scheduling gates waits (kube's SchedulingGates PreEnqueue plugin); removing the last gate queues it. */
function gated(pod: ApiObject): boolean {
  const gates = isObject(pod.spec) ? pod.spec.schedulingGates : undefined;
  return Array.isArray(gates) && gates.length > 0;
}

/** Starts the scheduler on the server's controller context (kube-scheduler with `config`, v1.27's default profile without). */
export function startScheduler(ctx: ControllerContext, config?: SchedulerConfig, opts: Omit<SchedulerOptions, 'config'> = {}): Scheduler {
  return new Scheduler(ctx, { ...opts, ...(config ? { config } : {}) });
}
