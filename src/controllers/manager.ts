// The controller manager in `svc server` (kube-controller-manager v1.27):
// kube's controller table by name, the --controllers selection, and the run
// under leader election — controllers are built from their factories and
// started when this server becomes leader of the Lease
// svc-system/svc-controller-manager, stopped when it loses it (and built anew
// should it lead again); without --leader-elect they run at once. The
// scheduler (Lease svc-scheduler) and the simulated nodes are components
// beside the table, in their own slots.
//
//   --controllers: items in order, the first naming a controller decides:
//     'foo' on · '-foo' off · '*' every controller not disabled by default
//     (bootstrapsigner, tokencleaner); a name not in the table fails the start
//     with kube's `"foo" is not in the list of known controllers`.
import type { FeatureGates } from '../features/gates.js';
import type { Controller, ControllerContext } from './context.js';
import { BUILTIN_FACTORIES } from './builtin.js';
import { LEADER_ELECTION_DEFAULTS, newIdentity, type LeaderElectionConfig } from './leaderelection/config.js';
import { LeaderElector } from './leaderelection/elector.js';
import { LeaseLock } from './leaderelection/leaselock.js';
import { CONTROLLER_NAMESPACE } from './client.js';
import { EventRecorder } from './events.js';
import { startGarbageCollector } from './garbagecollector/index.js';
import { startJobController } from './job/index.js';
import { startCronJobController } from './cronjob/index.js';
import { startTTLAfterFinishedController } from './ttlafterfinished/index.js';
import { startReplicaSetController, startReplicationController } from './replicaset/index.js';
import { startDeploymentController } from './deployment/index.js';
import { startDaemonSetController } from './daemonset/index.js';
import { startStatefulSetController } from './statefulset/index.js';
import { servesStorageClasses, servesVolumes, startLocalPathProvisioner, startPersistentVolumeBinder } from './volume/index.js';
import { startEndpointsController } from './endpoints/index.js';
import { startEndpointSliceController } from './endpointslice/index.js';
import { startEndpointSliceMirroringController } from './endpointslicemirroring/index.js';
import { startDisruptionController } from './disruption/controller.js';
import { startPodGC } from './podgc/controller.js';
import { startNodeLifecycleController } from './nodelifecycle/controller.js';
import { startBootstrapSigner } from './bootstrapsigner.js';
import { startCsrApprover } from './certificates/approver.js';
import { startCsrSigner } from './certificates/signer.js';
import { startCsrCleaner } from './certificates/cleaner.js';
import { readSchedulerConfig, startScheduler, type SchedulerConfig } from '../scheduler/index.js';
import { startSimulatedNodes } from '../simnodes/index.js';

/** Builds a controller; undefined when it has nothing to do on this server (its API is not served). */
export type ControllerFactory = (ctx: ControllerContext) => Controller | undefined;

export interface ControllerEntry {
  readonly name: string;
  /** Undefined: kube has this controller, svc does not implement it yet (enabling it starts nothing, with a warning). */
  readonly factory?: ControllerFactory;
  /** Only with '*'-less explicit naming (kube's ControllersDisabledByDefault). */
  readonly disabledByDefault?: boolean;
  /** In the table only while these gates are on (kube registers them conditionally). */
  readonly gates?: readonly string[];
}

/**
 * kube-controller-manager v1.27's controllers (NewControllerInitializers with
 * the cloud loops, plus serviceaccount-token), in kube's order; an entry
 * without a factory is a controller svc does not have yet.
 */
