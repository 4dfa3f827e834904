// Controller expectations (kube's UIDTrackingControllerExpectations): after a
// sync creates or deletes pods, the controller waits until its informer has
// seen those creations and deletions before it counts pods again — otherwise
// a stale cache would make it create (or delete) the same pods twice.
// Creations are counted; deletions are tracked by pod key, so a pod seen both
// as "being deleted" and "deleted" is counted once. Expectations older than
// the TTL are treated as met (a watch event was lost).

/** kube's ExpectationsTimeout. */
export const EXPECTATIONS_TTL_MS = 5 * 60 * 1000;

interface Expectation {
  add: number;
  readonly deletes: Set<string>;
  readonly at: number;
}

export class Expectations {
  private readonly byKey = new Map<string, Expectation>();

  constructor(private readonly now: () => number = Date.now, private readonly ttlMs = EXPECTATIONS_TTL_MS) {}

  /** Met, expired, or never set: the controller may sync. */
  satisfied(key: string): boolean {
    const e = this.byKey.get(key);
    if (!e) return true;
    if (e.add <= 0 && e.deletes.size === 0) return true;
    return this.now() - e.at > this.ttlMs;
  }

  expectCreations(key: string, n: number): void {
    this.byKey.set(key, { add: n, deletes: new Set(), at: this.now() });
  }

  expectDeletions(key: string, podKeys: readonly string[]): void {
    this.byKey.set(key, { add: 0, deletes: new Set(podKeys), at: this.now() });
  }

  /** Creations and deletions at once (kube's SetExpectations; the daemon controller does both in one sync). */
  expect(key: string, creations: number, podKeys: readonly string[]): void {
    this.byKey.set(key, { add: creations, deletes: new Set(podKeys), at: this.now() });
  }

  creationObserved(key: string): void {
    const e = this.byKey.get(key);
    if (e && e.add > 0) e.add--;
  }

  /** A create that did not happen (it failed or was skipped). */
  creationSkipped(key: string): void {
    this.creationObserved(key);
  }

  deletionObserved(key: string, podKey: string): void {
    this.byKey.get(key)?.deletes.delete(podKey);
  }

  delete(key: string): void {
    this.byKey.delete(key);
  }
}
