// Storage benchmarks (issue 2): durable creates at 1/16/64 writers on SQLite
// and etcd, a 50k-key paged range, watch delivery to 100 watchers, and the
// compaction batch bound and WAL size of the SQLite backend.
import { mkdtempSync, statSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import type { Store } from '../src/storage/interface.js';
import { SqliteStore } from '../src/storage/sqlite/store.js';
import { EtcdStore } from '../src/storage/etcd/store.js';
import { startEtcd } from '../src/storage/etcd/testserver.js';
import { fmt, summarize } from './report.js';

const VALUE = Buffer.alloc(1024, 'v');
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

async function creates(store: Store, writers: number, total: number, tag: string): Promise<{ rate: number; p50: number; p99: number }> {
  const lat: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        await store.create(`/bench/${tag}/${i}`, VALUE);
        lat.push(performance.now() - t);
      }
    }),
  );
  const secs = (performance.now() - start) / 1000;
  const s = summarize(lat);
  return { rate: total / secs, p50: s.p50, p99: s.p99 };
}

async function pagedRange(store: Store, n: number): Promise<string> {
  for (let i = 0; i < n; i += 500) {
    await Promise.all(Array.from({ length: Math.min(500, n - i) }, (_, j) => store.create(`/bench/range/${String(i + j).padStart(6, '0')}`, VALUE)));
  }
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  const pages: number[] = [];
  const start = performance.now();
  let page = await store.range('/bench/range/', { limit: 500 });
  let count = page.items.length;
  const rev = page.revision;
  pages.push(performance.now() - start);
  while (page.more) {
    const t = performance.now();
    page = await store.range('/bench/range/', { limit: 500, revision: rev, startAfter: page.items[page.items.length - 1]!.key });
    pages.push(performance.now() - t);
    count += page.items.length;
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  }
  const total = performance.now() - start;
  if (count !== n) throw new Error(`paged range returned ${count} keys, expected ${n}`);
  const s = summarize(pages);
  return `total ${fmt(total, 0)} ms, ${pages.length} pages, p99 page ${fmt(s.p99)} ms, heap growth ${fmt((heapPeak - heapBefore) / 2 ** 20, 1)} MiB`;
}

async function watchLatency(store: Store, watchers: number, writes: number): Promise<string> {
  // For each write: when it was issued, when it was acknowledged (committed),
  // and when each watcher received it. An event may reach a watcher before the
  // writer sees its acknowledgement; commit→delivery then counts as 0.
  const issued: number[] = [];
  const acked: number[] = [];
  const delivered: number[][] = Array.from({ length: writes }, () => []);
  const from = await store.currentRevision();
  const prefix = '/bench/watch/';
  const handles = await Promise.all(
    Array.from({ length: watchers }, () =>
      store.watch({ prefix, fromRevision: from }, {
        onEvents: (events) => {
          const now = performance.now();
          for (const e of events) if (e.type === 'create') delivered[Number(e.kv.key.slice(prefix.length))]!.push(now);
        },
        onError: (err) => console.error('watch error', err),
      }),
    ),
  );
  for (let i = 0; i < writes; i++) {
    issued[i] = performance.now();
    await store.create(`${prefix}${i}`, VALUE);
    acked[i] = performance.now();
    if (i % 10 === 0) await new Promise((r) => setTimeout(r, 1));
  }
  const deadline = Date.now() + 10_000;
  const count = () => delivered.reduce((n, d) => n + d.length, 0);
  while (count() < watchers * writes && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  for (const h of handles) h.close();
  const fromCommit: number[] = [];
  const fromIssue: number[] = [];
  delivered.forEach((ds, i) => ds.forEach((t) => (fromCommit.push(Math.max(0, t - acked[i]!)), fromIssue.push(t - issued[i]!))));
  const c = summarize(fromCommit);
  const w = summarize(fromIssue);
  return `${watchers} watchers × ${writes} writes, ${count()} deliveries: commit→delivered p50 ${fmt(c.p50)} ms, p99 ${fmt(c.p99)} ms; write issued→delivered (includes the durable commit) p50 ${fmt(w.p50)} ms, p99 ${fmt(w.p99)} ms`;
}

async function compactionBound(dir: string): Promise<string> {
  const store = SqliteStore.open({ path: join(dir, 'compact.db'), compaction: { retentionMs: 0 } });
  const keys = 1000;
  const versions = 200;
  for (let v = 0; v < versions; v++) {
    await Promise.all(Array.from({ length: keys }, (_, k) => (v === 0 ? store.create(`/c/${k}`, VALUE) : store.update(`/c/${k}`, VALUE))));
  }
  const rev = await store.currentRevision();
  const t = performance.now();
  // Writes keep arriving during compaction; their latency shows how long the lock is held.
  let stop = false;
  const writeLat: number[] = [];
  const writer = (async () => {
    for (let i = 0; !stop; i++) {
      const s = performance.now();
      await store.update(`/c/${i % keys}`, VALUE);
      writeLat.push(performance.now() - s);
    }
  })();
  await store.compact(rev);
  stop = true;
  await writer;
  const total = performance.now() - t;
  const batches = (store as unknown as { compactor: { recentBatches: { ms: number }[] } }).compactor.recentBatches;
  const maxBatch = Math.max(...batches.map((b) => b.ms));
  const w = summarize(writeLat);
  await store.close();
  return `compacting ${rev.toLocaleString('en')} revisions: ${fmt(total, 0)} ms total, longest batch ${fmt(maxBatch, 1)} ms; concurrent write p99 ${fmt(w.p99)} ms, max ${fmt(w.max)} ms`;
}

async function walBound(dir: string): Promise<string> {
  const path = join(dir, 'wal.db');
  const store = SqliteStore.open({ path, compaction: { retentionMs: 0 } });
  let maxWal = 0;
  const writes = 60_000;
  let next = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < writes) {
        const i = next++;
        await store.create(`/wal/${i}`, VALUE);
        if (i % 2000 === 0) maxWal = Math.max(maxWal, statSync(path + '-wal').size);
      }
    }),
  );
  await store.close();
  return `${writes.toLocaleString('en')} × 1 KiB creates at 64 writers: largest WAL file seen ${fmt(maxWal / 2 ** 20, 1)} MiB`;
}

