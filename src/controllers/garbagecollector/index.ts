// The garbage collector (kube-controller-manager's `garbagecollector`):
// deletes objects whose owners are gone, and carries out foreground and
// orphan deletions of owners.
//
//   registry.resources() ─► mapper (kind → resource; deletable resources)
//          │                      │ every syncPeriodMs, on CRD changes, on resyncMonitors()
//          ▼                      ▼
//   shared informers ──► monitors ──► DependencyGraph (graph.ts) ──► attemptToDelete / attemptToOrphan
//                                                                      queues (collector.ts: API calls
//                                                                      as generic-garbage-collector)
//
// Events are recorded as kube's `garbage-collector-controller` component.
import type { Controller, ControllerContext } from '../context.js';
import { StartWhenAuthorized } from '../client.js';
import { CRD_GROUP, CRD_RESOURCE } from '../../apiextensions/serve/controller.js';
import { isObject, type ApiObject } from '../../registry/object.js';
import { GarbageCollector, type CollectorOptions } from './collector.js';
import { ResourceMapper } from './mapper.js';
import { Monitors } from './monitors.js';

export const GARBAGE_COLLECTOR_SERVICE_ACCOUNT = 'generic-garbage-collector';
export const GARBAGE_COLLECTOR_COMPONENT = 'garbage-collector-controller';

export interface GarbageCollectorOptions extends CollectorOptions {
  /** How often the monitored resources are compared with the served ones (kube: 30 s). */
  readonly syncPeriodMs?: number;
}

/** How often, and how many times, a resync looks again for an Established CRD the registry does not serve yet. */
const CRD_RECHECK_MS = 250;
const CRD_RECHECKS = 40;

export class GarbageCollectorController implements Controller {
  readonly collector: GarbageCollector;
  private readonly mapper: ResourceMapper;
  private readonly monitors: Monitors;
  private readonly starter: StartWhenAuthorized;
  private timer: NodeJS.Timeout | undefined;
  private resyncTimer: NodeJS.Timeout | undefined;
  private rechecks = 0;
  private stopped = false;

  constructor(private readonly ctx: ControllerContext, private readonly opts: GarbageCollectorOptions = {}) {
    const client = ctx.client(GARBAGE_COLLECTOR_SERVICE_ACCOUNT);
    this.mapper = new ResourceMapper(ctx.registry);
    this.collector = new GarbageCollector(client, this.mapper, ctx.recorder(GARBAGE_COLLECTOR_SERVICE_ACCOUNT, GARBAGE_COLLECTOR_COMPONENT), opts);
    this.monitors = new Monitors(ctx, (e) => this.collector.graph.process(e));
    this.starter = new StartWhenAuthorized(client, { group: '', version: 'v1', resource: 'configmaps' }, 'garbage collector', () => this.run());
  }

  start(): Promise<void> {
    return this.starter.start();
  }

  stop(): void {
    this.stopped = true;
    this.starter.stop();
    clearInterval(this.timer);
    clearTimeout(this.resyncTimer);
    this.monitors.stop();
    this.collector.stop();
  }

  /** Compares the monitored resources with the served ones now (kube's Sync, "when told"); resolves once new monitors listed. */
  async resyncMonitors(): Promise<void> {
    if (this.stopped) return;
    this.mapper.refresh();
    const { changed, started } = this.monitors.sync(this.mapper.deletable());
    if (changed) this.collector.resourcesChanged();
    await Promise.all(started);
  }

  /** The resources monitored now (`group/resource`, svc.io spelling). */
  monitoredResources(): string[] {
    return this.monitors.resources();
  }

  private async run(): Promise<void> {
    if (this.ctx.registry.has(CRD_GROUP, CRD_RESOURCE)) {
      const crds = this.ctx.informers.informer(CRD_GROUP, CRD_RESOURCE);
      crds.addHandler({ onAdd: () => this.crdsChanged(), onUpdate: () => this.crdsChanged(), onDelete: () => this.crdsChanged() });
      await crds.start().catch((err) => console.error(`garbage collector: the CRD informer failed to start (${(err as Error).message}); custom resources are found by the periodic sync`));
    }
    await this.resyncMonitors();
    if (this.stopped) return;
    this.collector.run();
    this.timer = setInterval(() => void this.resyncMonitors().catch((err) => console.error('garbage collector: monitor sync failed', err)), this.opts.syncPeriodMs ?? 30_000);
    this.timer.unref();
  }

  /** A CRD changed: the monitors follow once the registry serves (or stops serving) it. */
  private crdsChanged(): void {
    this.rechecks = 0;
    this.scheduleResync(0);
  }

  private scheduleResync(delayMs: number): void {
    if (this.stopped || this.resyncTimer) return;
    this.resyncTimer = setTimeout(() => {
      this.resyncTimer = undefined;
      void this.resyncMonitors().then(() => {
        if (!this.servesEstablishedCrds() && this.rechecks++ < CRD_RECHECKS) this.scheduleResync(CRD_RECHECK_MS);
      }).catch((err) => console.error('garbage collector: monitor sync failed', err));
    }, delayMs);
    this.resyncTimer.unref();
  }

  /** Does the registry serve every Established CRD (and nothing of a CRD that is gone)? */
  private servesEstablishedCrds(): boolean {
    const crds = this.ctx.informers.informer(CRD_GROUP, CRD_RESOURCE).list();
    const wanted = new Set(crds.filter(established).map((c) => `${(c.spec as { group: string }).group}/${(c.spec as { names: { plural: string } }).names.plural}`));
    const served = new Set(this.mapper.deletable().filter((m) => m.custom).map((m) => `${m.apiVersion.slice(0, m.apiVersion.lastIndexOf('/'))}/${m.target.resource}`));
    return wanted.size === served.size && [...wanted].every((k) => served.has(k));
  }
}

function established(crd: ApiObject): boolean {
  const conditions = isObject(crd.status) && Array.isArray(crd.status.conditions) ? crd.status.conditions : [];
  return conditions.some((c) => isObject(c) && c.type === 'Established' && c.status === 'True');
}

/** Starts kube's `garbagecollector` controller on a controller context. */
export function startGarbageCollector(ctx: ControllerContext, opts?: GarbageCollectorOptions): GarbageCollectorController {
  return new GarbageCollectorController(ctx, opts);
}
