// The quota controller (kube's pkg/controller/resourcequota): every
// ResourceQuota gets status.hard = spec.hard and status.used = the usage of
// the namespace's objects its names and scopes select, summed by the usage
// evaluators. A quota is synced when it is new or its spec.hard differs from
// its status; the namespace's quotas are recounted when a counted object is
// deleted or stops counting / changes usage (creates are charged by the
// ResourceQuota admission plugin; recounting on them would race it); every
// quota is recounted each `resyncMs` (kube's --resource-quota-sync-period,
// 5 m). The status is written only when it changed, as service account
// resourcequota-controller (update of resourcequotas/status), with the
// quota's resourceVersion as read: a concurrent admission charge wins and
// the quota is counted again.
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

/** Whether a quota's status does not yet reflect its spec (kube's addQuota checks). */
export function needsSync(q: ApiObject): boolean {
  const s = status(q);
  if (!isObject(s.hard) || !isObject(s.used)) return true;
  const hard = specHard(q);
  if (!listsEqual(hard, parseResourceList(s.hard))) return true;
  const used = parseResourceList(s.used);
  return Object.keys(hard).some((n) => !used[n]);
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
  /** Per counted object (group/resource/ns/name): what it counted for, to notice a release. */
  private readonly seen = new Map<string, string>();
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
        this.quotas.set(keyOf(q), q);
        if (needsSync(q)) this.queue.add(keyOf(q), keyOf(q));
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

  /** Watches an evaluator's resource: a delete, or a change of what an object counts for, recounts its namespace. */
  private async watch(ev: UsageEvaluator): Promise<void> {
    const id = `${ev.group}/${ev.resource}`;
    if (this.informers.has(id) || !this.registry.has(ev.group, ev.resource) || this.stopped) return;
    const objKey = (o: ApiObject) => `${id}/${keyOf(o)}`;
    const summary = (o: ApiObject) => (ev.counts(o, this.now()) ? JSON.stringify(formatResourceList(ev.usage(o))) : '-');
    const informer = new Informer(this.registry, this.storage, ev, {
      onList: () => {
        for (const k of this.seen.keys()) if (k.startsWith(`${id}/`)) this.seen.delete(k);
      },
      onObject: (o) => {
        const k = objKey(o);
        const before = this.seen.get(k);
        const now = summary(o);
        this.seen.set(k, now);
        if (before !== undefined && before !== now) this.recount(o.metadata.namespace ?? '');
      },
      onDelete: (o) => {
        this.seen.delete(objKey(o));
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
