// The pod lifecycle event generator (kube's GenericPLEG): relists the
// runtime's sandboxes and containers every period and tells the pod workers
// which pods changed (a container started, exited, was removed; a sandbox
// changed state), so a container's exit reaches the pod's status within a
// relist. Pods are found by the kubelet's `io.kubernetes.pod.uid` label.
// `healthy()` says whether relisting keeps up (kube: within 3 minutes), which
// the node's Ready condition reports.
import type { RuntimeService } from '../cri/types.js';

export const POD_UID_LABEL = 'io.kubernetes.pod.uid';

const RELIST_THRESHOLD_MS = 3 * 60_000;

export interface PlegOptions {
  readonly runtime: RuntimeService;
  /** A pod whose containers or sandboxes changed. */
  readonly onPodChanged: (uid: string) => void;
  readonly periodMs?: number;
  readonly now?: () => number;
  readonly onError?: (err: unknown) => void;
}

export class Pleg {
  /** Per pod UID: a signature of its sandboxes' and containers' ids and states. */
  private seen = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private lastRelist: number;
  private running = false;

  constructor(private readonly opts: PlegOptions) {
    this.lastRelist = (opts.now ?? Date.now)();
  }

  start(): void {
    this.timer = setInterval(() => void this.relist(), this.opts.periodMs ?? 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** kube's Healthy: the last successful relist is recent; the message names how long ago it was. */
  healthy(): { ok: boolean; message: string } {
    const ago = (this.opts.now ?? Date.now)() - this.lastRelist;
    if (ago <= RELIST_THRESHOLD_MS) return { ok: true, message: '' };
    return { ok: false, message: `pleg was last seen active ${Math.round(ago / 1000)}s ago; threshold is 3m0s` };
  }

  /** One relist: every pod whose state differs from the last relist is reported. */
  async relist(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const [sandboxes, containers] = await Promise.all([this.opts.runtime.listPodSandbox(), this.opts.runtime.listContainers()]);
      const parts = new Map<string, string[]>();
      const add = (uid: string | undefined, part: string) => {
        if (!uid) return;
        let p = parts.get(uid);
        if (!p) parts.set(uid, (p = []));
        p.push(part);
      };
      for (const s of sandboxes) add(s.labels[POD_UID_LABEL] ?? s.metadata.uid, `s:${s.id}:${s.state}`);
      for (const c of containers) add(c.labels[POD_UID_LABEL], `c:${c.id}:${c.state}`);
      const next = new Map<string, string>();
      for (const [uid, p] of parts) next.set(uid, p.sort().join(','));
      const changed: string[] = [];
      for (const [uid, sig] of next) if (this.seen.get(uid) !== sig) changed.push(uid);
      for (const uid of this.seen.keys()) if (!next.has(uid)) changed.push(uid);
      this.seen = next;
      this.lastRelist = (this.opts.now ?? Date.now)();
      for (const uid of changed) this.opts.onPodChanged(uid);
    } catch (err) {
      this.opts.onError?.(err);
    } finally {
      this.running = false;
    }
  }
}
