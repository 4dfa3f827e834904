// The log backend writing a real rotating file: the events of one event-loop
// turn go out in one write, in the order they came; size rotation cuts between
// events of one write, never inside one (json and legacy); a line too long for
// the file is refused alone; the blocking-strict mode fails exactly the
// requests whose events a failed write held.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { tempDir } from '../testing/tempdir.js';
import { configureMetrics } from '../metrics/registry.js';
import { ignoreErrors } from './backend.js';
import { eventJSON, eventString } from './encode.js';
import { LogBackend, type LineWriter, type LogFormat } from './logbackend.js';
import { oldLogFiles, RotatingFile } from './logfile.js';
import { setPluginErrorLog } from './metrics.js';
import type { AuditEvent } from './types.js';
import { PolicyEvaluator } from './checker.js';
import { parsePolicy } from './policy.js';
import { enableAuditHooks } from './record.js';
import { withAudit } from '../server/filters/audit.js';
import { withRecovery } from '../server/filters/recovery.js';
import { withRequestInfo } from '../server/filters/requestinfo.js';
import { writeObject } from '../server/respond.js';
import type { Handler } from '../server/context.js';
import { fakeContext } from '../testing/fakecontext.js';

const MB = 1024 * 1024;

const ev = (id: string, o: Partial<AuditEvent> = {}): AuditEvent => ({
  level: 'Metadata', auditID: id, stage: 'ResponseComplete', requestURI: `/api/v1/namespaces/ns/configmaps/${id}`, verb: 'get', user: { username: 'u', groups: ['g'] },
  sourceIPs: ['10.0.0.1'], userAgent: 'kubectl/v1.27.3', requestReceivedTimestamp: 1.7e15, stageTimestamp: 1.7e15 + 5, ...o,
});

/** A rotating file whose writes are counted. */
function countedFile(file: string, opts: ConstructorParameters<typeof RotatingFile>[1] = {}) {
  const f = new RotatingFile(file, opts);
  const writes: number[] = []; // lines per write
  const out = {
    get maxLine() { return f.maxLine; },
    writeChunk(bytes: Buffer, ends: readonly number[]) {
      writes.push(ends.length);
      f.writeChunk(bytes, ends);
    },
    close: () => f.close(),
  };
  return { f, out, writes };
}

/** The current file then its backups, oldest first: the lines in the order they were written. */
function allLines(file: string): string[][] {
  const dir = join(file, '..');
  const files = [...oldLogFiles(file).reverse().map((b) => join(dir, b.name)), file];
  return files.map((p) => readFileSync(p, 'utf8').split(/(?<=\n)/).filter((l) => l !== ''));
}

const line = (format: LogFormat, e: AuditEvent) => `${format === 'legacy' ? eventString(e) : eventJSON(e)}\n`;

let logged: string[] = [];
beforeEach(() => {
  configureMetrics();
  logged = [];
  setPluginErrorLog((t) => logged.push(t));
});

