// What a controller waits to see before it trusts its informer again
// (kube's ControllerExpectations): pods it created that the informer has not
// shown yet, and pods it deleted that the informer still shows as live. A
// Job is not managed again until both are seen — or after five minutes, in
// case an event was lost.
const EXPIRY_MS = 5 * 60_000;

interface Pending {
  adds: number;
  readonly deletes: Set<string>;
  since: number;
}

export class Expectations {
  private readonly byKey = new Map<string, Pending>();

  private entry(key: string): Pending {
    let p = this.byKey.get(key);
    if (!p) this.byKey.set(key, (p = { adds: 0, deletes: new Set(), since: Date.now() }));
    p.since = Date.now();
    return p;
  }

  expectCreates(key: string, n: number): void {
    this.entry(key).adds += n;
  }

  /** A create observed (or one that failed and will never be). */
  created(key: string): void {
    const p = this.byKey.get(key);
    if (p && p.adds > 0) p.adds--;
  }

  expectDelete(key: string, uid: string): void {
    this.entry(key).deletes.add(uid);
  }

  deleted(key: string, uid: string): void {
    this.byKey.get(key)?.deletes.delete(uid);
  }

  satisfied(key: string): boolean {
    const p = this.byKey.get(key);
    if (!p || (p.adds <= 0 && p.deletes.size === 0)) return true;
    return Date.now() - p.since > EXPIRY_MS;
  }

  forget(key: string): void {
    this.byKey.delete(key);
  }
}
