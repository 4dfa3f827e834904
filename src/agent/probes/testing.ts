// Test helpers for the prober: a fake clock the tests advance by hand, and
// an in-memory RuntimeService whose execSync answers from a table.
import { createServer, type AddressInfo } from 'node:net';
import { CriError, type ExecSyncResult, type RuntimeService } from '../cri/types.js';
import type { ProbeClock } from './clock.js';

interface Timer {
  readonly id: number;
  at: number;
  readonly fn: () => void;
}

/** A clock whose time moves only through advance(); due timers fire in time order. */
export class FakeClock implements ProbeClock {
  private timers: Timer[] = [];
  private seq = 0;
  constructor(private t = Date.parse('2026-01-01T00:00:00Z')) {}
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const timer = { id: ++this.seq, at: this.t + Math.max(0, ms), fn };
    this.timers.push(timer);
    return timer.id;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((x) => x.id !== handle);
  }
  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.t = next.at;
      next.fn();
    }
    this.t = end;
  }
  get pending(): number {
    return this.timers.length;
  }
}

export type ExecAnswer = ExecSyncResult | CriError | ((cmd: readonly string[], timeoutSeconds: number) => ExecSyncResult | CriError);

/** A RuntimeService with only execSync: answers per container ID, recording every call. */
export class FakeExecRuntime implements RuntimeService {
  readonly calls: { id: string; cmd: readonly string[]; timeoutSeconds: number }[] = [];
  constructor(readonly answers: Map<string, ExecAnswer> = new Map()) {}

  async execSync(id: string, cmd: readonly string[], timeoutSeconds: number): Promise<ExecSyncResult> {
    this.calls.push({ id, cmd, timeoutSeconds });
    const a = this.answers.get(id);
    if (a === undefined) throw new CriError(5, `container "${id}" not found`, 'ExecSync');
    const r = typeof a === 'function' ? a(cmd, timeoutSeconds) : a;
    if (r instanceof CriError) throw r;
    return r;
  }

  private unsupported(): never {
    throw new Error('FakeExecRuntime: only execSync is implemented');
  }
  version = async () => this.unsupported();
  status = async () => this.unsupported();
  runPodSandbox = async () => this.unsupported();
  stopPodSandbox = async () => this.unsupported();
  removePodSandbox = async () => this.unsupported();
  podSandboxStatus = async () => this.unsupported();
  listPodSandbox = async () => this.unsupported();
  createContainer = async () => this.unsupported();
  startContainer = async () => this.unsupported();
  stopContainer = async () => this.unsupported();
  removeContainer = async () => this.unsupported();
  listContainers = async () => this.unsupported();
  containerStatus = async () => this.unsupported();
  reopenContainerLog = async () => this.unsupported();
  close(): void {}
}

export const execResult = (exitCode: number, stdout = '', stderr = ''): ExecSyncResult =>
  ({ exitCode, stdout: Buffer.from(stdout), stderr: Buffer.from(stderr) });

/** A local TCP port nothing listens on (one was bound and released). */
export async function closedPort(): Promise<number> {
  const tmp = createServer();
  await new Promise<void>((r) => tmp.listen(0, '127.0.0.1', r));
  const port = (tmp.address() as AddressInfo).port;
  await new Promise((r) => tmp.close(r));
  return port;
}
