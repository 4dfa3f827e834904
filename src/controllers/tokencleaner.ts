// The token cleaner (Kubernetes' tokencleaner controller): deletes bootstrap
// token Secrets (svc-system, type bootstrap.svc.io/token or
// bootstrap.kubernetes.io/token) once their `expiration` has passed — an
// unparseable expiration counts as passed, as the authenticator treats it.
// A token not yet expired is looked at again when it expires. The delete
// carries the Secret's uid as a precondition, so a Secret recreated under the
// same name is never removed by mistake.
//
//   list + watch svc-system secrets ──► queue (per name) ──► sync: get
//       expired → delete (uid precondition)      not yet → timer at expiry → queue
import type { Store, WatchHandle } from '../storage/interface.js';
import type { Registry } from '../registry/registry.js';
import type { ApiObject } from '../registry/object.js';
import { isStatusError } from '../api/meta/index.js';
import { BOOTSTRAP_NAMESPACE, BOOTSTRAP_SECRET_TYPES, bootstrapTokenExpiry } from '../authn/bootstrap.js';
import { WorkQueue } from './workqueue.js';

export interface TokenCleanerOptions {
  readonly retryMs?: number;
  readonly now?: () => number;
}

export class TokenCleaner {
  private watch: WatchHandle | undefined;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly queue: WorkQueue<string>;
  private readonly now: () => number;

  constructor(private readonly registry: Registry, private readonly storage: Store, opts: TokenCleanerOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.queue = new WorkQueue((name) => this.sync(name), {
      retryMs: opts.retryMs ?? 2000,
      onError: (key, err) => console.error(`token cleaner: ${key} failed; will retry`, err),
    });
  }

  async start(): Promise<void> {
    const secrets = this.registry.store('', 'secrets');
    const { items, resourceVersion } = await secrets.list(BOOTSTRAP_NAMESPACE);
    for (const s of items) this.consider(s);
    this.watch = await this.storage.watch({ prefix: secrets.collectionPrefix(BOOTSTRAP_NAMESPACE), fromRevision: Number(resourceVersion) }, {
      onEvents: (events) => {
        for (const e of events) if (e.type !== 'delete') this.consider(secrets.decode(e.kv));
      },
      onError: (err) => {
        if (this.queue.stopped) return;
        console.error('token cleaner: watch of secrets failed; restarting', err);
        setTimeout(() => void this.restart(), 1000).unref();
      },
    });
  }

  stop(): void {
    this.queue.stop();
    this.watch?.close();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private async restart(): Promise<void> {
    this.watch?.close();
    try {
      await this.start();
    } catch (err) {
      console.error('token cleaner: restart failed', err);
    }
  }

  private consider(s: ApiObject): void {
    if (BOOTSTRAP_SECRET_TYPES.includes(String(s.type))) this.queue.add(s.metadata.name!, s.metadata.name!);
  }

  /** Deletes the Secret when its token has expired, else wakes up at expiry; true when nothing is left to do now. */
  private async sync(name: string): Promise<boolean> {
    const secrets = this.registry.store('', 'secrets');
    let s: ApiObject;
    try {
      s = await secrets.get(BOOTSTRAP_NAMESPACE, name);
    } catch (err) {
      if (isStatusError(err) && err.status.code === 404) return true;
      throw err;
    }
    if (!BOOTSTRAP_SECRET_TYPES.includes(String(s.type)) || s.metadata.deletionTimestamp) return true;
    const { expired, ttlMs } = bootstrapTokenExpiry(s, this.now());
    if (expired) {
      try {
        await secrets.delete(BOOTSTRAP_NAMESPACE, name, { dryRun: false, preconditions: { uid: s.metadata.uid } });
      } catch (err) {
        // gone already, or replaced by another Secret of that name: the watch brings the new one
        if (isStatusError(err) && (err.status.code === 404 || err.status.code === 409)) return true;
        throw err;
      }
      return true;
    }
    if (ttlMs !== undefined) this.wakeAt(name, ttlMs);
    return true;
  }

  private wakeAt(name: string, ttlMs: number): void {
    clearTimeout(this.timers.get(name));
    // setTimeout holds at most ~24.8 days; a longer wait wakes early and sets the timer again.
    const t = setTimeout(() => {
      this.timers.delete(name);
      if (!this.queue.stopped) this.queue.add(name, name);
    }, Math.min(ttlMs + 1, 2 ** 31 - 1));
    t.unref();
    this.timers.set(name, t);
  }
}
