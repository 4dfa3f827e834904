// The storage conformance suite: every backend runs all of it (etcd's
// pkg/storage/testing pattern). Call runStoreConformance(factory) from a
// backend's test file.
import type { StoreFactory } from './harness.js';
import { runCrudTests } from './crud.js';
import { runConcurrencyTests } from './concurrency.js';
import { runRangeTests } from './range.js';
import { runWatchTests } from './watch.js';
import { runCompactionTests } from './compaction.js';

export type { StoreFactory } from './harness.js';

export function runStoreConformance(f: StoreFactory): void {
  runCrudTests(f);
  runConcurrencyTests(f);
  runRangeTests(f);
  runWatchTests(f);
  runCompactionTests(f);
}
