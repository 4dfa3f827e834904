// A test file whose process does not exit after its last clean-up is failed
// by the runner only at its 10-minute timeout, saying nothing of why. Called
// at the end of a suite's clean-up, this names what still holds the process
// (timers, sockets, child processes, servers) if it is still alive a while
// later, and ends it with exit code 1 — a failure with a cause, not a hang.

import { within } from '../async/within.js';

const LINGER_MS = 120_000;

interface HandleLike {
  constructor?: { name?: string };
  remoteAddress?: string;
  remotePort?: number;
  localPort?: number;
  pid?: number;
  spawnfile?: string;
  address?: () => unknown;
}

function describe(h: HandleLike): string {
  const kind = h.constructor?.name ?? typeof h;
  if (h.spawnfile) return `${kind} ${h.spawnfile} pid ${h.pid}`;
  if (h.remoteAddress) return `${kind} to ${h.remoteAddress}:${h.remotePort} from port ${h.localPort}`;
  if (typeof h.address === 'function') {
    try {
      return `${kind} listening on ${JSON.stringify(h.address())}`;
    } catch {
      return kind;
    }
  }
  return kind;
}

/** What holds the process now: its active resources and handles. */
function holding(): string {
  const handles = (process as unknown as { _getActiveHandles(): HandleLike[] })._getActiveHandles().map(describe);
  return `Active resources: ${process.getActiveResourcesInfo().join(', ')}; handles: ${handles.join('; ')}`;
}

/** If the process is still running `ms` after this call, reports what holds it and exits 1. */
export function failIfLingering(what: string, ms = LINGER_MS): void {
  setTimeout(() => {
    process.stderr.write(`${what}: the process is still running ${ms / 1000} s after its clean-up. ${holding()}\n`);
    process.exit(1);
  }, ms).unref();
}

/**
 * Runs one named clean-up step; if it is still running after `ms`, says which
 * step and what the process holds, then keeps waiting (the step may yet end).
 * (The agent suite that hung in the CI of stop 43 and of stop 37 printed nothing.)
 */
export async function cleanupStep<T>(what: string, step: string, run: () => Promise<T> | T, ms = 60_000): Promise<T> {
  const work = Promise.resolve().then(run);
  if (!(await within(work, ms))) process.stderr.write(`${what}: clean-up step "${step}" still running after ${ms / 1000} s. ${holding()}\n`);
  return work;
}
