import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newConflict } from '../../api/meta/index.js';
import { LeaderElectionConfigError, newIdentity, validateTiming } from './config.js';
import { LeaderElector, type ElectorOptions } from './elector.js';
import type { ResourceLock } from './leaselock.js';
import { leaseSpec, microTime, rawRecord, recordFromLease, type LeaderElectionRecord } from './record.js';

/** The lock object in "storage": a record and a resourceVersion. */
class Stored {
  record: LeaderElectionRecord | undefined;
  rv = 0;
  down = false;
  writes: LeaderElectionRecord[] = [];
}

/** One candidate's view of it: updates are compare-and-swap on the version it last read or wrote. */
class MemoryLock implements ResourceLock {
  private seen = -1;
  events: string[] = [];
  constructor(private readonly s: Stored, readonly identity: string) {}
  async get() {
    if (this.s.down) throw new Error('connection refused');
    if (!this.s.record) return undefined;
    this.seen = this.s.rv;
    return { record: this.s.record, raw: rawRecord(this.s.record) };
  }
  async create(r: LeaderElectionRecord) {
    if (this.s.down) throw new Error('connection refused');
    if (this.s.record) throw new Error('already exists');
    this.write(r);
  }
  async update(r: LeaderElectionRecord) {
    if (this.s.down) throw new Error('connection refused');
    if (this.seen !== this.s.rv) throw newConflict({ group: 'coordination.svc.io', resource: 'leases' }, 'l', 'the object has been modified; please apply your changes to the latest version and try again');
    this.write(r);
  }
  private write(r: LeaderElectionRecord) {
    this.s.record = r;
    this.s.writes.push(r);
    this.seen = ++this.s.rv;
  }
  recordEvent(m: string) {
    this.events.push(`${this.identity} ${m}`);
  }
  describe() {
    return 'svc-system/test';
  }
}

const quiet = () => {};
const noCallbacks = { onStartedLeading: () => {}, onStoppedLeading: () => {} };

function elector(lock: ResourceLock, clock: { t: number }, over: Partial<ElectorOptions> = {}): LeaderElector {
  return new LeaderElector({
    lock, leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000, releaseOnCancel: true,
    callbacks: noCallbacks, now: () => clock.t, log: quiet, ...over,
  });
}

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(cond(), 'condition not met');
}

