// What this controller last wrote of each slice it manages, by uid (kube's
// EndpointSliceTracker, with resourceVersions where kube keeps generations):
// the informer's view of a service's slices is stale while one written is
// missing or older there, or one deleted is still there. A sync on a stale
// view would create duplicates or undo its own writes; it is retried instead.
import type { EndpointSlice } from './types.js';

const DELETED = -1;

export class SliceTracker {
  /** service key → slice uid → resourceVersion written (or DELETED). */
  private readonly byService = new Map<string, Map<string, number>>();

  private slices(serviceKey: string): Map<string, number> {
    let m = this.byService.get(serviceKey);
    if (!m) this.byService.set(serviceKey, (m = new Map()));
    return m;
  }

  written(serviceKey: string, slice: EndpointSlice): void {
    this.slices(serviceKey).set(slice.metadata.uid!, Number(slice.metadata.resourceVersion));
  }

  expectDeletion(serviceKey: string, slice: EndpointSlice): void {
    this.slices(serviceKey).set(slice.metadata.uid!, DELETED);
  }

  /** The informer saw the slice go. */
  deleted(serviceKey: string, slice: EndpointSlice): void {
    this.byService.get(serviceKey)?.delete(slice.metadata.uid!);
  }

  /** Whether a write of ours was not yet seen: an older (or no) resourceVersion, or a slice we deleted still listed. */
  isStale(serviceKey: string, listed: readonly EndpointSlice[]): boolean {
    const tracked = this.byService.get(serviceKey);
    if (!tracked) return false;
    const seen = new Set<string>();
    for (const s of listed) {
      const uid = s.metadata.uid!;
      seen.add(uid);
      const rv = tracked.get(uid);
      if (rv === undefined) continue;
      if (rv === DELETED || rv > Number(s.metadata.resourceVersion)) return true;
    }
    for (const [uid, rv] of tracked) if (rv !== DELETED && !seen.has(uid)) return true;
    return false;
  }

  /** Whether the informer's event is one we expect (our own write, already tracked): no sync needed for it. */
  expected(serviceKey: string, slice: EndpointSlice): boolean {
    const rv = this.byService.get(serviceKey)?.get(slice.metadata.uid!);
    return rv !== undefined && rv !== DELETED && rv === Number(slice.metadata.resourceVersion);
  }

  forget(serviceKey: string): void {
    this.byService.delete(serviceKey);
  }
}