describe('the log backend on a real file', () => {
  it('the events of one turn go out in one write, in their order; the next turn in the next write', async () => {
    const file = join(tempDir('svc-audit-log-'), 'audit.log');
    const { out, writes } = countedFile(file);
    const b = new LogBackend(out, 'json');
    const first = Array.from({ length: 50 }, (_, i) => ev(`a${i}`));
    const answers = first.map((e) => b.processEvents([e]));
    assert.equal(writes.length, 0, 'nothing written before the turn ends');
    assert.deepEqual(await Promise.all(answers), first.map(() => true));
    const second = Array.from({ length: 7 }, (_, i) => ev(`b${i}`));
    await Promise.all(second.map((e) => b.processEvents([e])));
    await b.shutdown();
    assert.deepEqual(writes, [50, 7]);
    assert.equal(readFileSync(file, 'utf8'), [...first, ...second].map((e) => line('json', e)).join(''));
  });

  for (const format of ['json', 'legacy'] as const) {
    it(`${format}: rotation cuts between the events of one write, never inside one`, async () => {
      const file = join(tempDir('svc-audit-log-'), 'audit.log');
      let now = Date.UTC(2026, 0, 1);
      const { out, writes } = countedFile(file, { maxSize: 1, now: () => (now += 1000) });
      const b = new LogBackend(out, format);
      // ≈ 0.3 MB per line (a long user agent shows in both formats): three fit in 1 MB, the fourth starts a new file
      const big = (id: string) => ev(id, { userAgent: id.repeat(Math.floor((0.3 * MB) / id.length)) });
      const events = ['e0', 'e1', 'e2', 'e3', 'e4', 'e5', 'e6'].map(big);
      assert.deepEqual(await Promise.all(events.map((e) => b.processEvents([e]))), events.map(() => true));
      await b.shutdown();
      assert.deepEqual(writes, [7], 'one write for the turn');
      const files = allLines(file);
      assert.deepEqual(files.map((ls) => ls.length), [3, 3, 1]);
      assert.deepEqual(files.flat(), events.map((e) => line(format, e)), 'every line whole, in order');
      for (const ls of files) assert.ok(ls.reduce((n, l) => n + Buffer.byteLength(l), 0) <= MB);
    });
  }

  it('a line longer than maxsize is refused alone: its caller gets false, the turn\'s other lines are written', async () => {
    const file = join(tempDir('svc-audit-log-'), 'audit.log');
    const { out, writes } = countedFile(file, { maxSize: 1 });
    const b = new LogBackend(out, 'json');
    const small = [ev('s0'), ev('s1')];
    const huge = ev('huge', { userAgent: 'x'.repeat(MB) });
    const answers = [b.processEvents([small[0]!]), b.processEvents([huge]), b.processEvents([small[1]!])];
    assert.deepEqual(await Promise.all(answers), [true, false, true]);
    // a call holding a refused event and a written one: false once the other is written
    const mixed = b.processEvents([ev('s2'), huge]);
    assert.equal(await mixed, false);
    await b.shutdown();
    assert.deepEqual(writes, [2, 1]);
    assert.equal(readFileSync(file, 'utf8'), [small[0]!, small[1]!, ev('s2')].map((e) => line('json', e)).join(''));
    assert.equal(logged.length, 2);
    assert.match(logged[0]!, new RegExp(`^Error in audit plugin 'log' affecting 1 audit events: write length ${line('json', huge).length} exceeds maximum file size ${MB}\\nImpacted events:\\n.*id="huge"`));
    // blocking mode: the refusal does not reach the request
    assert.equal(await ignoreErrors(new LogBackend(out, 'json')).processEvents([huge]), true);
  });

  it('the blocking mode hands the events of one write a single shared answer', async () => {
    const file = join(tempDir('svc-audit-log-'), 'audit.log');
    const b = ignoreErrors(new LogBackend(countedFile(file).out, 'json'));
    const a1 = b.processEvents([ev('1')]);
    const a2 = b.processEvents([ev('2')]);
    assert.equal(a1, a2);
    assert.equal(await a1, true);
    const a3 = b.processEvents([ev('3')]);
    assert.notEqual(a3, a1, 'the next write has its own');
    assert.equal(await a3, true);
    await b.shutdown();
  });
});


describe('blocking-strict through the audit filter', () => {
  it('a failed write fails exactly the requests whose RequestReceived it held', async () => {
    enableAuditHooks();
    let writes = 0;
    const written: string[] = [];
    // the first and third writes fail
    const flaky: LineWriter = {
      writeChunk(bytes) {
        if (++writes % 2 === 1) throw new Error('EIO');
        written.push(bytes.toString());
      },
    };
    const reached: string[] = [];
    const handler: Handler = async (ctx) => {
      reached.push(ctx.req.url!);
      writeObject(ctx, 200, {});
    };
    const policy = new PolicyEvaluator(parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n'));
    const h = withRecovery(withRequestInfo(withAudit(handler, { backend: new LogBackend(flaky, 'json'), policy })));
    const [a, b, c] = ['a', 'b', 'c'].map((n) => fakeContext('GET', `/api/v1/namespaces/ns/pods/${n}`, {}, '10.0.0.9'));
    // a and b in one turn: their RequestReceived share the first write
    await Promise.all([h(a!), h(b!)]);
    // c later: its RequestReceived is in the second write, its ResponseComplete in the third (which fails: the answer stands)
    await h(c!);
    // an answered request does not wait for its ResponseComplete: it goes out at the end of the turn
    await new Promise((r) => setImmediate(r));
    assert.deepEqual([a, b, c].map((x) => x!.out().status), [500, 500, 200]);
    assert.deepEqual(reached, ['/api/v1/namespaces/ns/pods/c']);
    assert.equal(writes, 3);
    const lines = written.map((t) => t.split('\n').filter(Boolean).map((l) => [JSON.parse(l).requestURI, JSON.parse(l).stage]));
    assert.deepEqual(lines, [[['/api/v1/namespaces/ns/pods/c', 'RequestReceived']]]);
    assert.equal(logged.length, 2, 'each failed write logged once');
  });
});
