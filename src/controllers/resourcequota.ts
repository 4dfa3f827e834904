// The quota controller (kube's pkg/controller/resourcequota): every
// ResourceQuota gets status.hard = spec.hard and status.used = the usage of
// the namespace's objects its names and scopes select, summed by the usage
// evaluators. Which events enqueue a quota, as kube's: a quota seen for the
// first time; an update of a quota only when its spec.hard changed (so the
// status writes of this controller and of the ResourceQuota admission plugin
// recount nothing — kube's updateQuota); the namespace's quotas when a
// counted object is deleted, or updated in a way its evaluator's
// releasedByUpdate names (kube's replenishment: a pod that stops counting, a
// service whose quota type changes); never on a create (admission charged
// it). Every quota is recounted each `resyncMs` (kube's
// --resource-quota-sync-period, 5 m), and all of them after a relist of a
// watched resource (objects deleted while the watch was down). The status is
// written only when it changed, as service account resourcequota-controller
// (update of resourcequotas/status), with the quota's resourceVersion as
// read: a concurrent admission charge wins and the quota is counted again.
import type { Store } from '../storage/interface.js';
import type { Registry } from '../registry/registry.js';
import type { ApiObject } from '../registry/object.js';
import { isObject } from '../registry/object.js';
import { newConflict } from '../api/meta/index.js';
import type { UsageEvaluator } from '../quota/evaluator.js';
import {
  addLists, formatResourceList, listsEqual, maskList, parseResourceList, zeroQuantity, type ResourceList,
} from '../quota/resources.js';
import { WorkQueue } from './workqueue.js';
import { CONTROLLER_MANAGER, Informer, isReason } from './informer.js';
import { schemaFor } from '../api/schemas.js';
import { trackWrite } from '../endpoints/fieldmanager.js';
import { StartWhenAuthorized, type ControllerClient } from './client.js';

export const RESOURCE_QUOTA_CONTROLLER = 'resourcequota-controller';
const QUOTAS = { group: '', version: 'v1', resource: 'resourcequotas' };
const QUOTA_STATUS = { ...QUOTAS, subresource: 'status' };

export interface ResourceQuotaControllerOptions {
  readonly evaluators: () => readonly UsageEvaluator[];
  /** Full recount period (default 5 minutes). */
  readonly resyncMs?: number;
  readonly retryMs?: number;
  readonly now?: () => number;
  /** Quotas synced at once (--concurrent-resource-quota-syncs). */
  readonly workers?: number;
}

