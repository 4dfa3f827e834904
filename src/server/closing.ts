// The server's shutdown as long-running handlers see it. Watches and log
// streams have no end of their own, so when the shutdown begins they end their
// responses (a watch cleanly: clients resume from their last resourceVersion
// against another server), and the shutdown's drain of in-flight requests is
// not held open by them — as kube-apiserver does not wait for its watches.

export class ServerClosing {
  private readonly waiting = new Set<() => void>();
  private began = false;

  /** Whether the shutdown has begun. */
  get begun(): boolean {
    return this.began;
  }

  /** Calls `fn` once when the shutdown begins (at once when it has); returns what takes the call back. */
  onBegin(fn: () => void): () => void {
    if (this.began) {
      fn();
      return () => undefined;
    }
    const once = () => fn();
    this.waiting.add(once);
    return () => this.waiting.delete(once);
  }

  /** Begins the shutdown: every waiting handler is told, once. */
  begin(): void {
    if (this.began) return;
    this.began = true;
    const fns = [...this.waiting];
    this.waiting.clear();
    for (const fn of fns) fn();
  }
}