describe('leader election: tryAcquireOrRenew', () => {
  it('creates the missing lock as holder, with kube\'s record', async () => {
    const s = new Stored();
    const clock = { t: 1_000_000 };
    const a = elector(new MemoryLock(s, 'a'), clock);
    assert.equal(await a.tryAcquireOrRenew(), true);
    assert.equal(a.isLeader(), true);
    assert.deepEqual(s.record, { holderIdentity: 'a', leaseDurationSeconds: 15, acquireTime: 1_000_000, renewTime: 1_000_000, leaderTransitions: 0 });
  });

  const table: { name: string; steps: [who: 'a' | 'b', atMs: number, want: boolean][]; holder: string; transitions: number }[] = [
    { name: 'another candidate waits while the lease is valid', steps: [['a', 0, true], ['b', 1_000, false], ['b', 14_000, false]], holder: 'a', transitions: 0 },
    {
      name: 'the lease counts from when b observed the record change, not from its renewTime',
      steps: [['a', 0, true], ['b', 10_000, false], ['b', 24_000, false], ['b', 25_001, true]], holder: 'b', transitions: 1,
    },
    { name: 'the leader renews, keeping acquireTime and transitions', steps: [['a', 0, true], ['a', 2_000, true], ['a', 4_000, true], ['b', 18_000, false]], holder: 'a', transitions: 0 },
    { name: 'a holder that stopped renewing is replaced once leaseDuration passed', steps: [['a', 0, true], ['b', 1, false], ['b', 15_002, true], ['a', 15_003, false]], holder: 'b', transitions: 1 },
    { name: 'taken back and forth: each take counts', steps: [['a', 0, true], ['b', 1, false], ['b', 16_000, true], ['a', 16_001, false], ['a', 32_000, true]], holder: 'a', transitions: 2 },
  ];
  for (const c of table) {
    it(c.name, async () => {
      const s = new Stored();
      const clock = { t: 0 };
      const ids = { a: elector(new MemoryLock(s, 'a'), clock), b: elector(new MemoryLock(s, 'b'), clock) };
      for (const [who, at, want] of c.steps) {
        clock.t = at;
        assert.equal(await ids[who].tryAcquireOrRenew(), want, `${who} at ${at}`);
      }
      assert.equal(s.record!.holderIdentity, c.holder);
      assert.equal(s.record!.leaderTransitions, c.transitions);
    });
  }

  it('renewal keeps acquireTime; a take sets a new one', async () => {
    const s = new Stored();
    const clock = { t: 5_000 };
    const a = elector(new MemoryLock(s, 'a'), clock);
    const b = elector(new MemoryLock(s, 'b'), clock);
    await a.tryAcquireOrRenew();
    clock.t = 7_000;
    await a.tryAcquireOrRenew();
    assert.equal(s.record!.acquireTime, 5_000);
    assert.equal(s.record!.renewTime, 7_000);
    await b.tryAcquireOrRenew();
    clock.t = 30_000;
    assert.equal(await b.tryAcquireOrRenew(), true);
    assert.equal(s.record!.acquireTime, 30_000);
  });

  it('a stale view loses the compare-and-swap: two candidates racing for an expired lock, one wins', async () => {
    const s = new Stored();
    s.record = { holderIdentity: 'old', leaseDurationSeconds: 15, acquireTime: 0, renewTime: 0, leaderTransitions: 4 };
    const clock = { t: 0 };
    const a = new MemoryLock(s, 'a');
    const b = new MemoryLock(s, 'b');
    const ea = elector(a, clock);
    const eb = elector(b, clock);
    await ea.tryAcquireOrRenew();
    await eb.tryAcquireOrRenew();
    clock.t = 20_000;
    // Both read the expired record, then both write: the second write is based on a stale read.
    const got = [await a.get(), await b.get()];
    assert.ok(got.every((g) => g?.record.holderIdentity === 'old'));
    const results = await Promise.all([ea.tryAcquireOrRenew(), eb.tryAcquireOrRenew()]);
    assert.equal(results.filter(Boolean).length, 1);
    assert.equal(s.record!.leaderTransitions, 5);
  });

  it('storage errors are a failed attempt, not a throw', async () => {
    const s = new Stored();
    s.down = true;
    const a = elector(new MemoryLock(s, 'a'), { t: 0 });
    assert.equal(await a.tryAcquireOrRenew(), false);
  });
});

