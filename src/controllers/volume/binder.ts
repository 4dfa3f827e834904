// The PersistentVolume binder (kube-controller-manager v1.27's
// persistentvolume-binder, pkg/controller/volume/persistentvolume), as the
// persistent-volume-binder service account, events from
// "persistentvolume-controller". Claims and volumes come from shared
// informers into two work queues; each sync asks decide.ts what to do and
// writes it: bind (volume first, then claim, each half only when it differs),
// phases, the provisioner annotations for dynamic provisioning, release and
// reclaim. Everything is synced again every `syncPeriodMs` (kube's
// --pvclaimbinder-sync-period, 15 s), so a claim waiting for a volume binds
// once one appears even without an event.
import type { ApiObject } from '../../registry/object.js';
import { deepEqual, isObject } from '../../registry/object.js';
import { StartWhenAuthorized, type ControllerClient } from '../client.js';
import type { Controller, ControllerContext } from '../context.js';
import type { EventRecorder } from '../events.js';
import { isReason } from '../informer.js';
import { LastWritten } from '../job/loop.js';
import type { SharedInformer } from '../shared.js';
import { WorkQueue } from '../workqueue.js';
import {
  ANN_BETA_STORAGE_PROVISIONER, ANN_BIND_COMPLETED, ANN_BOUND_BY_CONTROLLER, ANN_STORAGE_PROVISIONER, YES, isDefaultClass,
  type ClaimPhase, type VolumePhase,
} from './annotations.js';
import { needsReleasedPhase, planClaim, planVolume, type BinderEvent, type ClaimAction, type Reclaim, type VolumeAction } from './decide.js';
import { claimReference, claimRefOf, claimVolumeName, isVolumeBoundToClaim, specOf, statusOf, volumePhase } from './match.js';

export const PV_BINDER_SERVICE_ACCOUNT = 'persistent-volume-binder';
export const PV_CONTROLLER_COMPONENT = 'persistentvolume-controller';

export const PVS = { group: '', version: 'v1', resource: 'persistentvolumes' } as const;
export const PVCS = { group: '', version: 'v1', resource: 'persistentvolumeclaims' } as const;
export const STORAGE_CLASSES = { group: 'storage.svc.io', version: 'v1', resource: 'storageclasses' } as const;
const PV_STATUS = { ...PVS, subresource: 'status' };
const PVC_STATUS = { ...PVCS, subresource: 'status' };

export interface BinderOptions {
  /** Every claim and volume synced again this often (kube's --pvclaimbinder-sync-period: 15 s). */
  readonly syncPeriodMs?: number;
  readonly retryMs?: number;
}

const claimKey = (o: { namespace?: string; name?: string }): string => `${o.namespace ?? ''}/${o.name ?? ''}`;

export class PersistentVolumeBinder implements Controller {
  private readonly client: ControllerClient;
  private readonly recorder: EventRecorder;
  private readonly volumes: SharedInformer;
  private readonly claims: SharedInformer;
  /** Undefined when storage.k8s.io is not served (--runtime-config): no classes, so nothing provisions. */
  private readonly classes: SharedInformer | undefined;
  private readonly volumeQueue: WorkQueue<string>;
  private readonly claimQueue: WorkQueue<string>;
  private readonly written = new LastWritten();
  private readonly starter: StartWhenAuthorized;
  private readonly removals: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly syncPeriodMs: number;

  constructor(private readonly ctx: ControllerContext, opts: BinderOptions = {}) {
    this.client = ctx.client(PV_BINDER_SERVICE_ACCOUNT);
    this.recorder = ctx.recorder(PV_BINDER_SERVICE_ACCOUNT, PV_CONTROLLER_COMPONENT);
    this.volumes = ctx.informers.informer(PVS.group, PVS.resource);
    this.claims = ctx.informers.informer(PVCS.group, PVCS.resource);
    this.classes = ctx.registry.has(STORAGE_CLASSES.group, STORAGE_CLASSES.resource) ? ctx.informers.informer(STORAGE_CLASSES.group, STORAGE_CLASSES.resource) : undefined;
    this.syncPeriodMs = opts.syncPeriodMs ?? 15_000;
    const onError = (what: string) => (key: string, err: unknown) => console.error(`persistentvolume-binder: syncing ${what} ${key} failed; will retry: ${(err as Error).message}`);
    this.volumeQueue = new WorkQueue((name) => this.syncVolume(name), { retryMs: opts.retryMs ?? 1000, onError: onError('volume') });
    this.claimQueue = new WorkQueue((key) => this.syncClaim(key), { retryMs: opts.retryMs ?? 1000, onError: onError('claim') });
    this.starter = new StartWhenAuthorized(this.client, PVS, 'persistentvolume-binder', () => this.run());
  }

