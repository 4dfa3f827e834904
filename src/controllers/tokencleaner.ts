// The token cleaner (Kubernetes' tokencleaner controller): deletes bootstrap
// token Secrets (svc-system, type bootstrap.svc.io/token or
// bootstrap.kubernetes.io/token) once their `expiration` has passed — an
// unparseable expiration counts as passed, as the authenticator treats it.
// A token not yet expired is looked at again when it expires. The delete
// carries the Secret's uid as a precondition, so a Secret recreated under the
// same name is never removed by mistake.
//
// Acts as service account token-cleaner (its Role in svc-system lets it read
// and delete Secrets there).
//
//   secrets informer (svc-system) ──► queue (per name) ──► sync: get
//       expired → delete (uid precondition)      not yet → timer at expiry → queue
import type { ApiObject } from '../registry/object.js';
import { isStatusError } from '../api/meta/index.js';
import { BOOTSTRAP_NAMESPACE, BOOTSTRAP_SECRET_TYPES, bootstrapTokenExpiry } from '../authn/bootstrap.js';
import type { Controller, ControllerContext } from './context.js';
import type { ControllerClient, Target } from './client.js';
import type { SharedInformer } from './shared.js';
import { WorkQueue } from './workqueue.js';

export const TOKEN_CLEANER = 'token-cleaner';
const SECRETS: Target = { group: '', version: 'v1', resource: 'secrets' };

export interface TokenCleanerOptions {
  readonly retryMs?: number;
  readonly now?: () => number;
}

export class TokenCleaner implements Controller {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly queue: WorkQueue<string>;
  private readonly now: () => number;
  private readonly client: ControllerClient;
  private readonly secrets: SharedInformer;
  private removeHandler: (() => void) | undefined;

  constructor(ctx: ControllerContext, opts: TokenCleanerOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.client = ctx.client(TOKEN_CLEANER);
    this.secrets = ctx.informers.informer('', 'secrets');
    this.queue = new WorkQueue((name) => this.sync(name), {
      retryMs: opts.retryMs ?? 2000,
      onError: (key, err) => console.error(`token cleaner: ${key} failed; will retry`, err),
    });
  }

  async start(): Promise<void> {
    await this.secrets.start();
    this.removeHandler = this.secrets.addHandler({ onAdd: (s) => this.consider(s), onUpdate: (_, s) => this.consider(s) });
  }

  stop(): void {
    this.queue.stop();
    this.removeHandler?.();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private consider(s: ApiObject): void {
    if (s.metadata.namespace === BOOTSTRAP_NAMESPACE && BOOTSTRAP_SECRET_TYPES.includes(String(s.type))) this.queue.add(s.metadata.name!, s.metadata.name!);
  }

  /** Deletes the Secret when its token has expired, else wakes up at expiry; true when nothing is left to do now. */
  private async sync(name: string): Promise<boolean> {
    let s: ApiObject;
    try {
      s = await this.client.get(SECRETS, BOOTSTRAP_NAMESPACE, name);
    } catch (err) {
      if (isStatusError(err) && err.status.code === 404) return true;
      throw err;
    }
    if (!BOOTSTRAP_SECRET_TYPES.includes(String(s.type)) || s.metadata.deletionTimestamp) return true;
    const { expired, ttlMs } = bootstrapTokenExpiry(s, this.now());
    if (expired) {
      try {
        await this.client.delete(SECRETS, BOOTSTRAP_NAMESPACE, name, { preconditions: { uid: s.metadata.uid } });
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
