// The volume manager of one agent: makes each volume of a pod ready on the
// host and answers the host path the runtime mounts into its containers.
//
//   mountPod(pod)   every volume set up (idempotent); PodVolumesError when some fail
//                   — the pod waits in ContainerCreating, the events are FailedMount
//   resync(pod)     configMap, secret, downwardAPI and projected volumes written again
//                   from their sources (the atomic writer switches versions only on change;
//                   service-account tokens rotate here) — call it periodically and on events
//   unmountPod(uid) tmpfs unmounted, the pod's volume folders removed (never hostPath or
//                   persistent volume contents)
//
// Per volume source:
//   emptyDir                 pods/<uid>/volumes/kubernetes.io~empty-dir/<name> (tmpfs for Memory)
//   hostPath                 the node's path, after its type check
//   configMap, downwardAPI   kubernetes.io~configmap|downward-api/<name>, atomic writer, read-only
//   secret, projected        kubernetes.io~secret|projected/<name> on tmpfs (when root), read-only
//   persistentVolumeClaim    the bound hostPath/local volume's path; ephemeral: the pod's own claim
// Without an API (standalone) only emptyDir, hostPath and downwardAPI can be set up.
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiObject } from '../../registry/object.js';
import type { AgentApi } from '../api.js';
import { AtomicWriter, type Payload } from './atomicwriter.js';
import { downwardAPIPayload, type DownwardAPIFile } from './downwardapi.js';
import { mediumOf, setupEmptyDir, teardownDir, type Medium } from './emptydir.js';
import { PodVolumesError, VolumeSetupError } from './errors.js';
import { checkHostPath } from './hostpath.js';
import { keyedPayload, objectData, type KeyToPath } from './keyed.js';
import { setVolumeOwnership } from './ownership.js';
import { makeNestedMountpoints } from './nested.js';
import { podVolumesDir, volumeDir, type FolderPlugin } from './paths.js';
import { fsGroupOf, fsUserOf, podVolumes, type VolumeSpec } from './podinfo.js';
import { projectedPayload, type VolumeProjection } from './projected.js';
import { ClaimError, resolveClaim, setupClaimedVolume } from './pvc.js';
import { machineAllocatable, memoryVolumeSize, type ResourceList } from './resources.js';
import { getKeyed } from './sources.js';
import { TokenManager } from './tokens.js';

const DEFAULT_MODE = 0o644;

export interface MountedVolume {
  readonly hostPath: string;
  readonly readOnly?: boolean;
}

export interface VolumeManagerOptions {
  /** The agent's root folder (--root-dir). */
  readonly rootDir: string;
  /** The API as the node; none in standalone mode. */
  readonly api?: AgentApi;
  readonly now?: () => number;
  /** The token refresh jitter's source (Math.random by default). */
  readonly random?: () => number;
  /** Secret and projected volumes on tmpfs, as kube keeps them off the disk (default: when running as root). */
  readonly tmpfs?: boolean;
  /** The node's allocatable (default: the Node object's status, else the machine's). */
  readonly nodeAllocatable?: () => ResourceList;
  readonly log?: (msg: string) => void;
}

type Kind = 'emptyDir' | 'hostPath' | 'configMap' | 'secret' | 'downwardAPI' | 'projected' | 'persistentVolumeClaim' | 'ephemeral';
const KINDS: readonly Kind[] = ['emptyDir', 'hostPath', 'configMap', 'secret', 'downwardAPI', 'projected', 'persistentVolumeClaim', 'ephemeral'];
/** The kinds whose contents come from a source that can change. */
const WRITTEN: ReadonlySet<Kind> = new Set(['configMap', 'secret', 'downwardAPI', 'projected']);

function kindOf(vol: VolumeSpec): Kind | string {
  for (const k of KINDS) if (vol[k] != null) return k;
  return Object.keys(vol).find((k) => k !== 'name' && vol[k] != null) ?? '';
}

interface KeyedSource {
  name?: string;
  secretName?: string;
  items?: KeyToPath[];
  defaultMode?: number;
  optional?: boolean;
}

export class VolumeManager {
  private readonly tokens?: TokenManager;
  private readonly tmpfs: boolean;
  private readonly now: () => number;
  private readonly busy = new Map<string, Promise<void>>();