export const CONTROLLER_TABLE: readonly ControllerEntry[] = [
  { name: 'serviceaccount-token', factory: BUILTIN_FACTORIES['serviceaccount-token'] },
  { name: 'endpoint', factory: (ctx) => startEndpointsController(ctx) },
  { name: 'endpointslice', factory: (ctx) => startEndpointSliceController(ctx) },
  { name: 'endpointslicemirroring', factory: (ctx) => startEndpointSliceMirroringController(ctx) },
  { name: 'replicationcontroller', factory: (ctx) => startReplicationController(ctx) },
  { name: 'podgc', factory: (ctx) => startPodGC(ctx, defined({ terminatedThreshold: ctx.config.settings?.terminatedPodGCThreshold })) },
  { name: 'resourcequota', factory: BUILTIN_FACTORIES.resourcequota },
  { name: 'namespace', factory: BUILTIN_FACTORIES.namespace },
  { name: 'serviceaccount', factory: BUILTIN_FACTORIES.serviceaccount },
  { name: 'garbagecollector', factory: (ctx) => startGarbageCollector(ctx, { workers: ctx.concurrency('garbagecollector', 50) }) },
  { name: 'daemonset', factory: (ctx) => startDaemonSetController(ctx) },
  { name: 'job', factory: (ctx) => startJobController(ctx) },
  { name: 'deployment', factory: (ctx) => startDeploymentController(ctx) },
  { name: 'replicaset', factory: (ctx) => startReplicaSetController(ctx) },
  { name: 'horizontalpodautoscaling' },
  { name: 'disruption', factory: (ctx) => startDisruptionController(ctx) },
  { name: 'statefulset', factory: (ctx) => startStatefulSetController(ctx) },
  { name: 'cronjob', factory: (ctx) => startCronJobController(ctx) },
  { name: 'csrsigning', factory: (ctx) => (ctx.config.clusterSigningCA ? startCsrSigner(ctx, { ca: ctx.config.clusterSigningCA }) : undefined) },
  { name: 'csrapproving', factory: (ctx) => startCsrApprover(ctx) },
  { name: 'csrcleaner', factory: (ctx) => startCsrCleaner(ctx) },
  { name: 'ttl' },
  { name: 'bootstrapsigner', factory: (ctx) => startBootstrapSigner(ctx), disabledByDefault: true },
  { name: 'tokencleaner', factory: BUILTIN_FACTORIES.tokencleaner, disabledByDefault: true },
  { name: 'nodeipam' },
  { name: 'nodelifecycle', factory: (ctx) => {
    const s = ctx.config.settings ?? {};
    return startNodeLifecycleController(ctx, defined({
      monitorPeriodMs: s.nodeMonitorPeriodMs, gracePeriodMs: s.nodeMonitorGracePeriodMs, startupGraceMs: s.nodeStartupGracePeriodMs,
      evictionRate: s.nodeEvictionRate, secondaryEvictionRate: s.secondaryNodeEvictionRate, unhealthyZoneThreshold: s.unhealthyZoneThreshold,
      largeClusterSize: s.largeClusterSizeThreshold,
    }));
  } },
  { name: 'service' },
  { name: 'route' },
  { name: 'cloud-node-lifecycle' },
  { name: 'persistentvolume-binder', factory: (ctx) => (servesVolumes(ctx) ? startPersistentVolumeBinder(ctx) : undefined) },
  { name: 'attachdetach' },
  { name: 'persistentvolume-expander' },
  { name: 'clusterrole-aggregation', factory: BUILTIN_FACTORIES['clusterrole-aggregation'] },
  { name: 'pvc-protection', factory: BUILTIN_FACTORIES['pvc-protection'] },
  { name: 'pv-protection', factory: BUILTIN_FACTORIES['pv-protection'] },
  { name: 'ttl-after-finished', factory: (ctx) => startTTLAfterFinishedController(ctx) },
  { name: 'root-ca-cert-publisher', factory: BUILTIN_FACTORIES['root-ca-cert-publisher'] },
  { name: 'ephemeral-volume' },
  // svc's own (kube has none; k3s ships rancher's): PVCs of the default class work on one machine
  { name: 'local-path-provisioner', factory: (ctx) => (servesStorageClasses(ctx) ? startLocalPathProvisioner(ctx) : undefined) },
  { name: 'storage-version-gc', gates: ['APIServerIdentity', 'StorageVersionAPI'] },
  { name: 'resource-claim-controller', gates: ['DynamicResourceAllocation'] },
];

/** The options without the keys whose value is undefined (a flag not given leaves the controller's default). */
function defined<T extends object>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

/** The controllers of kube's service-account family (`serviceAccountControllers: false` turns them off). */
export const SERVICE_ACCOUNT_CONTROLLERS = ['serviceaccount', 'serviceaccount-token', 'root-ca-cert-publisher'] as const;

export class ControllerSelectionError extends Error {
  override readonly name = 'ControllerSelectionError';
}

/** The table as these gates have it. */
export function controllerTable(gates: FeatureGates, table: readonly ControllerEntry[] = CONTROLLER_TABLE): ControllerEntry[] {
  return table.filter((e) => (e.gates ?? []).every((g) => gates.enabled(g)));
}

/** Every known name, sorted (the --controllers help's "All controllers"). */
export function knownControllers(table: readonly ControllerEntry[]): string[] {
  return table.map((e) => e.name).sort();
}

/** kube's IsControllerEnabled: the first item naming the controller decides, else '*' turns on the default ones. */
export function isControllerEnabled(name: string, disabledByDefault: ReadonlySet<string>, selection: readonly string[]): boolean {
  let star = false;
  for (const item of selection) {
    if (item === name) return true;
    if (item === `-${name}`) return false;
    if (item === '*') star = true;
  }
  return star && !disabledByDefault.has(name);
}

