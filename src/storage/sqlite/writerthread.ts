// The SQLite writer thread (see writer.ts): its own connection to the log,
// answering the store's calls one at a time, in order.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { configureWriting, LogTransactions, type Outcome, type ThreadReply, type ThreadRequest, type ThreadWriterOptions } from './writer.js';

const opts = workerData as ThreadWriterOptions;
const db = new Database(opts.path, { timeout: 5000 });
configureWriting(db, opts.synchronous);
const tx = new LogTransactions(db);
const port = parentPort!;

/** A committed create or update goes back without its value: the store has the bytes it sent. */
function lean(o: Outcome): Outcome {
  return 'kv' in o ? { ...o, kv: { ...o.kv, value: EMPTY } } : o;
}
const EMPTY = new Uint8Array(0);

port.on('message', (m: ThreadRequest) => {
  let reply: ThreadReply;
  try {
    let result: unknown;
    switch (m.call) {
      case 'commit':
        result = tx.commit(m.ops).map(lean);
        break;
      case 'compactBatch':
        tx.compactBatch(m.from, m.to);
        break;
      case 'setMeta':
        tx.setMeta(m.key, m.value);
        break;
      case 'checkpoint':
        tx.checkpoint();
        break;
      case 'close':
        db.close();
        break;
    }
    reply = { id: m.id, result };
  } catch (err) {
    const e = err as Error & { code?: string };
    reply = { id: m.id, error: { message: e.message, ...(e.code ? { code: e.code } : {}) } };
  }
  port.postMessage(reply);
});
