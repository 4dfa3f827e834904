// The agent's static pod sources (kube's file and http config sources and the
// pod config that merges them): a manifest folder (or one file) read every
// --file-check-frequency and when it changes (fs.watch), and a manifest URL
// (--manifest-url with its --manifest-url-header) fetched every
// --http-check-frequency. Each read is a snapshot; against the previous one
// it yields the listener's events, by pod UID:
//   ADD     a pod not seen before
//   UPDATE  the same UID with other content
//   REMOVE  a pod no longer there
// A manifest that does not parse or validate is reported and left out (as
// kube's sources skip it); an unreadable folder or a failed fetch changes
// nothing.
import { watch, type FSWatcher } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiObject } from '../../registry/object.js';
import { deepEqual } from '../../registry/object.js';
import { decodePods } from './manifest.js';
import { getText } from './httpget.js';
import { rfc3339Nano, stampSeen, type PodSource } from './staticpod.js';

export type PodOp = 'ADD' | 'UPDATE' | 'REMOVE';

export interface PodUpdate {
  readonly op: PodOp;
  readonly source: PodSource;
  readonly pods: readonly ApiObject[];
}

export type PodListener = (u: PodUpdate) => void;

export interface StaticPodSourceOptions {
  readonly nodeName: string;
  /** `staticPodPath`: a folder of manifests or one manifest file. */
  readonly path?: string;
  /** `--file-check-frequency` (20 s). */
  readonly fileCheckMs?: number;
  /** `--manifest-url`. */
  readonly url?: string;
  /** `--manifest-url-header`: header name → values. */
  readonly headers?: Readonly<Record<string, readonly string[]>>;
  /** `--http-check-frequency` (20 s). */
  readonly httpCheckMs?: number;
  /** How long one fetch may take (kube's http client: 10 s). */
  readonly httpTimeoutMs?: number;
  readonly now?: () => number;
  readonly onError?: (source: PodSource, err: Error) => void;
}

/** Parses `--manifest-url-header` values (`a:hello,b:again`, repeatable) as kube's flag does. */
export function parseManifestHeaders(values: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const v of values) {
    for (const pair of v.split(',')) {
      if (pair.trim() === '') continue;
      const i = pair.indexOf(':');
      if (i < 0) throw new Error(`invalid header: ${JSON.stringify(pair)}, header must be of the format key:value`);
      (out[pair.slice(0, i)] ??= []).push(pair.slice(i + 1));
    }
  }
  return out;
}

/** One source's pods by UID, and the events a new snapshot makes. */
class Snapshot {
  private pods = new Map<string, ApiObject>();

  constructor(private readonly source: PodSource, private readonly now: () => number) {}

  list(): ApiObject[] {
    return [...this.pods.values()];
  }

  /** Replaces the pods; the events, in order REMOVE, ADD, UPDATE (each only when not empty). */
  replace(fresh: readonly ApiObject[]): PodUpdate[] {
    const next = new Map<string, ApiObject>();
    const added: ApiObject[] = [];
    const updated: ApiObject[] = [];
    for (const raw of fresh) {
      const uid = raw.metadata.uid!;
      if (next.has(uid)) continue;
      const before = this.pods.get(uid);
      const seen = before?.metadata.annotations?.['kubernetes.io/config.seen'] ?? rfc3339Nano(this.now());
      const pod = stampSeen(raw, this.source, seen);
      next.set(uid, before && deepEqual(before, pod) ? before : pod);
      if (!before) added.push(pod);
      else if (!deepEqual(before, pod)) updated.push(pod);
    }
    const removed = [...this.pods.values()].filter((p) => !next.has(p.metadata.uid!));
    this.pods = next;
    const out: PodUpdate[] = [];
    if (removed.length > 0) out.push({ op: 'REMOVE', source: this.source, pods: removed });
    if (added.length > 0) out.push({ op: 'ADD', source: this.source, pods: added });
    if (updated.length > 0) out.push({ op: 'UPDATE', source: this.source, pods: updated });
    return out;
  }
}

export class StaticPodSource {
  private readonly listeners: PodListener[] = [];
  private readonly files: Snapshot;
  private readonly http: Snapshot;
  private readonly timers: NodeJS.Timeout[] = [];
  private watcher: FSWatcher | undefined;
  private fileRun: Promise<void> = Promise.resolve();
  private rescan = false;
  private stopped = true;

