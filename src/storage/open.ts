// Opens the configured storage backend. Backends register by name; an
// unknown name or a store that cannot be opened fails with a clear message.
import { join } from 'node:path';
import type { Store } from './interface.js';
import { SqliteStore } from './sqlite/store.js';
import { EtcdStore } from './etcd/store.js';
import type { CompactionOptions } from './sqlite/compactor.js';

export interface StorageConfig {
  /** 'sqlite' (embedded default) or 'etcd3'. */
  readonly backend: string;
  /** sqlite: the data directory; the database is <dataDir>/db/state.db. */
  readonly dataDir?: string;
  /** sqlite: an explicit database file, or ':memory:'. Overrides dataDir. */
  readonly sqlitePath?: string;
  readonly sqliteSynchronous?: 'FULL' | 'NORMAL';
  readonly compaction?: Partial<CompactionOptions>;
  /** etcd3: client URLs. */
  readonly etcdServers?: readonly string[];
  readonly etcdPrefix?: string;
  readonly etcdCaFile?: string;
  readonly etcdCertFile?: string;
  readonly etcdKeyFile?: string;
}

type Opener = (c: StorageConfig) => Promise<Store>;

const backends = new Map<string, Opener>();

export function registerBackend(name: string, open: Opener): void {
  if (backends.has(name)) throw new Error(`storage backend ${name} registered twice`);
  backends.set(name, open);
}

registerBackend('sqlite', async (c) => {
  const path = c.sqlitePath ?? (c.dataDir ? join(c.dataDir, 'db', 'state.db') : undefined);
  if (!path) throw new Error('the sqlite backend needs a data directory (--data-dir)');
  return SqliteStore.open({ path, synchronous: c.sqliteSynchronous ?? 'FULL', compaction: c.compaction ?? {} });
});

registerBackend('etcd3', async (c) => {
  if (!c.etcdServers || c.etcdServers.length === 0) throw new Error('the etcd3 backend needs --etcd-servers');
  return EtcdStore.open({ servers: c.etcdServers, keyPrefix: c.etcdPrefix ?? '', caFile: c.etcdCaFile, certFile: c.etcdCertFile, keyFile: c.etcdKeyFile });
});

export function openStore(c: StorageConfig): Promise<Store> {
  const open = backends.get(c.backend);
  if (!open) return Promise.reject(new Error(`unknown storage backend ${JSON.stringify(c.backend)} (known: ${[...backends.keys()].join(', ')})`));
  return open(c);
}

/** Where the store lives, for start-up messages. */
export function describeStore(c: StorageConfig): string {
  if (c.backend === 'etcd3') return `etcd3 at ${(c.etcdServers ?? []).join(',')}${c.etcdPrefix ? ` (key prefix ${c.etcdPrefix})` : ''}`;
  return `sqlite at ${c.sqlitePath ?? join(c.dataDir ?? '.', 'db', 'state.db')}`;
}