  constructor(private readonly opts: VolumeManagerOptions) {
    this.now = opts.now ?? Date.now;
    this.tmpfs = opts.tmpfs ?? process.getuid?.() === 0;
    if (opts.api) this.tokens = new TokenManager({ api: opts.api, now: this.now, ...(opts.random ? { random: opts.random } : {}), ...(opts.log ? { log: opts.log } : {}) });
  }

  /** Sets up every volume of the pod; the host paths by volume name. */
  async mountPod(pod: ApiObject): Promise<Map<string, MountedVolume>> {
    return this.serial(pod.metadata.uid ?? '', () => this.run(pod, () => true));
  }

  /** Writes the pod's configMap, secret, downwardAPI and projected volumes again from their sources. */
  async resync(pod: ApiObject): Promise<void> {
    await this.serial(pod.metadata.uid ?? '', () => this.run(pod, (k) => WRITTEN.has(k as Kind)));
    this.tokens?.cleanup();
  }

  /** Tears down what mountPod made for the pod. */
  async unmountPod(podUid: string): Promise<void> {
    await this.serial(podUid, async () => {
      const dir = podVolumesDir(this.opts.rootDir, podUid);
      const plugins = await readdir(dir).catch(() => [] as string[]);
      for (const plugin of plugins) {
        for (const vol of await readdir(join(dir, plugin)).catch(() => [] as string[])) await teardownDir(join(dir, plugin, vol));
      }
      await rm(dir, { recursive: true, force: true });
      this.tokens?.forgetPod(podUid);
    });
  }

  /** The uids of pods that have volume folders on disk (after a restart: tear down those no longer known). */
  async podsOnDisk(): Promise<string[]> {
    const pods = await readdir(join(this.opts.rootDir, 'pods')).catch(() => [] as string[]);
    const out: string[] = [];
    for (const uid of pods) if (await stat(podVolumesDir(this.opts.rootDir, uid)).catch(() => undefined)) out.push(uid);
    return out.sort();
  }

  /** One operation at a time per pod: two writers must not race on a volume. */
  private serial<T>(podUid: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.busy.get(podUid) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.then(() => undefined, () => undefined);
    this.busy.set(podUid, tail);
    void tail.then(() => {
      if (this.busy.get(podUid) === tail) this.busy.delete(podUid);
    });
    return next;
  }

  private async run(pod: ApiObject, which: (kind: string) => boolean): Promise<Map<string, MountedVolume>> {
    const out = new Map<string, MountedVolume>();
    const failures: VolumeSetupError[] = [];
    const volumes = podVolumes(pod);
    for (const vol of volumes) {
      const kind = kindOf(vol);
      if (!which(kind)) continue;
      try {
        out.set(vol.name, await this.setup(pod, vol, kind));
      } catch (err) {
        const msg = err instanceof Error ? err.message : String(err);
        failures.push(new VolumeSetupError(vol.name, msg, err instanceof ClaimError ? 'process' : 'setup'));
      }
    }
    if (failures.length > 0) {
      const failed = new Set(failures.map((f) => f.volume));
      throw new PodVolumesError(failures, volumes.filter((v) => failed.has(v.name)).map((v) => v.name));
    }
    return out;
  }

  private allocatable = (): ResourceList => {
    if (this.opts.nodeAllocatable) return this.opts.nodeAllocatable();
    const api = this.opts.api;
    const node = api?.node().get('', api.nodeName);
    const alloc = (node?.status as { allocatable?: ResourceList } | undefined)?.allocatable;
    return alloc ?? machineAllocatable();
  };

  private needApi(kind: string, vol: VolumeSpec): AgentApi {
    if (this.opts.api) return this.opts.api;
    throw new Error(`cannot setup ${kind} volume ${vol.name} because kube client is not configured`);
  }

