// What the API server writes itself while it starts (kube's post-start hooks
// that write): the system namespaces here; the RBAC bootstrap policy and
// cluster-info are written through StartupWrite from their own modules.
import { isStatusError } from '../api/meta/index.js';
import { schemaFor } from '../api/schemas.js';
import { defaulterFor } from '../api/defaults.js';
import { trackWrite } from '../endpoints/fieldmanager.js';
import { SYSTEM_NAMESPACES } from '../admission/plugins/namespacelifecycle.js';
import { DEFAULT_GATES } from '../features/gates.js';
import type { Registry } from '../registry/registry.js';
import type { ApiObject } from '../registry/object.js';
import type { PostStartHook } from './health.js';

/**
 * A post-start hook that writes (the system namespaces, the RBAC bootstrap
 * policy): tried once during the start; when it fails (e.g. an admission
 * plugin such as AlwaysDeny refuses the writes of a fresh data directory) the
 * server still serves, as kube-apiserver's hooks poll on: it retries in the
 * background, logging each failure, and its /readyz check stays failing
 * until it succeeds.
 */
export class StartupWrite {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  constructor(private readonly hook: PostStartHook, private readonly write: () => Promise<void>) {}
  async start(): Promise<void> {
    await this.attempt(1000);
  }
  private async attempt(nextMs: number): Promise<void> {
    try {
      await this.write();
      this.hook.done();
    } catch (err) {
      if (this.stopped) return;
      console.error(`E svc: ${this.hook.name} failed: ${(err as Error).message}; retrying in ${nextMs / 1000}s`);
      this.timer = setTimeout(() => void this.attempt(Math.min(nextMs * 2, 30_000)), nextMs);
      this.timer.unref();
    }
  }
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}

/** The namespaces every server has, created by the server itself (manager "svc-apiserver" in managedFields). */
export async function ensureSystemNamespaces(registry: Registry): Promise<void> {
  const namespaces = registry.store('', 'namespaces');
  const schema = schemaFor('', 'v1', 'Namespace');
  const track = (live: ApiObject | undefined, next: ApiObject) => trackWrite({ manager: 'svc-apiserver', apiVersion: 'v1', kind: 'Namespace', schema }, live, next);
  for (const name of [...SYSTEM_NAMESPACES, 'svc-node-lease']) {
    // As kube's bootstrap controller: look first, create only what is missing (a restart with
    // an admission plugin that refuses writes, e.g. AlwaysDeny, then writes nothing).
    if (await namespaces.get('', name).then(() => true, (err) => { if (isStatusError(err) && err.status.code === 404) return false; throw err; })) continue;
    const ns: ApiObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
    defaulterFor('', 'v1', 'Namespace', DEFAULT_GATES)?.(ns);
    try {
      await namespaces.create('', ns, { dryRun: false, track });
    } catch (err) {
      if (!(isStatusError(err) && err.status.reason === 'AlreadyExists')) throw err;
    }
  }
}
