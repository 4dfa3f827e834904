// The runtime manager as the pod lifecycle's RuntimePort (src/agent/pods/ports.ts):
// status in the API's shapes (with the reasons of failed starts), SyncPod with
// the volumes and cgroup parent the other parts prepared, KillPod with the
// grace period, and the clean-up of a pod UID (containers, sandboxes, log
// folder). A sync that ends in a back-off asks to be run again when the
// back-off ends.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiObject } from '../../registry/object.js';
import type { RuntimePort, RuntimePodView, VolumeMounts } from '../pods/ports.js';
import { CriError } from '../cri/types.js';
import { apiContainerStatuses, ReasonCache } from './apistatus.js';
import { POD_NAMESPACE_LABEL, POD_NAME_LABEL, POD_UID_LABEL } from './labels.js';
import type { RuntimeManager, RuntimeManagerOptions } from './manager.js';
import { DEFAULT_POD_LOGS_ROOT } from './sandbox.js';
import type { Pod } from './types.js';

type Obj = Record<string, unknown>;

const asPod = (o: ApiObject): Pod => o as unknown as Pod;
const ident = (p: Pod): { uid: string; name: string; namespace: string } => ({ uid: p.metadata.uid, name: p.metadata.name, namespace: p.metadata.namespace });
const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

export class KubeRuntimePort implements RuntimePort {
  readonly reasons = new ReasonCache();

  constructor(private readonly manager: RuntimeManager, private readonly opts: Pick<RuntimeManagerOptions, 'runtime' | 'podLogsRoot'>) {}

  async status(obj: ApiObject): Promise<RuntimePodView> {
    const pod = asPod(obj);
    const rt = await this.manager.getPodStatus(ident(pod));
    const st = (obj.status ?? {}) as Obj;
    return {
      initContainerStatuses: apiContainerStatuses({ pod, runtime: rt, old: list(st.initContainerStatuses), init: true, reasons: this.reasons }),
      containerStatuses: apiContainerStatuses({ pod, runtime: rt, old: list(st.containerStatuses), init: false, reasons: this.reasons }),
      podIPs: rt.ips,
    };
  }

  async sync(obj: ApiObject, env: { readonly mounts: VolumeMounts; readonly cgroupParent: string }): Promise<{ readonly requeueMs?: number }> {
    const pod = asPod(obj);
    const rt = await this.manager.getPodStatus(ident(pod));
    const result = await this.manager.syncPod(pod, rt, { volumes: env.mounts, cgroupParent: env.cgroupParent });
    this.reasons.update(pod.metadata.uid, result);
    const waits = result.steps.map((s) => s.retryAfterMs).filter((ms): ms is number => ms !== undefined);
    return waits.length > 0 ? { requeueMs: Math.min(...waits) } : {};
  }

  async kill(obj: ApiObject, gracePeriodSeconds: number): Promise<void> {
    const pod = asPod(obj);
    const result = await this.manager.killPod(pod, await this.manager.getPodStatus(ident(pod)), gracePeriodSeconds);
    if (result.failed) throw new Error(result.steps.filter((s) => s.error).map((s) => s.message).join('; '));
  }

  async remove(uid: string): Promise<void> {
    const rt = this.opts.runtime;
    const notFound = (err: unknown): void => {
      if (!(err instanceof CriError && err.notFound)) throw err;
    };
    for (const c of await rt.listContainers({ labelSelector: { [POD_UID_LABEL]: uid } })) {
      await rt.stopContainer(c.id, 0).catch(notFound);
      await rt.removeContainer(c.id).catch(notFound);
    }
    for (const s of await rt.listPodSandbox({ labelSelector: { [POD_UID_LABEL]: uid } })) {
      await rt.stopPodSandbox(s.id).catch(notFound);
      await rt.removePodSandbox(s.id).catch(notFound);
      const ns = s.labels[POD_NAMESPACE_LABEL] ?? s.metadata.namespace;
      const name = s.labels[POD_NAME_LABEL] ?? s.metadata.name;
      rmSync(join(this.opts.podLogsRoot ?? DEFAULT_POD_LOGS_ROOT, `${ns}_${name}_${uid}`), { recursive: true, force: true });
    }
    this.reasons.remove(uid);
  }

  async podUids(): Promise<readonly string[]> {
    const rt = this.opts.runtime;
    const uids = new Set<string>();
    for (const s of await rt.listPodSandbox()) if (s.labels[POD_UID_LABEL]) uids.add(s.labels[POD_UID_LABEL]);
    for (const c of await rt.listContainers()) if (c.labels[POD_UID_LABEL]) uids.add(c.labels[POD_UID_LABEL]);
    return [...uids];
  }
}
