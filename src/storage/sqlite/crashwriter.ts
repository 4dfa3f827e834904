// A write storm for the crash test (durability.test.ts): opens the store at
// argv[2] and writes with 16 concurrent writers forever, printing
// "ack <key> <revision>" only after each write was acknowledged. argv[3]
// "thread" sends every batch to the writer thread (else small batches commit
// on the event loop, as they do by default).
import { SqliteStore } from './store.js';

const store = SqliteStore.open({ path: process.argv[2]!, compaction: { retentionMs: 0 }, ...(process.argv[3] === 'thread' ? { inlineValueBytes: 0 } : {}) });
const value = Buffer.alloc(1024, 'x');
let n = 0;
async function writer(w: number): Promise<never> {
  for (;;) {
    const key = `/crash/w${w}/${n++}`;
    const kv = await store.create(key, value);
    process.stdout.write(`ack ${key} ${kv.modRevision}\n`);
    if (n % 3 === 0) {
      const u = await store.update(key, Buffer.from('updated'));
      process.stdout.write(`upd ${key} ${u.modRevision}\n`);
    }
  }
}
for (let w = 0; w < 16; w++) void writer(w);
