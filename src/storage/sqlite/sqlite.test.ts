// The SQLite backend: the whole conformance suite on a file (small batches on
// the event loop's connection, as by default; and every batch on the writer
// thread) and in memory.
import { join } from 'node:path';
import { runStoreConformance } from '../conformance/index.js';
import { SqliteStore } from './store.js';
import { tempDir } from '../../testing/tempdir.js';

runStoreConformance({
  name: 'sqlite (file)',
  open: async () => SqliteStore.open({ path: join(tempDir('svc-sqlite-'), 'state.db') }),
});

runStoreConformance({
  name: 'sqlite (file, every batch on the writer thread)',
  open: async () => SqliteStore.open({ path: join(tempDir('svc-sqlite-'), 'state.db'), inlineValueBytes: 0 }),
});

runStoreConformance({
  name: 'sqlite (memory)',
  open: async () => SqliteStore.open({ path: ':memory:' }),
});