  start(): Promise<void> {
    return this.starter.start();
  }

  stop(): void {
    this.starter.stop();
    clearInterval(this.timer);
    this.volumeQueue.stop();
    this.claimQueue.stop();
    for (const r of this.removals.splice(0)) r();
  }

  private addVolume(name: string | undefined): void {
    if (name) this.volumeQueue.add(name, name);
  }

  private addClaim(key: string): void {
    this.claimQueue.add(key, key);
  }

  private async run(): Promise<void> {
    this.removals.push(this.volumes.addHandler({
      onAdd: (v) => this.addVolume(v.metadata.name),
      onUpdate: (_, v) => this.addVolume(v.metadata.name),
      onDelete: (v) => {
        this.written.delete(`pv/${v.metadata.name}`);
        const ref = claimRefOf(v);
        if (ref?.name) this.addClaim(claimKey(ref));
      },
    }));
    this.removals.push(this.claims.addHandler({
      onAdd: (c) => this.addClaim(claimKey(c.metadata)),
      onUpdate: (_, c) => this.addClaim(claimKey(c.metadata)),
      onDelete: (c) => {
        this.written.delete(`pvc/${claimKey(c.metadata)}`);
        this.addVolume(claimVolumeName(c) || undefined);
      },
    }));
    // a class appearing may let waiting claims provision
    if (this.classes) this.removals.push(this.classes.addHandler({ onAdd: () => this.resyncClaims() }));
    await this.ctx.informers.start();
    await Promise.all([this.volumes.waitForSync(), this.claims.waitForSync(), this.classes?.waitForSync()]);
    this.timer = setInterval(() => {
      for (const v of this.volumes.list()) this.addVolume(v.metadata.name);
      this.resyncClaims();
    }, this.syncPeriodMs);
    this.timer.unref();
  }

  private resyncClaims(): void {
    for (const c of this.claims.list()) this.addClaim(claimKey(c.metadata));
  }

  private volume(name: string): ApiObject | undefined {
    return this.written.newest(`pv/${name}`, this.volumes.get('', name));
  }

  private claim(ns: string, name: string): ApiObject | undefined {
    return this.written.newest(`pvc/${ns}/${name}`, this.claims.get(ns, name));
  }

  private remember(obj: ApiObject): ApiObject {
    const key = obj.metadata.namespace ? `pvc/${claimKey(obj.metadata)}` : `pv/${obj.metadata.name}`;
    this.written.set(key, obj);
    return obj;
  }

  private event(obj: ApiObject, e: BinderEvent | undefined): Promise<void> {
    return e ? this.recorder.event(obj, e.type, e.reason, e.message) : Promise.resolve();
  }

  // ---- claims

  private async syncClaim(key: string): Promise<boolean> {
    const [ns, name] = key.split('/') as [string, string];
    const claim = this.claim(ns, name);
    if (!claim) return true;
    const action = planClaim(claim, {
      volume: (n) => this.volume(n),
      volumes: () => this.volumes.list().map((v) => this.volume(v.metadata.name!) ?? v),
      storageClass: (n) => this.classes?.get('', n),
      ...(this.ctx.gates.enabled('RetroactiveDefaultStorageClass') ? { defaultClass: () => this.defaultClass() } : {}),
    });
    await this.applyClaim(claim, action);
    return true;
  }

  /** kube's GetDefaultClass: of several defaults, the newest (then the first by name). */
  private defaultClass(): ApiObject | undefined {
    const defaults = (this.classes?.list() ?? []).filter(isDefaultClass);
    defaults.sort((a, b) => String(b.metadata.creationTimestamp ?? '').localeCompare(String(a.metadata.creationTimestamp ?? '')) || a.metadata.name!.localeCompare(b.metadata.name!));
    return defaults[0];
  }

