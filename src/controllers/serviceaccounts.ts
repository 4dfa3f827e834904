// The service-account controller (kube's pkg/controller/serviceaccount/
// serviceaccounts_controller.go): every active namespace has a ServiceAccount
// named `default`; a namespace that appears, or loses its `default`, is
// synced on the work queue. Terminating namespaces are left alone.
import type { Store } from '../storage/interface.js';
import type { Registry } from '../registry/registry.js';
import { isObject, type ApiObject } from '../registry/object.js';
import { schemaFor } from '../api/schemas.js';
import { trackWrite } from '../endpoints/fieldmanager.js';
import { WorkQueue } from './workqueue.js';
import { CONTROLLER_MANAGER, Informer, isNamespaceTerminating, isReason } from './informer.js';

export const DEFAULT_SERVICE_ACCOUNT = 'default';

export class ServiceAccountsController {
  private readonly queue: WorkQueue<string>;
  private readonly informers: Informer[];

  constructor(private readonly registry: Registry, storage: Store, opts: { retryMs?: number } = {}) {
    this.queue = new WorkQueue((ns) => this.sync(ns), {
      retryMs: opts.retryMs ?? 2000,
      onError: (ns, err) => console.error(`serviceaccount controller: namespace ${ns} failed; will retry`, err),
    });
    const enqueue = (ns: string | undefined) => ns && this.queue.add(ns, ns);
    this.informers = [
      new Informer(registry, storage, { group: '', resource: 'namespaces' }, { onObject: (o) => enqueue(o.metadata.name) }, 'serviceaccount controller'),
      new Informer(registry, storage, { group: '', resource: 'serviceaccounts' }, {
        onObject: () => {},
        onDelete: (o) => o.metadata.name === DEFAULT_SERVICE_ACCOUNT && enqueue(o.metadata.namespace),
      }, 'serviceaccount controller'),
    ];
  }

  async start(): Promise<void> {
    for (const i of this.informers) await i.start();
  }

  stop(): void {
    this.queue.stop();
    for (const i of this.informers) i.stop();
  }

  private async sync(namespace: string): Promise<boolean> {
    let ns: ApiObject;
    try {
      ns = await this.registry.store('', 'namespaces').get('', namespace);
    } catch (err) {
      if (isReason(err, 'NotFound')) return true;
      throw err;
    }
    if (ns.metadata.deletionTimestamp || (isObject(ns.status) && ns.status.phase !== undefined && ns.status.phase !== 'Active')) return true;
    const accounts = this.registry.store('', 'serviceaccounts');
    try {
      await accounts.get(namespace, DEFAULT_SERVICE_ACCOUNT);
      return true;
    } catch (err) {
      if (!isReason(err, 'NotFound')) throw err;
    }
    const sa: ApiObject = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT_SERVICE_ACCOUNT, namespace } };
    const schema = schemaFor('', 'v1', 'ServiceAccount');
    try {
      await accounts.create(namespace, sa, { dryRun: false, track: (live, next) => trackWrite({ manager: CONTROLLER_MANAGER, apiVersion: 'v1', kind: 'ServiceAccount', schema }, live, next) });
    } catch (err) {
      if (!isReason(err, 'AlreadyExists') && !isNamespaceTerminating(err) && !isReason(err, 'NotFound')) throw err;
    }
    return true;
  }
}
