// Garbage collection of dead containers and sandboxes (kube's
// containerGC with its defaults: MinAge 0, MaxPerPodContainer 1): exited
// containers beyond the newest `maxPerPodContainer` of each (pod, container)
// are removed, as are all exited containers of pods the agent no longer has;
// sandboxes that are not ready and hold no containers are removed unless they
// are their pod's newest (kube keeps the latest sandbox of a live pod). Run
// periodically by the agent (kube: every minute).
import type { RuntimeService } from '../cri/types.js';
import { CriError } from '../cri/types.js';
import { containerInfo, POD_UID_LABEL } from './labels.js';

export interface GcOptions {
  /** Dead instances kept per (pod, container); kube's default 1. */
  readonly maxPerPodContainer?: number;
  /** Whether a pod UID is still one the agent runs (its dead containers are kept then). */
  readonly isPodActive: (uid: string) => boolean;
}

const ignoreNotFound = (err: unknown): void => {
  if (!(err instanceof CriError && err.notFound)) throw err;
};

/** Removes dead containers and sandboxes; returns the ids removed. */
export async function garbageCollect(runtime: RuntimeService, opts: GcOptions): Promise<{ containers: string[]; sandboxes: string[] }> {
  const keep = opts.maxPerPodContainer ?? 1;
  const removed = { containers: [] as string[], sandboxes: [] as string[] };
  const containers = await runtime.listContainers();
  const groups = new Map<string, { id: string; createdAt: number }[]>();
  for (const c of containers) {
    if (c.state !== 'CONTAINER_EXITED') continue;
    const info = containerInfo(c.labels, c.annotations);
    if (!info.podUid) continue; // not ours
    const key = opts.isPodActive(info.podUid) ? `${info.podUid}/${info.containerName}` : `${info.podUid}/*${c.id}`;
    const list = groups.get(key) ?? [];
    list.push({ id: c.id, createdAt: c.createdAt });
    groups.set(key, list);
  }
  for (const [key, list] of groups) {
    const active = !key.includes('/*');
    const doomed = active ? list.sort((a, b) => b.createdAt - a.createdAt).slice(keep) : list;
    for (const c of doomed) {
      await runtime.removeContainer(c.id).catch(ignoreNotFound);
      removed.containers.push(c.id);
    }
  }
  const left = new Set((await runtime.listContainers()).map((c) => c.podSandboxId));
  const sandboxes = (await runtime.listPodSandbox()).filter((s) => s.labels[POD_UID_LABEL]);
  const newest = new Map<string, number>();
  for (const s of sandboxes) newest.set(s.labels[POD_UID_LABEL], Math.max(newest.get(s.labels[POD_UID_LABEL]) ?? 0, s.createdAt));
  for (const s of sandboxes) {
    const uid = s.labels[POD_UID_LABEL];
    if (s.state === 'SANDBOX_READY' || left.has(s.id)) continue;
    if (opts.isPodActive(uid) && newest.get(uid) === s.createdAt) continue;
    await runtime.removePodSandbox(s.id).catch(ignoreNotFound);
    removed.sandboxes.push(s.id);
  }
  return removed;
}
