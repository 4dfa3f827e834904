// The storage-protection controllers (Kubernetes' pvc-protection and
// pv-protection): the StorageObjectInUseProtection admission plugin puts a
// finalizer on every new claim and volume; when one is being deleted, this
// removes the finalizer once nothing uses it, so the deletion completes.
//   claim:  in use while a scheduled pod (spec.nodeName set) of its namespace
//           names it in a persistentVolumeClaim volume, or owns it through an
//           ephemeral volume and has not finished
//   volume: in use while status.phase is Bound
// Each kind is its own controller, as kube's, acting as its service account
// (pvc-protection-controller, pv-protection-controller); the claims' one also
// looks at pods going away or finishing, and an object still in use is
// checked again every `retryMs`.
import { isObject, type ApiObject } from '../registry/object.js';
import type { Controller, ControllerContext } from './context.js';
import type { ControllerClient, Target } from './client.js';
import type { SharedInformer } from './shared.js';
import { isReason } from './informer.js';
import { PV_PROTECTION, PVC_PROTECTION } from '../admission/plugins/storageprotection.js';
import { WorkQueue } from './workqueue.js';

export type Kind = 'persistentvolumeclaims' | 'persistentvolumes';

export interface StorageProtectionOptions {
  readonly retryMs?: number;
}

const FINALIZER: Record<Kind, string> = { persistentvolumeclaims: PVC_PROTECTION, persistentvolumes: PV_PROTECTION };
const SERVICE_ACCOUNT: Record<Kind, string> = { persistentvolumeclaims: 'pvc-protection-controller', persistentvolumes: 'pv-protection-controller' };

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

export class StorageProtectionController implements Controller {
  private readonly queue: WorkQueue<{ namespace: string; name: string }>;
  private readonly client: ControllerClient;
  private readonly objects: SharedInformer;
  private readonly pods: SharedInformer | undefined;
  private readonly target: Target;
  private readonly removers: (() => void)[] = [];

  constructor(private readonly ctx: ControllerContext, private readonly kind: Kind, opts: StorageProtectionOptions = {}) {
    this.client = ctx.client(SERVICE_ACCOUNT[kind]);
    this.target = { group: '', version: 'v1', resource: kind };
    this.objects = ctx.informers.informer('', kind);
    this.pods = kind === 'persistentvolumeclaims' && ctx.registry.has('', 'pods') ? ctx.informers.informer('', 'pods') : undefined;
    this.queue = new WorkQueue((item) => this.sync(item.namespace, item.name), {
      retryMs: opts.retryMs ?? 2000,
      onError: (key, err) => console.error(`${SERVICE_ACCOUNT[kind]}: ${key} failed; will retry`, err),
    });
  }

  async start(): Promise<void> {
    if (!this.ctx.registry.has('', this.kind)) return;
    await Promise.all([this.objects.start(), this.pods?.start()]);
    this.removers.push(this.objects.addHandler({ onAdd: (o) => this.consider(o), onUpdate: (_, o) => this.consider(o) }));
    if (this.pods) {
      // a pod gone or finished may free the claims it named
      const freed = (pod: ApiObject) => {
        for (const claim of this.objects.list(pod.metadata.namespace ?? '')) if (podUsesClaim(pod, claim)) this.consider(claim);
      };
      this.removers.push(this.pods.addHandler({ onUpdate: (_, pod) => freed(pod), onDelete: freed }));
    }
  }

  stop(): void {
    this.queue.stop();
    for (const remove of this.removers.splice(0)) remove();
  }

  private consider(obj: ApiObject): void {
    if (!obj.metadata.deletionTimestamp || !(obj.metadata.finalizers ?? []).includes(FINALIZER[this.kind])) return;
    const namespace = obj.metadata.namespace ?? '';
    const name = obj.metadata.name!;
    this.queue.add(`${namespace}/${name}`, { namespace, name });
  }

  /** Removes the finalizer when the object is no longer used; true when nothing is left to do. */
  private async sync(namespace: string, name: string): Promise<boolean> {
    const obj = this.objects.get(namespace, name);
    const finalizer = FINALIZER[this.kind];
    if (!obj || !obj.metadata.deletionTimestamp || !(obj.metadata.finalizers ?? []).includes(finalizer)) return true;
    if (this.kind === 'persistentvolumes' ? volumeInUse(obj) : this.claimInUse(obj)) return false;
    try {
      await this.client.update(this.target, namespace, name, (cur) => ({
        ...cur, metadata: { ...cur.metadata, finalizers: (cur.metadata.finalizers ?? []).filter((f) => f !== finalizer) },
      }));
    } catch (err) {
      if (!isReason(err, 'NotFound')) throw err;
    }
    return true;
  }

  private claimInUse(claim: ApiObject): boolean {
    return (this.pods?.list(claim.metadata.namespace ?? '') ?? []).some((pod) => podUsesClaim(pod, claim));
  }
}
