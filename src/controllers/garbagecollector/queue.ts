// The collector's queues: nodes by uid over several of the controllers'
// shared work queues (src/controllers/workqueue.ts, one sync at a time each),
// so that up to `workers` nodes are looked at at once while one uid is never
// looked at twice at the same time (client-go's workqueue with N workers).
import { WorkQueue } from '../workqueue.js';
import type { GraphNode } from './graph.js';

/** How far apart the looks at a node waiting for something else grow (kube's rate-limited requeue, capped lower). */
const MAX_BACKOFF_MS = 5 * 60_000;

/**
 * Queues of nodes by uid, spread over `workers` of the shared work queues (one sync at a time per
 * uid; a failed sync is retried after `retryMs`). `addLater` looks at a node again after a delay
 * that doubles each time (a virtual owner not observed yet, a kind not served yet), until `forget`.
 */
export class NodeQueue {
  private readonly shards: WorkQueue<GraphNode>[];
  private readonly later = new Map<string, { timer: NodeJS.Timeout; attempts: number }>();
  private readonly attempts = new Map<string, number>();
  private stopped = false;

  constructor(workers: number, sync: (n: GraphNode) => Promise<boolean>, private readonly retryMs: number, label: string) {
    this.shards = Array.from({ length: Math.max(1, workers) }, () => new WorkQueue<GraphNode>(sync, {
      retryMs, onError: (key, err) => console.error(`garbage collector: ${label} ${key}: ${(err as Error).message ?? err}; will retry`),
    }));
  }

  add(n: GraphNode): void {
    const uid = n.identity.uid;
    let h = 0;
    for (let i = 0; i < uid.length; i++) h = (h * 31 + uid.charCodeAt(i)) | 0;
    this.shards[Math.abs(h) % this.shards.length]!.add(uid, n);
  }

  addLater(n: GraphNode): void {
    const uid = n.identity.uid;
    if (this.stopped || this.later.has(uid)) return;
    const attempts = this.attempts.get(uid) ?? 0;
    this.attempts.set(uid, attempts + 1);
    const timer = setTimeout(() => {
      this.later.delete(uid);
      this.add(n);
    }, Math.min(this.retryMs * 2 ** attempts, MAX_BACKOFF_MS)).unref();
    this.later.set(uid, { timer, attempts });
  }

  forget(n: GraphNode): void {
    this.attempts.delete(n.identity.uid);
  }

  stop(): void {
    this.stopped = true;
    for (const s of this.shards) s.stop();
    for (const l of this.later.values()) clearTimeout(l.timer);
    this.later.clear();
  }
}

