// The TTL-after-finished controller (kube-controller-manager v1.27's
// pkg/controller/ttlafterfinished), as the ttl-after-finished-controller
// service account: a finished Job with spec.ttlSecondsAfterFinished is deleted
// that many seconds after its Complete/Failed condition's transition, checked
// again against a fresh read first; the delete is Background propagation with
// the Job's uid as precondition (a Job recreated under the name is spared).
// Waits are on the controller's clock (a fake one in tests).
import type { ApiObject } from '../../registry/object.js';
import type { Controller, ControllerContext } from '../context.js';
import { StartWhenAuthorized, type ControllerClient } from '../client.js';
import { isReason } from '../informer.js';
import type { SharedInformer } from '../shared.js';
import { WorkQueue } from '../workqueue.js';
import { realClock, type Clock } from '../job/clock.js';
import { Requeue } from '../job/requeue.js';
import { expiry, needsCleanup } from './ttl.js';

export const TTL_AFTER_FINISHED_CONTROLLER = 'ttl-after-finished-controller';
const JOBS = { group: 'batch', version: 'v1', resource: 'jobs' } as const;

export interface TTLAfterFinishedOptions {
  readonly clock?: Clock;
  readonly retryMs?: number;
}

const keyOf = (o: ApiObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

export class TTLAfterFinishedController implements Controller {
  private readonly clock: Clock;
  private readonly client: ControllerClient;
  private readonly queue: WorkQueue<string>;
  private readonly requeue: Requeue;
  private readonly jobs: SharedInformer;
  private readonly starter: StartWhenAuthorized;

  constructor(ctx: ControllerContext, opts: TTLAfterFinishedOptions = {}) {
    this.clock = opts.clock ?? realClock;
    this.client = ctx.client(TTL_AFTER_FINISHED_CONTROLLER);
    this.queue = new WorkQueue((key) => this.sync(key), {
      retryMs: opts.retryMs ?? 1000,
      onError: (key, err) => console.error(`ttl-after-finished controller: ${key} failed; will retry: ${(err as Error).message}`),
    });
    this.requeue = new Requeue(this.clock, (key) => this.queue.add(key, key));
    this.jobs = ctx.informers.informer(JOBS.group, JOBS.resource);
    this.starter = new StartWhenAuthorized(this.client, JOBS, 'ttl-after-finished controller', () => this.run());
  }

  start(): Promise<void> {
    return this.starter.start();
  }

  stop(): void {
    this.starter.stop();
    this.queue.stop();
    this.requeue.stop();
  }

  private enqueue(job: ApiObject): void {
    if (job.metadata.deletionTimestamp || !needsCleanup(job)) return;
    this.queue.add(keyOf(job), keyOf(job));
  }

  private async run(): Promise<void> {
    this.jobs.addHandler({ onAdd: (j) => this.enqueue(j), onUpdate: (_, j) => this.enqueue(j), onDelete: (j) => this.requeue.forget(keyOf(j)) });
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
      this.requeue.after(key, e.ms);
    }
    return false;
  }
}

/** kube's `ttl-after-finished` controller, not yet started (the manager calls start()). */
export function startTTLAfterFinishedController(ctx: ControllerContext, opts?: TTLAfterFinishedOptions): Controller {
  return new TTLAfterFinishedController(ctx, opts);
}
