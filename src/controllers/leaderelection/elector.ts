// A candidate in a leader election (client-go tools/leaderelection):
//
//   run() ─► acquire: try every retryPeriod × (1 + rand·1.2) ──ok──► "<id> became leader" Event
//              │ stop()                                                │ onStartedLeading
//              ▼                                                       ▼
//           return ◄── onStoppedLeading ◄── release (ReleaseOnCancel) ◄── renew: every retryPeriod,
//                                                                         each round retried until
//                                                                         renewDeadline; a round that
//                                                                         fails → leadership lost
//
// tryAcquireOrRenew: the leader first updates optimistically from the record
// it observed; otherwise it reads the lock (creating it when missing). A
// record held by another identity is respected until leaseDuration has passed
// since this candidate *observed* it change (its own clock, never the
// holder's timestamps); then it is taken with leaderTransitions + 1. Release
// writes holderIdentity '' and leaseDurationSeconds 1 so the next candidate
// need not wait.
import { JITTER_FACTOR, validateTiming } from './config.js';
import type { ResourceLock } from './leaselock.js';
import type { LeaderElectionRecord } from './record.js';
import { rawRecord } from './record.js';
import { isReason } from '../informer.js';

export interface LeaderCallbacks {
  onStartedLeading(): void | Promise<void>;
  onStoppedLeading(): void | Promise<void>;
  /** A new holder was observed (this candidate or another). */
  onNewLeader?(identity: string): void;
}

export interface ElectorOptions {
  readonly lock: ResourceLock;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
  readonly releaseOnCancel: boolean;
  readonly callbacks: LeaderCallbacks;
  /** The clock (tests). */
  readonly now?: () => number;
  /** Logs a line (default console.error). */
  readonly log?: (line: string) => void;
}

const EMPTY: LeaderElectionRecord = { holderIdentity: '', leaseDurationSeconds: 0, acquireTime: 0, renewTime: 0, leaderTransitions: 0 };

export class LeaderElector {
  private observed: LeaderElectionRecord = EMPTY;
  private observedRaw = '';
  private observedTime = 0;
  private reportedLeader = '';
  private readonly abort = new AbortController();
  private readonly now: () => number;
  private readonly log: (line: string) => void;
  private running: Promise<void> | undefined;

  constructor(private readonly o: ElectorOptions) {
    validateTiming(o);
    if (!o.lock.identity) throw new Error('Lock identity is empty');
    this.now = o.now ?? Date.now;
    this.log = o.log ?? ((l) => console.error(l));
  }

  get identity(): string {
    return this.o.lock.identity;
  }

  /** Whether the last record this candidate observed names it. */
  isLeader(): boolean {
    return this.observed.holderIdentity === this.o.lock.identity;
  }

  /** The holder this candidate last observed ('' when none). */
  getLeader(): string {
    return this.observed.holderIdentity;
  }

  /** Campaigns until leading, leads until the lease is lost or stop() is called; resolves after onStoppedLeading. */
  run(): Promise<void> {
    this.running ??= this.campaign();
    return this.running;
  }

  /** Stops campaigning or leading (releasing the lock when configured); resolves when run() has finished. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  private async campaign(): Promise<void> {
    try {
      if (!(await this.acquire())) return;
      await this.o.callbacks.onStartedLeading();
      await this.renew();
      if (this.o.releaseOnCancel) await this.release();
    } finally {
      await this.o.callbacks.onStoppedLeading();
    }
  }

  private async acquire(): Promise<boolean> {
    this.log(`attempting to acquire leader lease ${this.o.lock.describe()}...`);
    while (!this.abort.signal.aborted) {
      const ok = await this.tryAcquireOrRenew();
      this.reportTransition();
      if (ok) {
        this.o.lock.recordEvent('became leader');
        this.log(`successfully acquired lease ${this.o.lock.describe()}`);
        return true;
      }
      await this.sleep(this.o.retryPeriodMs * (1 + Math.random() * JITTER_FACTOR));
    }
    return false;
  }

  /** Renews every retryPeriod while leading; returns when a renewal round failed (lost) or on stop(). */
  private async renew(): Promise<void> {
    while (!this.abort.signal.aborted) {
      const deadline = this.now() + this.o.renewDeadlineMs;
      let ok = false;
      while (!this.abort.signal.aborted) {
        ok = await this.withDeadline(this.tryAcquireOrRenew(), deadline);
        if (ok || this.now() + this.o.retryPeriodMs > deadline) break;
        await this.sleep(this.o.retryPeriodMs);
      }
      this.reportTransition();
      if (this.abort.signal.aborted) return;
      if (!ok) {
        this.log(`failed to renew lease ${this.o.lock.describe()}: timed out waiting for the condition`);
        return;
      }
      await this.sleep(this.o.retryPeriodMs);
    }
  }