/** The names --controllers enables, in table order; unknown names throw kube's message (several: kube's aggregate, `[a, b]`). */
export function selectControllers(selection: readonly string[], table: readonly ControllerEntry[]): ControllerEntry[] {
  const known = new Set(table.map((e) => e.name));
  const errors = selection
    .filter((item) => item !== '*' && !known.has(item.startsWith('-') ? item.slice(1) : item))
    .map((item) => `${JSON.stringify(item.startsWith('-') ? item.slice(1) : item)} is not in the list of known controllers`);
  if (errors.length === 1) throw new ControllerSelectionError(errors[0]);
  if (errors.length > 1) throw new ControllerSelectionError(`[${errors.join(', ')}]`);
  const disabled = new Set(table.filter((e) => e.disabledByDefault).map((e) => e.name));
  return table.filter((e) => isControllerEnabled(e.name, disabled, selection));
}

/** The --controllers help text, as kube prints it. */
export function controllersFlagHelp(table: readonly ControllerEntry[]): string {
  return "A list of controllers to enable. '*' enables all on-by-default controllers, 'foo' enables the controller named 'foo', '-foo' disables the controller named 'foo'.\n" +
    `All controllers: ${knownControllers(table).join(', ')}\nDisabled-by-default controllers: ${knownControllers(table.filter((e) => e.disabledByDefault)).join(', ')}`;
}

/** Leader election as the manager runs it: the flags' settings without the Lease's name. */
export type ElectionSettings = Omit<LeaderElectionConfig, 'resourceNamespace' | 'resourceName'> & Partial<Pick<LeaderElectionConfig, 'resourceNamespace' | 'resourceName'>>;

export interface ComponentOptions {
  /** The component name: the Lease's name, the event source, the log prefix (`svc-controller-manager`, `svc-scheduler`). */
  readonly component: string;
  /** The user leader election writes as (`system:svc-controller-manager`). */
  readonly user: string;
  readonly leaderElection: ElectionSettings;
  /** This candidate's identity (default `<hostname>_<uuid>`). */
  readonly identity?: string;
  /** What runs while leading: built anew at each start of leading. */
  readonly build: () => Controller[];
  readonly log?: (line: string) => void;
}

/**
 * A component that runs its controllers only while it leads (or always,
 * without --leader-elect): a lost lease stops them and the candidate campaigns
 * again; stop() stops them and releases the lease (ReleaseOnCancel).
 */
export class LeaderElectedComponent implements Controller {
  readonly identity: string;
  private elector: LeaderElector | undefined;
  private campaigning: Promise<void> | undefined;
  private running: Controller[] = [];
  private stopped = false;
  private leading = false;
  private readonly log: (line: string) => void;

  constructor(private readonly ctx: ControllerContext, private readonly o: ComponentOptions) {
    this.identity = o.identity ?? newIdentity();
    this.log = o.log ?? ((l) => console.error(l));
  }

  get isLeading(): boolean {
    return this.leading;
  }

  async start(): Promise<void> {
    if (!this.o.leaderElection.leaderElect) {
      await this.startControllers();
      return;
    }
    this.campaigning = this.campaign();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.elector?.stop();
    await this.campaigning;
    await this.stopControllers();
  }

