// Reading a CRI log file for PodLogOptions, as kube's kuberuntime ReadLogs:
//
//   start   0, or the start of the last `tailLines` lines (counted in file
//           lines: a partial entry is a line of its own)
//   read    line by line; entries before `since` skipped; a malformed line
//           skipped; entries written in order, partial ones joined (the
//           timestamp prefix only where an output line begins)
//   stop    after `limitBytes` (the last entry cut), after `tailLines` lines
//           without follow, or at EOF without follow
//   follow  at EOF: wait for the file to change (inotify, and a forced check
//           each `checkIntervalMs`); a rotated file (the path names another
//           file: the runtime reopened it) is read to its end, then the new
//           one from its start; once the container no longer runs, read to
//           the next EOF and stop
import { open, stat, type FileHandle } from 'node:fs/promises';
import { watch, type FSWatcher } from 'node:fs';
import { formatTimestamp, parseCriLine } from './crilog.js';

export interface LogOptions {
  readonly follow?: boolean;
  /** The last n lines; undefined for all. */
  readonly tailLines?: number;
  /** Entries older than this (nanoseconds since the epoch) are skipped. */
  readonly sinceNs?: bigint;
  readonly timestamps?: boolean;
  /** Stop after this many bytes; undefined for no limit. */
  readonly limitBytes?: number;
}

export interface LogSink {
  /** Resolves when the chunk may be followed by more (backpressure). */
  write(chunk: Buffer): Promise<void> | void;
}

export interface ReadLogsRequest {
  readonly path: string;
  readonly options: LogOptions;
  readonly sink: LogSink;
  /** Whether the container still runs (follow stops once it does not); default: it does. */
  readonly isRunning?: () => Promise<boolean>;
  /** Ends a follow (the client went away). */
  readonly signal?: AbortSignal;
  /** The forced re-check while following (kube: 1 s). */
  readonly checkIntervalMs?: number;
}

/** The log cannot be read (kube's wording). */
export class LogReadError extends Error {
  override readonly name = 'LogReadError';
}

const GO_ERRNO: Record<string, string> = { ENOENT: 'no such file or directory', EACCES: 'permission denied', EISDIR: 'is a directory' };
const NL = 0x0a;
const BLOCK = 64 * 1024;

export async function readLogs(r: ReadLogsRequest): Promise<void> {
  const o = r.options;
  const out = new EntryWriter(o, r.sink);
  let file = await openFollowed(r.path, o.follow === true).catch((err: NodeJS.ErrnoException) => {
    throw new LogReadError(`failed to open log file "${r.path}": open ${r.path}: ${GO_ERRNO[err.code ?? ''] ?? err.message}`);
  });
  try {
    let pos = o.tailLines !== undefined ? await tailStart(file.fh, o.tailLines) : 0;
    let remainingLines = o.tailLines !== undefined && !o.follow ? o.tailLines : -1;
    let pending = Buffer.alloc(0);
    let stopAtEof = false;
    const buf = Buffer.allocUnsafe(BLOCK);
    for (;;) {
      if (r.signal?.aborted || remainingLines === 0) return;
      const { bytesRead } = await file.fh.read(buf, 0, BLOCK, pos);
      if (bytesRead > 0) {
        pos += bytesRead;
        const data = Buffer.concat([pending, buf.subarray(0, bytesRead)]);
        let start = 0;
        for (let nl = data.indexOf(NL); nl >= 0; nl = data.indexOf(NL, start)) {
          const more = await out.write(data.subarray(start, nl + 1));
          start = nl + 1;
          if (!more) return;
          if (remainingLines > 0 && --remainingLines === 0) return;
        }
        pending = Buffer.from(data.subarray(start));
        continue;
      }
      // EOF
      if (!o.follow || stopAtEof) {
        if (pending.length > 0) await out.write(pending);
        return;
      }
      if (await file.rotated()) {
        if (pending.length > 0 && !(await out.write(pending))) return;
        pending = Buffer.alloc(0);
        file.close();
        file = await openFollowed(r.path, true);
        pos = 0;
        continue;
      }
      if (r.isRunning && !(await r.isRunning())) {
        stopAtEof = true;
        continue;
      }
      await file.changed(r.checkIntervalMs ?? 1000, r.signal);
    }
  } finally {
    file.close();
  }
}

/** Where the last `n` lines start (kube's tail.FindTailLineStartIndex: every newline counts, a trailing one too). */
export async function tailStart(fh: FileHandle, n: number): Promise<number> {
  if (n < 0) return 0;
  const size = (await fh.stat()).size;
  let count = 0;
  let left = size;
  let block = Buffer.alloc(0);
  for (let right = size; right > 0 && count <= n; right = left) {
    left = Math.max(0, right - 4096);
    block = Buffer.alloc(right - left);
    await fh.read(block, 0, block.length, left);
    for (const b of block) if (b === NL) count++;
  }
  for (let at = 0; count > n; count--) {
    const i = block.indexOf(NL, at) + 1;
    left += i - at;
    at = i;
  }
  return left;
}

/** Writes entries as kube's logWriter: since filter, timestamp prefixes, the byte limit. */
class EntryWriter {
  private newLine = true;
  private remaining: number;
  constructor(private readonly o: LogOptions, private readonly sink: LogSink) {
    this.remaining = o.limitBytes ?? Infinity;
  }

  /** false once the byte limit is reached. */
  async write(line: Buffer): Promise<boolean> {
    let entry;
    try {
      entry = parseCriLine(line);
    } catch {
      return true; // kube logs and skips a line it cannot parse
    }
    const startsLine = this.newLine;
    this.newLine = entry.content.length === 0 || entry.content[entry.content.length - 1] === NL;
    if (this.o.sinceNs !== undefined && entry.timeNs < this.o.sinceNs) return true;
    let chunk = entry.content;
    if (this.o.timestamps && startsLine) chunk = Buffer.concat([Buffer.from(`${formatTimestamp(entry.timestamp)} `), chunk]);
    if (chunk.length > this.remaining) chunk = chunk.subarray(0, this.remaining);
    if (chunk.length > 0) await this.sink.write(chunk);
    this.remaining -= chunk.length;
    return this.remaining > 0;
  }
}

interface FollowedFile {
  readonly fh: FileHandle;
  /** The path now names another file (or none yet): the runtime rotated it. */
  rotated(): Promise<boolean>;
  /** Resolves on a change of the file, after `ms`, or on abort. */
  changed(ms: number, signal?: AbortSignal): Promise<void>;
  close(): void;
}

async function openFollowed(path: string, follow: boolean): Promise<FollowedFile> {
  const fh = await open(path, 'r');
  let dirty = false;
  let wake: (() => void) | undefined;
  let watcher: FSWatcher | undefined;
  if (follow) {
    try {
      watcher = watch(path, () => {
        dirty = true;
        wake?.();
      });
      watcher.on('error', () => undefined);
    } catch {
      watcher = undefined; // the forced check still runs
    }
  }
  const ino = (await fh.stat()).ino;
  return {
    fh,
    async rotated() {
      try {
        return (await stat(path)).ino !== ino;
      } catch {
        return false; // renamed, not yet reopened: wait for the new file
      }
    },
    changed(ms, signal) {
      if (dirty) {
        dirty = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          wake = undefined;
          dirty = false;
          resolve();
        };
        const timer = setTimeout(done, ms);
        signal?.addEventListener('abort', done);
        wake = done;
      });
    },
    close() {
      watcher?.close();
      void fh.close().catch(() => undefined);
    },
  };
}
