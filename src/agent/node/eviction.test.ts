import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_EVICTION_HARD, hardEvictionReservation, parseEvictionThresholds, thresholdsMet, type Observations } from './eviction.js';

test('parsing --eviction-hard', () => {
  assert.deepEqual(parseEvictionThresholds(DEFAULT_EVICTION_HARD), [
    { signal: 'imagefs.available', percentage: 0.15 },
    { signal: 'memory.available', quantity: 104857600n },
    { signal: 'nodefs.available', percentage: 0.1 },
    { signal: 'nodefs.inodesFree', percentage: 0.05 },
  ]);
  const bad: [string, RegExp][] = [
    ['memory.available>1Gi', /invalid eviction threshold syntax memory.available>1Gi/],
    ['cpu.available<1', /unsupported eviction signal cpu.available/],
    ['memory.available<1Gi,memory.available<2Gi', /found duplicate eviction threshold for signal memory.available/],
    ['nodefs.available<120%', /must be <= 100%/],
    ['memory.available<lots', /quantities must match/],
  ];
  for (const [text, want] of bad) assert.throws(() => parseEvictionThresholds(text), want, text);
});

test('hard eviction reservation and thresholds met', () => {
  const t = parseEvictionThresholds('memory.available<100Mi,nodefs.available<10%,nodefs.inodesFree<5%,pid.available<1000');
  assert.deepEqual(hardEvictionReservation(t, { memory: 4n * 1024n ** 3n, ephemeralStorage: 1000n }), { memory: 104857600n, ephemeralStorage: 100n });
  const base: Observations = {
    memory: { available: 2 ** 30, capacity: 2 ** 32 },
    nodefs: { capacityBytes: 1000, availableBytes: 500, inodes: 100, inodesFree: 50 },
    pids: { running: 100, max: 32768 },
  };
  const rows: [string, Observations, string[]][] = [
    ['healthy', base, []],
    ['memory low', { ...base, memory: { available: 50 * 2 ** 20, capacity: 2 ** 32 } }, ['memory.available']],
    ['disk low', { ...base, nodefs: { ...base.nodefs, availableBytes: 99 } }, ['nodefs.available']],
    ['inodes low', { ...base, nodefs: { ...base.nodefs, inodesFree: 4 } }, ['nodefs.inodesFree']],
    ['pids low', { ...base, pids: { running: 32000, max: 32768 } }, ['pid.available']],
    ['no inode figures', { ...base, nodefs: { ...base.nodefs, inodes: 0, inodesFree: 0 } }, []],
  ];
  for (const [name, o, want] of rows) assert.deepEqual(thresholdsMet(t, o).map((x) => x.signal), want, name);
});
