// The default local-path provisioner (svc's counterpart of rancher's
// local-path-provisioner, as k3s runs it; provisioner name svc.io/local-path),
// behaving as an external provisioner does (sig-storage-lib-external-provisioner):
//   claim of its class, unbound, with volume.kubernetes.io/storage-provisioner
//   naming it (the binder's go-ahead) and — the class being
//   WaitForFirstConsumer — volume.kubernetes.io/selected-node (the
//   scheduler's choice) → a hostPath PV pre-bound to the claim on that node
//   (localpath.ts), events Provisioning and ProvisioningSucceeded; the binder
//   then binds the two.
//   (a selected node that no longer exists: ProvisioningFailed, and the
//   annotation removed so that the scheduler places the pod again)
//   volume it provisioned, Released, reclaim policy Delete → the PV deleted.
// It writes as the persistent-volume-binder service account (kube's in-tree
// provisioners ran inside the binder with it; its role may create and delete
// PersistentVolumes and read claims, classes and nodes). Directories are not
// made or removed here: that is the node agent's work once one runs pods.
import type { ApiObject } from '../../registry/object.js';
import { StartWhenAuthorized, type ControllerClient } from '../client.js';
import type { Controller, ControllerContext } from '../context.js';
import type { EventRecorder } from '../events.js';
import { isReason } from '../informer.js';
import type { SharedInformer } from '../shared.js';
import { WorkQueue } from '../workqueue.js';
import { ANN_BETA_STORAGE_PROVISIONER, ANN_PROVISIONED_BY, ANN_SELECTED_NODE, ANN_STORAGE_PROVISIONER, annotation } from './annotations.js';
import { PV_BINDER_SERVICE_ACCOUNT, PVCS, PVS, STORAGE_CLASSES } from './binder.js';
import { ensureLocalPathClass } from './defaultclass.js';
import { DEFAULT_BASE_DIR, LOCAL_PATH_CLASS, LOCAL_PATH_PROVISIONER, localPathVolume, unsupported, volumeNameFor } from './localpath.js';
import { claimClass, claimVolumeName, specOf, volumePhase } from './match.js';

const NODES = { group: '', version: 'v1', resource: 'nodes' } as const;

export interface LocalPathOptions {
  /** Where volumes' directories live on the nodes (default /var/lib/svc/storage). */
  readonly baseDir?: string;
  /** The provisioner name classes name (default svc.io/local-path). */
  readonly provisioner?: string;
  /** The class set up on the first start (default local-path); undefined-like '' skips the setup. */
  readonly className?: string;
  readonly retryMs?: number;
}

type Item = { readonly kind: 'claim' | 'volume'; readonly namespace: string; readonly name: string };

/** Whether the claim is this provisioner's to provision now (the library's shouldProvision). */
export function shouldProvision(claim: ApiObject, cls: ApiObject | undefined, provisioner: string): boolean {
  if (claimVolumeName(claim) !== '' || claim.metadata.deletionTimestamp || !cls || cls.provisioner !== provisioner) return false;
  const asked = annotation(claim, ANN_STORAGE_PROVISIONER) ?? annotation(claim, ANN_BETA_STORAGE_PROVISIONER);
  if (asked !== provisioner) return false;
  return cls.volumeBindingMode !== 'WaitForFirstConsumer' || !!annotation(claim, ANN_SELECTED_NODE);
}

/** Whether the volume is this provisioner's to delete now (the library's shouldDelete). */
export function shouldDelete(volume: ApiObject, provisioner: string): boolean {
  return annotation(volume, ANN_PROVISIONED_BY) === provisioner && volumePhase(volume) === 'Released' &&
    specOf(volume).persistentVolumeReclaimPolicy === 'Delete' && !volume.metadata.deletionTimestamp;
}

export class LocalPathProvisioner implements Controller {
  private readonly client: ControllerClient;
  private readonly recorder: EventRecorder;
  private readonly claims: SharedInformer;
  private readonly volumes: SharedInformer;
  private readonly classes: SharedInformer;
  private readonly queue: WorkQueue<Item>;
  private readonly starter: StartWhenAuthorized;
  private readonly removals: (() => void)[] = [];
  private readonly provisioner: string;
  private readonly baseDir: string;
  private readonly className: string;