  constructor(private readonly o: StaticPodSourceOptions) {
    const now = o.now ?? Date.now;
    this.files = new Snapshot('file', now);
    this.http = new Snapshot('http', now);
  }

  onUpdate(l: PodListener): void {
    this.listeners.push(l);
  }

  /** Every static pod now held. */
  pods(): ApiObject[] {
    return [...this.files.list(), ...this.http.list()];
  }

  /** Reads both sources once, then polls them (and watches the path). */
  async start(): Promise<void> {
    this.stopped = false;
    await Promise.all([this.syncFiles(), this.syncURL()]);
    if (this.o.path !== undefined) {
      this.every(this.o.fileCheckMs ?? 20_000, async () => {
        this.watchPath();
        await this.syncFiles();
      });
      this.watchPath();
    }
    if (this.o.url !== undefined) this.every(this.o.httpCheckMs ?? 20_000, () => this.syncURL());
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.timers.length = 0;
    this.watcher?.close();
    this.watcher = undefined;
  }

  /** Watches the path for changes; a path that does not exist yet is polled until it does, then watched. */
  private watchPath(): void {
    if (this.watcher || this.stopped || this.o.path === undefined) return;
    try {
      const w = watch(this.o.path, { persistent: false }, () => void this.syncFiles());
      w.on('error', (err) => {
        // the folder went away: poll until it is back
        w.close();
        if (this.watcher === w) this.watcher = undefined;
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.report('file', err);
      });
      this.watcher = w;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.report('file', err as Error);
    }
  }

  private every(ms: number, fn: () => Promise<void>): void {
    const t = setInterval(() => void fn(), ms);
    t.unref();
    this.timers.push(t);
  }

  private report(source: PodSource, err: Error): void {
    this.o.onError?.(source, err);
  }

  private emit(updates: readonly PodUpdate[]): void {
    for (const u of updates) for (const l of this.listeners) l(u);
  }

  /** Reads the path now; reads that overlap run one after another (a change during a read reads again). */
  syncFiles(): Promise<void> {
    if (this.o.path === undefined) return Promise.resolve();
    if (this.rescan) return this.fileRun;
    this.rescan = true;
    this.fileRun = this.fileRun.then(async () => {
      this.rescan = false;
      const pods = await this.readPath(this.o.path!);
      if (pods) this.emit(this.files.replace(pods));
    });
    return this.fileRun;
  }

  /** The pods of the path; undefined when it cannot be read (nothing changes then). */
  private async readPath(path: string): Promise<ApiObject[] | undefined> {
    let files: string[];
    try {
      const s = await stat(path);
      if (s.isDirectory()) {
        const entries = await readdir(path, { withFileTypes: true });
        // hidden files and sub-folders are skipped, as kube's file source does
        files = entries.filter((e) => !e.name.startsWith('.') && !e.isDirectory()).map((e) => join(path, e.name)).sort();
      } else files = [path];
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      this.report('file', new Error(`unable to read config path ${JSON.stringify(path)}: ${(err as Error).message}`));
      return undefined;
    }
    const pods: ApiObject[] = [];
    for (const f of files) {
      try {
        pods.push(...decodePods(await readFile(f, 'utf8'), { nodeName: this.o.nodeName, source: 'file', origin: f }).slice(0, 1));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // removed while reading
        this.report('file', new Error(`could not process manifest file ${JSON.stringify(f)}: ${(err as Error).message}`));
      }
    }
    return pods;
  }

  /** Fetches the URL now. */
  async syncURL(): Promise<void> {
    const url = this.o.url;
    if (url === undefined) return;
    let text: string;
    try {
      const res = await getText(url, this.o.headers ?? {}, this.o.httpTimeoutMs ?? 10_000);
      text = res.text;
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${res.statusText}`);
    } catch (err) {
      this.report('http', err as Error);
      return;
    }
    if (text.length === 0) {
      // an empty answer is an empty pod list, and an error (kube's)
      this.emit(this.http.replace([]));
      this.report('http', new Error(`zero-length data received from ${url}`));
      return;
    }
    try {
      this.emit(this.http.replace(decodePods(text, { nodeName: this.o.nodeName, source: 'http', origin: url })));
    } catch (err) {
      this.report('http', new Error(`${url}: received '${text.length > 200 ? `${text.slice(0, 200)}…` : text}', but couldn't parse as single pod or pod list: ${(err as Error).message}`));
    }
  }
}