  private async setup(pod: ApiObject, vol: VolumeSpec, kind: string): Promise<MountedVolume> {
    const uid = pod.metadata.uid ?? '';
    const own = fsGroupOf(pod);
    switch (kind) {
      case 'emptyDir': {
        const src = vol.emptyDir as { medium?: string; sizeLimit?: unknown };
        const medium = mediumOf(src.medium);
        const dir = volumeDir(this.opts.rootDir, uid, 'emptyDir', vol.name);
        await setupEmptyDir(dir, medium, medium === 'memory' ? memoryVolumeSize(this.allocatable(), pod, src.sizeLimit) : undefined);
        await this.own(pod, dir, false);
        return { hostPath: dir };
      }
      case 'hostPath': {
        const src = vol.hostPath as { path: string; type?: string };
        await checkHostPath(src.path, src.type);
        return { hostPath: src.path };
      }
      case 'configMap':
      case 'secret': {
        const api = this.needApi(kind, vol);
        const src = vol[kind] as KeyedSource;
        const name = (kind === 'secret' ? src.secretName : src.name) ?? '';
        const optional = src.optional === true;
        const low = kind === 'configMap' ? 'configmap' : 'secret';
        const obj = await getKeyed(api, low, pod.metadata.namespace ?? '', name, optional);
        const payload = keyedPayload(low, objectData(low, obj), src.items, src.defaultMode ?? DEFAULT_MODE, optional);
        return this.write(pod, vol, kind, payload);
      }
      case 'downwardAPI': {
        const src = vol.downwardAPI as { items?: DownwardAPIFile[]; defaultMode?: number };
        return this.write(pod, vol, kind, downwardAPIPayload(pod, src.items ?? [], src.defaultMode ?? DEFAULT_MODE, this.allocatable));
      }
      case 'projected': {
        const api = this.needApi(kind, vol);
        const src = vol.projected as { sources?: VolumeProjection[]; defaultMode?: number };
        const fsUser = fsUserOf(pod);
        const payload = await projectedPayload(
          { api, tokens: this.tokens!, allocatable: this.allocatable, ...(fsUser !== undefined ? { fsUser } : {}), ...(own.fsGroup !== undefined ? { fsGroup: own.fsGroup } : {}) },
          pod,
          src.sources ?? [],
          src.defaultMode ?? DEFAULT_MODE,
        );
        return this.write(pod, vol, kind, payload);
      }
      case 'persistentVolumeClaim':
      case 'ephemeral': {
        const api = this.needApi(kind, vol);
        const ref =
          kind === 'ephemeral'
            ? { claimName: `${pod.metadata.name}-${vol.name}`, ephemeral: true }
            : (vol.persistentVolumeClaim as { claimName: string; readOnly?: boolean });
        const { pv, readOnly } = await resolveClaim(api, pod, ref);
        return setupClaimedVolume(pv, readOnly);
      }
      default:
        throw new ClaimError(`failed to get Plugin from volumeSpec for volume ${JSON.stringify(vol.name)} err=no volume plugin matched${kind ? ` (svc agent has no ${kind} plugin)` : ''}`);
    }
  }

  /** The atomic writer's part: the folder (tmpfs for secret/projected when enabled), the files, fsGroup. */
  private async write(pod: ApiObject, vol: VolumeSpec, kind: FolderPlugin, payload: Payload): Promise<MountedVolume> {
    const dir = volumeDir(this.opts.rootDir, pod.metadata.uid ?? '', kind, vol.name);
    const medium: Medium = this.tmpfs && (kind === 'secret' || kind === 'projected') ? 'memory' : 'disk';
    await setupEmptyDir(dir, medium, medium === 'memory' ? memoryVolumeSize(this.allocatable(), pod, undefined) : undefined);
    await makeNestedMountpoints(vol.name, dir, pod);
    const context = `pod ${pod.metadata.namespace}/${pod.metadata.name} volume ${vol.name}`;
    await new AtomicWriter(dir, context, { now: this.now }).write(payload);
    await this.own(pod, dir, true);
    return { hostPath: dir, readOnly: true };
  }

  /** The pod's fsGroup on the volume, if it has one. */
  private async own(pod: ApiObject, dir: string, readOnly: boolean): Promise<void> {
    const { fsGroup, changePolicy } = fsGroupOf(pod);
    if (fsGroup !== undefined) await setVolumeOwnership(dir, { fsGroup, readOnly, ...(changePolicy ? { changePolicy } : {}) });
  }
}
