// The TTL-after-finished controller (kube-controller-manager v1.27's
// pkg/controller/ttlafterfinished), as the ttl-after-finished-controller
// service account: a finished Job with spec.ttlSecondsAfterFinished is deleted
// that many seconds after its Complete/Failed condition's transition, checked
// again against a fresh read first; the delete is Background propagation with
// the Job's uid as precondition (a Job recreated under the name is spared).
// Waits are on the controller's clock (a fake one in tests).
import type { ApiObject } from '../../registry/object.js';
import type { Controller, ControllerContext } from '../context.js';
import type { ControllerClient } from '../client.js';
import { isReason } from '../informer.js';
import type { SharedInformer } from '../shared.js';
import { realClock, type Clock } from '../job/clock.js';
import { KeyedLoop, keyOf } from '../job/loop.js';
import { expiry, needsCleanup } from './ttl.js';

export const TTL_AFTER_FINISHED_CONTROLLER = 'ttl-after-finished-controller';
const JOBS = { group: 'batch', version: 'v1', resource: 'jobs' } as const;

export interface TTLAfterFinishedOptions {
  readonly clock?: Clock;
  readonly retryMs?: number;
}


export class TTLAfterFinishedController implements Controller {
  private readonly clock: Clock;
  private readonly client: ControllerClient;
  private readonly loop: KeyedLoop;
  private readonly jobs: SharedInformer;

  constructor(ctx: ControllerContext, opts: TTLAfterFinishedOptions = {}) {
    this.clock = opts.clock ?? realClock;
    this.client = ctx.client(TTL_AFTER_FINISHED_CONTROLLER);
    this.jobs = ctx.informers.informer(JOBS.group, JOBS.resource);
    this.loop = new KeyedLoop({
      label: 'ttl-after-finished controller', client: this.client, target: JOBS, clock: this.clock, ...(opts.retryMs ? { retryMs: opts.retryMs } : {}),
      sync: (key) => this.sync(key), run: () => this.run(),
    });
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  stop(): void {
    this.loop.stop();
  }

  private enqueue(job: ApiObject): void {
    if (job.metadata.deletionTimestamp || !needsCleanup(job)) return;
    this.loop.add(keyOf(job));
  }

  private async run(): Promise<void> {
    this.jobs.addHandler({ onAdd: (j) => this.enqueue(j), onUpdate: (_, j) => this.enqueue(j), onDelete: (j) => this.loop.forget(keyOf(j)) });
    await this.jobs.start();
  }

  private async sync(key: string): Promise<boolean> {
    const [ns, name] = key.split('/') as [string, string];
    const cached = this.jobs.get(ns, name);
    if (!cached || cached.metadata.deletionTimestamp || !this.due(key, cached)) return true;
    // the cache may be stale (the TTL or the Job changed): decide again on a fresh read
    let fresh: ApiObject;
    try {
      fresh = await this.client.get(JOBS, ns, name);
    } catch (err) {
      if (isReason(err, 'NotFound')) return true;
      throw err;
    }
    if (fresh.metadata.deletionTimestamp || !this.due(key, fresh)) return true;
    try {
      await this.client.delete(JOBS, ns, name, { propagationPolicy: 'Background', preconditions: { uid: fresh.metadata.uid! } });
    } catch (err) {
      if (isReason(err, 'NotFound') || isReason(err, 'Conflict')) return true;
      throw err;
    }
    return true;
  }

  /** Whether the Job's time is up; otherwise it is looked at again when it will be. */
  private due(key: string, job: ApiObject): boolean {
    const e = expiry(job, this.clock.now());
    if (e.kind === 'expired') return true;
    if (e.kind === 'wait') {
      if (e.finishedInFuture) console.error(`ttl-after-finished controller: Job ${key} finished in the future, likely clock skew; its cleanup is deferred`);
      this.loop.after(key, e.ms);
    }
    return false;
  }
}

/** kube's `ttl-after-finished` controller, not yet started (the manager calls start()). */
export function startTTLAfterFinishedController(ctx: ControllerContext, opts?: TTLAfterFinishedOptions): Controller {
  return new TTLAfterFinishedController(ctx, opts);
}