const specHard = (q: ApiObject): ResourceList => parseResourceList(isObject(q.spec) ? q.spec.hard : undefined);
const status = (q: ApiObject): Record<string, unknown> => (isObject(q.status) ? q.status : {});
const keyOf = (o: ApiObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

/** Whether two versions of a quota have the same spec.hard (kube's quota.Equals): the same texts, or the same quantities. */
export function sameSpecHard(a: ApiObject, b: ApiObject): boolean {
  const x = isObject(a.spec) ? a.spec.hard : undefined;
  const y = isObject(b.spec) ? b.spec.hard : undefined;
  if (x === y) return true;
  if (isObject(x) && isObject(y)) {
    const kx = Object.keys(x);
    if (kx.length === Object.keys(y).length && kx.every((k) => x[k] === y[k])) return true;
  }
  return listsEqual(specHard(a), specHard(b));
}

/**
 * Whether a quota event enqueues the quota (kube's addQuota / updateQuota):
 * always when first seen (`old` undefined), else only when spec.hard changed.
 */
export function quotaEventSyncs(old: ApiObject | undefined, cur: ApiObject): boolean {
  return old === undefined || !sameSpecHard(old, cur);
}

/**
 * Whether an event of a counted object recounts its namespace's quotas
 * (kube's quota monitor): a delete always; a create never (`old`
 * undefined: admission charged it); an update as the evaluator's
 * releasedByUpdate says (absent: never).
 */
export function objectEventRecounts(ev: UsageEvaluator, old: ApiObject | undefined, cur: ApiObject | undefined, now: number): boolean {
  if (cur === undefined) return true;
  if (old === undefined) return false;
  return ev.releasedByUpdate?.(old, cur, now) === true;
}

/**
 * The usage a quota should show (kube's CalculateUsage), given each
 * evaluator's objects of the namespace: per evaluator naming one of the
 * quota's resources, the sum over objects that count and that the quota's
 * scopes select, masked to those names (zero when nothing counts).
 */
export function quotaUsage(quota: ApiObject, sources: readonly { ev: UsageEvaluator; objects: readonly ApiObject[] }[], now: number): ResourceList {
  const names = Object.keys(specHard(quota));
  let used: ResourceList = {};
  for (const { ev, objects } of sources) {
    const matched = ev.matchingResources(names);
    if (matched.length === 0) continue;
    let sum: ResourceList = Object.fromEntries(matched.map((n) => [n, zeroQuantity()]));
    // every object is summed: usage() itself leaves out what a finished pod no longer charges (count/pods still counts it)
    for (const o of objects) {
      if (ev.matchesScopes(quota, o)) sum = addLists(sum, maskList(ev.usage(o, now), matched));
    }
    used = { ...used, ...sum };
  }
  return used;
}

/** The status a quota should have: hard = spec.hard; used = the computed usage over the old used, masked to spec.hard's names. */
export function desiredStatus(quota: ApiObject, usage: ResourceList): { hard: Record<string, string>; used: Record<string, string> } {
  const hard = specHard(quota);
  const used = maskList({ ...parseResourceList(status(quota).used), ...usage }, Object.keys(hard));
  return { hard: formatResourceList(hard), used: formatResourceList(used) };
}

export class ResourceQuotaController {
  private readonly queue: WorkQueue<string>;
  private readonly quotaInformer: Informer;
  private readonly informers = new Map<string, Informer>();
  /** Every quota as last seen. */
  private readonly quotas = new Map<string, ApiObject>();
  private resync: NodeJS.Timeout | undefined;
  private readonly starter: StartWhenAuthorized;
  private stopped = false;
  private readonly now: () => number;

  constructor(private readonly registry: Registry, private readonly storage: Store, private readonly client: ControllerClient, private readonly opts: ResourceQuotaControllerOptions) {
    this.now = opts.now ?? Date.now;
    this.queue = new WorkQueue((key) => this.sync(key), {
      retryMs: opts.retryMs ?? 1000, workers: opts.workers,
      onError: (key, err) => console.error(`resourcequota controller: ${key} failed; will retry`, err),
    });
    this.quotaInformer = new Informer(registry, storage, { group: '', resource: 'resourcequotas' }, {
      onList: () => this.quotas.clear(),
      onObject: (q) => {
        const key = keyOf(q);
        const old = this.quotas.get(key);
        this.quotas.set(key, q);
        if (quotaEventSyncs(old, q)) this.queue.add(key, key);
      },
      onDelete: (q) => this.quotas.delete(keyOf(q)),
    }, 'resourcequota controller');
    this.starter = new StartWhenAuthorized(client, QUOTAS, 'resourcequota controller', () => this.run());
  }

  /** Starts once the controller may list and watch quotas (StartWhenAuthorized). */
  start(): Promise<void> {
    return this.starter.start();
  }

  private async run(): Promise<void> {
    // the resources are watched once a quota names them (evaluatorsFor), not all of them up front
    await this.quotaInformer.start();
    this.resync = setInterval(() => {
      for (const key of this.quotas.keys()) this.queue.add(key, key);
    }, this.opts.resyncMs ?? 5 * 60_000);
    this.resync.unref();
  }

  stop(): void {
    this.stopped = true;
    this.starter.stop();
    clearInterval(this.resync);
    this.queue.stop();
    this.quotaInformer.stop();
    for (const i of this.informers.values()) i.stop();
  }

  /** Watches an evaluator's resource: a delete, or an update its evaluator says releases usage, recounts the namespace. */
  private async watch(ev: UsageEvaluator): Promise<void> {
    const id = `${ev.group}/${ev.resource}`;
    if (this.informers.has(id) || !this.registry.has(ev.group, ev.resource) || this.stopped) return;
    // only a resource with an update filter keeps its objects as last seen (the store's shared decodings), by ns/name
    const last = ev.releasedByUpdate ? new Map<string, ApiObject>() : undefined;
    let listed = false;
    const informer = new Informer(this.registry, this.storage, ev, {
      onList: () => {
        // a relist after a failed watch: objects deleted meanwhile sent no event, so every quota is recounted
        if (listed) for (const key of this.quotas.keys()) this.queue.add(key, key);
        listed = true;
        last?.clear();
      },
      onObject: (o) => {
        if (!last) return;
        const k = keyOf(o);
        const old = last.get(k);
        last.set(k, o);
        if (objectEventRecounts(ev, old, o, this.now())) this.recount(o.metadata.namespace ?? '');
      },
      onDelete: (o) => {
        last?.delete(keyOf(o));
        this.recount(o.metadata.namespace ?? '');
      },
    }, 'resourcequota controller');
    this.informers.set(id, informer);
    await informer.start();
  }

  private recount(namespace: string): void {
    for (const [key, q] of this.quotas) if (q.metadata.namespace === namespace) this.queue.add(key, key);
  }

  /** The evaluators that count some of a quota's names (each watched from now on). */
  private async evaluatorsFor(names: readonly string[]): Promise<UsageEvaluator[]> {
    const evs = this.opts.evaluators().filter((e) => e.matchingResources(names).length > 0 && this.registry.has(e.group, e.resource));
    // watching before listing: a change after the list still recounts
    for (const ev of evs) await this.watch(ev);
    return evs;
  }

  private async sync(key: string): Promise<boolean> {
    const quota = this.quotas.get(key);
    if (!quota) return true;
    const ns = quota.metadata.namespace!;
    const names = Object.keys(specHard(quota));
    const sources: { ev: UsageEvaluator; objects: readonly ApiObject[] }[] = [];
    for (const ev of await this.evaluatorsFor(names)) {
      sources.push({ ev, objects: (await this.registry.store(ev.group, ev.resource).list(ns)).items });
    }
    const want = desiredStatus(quota, quotaUsage(quota, sources, this.now()));
    const have = status(quota);
    const same = isObject(have.hard) && isObject(have.used) &&
      listsEqual(parseResourceList(have.hard), parseResourceList(want.hard)) && listsEqual(parseResourceList(have.used), parseResourceList(want.used));
    if (same) return true;
    const rv = quota.metadata.resourceVersion;
    try {
      await this.client.update(QUOTA_STATUS, ns, quota.metadata.name!, (cur) => {
        if (cur.metadata.resourceVersion !== rv) {
          throw newConflict({ group: '', resource: 'resourcequotas' }, cur.metadata.name!, 'the object has been modified; please apply your changes to the latest version and try again');
        }
        return { ...cur, status: { ...status(cur), hard: want.hard, used: want.used } };
      }, { track: (live, next) => trackWrite({ manager: CONTROLLER_MANAGER, apiVersion: 'v1', kind: 'ResourceQuota', schema: schemaFor('', 'v1', 'ResourceQuota'), subresource: 'status' }, live, next) });
    } catch (err) {
      if (isReason(err, 'NotFound')) return true;
      // the quota changed since it was read (an admission charge): count again from the newer version
      if (isReason(err, 'Conflict')) return this.quotas.get(key)?.metadata.resourceVersion !== rv ? (this.queue.add(key, key), true) : false;
      throw err;
    }
    return true;
  }
}