export async function benchStorage(only?: string): Promise<string[]> {
  const out: string[] = ['### Storage (issue 2)', ''];
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const backends: { name: string; open: () => Promise<Store>; cleanup?: () => Promise<void> }[] = [
    { name: 'sqlite (synchronous=FULL)', open: async () => SqliteStore.open({ path: join(dir, `s-${Math.random()}.db`), compaction: { retentionMs: 0 } }) },
  ];
  let etcdAvailable = true;
  try {
    execFileSync('etcd', ['--version'], { stdio: 'ignore' });
  } catch {
    etcdAvailable = false;
    out.push('etcd not installed: etcd figures skipped (apt-get install etcd-server)', '');
  }
  let etcdStop: (() => Promise<void>) | undefined;
  if (etcdAvailable) {
    const srv = await startEtcd();
    etcdStop = srv.stop;
    backends.push({ name: 'etcd 3 (local, one member)', open: () => EtcdStore.open({ servers: [srv.url] }) });
  }
  try {
    out.push('Durable creates, 1 KiB values:', '', '| backend | writers | creates/s | p50 ms | p99 ms |', '|---|---|---|---|---|');
    for (const b of backends) {
      for (const [writers, total] of [[1, 1500], [16, 8000], [64, 20000]] as const) {
        const store = await b.open();
        const r = await creates(store, writers, total, `c${writers}-${Math.random()}`);
        await store.close();
        out.push(`| ${b.name} | ${writers} | ${fmt(r.rate, 0)} | ${fmt(r.p50)} | ${fmt(r.p99)} |`);
        console.error(out[out.length - 1]);
      }
    }
    out.push('');
    for (const b of backends) {
      const store = await b.open();
      out.push(`- Paged range, 50,000 keys in pages of 500, ${b.name}: ${await pagedRange(store, 50_000)}`);
      console.error(out[out.length - 1]);
      out.push(`- Watch, ${b.name}: ${await watchLatency(store, 100, 500)}`);
      console.error(out[out.length - 1]);
      await store.close();
    }
    out.push(`- Compaction, sqlite: ${await compactionBound(dir)}`);
    console.error(out[out.length - 1]);
    out.push(`- WAL, sqlite: ${await walBound(dir)}`);
    console.error(out[out.length - 1]);
  } finally {
    await etcdStop?.();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
