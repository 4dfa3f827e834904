// The root-CA publisher (kube's pkg/controller/certificates/rootcacertpublisher):
// every namespace has a ConfigMap `svc-root-ca.crt` (our name for kube's
// `kube-root-ca.crt`) whose `ca.crt` is the CA bundle that verifies the API
// server, and the annotation `svc.io/description` saying so. A namespace that
// appears, or a ConfigMap of that name that changes or goes away, is synced:
// created when missing (a namespace gone or terminating is not retried),
// data and annotation put back when they differ.
import type { Store } from '../storage/interface.js';
import type { Registry } from '../registry/registry.js';
import { clone, isObject, type ApiObject } from '../registry/object.js';
import { schemaFor } from '../api/schemas.js';
import { trackWrite } from '../endpoints/fieldmanager.js';
import { WorkQueue } from './workqueue.js';
import { CONTROLLER_MANAGER, Informer, isNamespaceTerminating, isReason } from './informer.js';

export const ROOT_CA_CONFIGMAP = 'svc-root-ca.crt';
export const DESCRIPTION_ANNOTATION = 'svc.io/description';
export const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the svc API server when using internal endpoints such as the internal service IP or svc.default.svc. ' +
  'No other usage is guaranteed across distributions of svc clusters.';

export class RootCAPublisher {
  private readonly queue: WorkQueue<string>;
  private readonly informers: Informer[];

  constructor(private readonly registry: Registry, storage: Store, private readonly rootCA: string, opts: { retryMs?: number } = {}) {
    this.queue = new WorkQueue((ns) => this.sync(ns), {
      retryMs: opts.retryMs ?? 2000,
      onError: (ns, err) => console.error(`root-ca-cert-publisher: namespace ${ns} failed; will retry`, err),
    });
    const enqueue = (ns: string | undefined) => ns && this.queue.add(ns, ns);
    const ours = (o: ApiObject) => o.metadata.name === ROOT_CA_CONFIGMAP && enqueue(o.metadata.namespace);
    this.informers = [
      new Informer(registry, storage, { group: '', resource: 'namespaces' }, { onObject: (o) => !o.metadata.deletionTimestamp && enqueue(o.metadata.name) }, 'root-ca-cert-publisher'),
      new Informer(registry, storage, { group: '', resource: 'configmaps' }, { onObject: ours, onDelete: ours }, 'root-ca-cert-publisher'),
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
    const configmaps = this.registry.store('', 'configmaps');
    const schema = schemaFor('', 'v1', 'ConfigMap');
    const track = (live: ApiObject | undefined, next: ApiObject) => trackWrite({ manager: CONTROLLER_MANAGER, apiVersion: 'v1', kind: 'ConfigMap', schema }, live, next);
    let cm: ApiObject;
    try {
      cm = await configmaps.get(namespace, ROOT_CA_CONFIGMAP);
    } catch (err) {
      if (!isReason(err, 'NotFound')) throw err;
      try {
        await configmaps.create(namespace, {
          apiVersion: 'v1', kind: 'ConfigMap',
          metadata: { name: ROOT_CA_CONFIGMAP, namespace, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } },
          data: { 'ca.crt': this.rootCA },
        }, { dryRun: false, track });
      } catch (e) {
        // a namespace that is gone or terminating is not retried; a racing create is fine
        if (isReason(e, 'NotFound') || isNamespaceTerminating(e) || isReason(e, 'AlreadyExists')) return true;
        throw e;
      }
      return true;
    }
    if (this.upToDate(cm)) return true;
    try {
      await configmaps.guaranteedUpdate(namespace, ROOT_CA_CONFIGMAP, (cur) => {
        const next = clone(cur);
        next.data = { 'ca.crt': this.rootCA };
        delete next.binaryData;
        next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [DESCRIPTION_ANNOTATION]: DESCRIPTION };
        return next;
      }, { dryRun: false, track });
    } catch (err) {
      if (isReason(err, 'NotFound')) return false; // deleted meanwhile: create it on the retry
      throw err;
    }
    return true;
  }

  private upToDate(cm: ApiObject): boolean {
    const data = isObject(cm.data) ? cm.data : {};
    const keys = Object.keys(data);
    return keys.length === 1 && data['ca.crt'] === this.rootCA && cm.binaryData === undefined && !!cm.metadata.annotations?.[DESCRIPTION_ANNOTATION];
  }
}
