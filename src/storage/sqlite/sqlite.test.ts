// The SQLite backend: the whole conformance suite on a file and in memory.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoreConformance } from '../conformance/index.js';
import { SqliteStore } from './store.js';

runStoreConformance({
  name: 'sqlite (file)',
  open: async () => SqliteStore.open({ path: join(mkdtempSync(join(tmpdir(), 'svc-sqlite-')), 'state.db') }),
});

runStoreConformance({
  name: 'sqlite (memory)',
  open: async () => SqliteStore.open({ path: ':memory:' }),
});
