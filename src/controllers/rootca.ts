// The root-CA publisher (kube's pkg/controller/certificates/rootcacertpublisher):
// every namespace has a ConfigMap `svc-root-ca.crt` (our name for kube's
// `kube-root-ca.crt`) whose `ca.crt` is the CA bundle that verifies the API
// server, and the annotation `svc.io/description` saying so. A namespace that
// appears, or a ConfigMap of that name that changes or goes away, is synced:
// created when missing (a namespace gone or terminating is not retried),
// data and annotation put back when they differ. Acts as service account
// root-ca-cert-publisher (create and update ConfigMaps); reads come from the
// shared informers, as kube's listers.
import { clone, isObject, type ApiObject } from '../registry/object.js';
import type { Controller, ControllerContext } from './context.js';
import type { ControllerClient, Target } from './client.js';
import type { SharedInformer } from './shared.js';
import { WorkQueue } from './workqueue.js';
import { isNamespaceTerminating, isReason } from './informer.js';

export const ROOT_CA_CONFIGMAP = 'svc-root-ca.crt';
export const DESCRIPTION_ANNOTATION = 'svc.io/description';
export const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the svc API server when using internal endpoints such as the internal service IP or svc.default.svc. ' +
  'No other usage is guaranteed across distributions of svc clusters.';
export const ROOT_CA_PUBLISHER = 'root-ca-cert-publisher';
const CONFIGMAPS: Target = { group: '', version: 'v1', resource: 'configmaps' };

export class RootCAPublisher implements Controller {
  private readonly queue: WorkQueue<string>;
  private readonly client: ControllerClient;
  private readonly namespaces: SharedInformer;
  private readonly configmaps: SharedInformer;
  private readonly removers: (() => void)[] = [];

  constructor(ctx: ControllerContext, private readonly rootCA: string, opts: { retryMs?: number } = {}) {
    this.client = ctx.client(ROOT_CA_PUBLISHER);
    this.namespaces = ctx.informers.informer('', 'namespaces');
    this.configmaps = ctx.informers.informer('', 'configmaps');
    this.queue = new WorkQueue((ns) => this.sync(ns), {
      retryMs: opts.retryMs ?? 2000,
      onError: (ns, err) => console.error(`root-ca-cert-publisher: namespace ${ns} failed; will retry`, err),
    });
  }

  async start(): Promise<void> {
    await Promise.all([this.namespaces.start(), this.configmaps.start()]);
    const enqueue = (ns: string | undefined) => ns && this.queue.add(ns, ns);
    const namespace = (o: ApiObject) => !o.metadata.deletionTimestamp && enqueue(o.metadata.name);
    const ours = (o: ApiObject) => o.metadata.name === ROOT_CA_CONFIGMAP && enqueue(o.metadata.namespace);
    this.removers.push(
      this.namespaces.addHandler({ onAdd: namespace, onUpdate: (_, o) => namespace(o) }),
      this.configmaps.addHandler({ onUpdate: (_, o) => ours(o), onDelete: ours }),
    );
  }

  stop(): void {
    this.queue.stop();
    for (const remove of this.removers.splice(0)) remove();
  }

  private async sync(namespace: string): Promise<boolean> {
    const ns = this.namespaces.get('', namespace);
    if (!ns || ns.metadata.deletionTimestamp) return true;
    const cm = this.configmaps.get(namespace, ROOT_CA_CONFIGMAP);
    if (!cm) {
      try {
        await this.client.create(CONFIGMAPS, namespace, {
          apiVersion: 'v1', kind: 'ConfigMap',
          metadata: { name: ROOT_CA_CONFIGMAP, namespace, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } },
          data: { 'ca.crt': this.rootCA },
        });
      } catch (e) {
        // a namespace that is gone or terminating is not retried; a racing create is fine
        if (isReason(e, 'NotFound') || isNamespaceTerminating(e) || isReason(e, 'AlreadyExists')) return true;
        throw e;
      }
      return true;
    }
    if (this.upToDate(cm)) return true;
    try {
      await this.client.update(CONFIGMAPS, namespace, ROOT_CA_CONFIGMAP, (cur) => {
        const next = clone(cur);
        next.data = { 'ca.crt': this.rootCA };
        delete next.binaryData;
        next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [DESCRIPTION_ANNOTATION]: DESCRIPTION };
        return next;
      });
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