  constructor(private readonly ctx: ControllerContext, opts: LocalPathOptions = {}) {
    this.provisioner = opts.provisioner ?? LOCAL_PATH_PROVISIONER;
    this.baseDir = opts.baseDir ?? DEFAULT_BASE_DIR;
    this.className = opts.className ?? LOCAL_PATH_CLASS;
    this.client = ctx.client(PV_BINDER_SERVICE_ACCOUNT);
    this.recorder = ctx.recorder(PV_BINDER_SERVICE_ACCOUNT, this.provisioner);
    this.claims = ctx.informers.informer(PVCS.group, PVCS.resource);
    this.volumes = ctx.informers.informer(PVS.group, PVS.resource);
    this.classes = ctx.informers.informer(STORAGE_CLASSES.group, STORAGE_CLASSES.resource);
    this.queue = new WorkQueue((item) => (item.kind === 'claim' ? this.syncClaim(item.namespace, item.name) : this.syncVolume(item.name)), {
      retryMs: opts.retryMs ?? 1000,
      onError: (key, err) => console.error(`local-path-provisioner: ${key} failed; will retry: ${(err as Error).message}`),
    });
    this.starter = new StartWhenAuthorized(this.client, PVCS, 'local-path-provisioner', () => this.run());
  }

  start(): Promise<void> {
    return this.starter.start();
  }

  stop(): void {
    this.starter.stop();
    this.queue.stop();
    for (const r of this.removals.splice(0)) r();
  }

  private addClaim(c: ApiObject): void {
    const item: Item = { kind: 'claim', namespace: c.metadata.namespace ?? '', name: c.metadata.name! };
    this.queue.add(`claim/${item.namespace}/${item.name}`, item);
  }

  private addVolume(v: ApiObject): void {
    this.queue.add(`volume/${v.metadata.name}`, { kind: 'volume', namespace: '', name: v.metadata.name! });
  }

  private async run(): Promise<void> {
    if (this.className) {
      try {
        await ensureLocalPathClass(this.ctx.registry, { className: this.className, provisioner: this.provisioner });
      } catch (err) {
        console.error(`local-path-provisioner: setting up StorageClass ${this.className} failed: ${(err as Error).message}`);
      }
    }
    this.removals.push(this.claims.addHandler({ onAdd: (c) => this.addClaim(c), onUpdate: (_, c) => this.addClaim(c) }));
    this.removals.push(this.volumes.addHandler({ onAdd: (v) => this.addVolume(v), onUpdate: (_, v) => this.addVolume(v) }));
    await this.ctx.informers.start();
  }

  private async syncClaim(namespace: string, name: string): Promise<boolean> {
    const claim = this.claims.get(namespace, name);
    if (!claim) return true;
    const cls = this.classes.get('', claimClass(claim));
    if (!shouldProvision(claim, cls, this.provisioner)) return true;
    const volumeName = volumeNameFor(claim);
    if (this.volumes.get('', volumeName)) return true; // made already; the binder binds it
    const failed = (message: string) => this.recorder.event(claim, 'Warning', 'ProvisioningFailed', `failed to provision volume with StorageClass ${JSON.stringify(cls!.metadata.name)}: ${message}`);
    const why = unsupported(claim);
    if (why) {
      await failed(why);
      return true;
    }
    const nodeName = annotation(claim, ANN_SELECTED_NODE);
    if (!nodeName) {
      await failed('configuration error, no node was specified');
      return true;
    }
    await this.recorder.event(claim, 'Normal', 'Provisioning', `External provisioner is provisioning volume for claim ${JSON.stringify(`${namespace}/${name}`)}`);
    let node: ApiObject;
    try {
      node = await this.client.get(NODES, '', nodeName);
    } catch (err) {
      if (!isReason(err, 'NotFound')) throw err;
      // the library's rescheduleProvisioning: the annotation goes, so the scheduler places the pod again
      await failed(`nodes ${JSON.stringify(nodeName)} not found`);
      await this.client.update(PVCS, namespace, name, (cur) => {
        const annotations = { ...(cur.metadata.annotations ?? {}) };
        delete annotations[ANN_SELECTED_NODE];
        return { ...cur, metadata: { ...cur.metadata, annotations } };
      });
      return true;
    }
    const pv = localPathVolume({ claim, storageClass: cls!, node, baseDir: this.baseDir, provisioner: this.provisioner });
    try {
      await this.client.create(PVS, '', pv);
    } catch (err) {
      if (!isReason(err, 'AlreadyExists')) {
        await failed((err as Error).message);
        throw err;
      }
    }
    await this.recorder.event(claim, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${volumeName}`);
    return true;
  }

  private async syncVolume(name: string): Promise<boolean> {
    const volume = this.volumes.get('', name);
    if (!volume || !shouldDelete(volume, this.provisioner)) return true;
    // the directory <baseDir>/<pv>_<ns>_<claim> on the node is the node agent's to remove
    try {
      await this.client.delete(PVS, '', name, { preconditions: { uid: volume.metadata.uid! } });
    } catch (err) {
      if (!isReason(err, 'NotFound') && !isReason(err, 'Conflict')) throw err;
    }
    return true;
  }
}

/** The default local-path provisioner, not yet started (proposed manager entry: `local-path-provisioner`). */
export function startLocalPathProvisioner(ctx: ControllerContext, opts?: LocalPathOptions): Controller {
  return new LocalPathProvisioner(ctx, opts);
}
