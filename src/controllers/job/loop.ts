// What the batch controllers share around their sync: keys on the work queue
// (one sync at a time, retried after a failure), keys added later on the
// controller's clock, a start once the controller may list and watch its
// resource; and the objects a controller last wrote, preferred to the
// informer's copy until the informer catches up.
import type { ApiObject } from '../../registry/object.js';
import { StartWhenAuthorized, type ControllerClient, type Target } from '../client.js';
import { WorkQueue } from '../workqueue.js';
import type { Clock } from './clock.js';
import { Requeue } from './requeue.js';

export interface LoopOptions {
  /** How logs name the controller ("job controller"). */
  readonly label: string;
  readonly client: ControllerClient;
  /** The resource the controller must be allowed to list and watch before it runs. */
  readonly target: Target;
  readonly clock: Clock;
  readonly retryMs?: number;
  /** One key's sync; true when nothing is left to do. */
  readonly sync: (key: string) => Promise<boolean>;
  /** Registers handlers and starts informers. */
  readonly run: () => Promise<void>;
}

export class KeyedLoop {
  private readonly queue: WorkQueue<string>;
  private readonly requeue: Requeue;
  private readonly starter: StartWhenAuthorized;

  constructor(o: LoopOptions) {
    this.queue = new WorkQueue((key) => o.sync(key), {
      retryMs: o.retryMs ?? 1000,
      onError: (key, err) => console.error(`${o.label}: syncing ${key} failed; will retry: ${(err as Error).message}`),
    });
    this.requeue = new Requeue(o.clock, (key) => this.queue.add(key, key));
    this.starter = new StartWhenAuthorized(o.client, o.target, o.label, o.run);
  }

  add(key: string | undefined): void {
    if (key) this.queue.add(key, key);
  }

  /** The key synced again once `ms` have passed on the clock (the earliest such wait kept). */
  after(key: string, ms: number): void {
    this.requeue.after(key, ms);
  }

  forget(key: string): void {
    this.requeue.forget(key);
  }

  start(): Promise<void> {
    return this.starter.start();
  }

  stop(): void {
    this.starter.stop();
    this.queue.stop();
    this.requeue.stop();
  }
}

const rv = (o: ApiObject) => Number(o.metadata.resourceVersion ?? 0);

/** Objects as the controller last wrote them, by key. */
export class LastWritten {
  private readonly byKey = new Map<string, ApiObject>();

  set(key: string, obj: ApiObject): void {
    this.byKey.set(key, obj);
  }

  delete(key: string): void {
    this.byKey.delete(key);
  }

  /** The newer of the informer's object and the one written (undefined when the informer has none). */
  newest(key: string, seen: ApiObject | undefined): ApiObject | undefined {
    const mine = this.byKey.get(key);
    if (!seen) return undefined;
    return mine && mine.metadata.uid === seen.metadata.uid && rv(mine) > rv(seen) ? mine : seen;
  }
}

export const keyOf = (o: ApiObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
