// The service-account controller (kube's pkg/controller/serviceaccount/
// serviceaccounts_controller.go), as service account
// service-account-controller: every active namespace has a ServiceAccount
// named `default`; a namespace that appears, or loses its `default`, is
// synced on the work queue. Terminating namespaces are left alone.
import { isObject, type ApiObject } from '../registry/object.js';
import type { Controller, ControllerContext } from './context.js';
import type { ControllerClient, Target } from './client.js';
import type { SharedInformer } from './shared.js';
import { WorkQueue } from './workqueue.js';
import { isNamespaceTerminating, isReason } from './informer.js';

export const DEFAULT_SERVICE_ACCOUNT = 'default';
export const SERVICE_ACCOUNT_CONTROLLER = 'service-account-controller';
const SERVICE_ACCOUNTS: Target = { group: '', version: 'v1', resource: 'serviceaccounts' };

export class ServiceAccountsController implements Controller {
  private readonly queue: WorkQueue<string>;
  private readonly client: ControllerClient;
  private readonly namespaces: SharedInformer;
  private readonly accounts: SharedInformer;
  private readonly removers: (() => void)[] = [];

  constructor(ctx: ControllerContext, opts: { retryMs?: number } = {}) {
    this.client = ctx.client(SERVICE_ACCOUNT_CONTROLLER);
    this.namespaces = ctx.informers.informer('', 'namespaces');
    this.accounts = ctx.informers.informer('', 'serviceaccounts');
    this.queue = new WorkQueue((ns) => this.sync(ns), {
      retryMs: opts.retryMs ?? 2000,
      onError: (ns, err) => console.error(`serviceaccount controller: namespace ${ns} failed; will retry`, err),
    });
  }

  async start(): Promise<void> {
    await Promise.all([this.namespaces.start(), this.accounts.start()]);
    const enqueue = (ns: string | undefined) => ns && this.queue.add(ns, ns);
    this.removers.push(
      this.namespaces.addHandler({ onAdd: (o) => enqueue(o.metadata.name), onUpdate: (_, o) => enqueue(o.metadata.name) }),
      this.accounts.addHandler({ onDelete: (o) => o.metadata.name === DEFAULT_SERVICE_ACCOUNT && enqueue(o.metadata.namespace) }),
    );
  }

  stop(): void {
    this.queue.stop();
    for (const remove of this.removers.splice(0)) remove();
  }

  private async sync(namespace: string): Promise<boolean> {
    const ns = this.namespaces.get('', namespace);
    if (!ns || ns.metadata.deletionTimestamp || (isObject(ns.status) && ns.status.phase !== undefined && ns.status.phase !== 'Active')) return true;
    if (this.accounts.get(namespace, DEFAULT_SERVICE_ACCOUNT)) return true;
    const sa: ApiObject = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT_SERVICE_ACCOUNT, namespace } };
    try {
      await this.client.create(SERVICE_ACCOUNTS, namespace, sa);
    } catch (err) {
      if (!isReason(err, 'AlreadyExists') && !isNamespaceTerminating(err) && !isReason(err, 'NotFound')) throw err;
    }
    return true;
  }
}