  private async applyClaim(claim: ApiObject, a: ClaimAction): Promise<void> {
    switch (a.kind) {
      case 'bind':
        await this.bind(a.volume, claim);
        return;
      case 'pending':
        await this.event(claim, a.event);
        await this.updateClaimStatus(claim, 'Pending', undefined);
        return;
      case 'provision':
        await this.event(await this.setClaimProvisioner(claim, a.provisioner), a.event);
        return;
      case 'provisionFailed':
        await this.event(claim, a.event);
        return;
      case 'assignClass':
        this.remember(await this.client.update(PVCS, claim.metadata.namespace ?? '', claim.metadata.name!, (cur) => {
          if (typeof specOf(cur).storageClassName === 'string') return cur;
          return { ...cur, spec: { ...specOf(cur), storageClassName: a.className } };
        }));
        return;
      case 'lost':
        if (statusOf(claim).phase === 'Lost') return;
        await this.updateClaimStatus(claim, 'Lost', undefined);
        await this.event(claim, a.event);
        return;
      case 'error':
        throw new Error(a.message);
    }
  }

  /** setClaimProvisioner: both spellings of the storage-provisioner annotation. */
  private async setClaimProvisioner(claim: ApiObject, provisioner: string): Promise<ApiObject> {
    const ann = claim.metadata.annotations ?? {};
    if (ann[ANN_STORAGE_PROVISIONER] === provisioner && ann[ANN_BETA_STORAGE_PROVISIONER] === provisioner) return claim;
    return this.remember(await this.client.update(PVCS, claim.metadata.namespace ?? '', claim.metadata.name!, (cur) => ({
      ...cur, metadata: { ...cur.metadata, annotations: { ...(cur.metadata.annotations ?? {}), [ANN_STORAGE_PROVISIONER]: provisioner, [ANN_BETA_STORAGE_PROVISIONER]: provisioner } },
    })));
  }

  /** updateClaimStatus: the phase, and the volume's access modes and capacity (cleared without a volume); written only when it differs. */
  private async updateClaimStatus(claim: ApiObject, phase: ClaimPhase, volume: ApiObject | undefined): Promise<ApiObject> {
    const next = (status: Record<string, unknown>): Record<string, unknown> => {
      const s: Record<string, unknown> = { ...status, phase };
      if (volume) {
        s.accessModes = specOf(volume).accessModes;
        s.capacity = specOf(volume).capacity;
      } else {
        delete s.accessModes;
        delete s.capacity;
      }
      return s;
    };
    if (deepEqual(next(statusOf(claim)), statusOf(claim))) return claim;
    return this.remember(await this.client.update(PVC_STATUS, claim.metadata.namespace ?? '', claim.metadata.name!, (cur) => ({ ...cur, status: next(statusOf(cur)) })));
  }

  // ---- binding

  /** bind(): the volume's half first (claimRef, phase), then the claim's (volumeName, annotations, status). */
  private async bind(volume: ApiObject, claim: ApiObject): Promise<void> {
    let pv = await this.bindVolumeToClaim(volume, claim);
    pv = await this.updateVolumePhase(pv, 'Bound', '');
    const c = await this.bindClaimToVolume(claim, pv);
    await this.updateClaimStatus(c, 'Bound', pv);
  }

  private async bindVolumeToClaim(volume: ApiObject, claim: ApiObject): Promise<ApiObject> {
    const ref = claimRefOf(volume);
    if (ref && ref.name === claim.metadata.name && ref.namespace === claim.metadata.namespace && ref.uid === claim.metadata.uid) return volume;
    const byController = !isVolumeBoundToClaim(volume, claim);
    return this.remember(await this.client.update(PVS, '', volume.metadata.name!, (cur) => {
      const curRef = claimRefOf(cur);
      if (curRef && !isVolumeBoundToClaim(cur, claim)) throw new Error(`volume ${cur.metadata.name} is already bound to claim ${claimKey(curRef)}`);
      const annotations = { ...(cur.metadata.annotations ?? {}), ...(byController ? { [ANN_BOUND_BY_CONTROLLER]: YES } : {}) };
      return { ...cur, metadata: { ...cur.metadata, annotations }, spec: { ...specOf(cur), claimRef: claimReference(claim) } };
    }));
  }