  private async campaign(): Promise<void> {
    const le = this.o.leaderElection;
    const client = this.ctx.clientAs({ name: this.o.user, groups: ['system:authenticated'] }, this.o.component);
    const recorder = new EventRecorder(client, this.o.component);
    while (!this.stopped) {
      const lock = new LeaseLock(client, le.resourceNamespace ?? CONTROLLER_NAMESPACE, le.resourceName ?? this.o.component, this.identity, recorder);
      this.elector = new LeaderElector({
        lock, leaseDurationMs: le.leaseDurationMs, renewDeadlineMs: le.renewDeadlineMs, retryPeriodMs: le.retryPeriodMs,
        releaseOnCancel: true, log: (l) => this.log(`${this.o.component}: ${l}`),
        callbacks: {
          onStartedLeading: () => this.startControllers(),
          onStoppedLeading: async () => {
            if (this.leading) this.log(`${this.o.component}: leaderelection lost or released; stopping controllers`);
            await this.stopControllers();
          },
        },
      });
      try {
        await this.elector.run();
      } catch (err) {
        // A controller that could not be built: said, and the campaign starts again after a pause.
        this.log(`${this.o.component}: ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, le.retryPeriodMs));
      }
    }
  }

  private async startControllers(): Promise<void> {
    this.leading = true;
    try {
      this.running = this.o.build();
    } catch (err) {
      throw new Error(`building the controllers failed: ${(err as Error).message}`);
    }
    await this.ctx.informers.start();
    for (const c of this.running) {
      try {
        await c.start();
      } catch (err) {
        this.log(`${this.o.component}: a controller failed to start: ${(err as Error).message}`);
      }
    }
  }

  private async stopControllers(): Promise<void> {
    this.leading = false;
    for (const c of this.running.splice(0).reverse()) await c.stop();
  }
}

export interface ControllerManagerOptions {
  /** --controllers (default ['*']). */
  readonly controllers?: readonly string[];
  /** --leader-elect* (default: kube's, leader election on). */
  readonly leaderElection?: Partial<ElectionSettings>;
  readonly identity?: string;
  /** The table (tests). */
  readonly table?: readonly ControllerEntry[];
}

/** kube-controller-manager: the selected controllers of the table, under the svc-controller-manager Lease. */
export function controllerManager(ctx: ControllerContext, o: ControllerManagerOptions = {}): LeaderElectedComponent {
  const table = controllerTable(ctx.gates, o.table);
  const selected = selectControllers(o.controllers ?? ['*'], table);
  // Named explicitly but not implemented: said once (kube's table is known whole; '*' is quiet about the rest).
  const named = selected.filter((e) => !e.factory && o.controllers?.includes(e.name)).map((e) => e.name);
  if (named.length > 0) console.error(`W svc-controller-manager: not implemented in svc, not started: ${named.join(', ')}`);
  return new LeaderElectedComponent(ctx, {
    component: 'svc-controller-manager', user: 'system:svc-controller-manager',
    leaderElection: { ...LEADER_ELECTION_DEFAULTS, ...o.leaderElection },
    ...(o.identity ? { identity: o.identity } : {}),
    build: () => selected.flatMap((e) => {
      const c = e.factory?.(ctx);
      return c ? [c] : [];
    }),
  });
}

/** kube-scheduler in `svc server` (config: --scheduler-config's, read at start-up). */
export type SchedulerFactory = (ctx: ControllerContext, config: SchedulerConfig | undefined) => Controller;
/** N simulated nodes (kubelets without containers). */
export type SimulatedNodesFactory = (ctx: ControllerContext, count: number) => Controller;

/** The components beside the controller table. */
export const COMPONENT_SLOTS: { scheduler?: SchedulerFactory; simulatedNodes?: SimulatedNodesFactory } = {
  scheduler: (ctx, config) => startScheduler(ctx, config),
  simulatedNodes: (ctx, count) => startSimulatedNodes(ctx, { count }),
};

export interface ControlPlaneOptions extends ControllerManagerOptions {
  /** Run the scheduler (default true; the e2e harness starts its own where a test wants one). */
  readonly scheduler?: boolean;
  /** --scheduler-config. */
  readonly schedulerConfig?: string;
  /** --simulated-nodes (default 0). */
  readonly simulatedNodes?: number;
  /** Replaces COMPONENT_SLOTS (tests). */
  readonly slots?: typeof COMPONENT_SLOTS;
  /** `svc server --agent`: a node agent in this process (src/cli/agent.ts makes it). */
  readonly agent?: (ctx: ControllerContext) => Controller;
}

/**
 * What `svc server` runs beside the API server: the controller manager, the
 * scheduler (its own Lease, svc-scheduler, as user system:svc-scheduler) and
 * the simulated nodes (no election: each is its node's kubelet).
 */
export function controlPlane(ctx: ControllerContext, o: ControlPlaneOptions = {}): { components: Controller[]; manager: LeaderElectedComponent; scheduler?: LeaderElectedComponent } {
  const manager = controllerManager(ctx, o);
  const slots = o.slots ?? COMPONENT_SLOTS;
  const components: Controller[] = [manager];
  let scheduler: LeaderElectedComponent | undefined;
  // a bad configuration file fails the start, not the first leadership
  const schedulerConfig = o.schedulerConfig ? readSchedulerConfig(o.schedulerConfig) : undefined;
  if (slots.scheduler && o.scheduler !== false) {
    const factory = slots.scheduler;
    scheduler = new LeaderElectedComponent(ctx, {
      component: 'svc-scheduler', user: 'system:svc-scheduler',
      leaderElection: { ...LEADER_ELECTION_DEFAULTS, ...o.leaderElection },
      ...(o.identity ? { identity: o.identity } : {}),
      build: () => [factory(ctx, schedulerConfig)],
    });
    components.push(scheduler);
  }
  const nodes = o.simulatedNodes ?? 0;
  if (nodes > 0) {
    if (slots.simulatedNodes) components.push(slots.simulatedNodes(ctx, nodes));
    else console.error('W svc: --simulated-nodes given, but this build has no simulated nodes');
  }
  if (o.agent) components.push(o.agent(ctx));
  return { components, manager, ...(scheduler ? { scheduler } : {}) };
}
