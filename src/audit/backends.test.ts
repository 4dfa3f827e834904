import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { configureMetrics, exposition } from '../metrics/registry.js';
import { ignoreErrors, union, type Backend } from './backend.js';
import { BufferedBackend } from './buffered.js';
import { LogBackend, type LineWriter } from './logbackend.js';
import { eventJSON } from './encode.js';
import { setPluginErrorLog } from './metrics.js';
import { TruncatingBackend, TRUNCATED_ANNOTATION } from './truncate.js';
import type { AuditEvent } from './types.js';

const ev = (id: string, o: Partial<AuditEvent> = {}): AuditEvent => ({
  level: 'Metadata', auditID: id, stage: 'ResponseComplete', requestURI: '/api', verb: 'get', user: { username: 'u' }, sourceIPs: [], userAgent: '',
  requestReceivedTimestamp: 1e15, stageTimestamp: 1e15, ...o,
});

async function counter(name: string, labels = ''): Promise<number> {
  const text = await exposition();
  const m = new RegExp(`^${name}${labels.replace(/[{}"]/g, (c) => `\\${c}`)} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
}

/** The lines of a written chunk. */
function lines(bytes: Buffer, ends: readonly number[]): string[] {
  let start = 0;
  return ends.map((e) => bytes.subarray(start, (start = e)).toString());
}

/** A backend that records batches and answers as told. */
class Recorder implements Backend {
  readonly name = 'recorder';
  batches: string[][] = [];
  constructor(private answer: () => boolean | Promise<boolean> = () => true) {}
  processEvents(events: readonly AuditEvent[]) {
    this.batches.push(events.map((e) => e.auditID));
    return this.answer();
  }
  async shutdown() {}
}

let logged: string[] = [];
beforeEach(() => {
  configureMetrics();
  logged = [];
  setPluginErrorLog((t) => logged.push(t));
});
afterEach(() => setPluginErrorLog((t) => console.error(t)));

describe('the log backend', () => {
  it('writes the events of one loop turn in one write, and everyone waits for it', async () => {
    const writes: string[][] = [];
    const b = new LogBackend({ writeChunk: (bytes, ends) => void writes.push(lines(bytes, ends)) }, 'json');
    const waits = [b.processEvents([ev('1')]), b.processEvents([ev('2')]), b.processEvents([ev('3')])];
    assert.equal(writes.length, 0, 'nothing written before the turn ends');
    assert.deepEqual(await Promise.all(waits), [true, true, true]);
    assert.equal(writes.length, 1);
    assert.deepEqual(writes[0]!.map((l) => JSON.parse(l).auditID), ['1', '2', '3']);
    assert.ok(writes[0]!.every((l) => l.endsWith('}\n')));
    await b.processEvents([ev('4')]);
    assert.equal(writes.length, 2);
  });

  it('one write at a time: events arriving during a write collect and go out together when it ends, its bytes untouched', async () => {
    const writes: string[][] = [];
    const pending: { bytes: Buffer; copy: string; ends: readonly number[]; finish: () => void }[] = [];
    const b = new LogBackend({
      writeChunk: (bytes, ends) => new Promise<void>((finish) => pending.push({ bytes, copy: bytes.toString(), ends, finish })),
    }, 'json');
    const first = b.processEvents([ev('1')]);
    await new Promise((r) => setImmediate(r));
    assert.equal(pending.length, 1, 'the first batch is being written');
    const later = [b.processEvents([ev('2')]), b.processEvents([ev('3')])];
    await new Promise((r) => setImmediate(r));
    b.processEvents([ev('4')]);
    await new Promise((r) => setImmediate(r));
    assert.equal(pending.length, 1, 'nothing else starts while a write is under way');
    assert.equal(pending[0]!.bytes.toString(), pending[0]!.copy, 'the bytes under write are not reused');
    writes.push(lines(pending[0]!.bytes, pending[0]!.ends));
    pending[0]!.finish();
    assert.equal(await first, true);
    assert.equal(pending.length, 2, 'the collected batch starts when the write ends');
    writes.push(lines(pending[1]!.bytes, pending[1]!.ends));
    pending[1]!.finish();
    assert.deepEqual(await Promise.all(later), [true, true]);
    assert.deepEqual(writes.map((w) => w.map((l) => JSON.parse(l).auditID)), [['1'], ['2', '3', '4']]);
    await b.shutdown();
  });

  it('a write that rejects fails its batch only; the next batch is written', async () => {
    let calls = 0;
    const written: string[] = [];
    const b = new LogBackend({
      writeChunk: (bytes, ends) => (++calls === 1 ? Promise.reject(new Error('EIO')) : Promise.resolve(void written.push(...lines(bytes, ends)))),
    }, 'json');
    const r1 = b.processEvents([ev('1')]);
    assert.equal(await r1, false);
    assert.equal(await b.processEvents([ev('2')]), true);
    assert.deepEqual(written.map((l) => JSON.parse(l).auditID), ['2']);
    assert.match(logged[0]!, /affecting 1 audit events: EIO/);
  });

  it('writes legacy lines', async () => {
    const writes: string[] = [];
    const b = new LogBackend({ writeChunk: (bytes, ends) => void writes.push(...lines(bytes, ends)) }, 'legacy');
    await b.processEvents([ev('1')]);
    assert.match(writes[0]!, /AUDIT: id="1" stage="ResponseComplete" .* response="<deferred>"\n$/);
  });

  it('a failed write: false, counted per event under plugin "log", logged', async () => {
    const before = await counter('apiserver_audit_error_total', '{plugin="log"}');
    const failing: LineWriter = { writeChunk: () => { throw new Error('disk full'); } };
    const b = new LogBackend(failing, 'json');
    const r = await Promise.all([b.processEvents([ev('1')]), b.processEvents([ev('2')])]);
    assert.deepEqual(r, [false, false]);
    assert.equal(await counter('apiserver_audit_error_total', '{plugin="log"}'), before + 2);
    assert.match(logged[0]!, /^Error in audit plugin 'log' affecting 2 audit events: disk full\nImpacted events:\n.*id="1".*\n.*id="2"/);
    // blocking (not strict) hides the failure from the request
    assert.equal(await ignoreErrors(new LogBackend(failing)).processEvents([ev('3')]), true);
  });
});

describe('the batch mode (buffered backend)', () => {
  const config = { bufferSize: 3, maxBatchSize: 2, maxBatchWaitMs: 10, throttleEnable: false, throttleQPS: 0, throttleBurst: 0, asyncDelegate: false };

  it('answers at once, sends full batches and the rest after maxBatchWait, flushes on shutdown', async () => {
    const rec = new Recorder();
    const b = new BufferedBackend(rec, config);
    assert.equal(b.processEvents([ev('1'), ev('2')]), true);
    assert.equal(b.processEvents([ev('3')]), true);
    while (rec.batches.length < 2) await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(rec.batches, [['1', '2'], ['3']]);
    b.processEvents([ev('4')]);
    await b.shutdown();
    assert.deepEqual(rec.batches, [['1', '2'], ['3'], ['4']]);
  });

  it('full batches go out together: batches of one to a delegate that answers a turn later are not one per turn', async () => {
    // how many batches the delegate had when it answered the first (a count, not a clock)
    let atFirstAnswer: number | undefined;
    const rec: Recorder = new Recorder(() => new Promise((r) => setImmediate(() => {
      atFirstAnswer ??= rec.batches.length;
      r(true);
    })));
    const b = new BufferedBackend(rec, { ...config, bufferSize: 1000, maxBatchSize: 1, maxBatchWaitMs: 0 });
    b.processEvents(Array.from({ length: 100 }, (_, i) => ev(String(i))));
    while (rec.batches.length < 100) await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    assert.equal(atFirstAnswer, 100, 'every full batch was handed over before the first was answered'); // one per answer would give 1
    assert.deepEqual(rec.batches[0], ['0']);
    await b.shutdown();
  });

  it('drops events when the buffer is full: counted under plugin "buffered", logged, the request goes on', async () => {
    const before = await counter('apiserver_audit_error_total', '{plugin="buffered"}');
    const rec = new Recorder();
    const b = new BufferedBackend(rec, { ...config, maxBatchSize: 10, maxBatchWaitMs: 60_000 });
    assert.equal(b.processEvents([ev('1'), ev('2'), ev('3'), ev('4'), ev('5')]), true);
    assert.equal(await counter('apiserver_audit_error_total', '{plugin="buffered"}'), before + 2);
    assert.match(logged[0]!, /^Error in audit plugin 'buffered' affecting 2 audit events: audit buffer queue blocked\n/);
    await b.shutdown();
    assert.deepEqual(rec.batches, [['1', '2', '3']]);
  });

  it('throttles batches to throttleQPS after the burst', async () => {
    let now = 0;
    const rec = new Recorder();
    const b = new BufferedBackend(rec, { ...config, bufferSize: 100, maxBatchSize: 1, maxBatchWaitMs: 0, throttleEnable: true, throttleQPS: 1, throttleBurst: 2 }, () => now);
    b.processEvents([ev('1'), ev('2'), ev('3')]);
    for (let i = 0; i < 20 && rec.batches.length < 2; i++) await new Promise((r) => setTimeout(r, 1));
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(rec.batches, [['1'], ['2']], 'the third waits for a token');
    now += 1000;
    for (let i = 0; i < 200 && rec.batches.length < 3; i++) await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(rec.batches, [['1'], ['2'], ['3']]);
    await b.shutdown();
  });
});

describe('truncation and the union', () => {
  it('drops request and response objects of a large event, refuses one still too large, splits batches by size', async () => {
    const before = await counter('apiserver_audit_error_total', '{plugin="truncate"}');
    const rec: AuditEvent[][] = [];
    const sink: Backend = { name: 's', processEvents: (e) => (rec.push([...e]), true), shutdown: async () => {} };
    // a batch holds the small event alone
    const t = new TruncatingBackend(sink, { maxEventSize: 600, maxBatchSize: Buffer.byteLength(eventJSON(ev('small'))) + 10 });
    const big = `"${'x'.repeat(800)}"`;
    assert.equal(t.processEvents([ev('small'), ev('req', { level: 'Request', requestObject: big }), ev('meta', { level: 'Metadata', userAgent: 'x'.repeat(800) })]), true);
    assert.deepEqual(rec.map((b) => b.map((e) => e.auditID)), [['small'], ['req']]);
    const truncated = rec[1]![0]!;
    assert.equal(truncated.requestObject, undefined);
    assert.equal(truncated.annotations?.[TRUNCATED_ANNOTATION], 'true');
    assert.equal(await counter('apiserver_audit_error_total', '{plugin="truncate"}'), before + 1);
    assert.match(logged[0]!, /event is too large even after truncating/);
  });

  it('a union succeeds only when every backend did', async () => {
    assert.equal(await union([new Recorder(), new Recorder(() => Promise.resolve(false))]).processEvents([ev('1')]), false);
    assert.equal(await union([new Recorder(), new Recorder(() => Promise.resolve(true))]).processEvents([ev('1')]), true);
    assert.equal(union([new Recorder(), new Recorder(() => false)]).processEvents([ev('1')]), false);
  });
});
