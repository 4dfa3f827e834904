// The backend seam (kube's audit.Backend): processEvents takes events and says
// whether they were all handled. A backend that must wait (a blocking log
// write) returns a promise; one that buffers answers at once. Also the two
// wrappers the modes use: `blocking` ignores failures (ignoreErrors),
// `blocking-strict` passes them on; several backends form a union.
import type { AuditEvent } from './types.js';

export interface Backend {
  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean>;
  /** Starts background work (batch timers). */
  run?(): void;
  /** Flushes what is buffered and stops; resolves once done. */
  shutdown(): Promise<void>;
  readonly name: string;
}

/** kube's ignoreErrorsBackend: the `blocking` mode waits for the write but never fails the request. */
export function ignoreErrors(b: Backend): Backend {
  // The log backend hands every event of a turn the same promise: one answer for them all.
  let lastIn: Promise<boolean> | undefined;
  let lastOut: Promise<boolean> | undefined;
  return {
    name: b.name,
    processEvents(events) {
      const r = b.processEvents(events);
      if (r === true || r === false) return true;
      if (r !== lastIn) {
        lastIn = r;
        lastOut = r.then(() => true, () => true);
      }
      return lastOut!;
    },
    ...(b.run ? { run: () => b.run!() } : {}),
    shutdown: () => b.shutdown(),
  };
}

/** kube's union backend: every backend gets every event; the result is true only if all succeeded. */
export function union(backends: readonly Backend[]): Backend {
  if (backends.length === 1) return backends[0]!;
  return {
    name: backends.map((b) => b.name).join(','),
    processEvents(events) {
      let ok = true;
      let waits: Promise<boolean>[] | undefined;
      for (const b of backends) {
        const r = b.processEvents(events);
        if (r === true || r === false) ok = r && ok;
        else (waits ??= []).push(r);
      }
      if (!waits) return ok;
      return Promise.all(waits).then((rs) => rs.every(Boolean) && ok);
    },
    run() {
      for (const b of backends) b.run?.();
    },
    async shutdown() {
      await Promise.all(backends.map((b) => b.shutdown()));
    },
  };
}