describe('leader election: run', () => {
  // Leases are whole seconds (leaseDurationSeconds): the shortest that can be written.
  const fast = { leaseDurationMs: 1_000, renewDeadlineMs: 600, retryPeriodMs: 50 };

  it('leads, emits "<id> became leader", renews; stop() releases (holder \'\', 1 s) and the other takes over', async (t) => {
    const s = new Stored();
    const log: string[] = [];
    const cb = (id: string) => ({ onStartedLeading: () => void log.push(`${id} started`), onStoppedLeading: () => void log.push(`${id} stopped`) });
    const la = new MemoryLock(s, 'a');
    const a = new LeaderElector({ lock: la, ...fast, releaseOnCancel: true, callbacks: cb('a'), log: quiet });
    void a.run();
    await until(() => log.includes('a started'));
    assert.deepEqual(la.events, ['a became leader']);
    const lb = new MemoryLock(s, 'b');
    const b = new LeaderElector({ lock: lb, ...fast, releaseOnCancel: true, callbacks: cb('b'), log: quiet });
    t.after(() => Promise.all([a.stop(), b.stop()]));
    void b.run();
    await until(() => s.writes.length >= 6); // a renews meanwhile
    assert.equal(s.record!.holderIdentity, 'a');
    assert.ok(!log.includes('b started'));
    await a.stop();
    assert.ok(s.writes.some((w) => w.holderIdentity === '' && w.leaseDurationSeconds === 1 && w.leaderTransitions === 0), 'released');
    assert.deepEqual(log.slice(0, 2), ['a started', 'a stopped']);
    await until(() => log.includes('b started'));
    assert.equal(s.record!.holderIdentity, 'b');
    assert.equal(s.record!.leaderTransitions, 1);
    assert.deepEqual(lb.events, ['b became leader']);
    await b.stop();
    assert.deepEqual(log, ['a started', 'a stopped', 'b started', 'b stopped']);
  });

  it('a leader that cannot renew within renewDeadline stops leading (run resolves)', async () => {
    const s = new Stored();
    const log: string[] = [];
    const a = new LeaderElector({
      lock: new MemoryLock(s, 'a'), ...fast, releaseOnCancel: true, log: quiet,
      callbacks: { onStartedLeading: () => void log.push('started'), onStoppedLeading: () => void log.push('stopped') },
    });
    const done = a.run();
    await until(() => log.includes('started'));
    s.down = true;
    await done;
    assert.deepEqual(log, ['started', 'stopped']);
  });

  it('someone else overwriting the lock ends leadership', async () => {
    const s = new Stored();
    const log: string[] = [];
    const a = new LeaderElector({
      lock: new MemoryLock(s, 'a'), ...fast, releaseOnCancel: true, log: quiet,
      callbacks: { onStartedLeading: () => void log.push('started'), onStoppedLeading: () => void log.push('stopped') },
    });
    const done = a.run();
    await until(() => log.includes('started'));
    s.record = { holderIdentity: 'intruder', leaseDurationSeconds: 60, acquireTime: Date.now(), renewTime: Date.now(), leaderTransitions: 9 };
    s.rv++;
    await done;
    assert.equal(s.record.holderIdentity, 'intruder', 'not released: it is not ours');
    assert.deepEqual(log, ['started', 'stopped']);
  });
});

describe('leader election configuration and records', () => {
  const cases: [string, { leaseDurationMs: number; renewDeadlineMs: number; retryPeriodMs: number }, string | undefined][] = [
    ['kube\'s defaults', { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 }, undefined],
    ['lease not longer than renew', { leaseDurationMs: 10_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 }, 'leaseDuration must be greater than renewDeadline'],
    ['renew within jittered retry', { leaseDurationMs: 15_000, renewDeadlineMs: 2_400, retryPeriodMs: 2_000 }, 'renewDeadline must be greater than retryPeriod*JitterFactor'],
    ['zero retry', { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 0 }, 'retryPeriod must be greater than zero'],
  ];
  for (const [name, c, want] of cases) {
    it(name, () => {
      if (want === undefined) validateTiming(c);
      else assert.throws(() => validateTiming(c), (e: Error) => e instanceof LeaderElectionConfigError && e.message === want);
    });
  }

  it('identity is <hostname>_<uuid>, new each time', () => {
    assert.match(newIdentity('node-1'), /^node-1_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.notEqual(newIdentity('x'), newIdentity('x'));
  });

  it('a record as a LeaseSpec (MicroTime) and back; absent fields read as zero', () => {
    const r = { holderIdentity: 'h', leaseDurationSeconds: 15, acquireTime: Date.UTC(2026, 0, 2, 3, 4, 5, 678), renewTime: Date.UTC(2026, 0, 2, 3, 4, 6), leaderTransitions: 2 };
    assert.deepEqual(leaseSpec(r), { holderIdentity: 'h', leaseDurationSeconds: 15, acquireTime: '2026-01-02T03:04:05.678000Z', renewTime: '2026-01-02T03:04:06.000000Z', leaseTransitions: 2 });
    assert.deepEqual(recordFromLease({ metadata: { name: 'l' }, spec: leaseSpec(r) }), r);
    assert.deepEqual(recordFromLease({ metadata: { name: 'l' } }), { holderIdentity: '', leaseDurationSeconds: 0, acquireTime: 0, renewTime: 0, leaderTransitions: 0 });
    assert.equal(microTime(0), '1970-01-01T00:00:00.000000Z');
  });
});