  /** One attempt; true when this candidate holds the lock afterwards. */
  async tryAcquireOrRenew(): Promise<boolean> {
    const now = this.now();
    const desired: LeaderElectionRecord = {
      holderIdentity: this.o.lock.identity, leaseDurationSeconds: Math.floor(this.o.leaseDurationMs / 1000),
      renewTime: now, acquireTime: now, leaderTransitions: 0,
    };
    // 1. The leader's fast path: update from what it observed last.
    if (this.isLeader() && this.isLeaseValid(now)) {
      const record = { ...desired, acquireTime: this.observed.acquireTime, leaderTransitions: this.observed.leaderTransitions };
      try {
        await this.o.lock.update(record);
        this.setObserved(record, now);
        return true;
      } catch {
        // fall back to the slow path
      }
    }
    // 2. Read the lock, creating it when missing.
    let current: { record: LeaderElectionRecord; raw: string } | undefined;
    try {
      current = await this.o.lock.get();
    } catch (err) {
      this.log(`error retrieving lease lock ${this.o.lock.describe()}: ${(err as Error).message}`);
      return false;
    }
    if (!current) {
      try {
        await this.o.lock.create(desired);
      } catch (err) {
        this.log(`error initially creating lease lock ${this.o.lock.describe()}: ${(err as Error).message}`);
        return false;
      }
      this.setObserved(desired, now);
      return true;
    }
    // 3. A record changed since it was last seen restarts the clock on it.
    if (current.raw !== this.observedRaw) this.setObserved(current.record, now, current.raw);
    if (current.record.holderIdentity !== '' && this.isLeaseValid(now) && !this.isLeader()) return false;
    // 4. Take it (or renew it the slow way).
    const record = this.isLeader()
      ? { ...desired, acquireTime: current.record.acquireTime, leaderTransitions: current.record.leaderTransitions }
      : { ...desired, leaderTransitions: current.record.leaderTransitions + 1 };
    try {
      await this.o.lock.update(record);
    } catch (err) {
      if (!isReason(err, 'Conflict')) this.log(`failed to update lease ${this.o.lock.describe()}: ${(err as Error).message}`);
      return false;
    }
    this.setObserved(record, now);
    return true;
  }

  /** Gives the lock up: holder '' and a one-second lease, keeping the transitions count. */
  private async release(): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      let current: { record: LeaderElectionRecord } | undefined;
      try {
        current = await this.o.lock.get();
      } catch (err) {
        this.log(`error retrieving resource lock ${this.o.lock.describe()}: ${(err as Error).message}`);
        return;
      }
      if (!current) return;
      // Someone else took it since (seen afresh): nothing of ours to release.
      if (current.record.holderIdentity !== this.o.lock.identity) return;
      const now = this.now();
      const record: LeaderElectionRecord = { holderIdentity: '', leaseDurationSeconds: 1, renewTime: now, acquireTime: now, leaderTransitions: current.record.leaderTransitions };
      try {
        await this.o.lock.update(record);
        this.setObserved(record, now);
        return;
      } catch (err) {
        if (!isReason(err, 'Conflict')) {
          this.log(`failed to release lease ${this.o.lock.describe()}: ${(err as Error).message}`);
          return;
        }
      }
    }
  }

  private isLeaseValid(now: number): boolean {
    return this.observedTime + this.observed.leaseDurationSeconds * 1000 > now;
  }

  private setObserved(r: LeaderElectionRecord, now: number, raw = rawRecord(r)): void {
    this.observed = r;
    this.observedRaw = raw;
    this.observedTime = now;
  }

  private reportTransition(): void {
    const holder = this.observed.holderIdentity;
    if (holder === this.reportedLeader) return;
    this.reportedLeader = holder;
    if (holder) {
      this.log(`new leader elected for ${this.o.lock.describe()}: ${holder}`);
      this.o.callbacks.onNewLeader?.(holder);
    }
  }

  /** The attempt's answer, or false once the deadline passes first (the attempt may still finish). */
  private withDeadline(attempt: Promise<boolean>, deadline: number): Promise<boolean> {
    const left = deadline - this.now();
    if (left <= 0) return attempt.then(() => false);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), left)));
    return Promise.race([attempt, late]).finally(() => clearTimeout(timer));
  }

  private sleep(ms: number): Promise<void> {
    const signal = this.abort.signal;
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done);
    });
  }
}
