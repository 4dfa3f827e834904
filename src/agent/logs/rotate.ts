// Container log rotation, as kube's container log manager:
//
//   every `intervalMs` (kube: 10 s), for each running container:
//     log = its CRI logPath; skip it while smaller than maxSize
//     rotated = <log>.*          leftovers cleaned first: `*.tmp` removed, and an
//                                uncompressed file whose `.gz` exists removed
//     oldest rotated removed until maxFiles-2 remain (the live log and the one
//                                about to be rotated make maxFiles)
//     every rotated file not yet `.gz` compressed (through `<f>.gz.tmp`, renamed)
//     log renamed <log>.<YYYYMMDD-hhmmss>, then the runtime reopens the path
//     (ReopenContainerLog); when that fails the rename is undone
import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { RuntimeService } from '../cri/types.js';

export interface LogRotationPolicy {
  /** --container-log-max-size in bytes (kube: 10Mi). */
  readonly maxSizeBytes: number;
  /** --container-log-max-files (kube: 5, at least 2). */
  readonly maxFiles: number;
}

export interface ContainerLogManagerOptions {
  readonly runtime: Pick<RuntimeService, 'listContainers' | 'containerStatus' | 'reopenContainerLog'>;
  readonly policy: LogRotationPolicy;
  readonly intervalMs?: number;
  readonly now?: () => Date;
  /** Errors of one container's rotation (logged by the agent); the others go on. */
  readonly onError?: (containerId: string, err: unknown) => void;
}

export class ContainerLogManager {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Each running container's log path: fixed at creation, so asked of the runtime once, not every pass. */
  private readonly logPaths = new Map<string, string>();

  constructor(private readonly o: ContainerLogManagerOptions) {
    if (o.policy.maxFiles < 2) throw new Error(`invalid MaxFiles ${o.policy.maxFiles}, must be > 1`);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.running ??= this.rotateAll().finally(() => (this.running = undefined));
    }, this.o.intervalMs ?? 10_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One pass over the running containers. */
  async rotateAll(): Promise<void> {
    const running = await this.o.runtime.listContainers({ state: 'CONTAINER_RUNNING' });
    const ids = new Set(running.map((c) => c.id));
    for (const id of this.logPaths.keys()) if (!ids.has(id)) this.logPaths.delete(id);
    for (const c of running) {
      try {
        let logPath = this.logPaths.get(c.id);
        if (logPath === undefined) {
          logPath = (await this.o.runtime.containerStatus(c.id)).logPath ?? '';
          this.logPaths.set(c.id, logPath);
        }
        if (!logPath) continue;
        const size = await stat(logPath).then((s) => s.size, () => -1);
        if (size < this.o.policy.maxSizeBytes) continue;
        await this.rotate(c.id, logPath);
      } catch (err) {
        this.o.onError?.(c.id, err);
      }
    }
  }

  /** Rotates one container's log now (whatever its size). */
  async rotate(containerId: string, log: string): Promise<void> {
    let rotated = await rotatedFiles(log);
    rotated = await cleanupUnused(rotated);
    rotated = await removeExcess(rotated, this.o.policy.maxFiles - 2);
    for (const f of rotated) if (!f.endsWith('.gz')) await compress(f);
    const target = `${log}.${stamp((this.o.now ?? (() => new Date()))())}`;
    await rename(log, target);
    try {
      await this.o.runtime.reopenContainerLog(containerId);
    } catch (err) {
      await rename(target, log).catch(() => undefined);
      throw err;
    }
  }
}

/** `<log>.*`, sorted (the timestamp suffix sorts by time). */
export async function rotatedFiles(log: string): Promise<string[]> {
  const dir = dirname(log);
  const prefix = `${basename(log)}.`;
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => n.startsWith(prefix)).sort().map((n) => join(dir, n));
}

async function cleanupUnused(files: string[]): Promise<string[]> {
  const have = new Set(files);
  const kept: string[] = [];
  for (const f of files) {
    if (f.endsWith('.tmp') || (!f.endsWith('.gz') && have.has(`${f}.gz`))) await rm(f, { force: true });
    else kept.push(f);
  }
  return kept;
}

async function removeExcess(files: string[], keep: number): Promise<string[]> {
  const excess = Math.max(0, files.length - Math.max(0, keep));
  for (const f of files.slice(0, excess)) await rm(f, { force: true });
  return files.slice(excess);
}

async function compress(file: string): Promise<void> {
  const tmp = `${file}.gz.tmp`;
  await pipeline(createReadStream(file), createGzip(), createWriteStream(tmp));
  await rename(tmp, `${file}.gz`);
  await rm(file, { force: true });
}

/** Go's "20060102-150405" in local time, as kube's rotated names. */
function stamp(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}
