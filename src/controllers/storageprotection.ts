// The storage-protection controllers (Kubernetes' pvc-protection and
// pv-protection): the StorageObjectInUseProtection admission plugin puts a
// finalizer on every new claim and volume; when one is being deleted, this
// removes the finalizer once nothing uses it, so the deletion completes.
//   claim:  in use while a scheduled pod (spec.nodeName set) of its namespace
//           names it in a persistentVolumeClaim volume, or owns it through an
//           ephemeral volume and has not finished
//   volume: in use while status.phase is Bound
// It watches the two resources in storage and re-checks an object in use every
// `retryMs` (pods going away are not watched).
import type { Store, WatchHandle } from '../storage/interface.js';
import type { Registry } from '../registry/registry.js';
import type { GenericStore } from '../registry/store.js';
import { isObject, type ApiObject } from '../registry/object.js';
import { PV_PROTECTION, PVC_PROTECTION } from '../admission/plugins/storageprotection.js';
import { WorkQueue } from './workqueue.js';

export type Kind = 'persistentvolumeclaims' | 'persistentvolumes';

export interface StorageProtectionOptions {
  readonly retryMs?: number;
  /** The kinds looked after (default both): kube's pvc-protection and pv-protection are two controllers. */
  readonly kinds?: readonly Kind[];
}

const FINALIZER: Record<Kind, string> = { persistentvolumeclaims: PVC_PROTECTION, persistentvolumes: PV_PROTECTION };

const volumesOf = (pod: ApiObject): Record<string, unknown>[] => {
  const spec = isObject(pod.spec) ? pod.spec : {};
  return Array.isArray(spec.volumes) ? spec.volumes.filter(isObject) : [];
};

/** Does this pod keep the claim in use? */
export function podUsesClaim(pod: ApiObject, claim: ApiObject): boolean {
  const spec = isObject(pod.spec) ? pod.spec : {};
  if (typeof spec.nodeName !== 'string' || spec.nodeName === '') return false;
  const phase = isObject(pod.status) ? pod.status.phase : undefined;
  const finished = phase === 'Succeeded' || phase === 'Failed';
  const ownedByPod = (claim.metadata.ownerReferences ?? []).some((r) => r.controller === true && r.uid === pod.metadata.uid);
  return volumesOf(pod).some((v) =>
    (isObject(v.persistentVolumeClaim) && v.persistentVolumeClaim.claimName === claim.metadata.name) ||
    (!finished && isObject(v.ephemeral) && `${pod.metadata.name}-${String(v.name)}` === claim.metadata.name && ownedByPod));
}

export function volumeInUse(pv: ApiObject): boolean {
  return isObject(pv.status) && pv.status.phase === 'Bound';
}

export class StorageProtectionController {
  private readonly watches: WatchHandle[] = [];
  private readonly queue: WorkQueue<{ kind: Kind; namespace: string; name: string }>;
  private readonly kinds: readonly Kind[];

  constructor(private readonly registry: Registry, private readonly storage: Store, opts: StorageProtectionOptions = {}) {
    this.kinds = opts.kinds ?? (Object.keys(FINALIZER) as Kind[]);
    this.queue = new WorkQueue((item) => this.sync(item.kind, item.namespace, item.name), {
      retryMs: opts.retryMs ?? 2000,
      onError: (key, err) => console.error(`storage protection controller: ${key} failed; will retry`, err),
    });
  }

  async start(): Promise<void> {
    for (const kind of this.kinds) {
      if (this.registry.has('', kind)) await this.watchKind(kind);
    }
  }

  stop(): void {
    this.queue.stop();
    for (const w of this.watches) w.close();
  }

  private async watchKind(kind: Kind): Promise<void> {
    const store = this.registry.store('', kind);
    const { items, resourceVersion } = await store.list('');
    for (const obj of items) this.consider(kind, obj);
    this.watches.push(await this.storage.watch({ prefix: store.collectionPrefix(''), fromRevision: Number(resourceVersion) }, {
      onEvents: (events) => {
        for (const e of events) if (e.type !== 'delete') this.consider(kind, store.decode(e.kv));
      },
      onError: (err) => {
        if (this.queue.stopped) return;
        console.error(`storage protection controller: watch of ${kind} failed; restarting`, err);
        setTimeout(() => void this.watchKind(kind).catch((e) => console.error('storage protection controller: restart failed', e)), 1000).unref();
      },
    }));
  }

  private consider(kind: Kind, obj: ApiObject): void {
    if (!obj.metadata.deletionTimestamp || !(obj.metadata.finalizers ?? []).includes(FINALIZER[kind])) return;
    const namespace = obj.metadata.namespace ?? '';
    const name = obj.metadata.name!;
    this.queue.add(`${kind}/${namespace}/${name}`, { kind, namespace, name });
  }

  /** Removes the finalizer when the object is no longer used; true when nothing is left to do. */
  private async sync(kind: Kind, namespace: string, name: string): Promise<boolean> {
    const store = this.registry.store('', kind);
    let obj: ApiObject;
    try {
      obj = await store.get(namespace, name);
    } catch {
      return true; // gone
    }
    const finalizer = FINALIZER[kind];
    if (!obj.metadata.deletionTimestamp || !(obj.metadata.finalizers ?? []).includes(finalizer)) return true;
    if (kind === 'persistentvolumes' ? volumeInUse(obj) : await this.claimInUse(obj)) return false;
    await store.guaranteedUpdate(namespace, name, (cur) => {
      cur.metadata.finalizers = (cur.metadata.finalizers ?? []).filter((f) => f !== finalizer);
      return cur;
    }, { dryRun: false });
    return true;
  }

  private async claimInUse(claim: ApiObject): Promise<boolean> {
    if (!this.registry.has('', 'pods')) return false;
    const pods: GenericStore = this.registry.store('', 'pods');
    const { items } = await pods.list(claim.metadata.namespace ?? '');
    return items.some((pod) => podUsesClaim(pod, claim));
  }
}