  private async bindClaimToVolume(claim: ApiObject, volume: ApiObject): Promise<ApiObject> {
    const setName = claimVolumeName(claim) !== volume.metadata.name;
    const ann = claim.metadata.annotations ?? {};
    if (!setName && ann[ANN_BIND_COMPLETED] !== undefined) return claim;
    return this.remember(await this.client.update(PVCS, claim.metadata.namespace ?? '', claim.metadata.name!, (cur) => {
      const annotations = { ...(cur.metadata.annotations ?? {}) };
      const spec = { ...specOf(cur) };
      if (spec.volumeName !== volume.metadata.name) {
        spec.volumeName = volume.metadata.name;
        annotations[ANN_BOUND_BY_CONTROLLER] = YES;
      }
      if (annotations[ANN_BIND_COMPLETED] === undefined) annotations[ANN_BIND_COMPLETED] = YES;
      return { ...cur, metadata: { ...cur.metadata, annotations }, spec };
    }));
  }

  /** updateVolumePhase(WithEvent): written (and the event recorded) only when phase or message differ. */
  private async updateVolumePhase(volume: ApiObject, phase: VolumePhase, message: string, event?: BinderEvent): Promise<ApiObject> {
    const status = statusOf(volume);
    if (status.phase === phase && (status.message ?? '') === message) return volume;
    const updated = this.remember(await this.client.update(PV_STATUS, '', volume.metadata.name!, (cur) => {
      const s: Record<string, unknown> = { ...statusOf(cur), phase };
      if (message) s.message = message;
      else delete s.message;
      return { ...cur, status: s };
    }));
    await this.event(updated, event);
    return updated;
  }

  // ---- volumes

  private async syncVolume(name: string): Promise<boolean> {
    const volume = this.volume(name);
    if (!volume) return true;
    const ref = claimRefOf(volume);
    let claim: ApiObject | undefined;
    if (ref?.uid) {
      claim = this.claim(ref.namespace ?? '', ref.name ?? '');
      // not in the cache: it may be new, so ask the API before calling the volume released
      if (!claim) claim = await this.client.get(PVCS, ref.namespace ?? '', ref.name ?? '').catch((err) => (isReason(err, 'NotFound') ? undefined : Promise.reject(err)));
    }
    await this.applyVolume(volume, planVolume(volume, claim), claim);
    return true;
  }

  private async applyVolume(volume: ApiObject, a: VolumeAction, claim: ApiObject | undefined): Promise<void> {
    switch (a.kind) {
      case 'phase': {
        const changed = volumePhase(volume) !== a.phase;
        await this.updateVolumePhase(volume, a.phase, '', a.event);
        if (changed && claim) await this.event(claim, a.claimEvent);
        return;
      }
      case 'release': {
        const pv = needsReleasedPhase(volume) ? await this.updateVolumePhase(volume, 'Released', '') : volume;
        await this.reclaim(pv, a.reclaim);
        return;
      }
      case 'unbind': {
        const pv = this.remember(await this.client.update(PVS, '', volume.metadata.name!, (cur) => {
          const annotations = { ...(cur.metadata.annotations ?? {}) };
          const spec = { ...specOf(cur) };
          if (annotations[ANN_BOUND_BY_CONTROLLER] !== undefined) {
            delete spec.claimRef;
            delete annotations[ANN_BOUND_BY_CONTROLLER];
          } else if (isObject(spec.claimRef)) {
            spec.claimRef = { ...spec.claimRef, uid: '' };
          }
          return { ...cur, metadata: { ...cur.metadata, annotations }, spec };
        }));
        await this.updateVolumePhase(pv, 'Available', '');
        return;
      }
      case 'syncClaim':
        if (claim) this.addClaim(claimKey(claim.metadata));
        return;
      case 'none':
        return;
    }
  }

  private async reclaim(volume: ApiObject, r: Reclaim): Promise<void> {
    switch (r.kind) {
      case 'retain':
      case 'external':
        return;
      case 'fail':
        await this.updateVolumePhase(volume, 'Failed', r.event.message, r.event);
        return;
      case 'delete':
        try {
          await this.client.delete(PVS, '', volume.metadata.name!, { preconditions: { uid: volume.metadata.uid! } });
        } catch (err) {
          if (!isReason(err, 'NotFound') && !isReason(err, 'Conflict')) throw err;
        }
    }
  }
}

/** kube's `persistentvolume-binder` controller, not yet started (the manager calls start()). */
export function startPersistentVolumeBinder(ctx: ControllerContext, opts?: BinderOptions): Controller {
  return new PersistentVolumeBinder(ctx, opts);
}
