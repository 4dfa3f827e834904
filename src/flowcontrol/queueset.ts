// One priority level's queues (kube's fairqueuing/queueset, v1.27): fair
// queuing in virtual time with seats.
//
//   arrive ─▶ shuffle-shard onto the shortest queue of the flow's hand
//            ├─ no seat free and that queue full ─▶ reject "queue-full"
//            └─ enqueue ─▶ dispatch as much as possible ─▶ executing (holds max(initial, final) seats)
//   waiting past the deadline ─▶ reject "time-out"; the client gone ─▶ "cancelled"
//   handler done ─▶ (final seats held for the additional latency) ─▶ seats released ─▶ dispatch
//
// Virtual time R (seat-seconds) advances at min(seats wanted, limit) / active
// queues per real second. Each request's work is initialSeats × G (the
// estimated service time, 3 s) + finalSeats × additional latency; a queue's
// next dispatch R grows by the work of each request it dispatches and is
// corrected by (G − actual) × initialSeats when the request finishes.
// Dispatch picks, round-robin from the last pick, the queue whose oldest
// request would finish first in virtual time, if the seats it needs are free.
// A level without queuing (limitResponse Reject) runs what fits and rejects
// the rest ("concurrency-limit").
//
// Metrics (LevelMetrics, flowcontrol/metrics.ts) are told of each change, as
// kube's queue set tells them: requests waiting and executing (initial stage)
// over the queues' capacity and the limit, seats in use over the limit, seat
// demand; a dispatch the seats cannot accommodate; an epoch advance: when R
// reaches kube's highR (¾ of the largest R its fixed point holds), R and every
// reading of it are wound back by half that range, so R stays where a double
// keeps sub-millisecond precision.
import type { Clock } from './clock.js';
import type { RequestInfo } from '../endpoints/requestinfo.js';
import { deal } from './dealer.js';
import { hashFlowID } from './classify.js';
import { DemandIntegrator } from './integrator.js';
import { NO_LEVEL_METRICS, type LevelMetrics } from './metrics.js';

export interface WorkEstimate {
  readonly initialSeats: number;
  readonly finalSeats: number;
  readonly additionalLatencyMs: number;
}

export interface QueuingConfig {
  readonly queues: number;
  readonly handSize: number;
  readonly queueLengthLimit: number;
}

export type RejectReason = 'queue-full' | 'concurrency-limit' | 'time-out' | 'cancelled';

/** The estimated service time G of kube's queueset. */
export const ESTIMATED_SERVICE_SECONDS = 3;
/** kube's SeatSeconds range (a uint64 of 1e-8 seat-seconds), the epoch's wind-back and the R that triggers it. */
const MAX_SEAT_SECONDS = 2 ** 64 / 1e8;
export const R_DECREMENT = MAX_SEAT_SECONDS / 2;
export const HIGH_R = R_DECREMENT + R_DECREMENT / 2;
const HAND_CACHE_LIMIT = 10_000;

export interface NewRequest {
  readonly flowSchema: string;
  readonly distinguisher: string;
  readonly estimate: WorkEstimate;
  /** How long it may wait in a queue (ms). */
  readonly maxWaitMs: number;
  /** For dump_requests?includeRequestDetails: who asks and what. */
  readonly user?: string;
  readonly info?: RequestInfo;
}

export interface Ticket {
  /** The handler is done: the initial seats are given back (the final ones after the additional latency). */
  finish(): void;
  /** How long it waited in a queue (ms). */
  readonly waitedMs: number;
}

export type Started =
  | { readonly kind: 'execute'; readonly ticket: Ticket }
  | { readonly kind: 'reject'; readonly reason: RejectReason };

export type StartResult = Started | { readonly kind: 'wait'; readonly result: Promise<Started>; cancel(): void };

interface Req {
  readonly input: NewRequest;
  readonly maxSeats: number;
  readonly work: number;
  arrivalR: number;
  readonly arrivedAt: number;
  readonly arrivedWall: number;
  readonly hash: bigint;
  queue: Queue | undefined;
  startedAt: number;
  settle?: (s: Started) => void;
  cancelTimer?: () => void;
}

class Queue {
  readonly waiting: Req[] = [];
  nextDispatchR = 0;
  executing = 0;
  seatsInUse = 0;
  waitingWork = 0;
  constructor(readonly index: number) {}
  get active(): boolean {
    return this.waiting.length > 0 || this.executing > 0;
  }
}

export interface QueueDump {
  readonly index: number;
  readonly pendingRequests: number;
  readonly nextDispatchR: number;
  readonly executingRequests: number;
  readonly seatsInUse: number;
  /** Sums over the waiting requests. */
  readonly initialSeatsSum: number;
  readonly maxSeatsSum: number;
  readonly totalWorkSum: number;
}

export interface RequestDump {
  readonly flowSchema: string;
  readonly distinguisher: string;
  readonly queue: number;
  readonly indexInQueue: number;
  readonly initialSeats: number;
  readonly finalSeats: number;
  readonly additionalLatencyMs: number;
  readonly arrivedWall: number;
  readonly user: string;
  readonly info: RequestInfo | undefined;
}

/** kube's SetDispatchMetrics, at the last dispatch from a queue: R, the request's S, and over the queues with a waiting request, their next S (less the work in progress). */
export interface LastDispatch {
  seen: boolean;
  r: number;
  s: number;
  sMin: number;
  sMax: number;
  dsMin: number;
  dsMax: number;
}

export class QueueSet {
  readonly lastDispatch: LastDispatch = { seen: false, r: 0, s: 0, sMin: 0, sMax: 0, dsMin: 0, dsMax: 0 };
  private queues: Queue[] = [];
  private hands = new Map<string, { hash: bigint; hand: number[] }>();
  private robin = -1;
  private currentR = 0;
  private lastRealMs: number;
  private activeQueues = 0;
  totWaiting = 0;
  totSeatsWaiting = 0;
  totExecuting = 0;
  totSeatsInUse = 0;
  /** Executing requests past their initial stage (holding final seats for the additional latency). */
  private totFinalStage = 0;
  private lastQueueLengthLimit = 0;
  readonly demand: DemandIntegrator;

  constructor(readonly name: string, private readonly clock: Clock, private limit: number, private queuing: QueuingConfig | undefined,
    private readonly metrics: LevelMetrics = NO_LEVEL_METRICS) {
    this.lastRealMs = clock.now();
    this.demand = new DemandIntegrator(clock);
    this.queues = this.makeQueues();
    this.setDenominators();
  }

  /** kube's setConfiguration: waiting over the queues' capacity, executing and seats over the limit (at least 1 here: 0 would make NaN). */
  private setDenominators(): void {
    const q = this.queuing;
    if (q) this.lastQueueLengthLimit = q.queueLengthLimit;
    const qll = Math.max(1, this.lastQueueLengthLimit);
    this.metrics.waiting.setDenominator(q ? qll * q.queues : qll);
    this.metrics.executing.setDenominator(Math.max(1, this.limit));
    this.metrics.seats.setDenominator(Math.max(1, this.limit));
  }

  /** The level's nominal limit: demand_seats' denominator. */
  setNominalLimit(nominalCL: number): void {
    this.metrics.demand.setDenominator(Math.max(1, nominalCL));
  }

  /** Seat demand changed: the borrowing integrator and demand_seats. (Every change follows syncTime: lastRealMs is now.) */
  private noteDemand(): void {
    const d = this.totSeatsInUse + this.totSeatsWaiting;
    this.demand.set(d, this.lastRealMs);
    this.metrics.demand.set(d, this.lastRealMs);
  }

  get concurrencyLimit(): number {
    return this.limit;
  }
  get queuingConfig(): QueuingConfig | undefined {
    return this.queuing;
  }
  get virtualTime(): number {
    return this.currentR;
  }

  private makeQueues(): Queue[] {
    return Array.from({ length: this.queuing?.queues ?? 0 }, (_, i) => new Queue(i));
  }

  /** A new configuration; waiting requests are dealt onto the new queues when their number changes. */
  setConfig(limit: number, queuing: QueuingConfig | undefined): void {
    this.syncTime();
    const reshape = (queuing?.queues ?? 0) !== (this.queuing?.queues ?? 0) || queuing?.handSize !== this.queuing?.handSize;
    this.limit = limit;
    this.queuing = queuing;
    this.setDenominators();
    if (reshape) {
      const waiting = this.queues.flatMap((q) => q.waiting);
      this.queues = this.makeQueues();
      this.hands.clear();
      this.activeQueues = 0;
      this.robin = -1;
      this.totWaiting = 0;
      this.totSeatsWaiting = 0;
      for (const r of waiting) {
        if (!this.queuing) {
          this.settleWaiting(r, { kind: 'reject', reason: 'concurrency-limit' });
          continue;
        }
        const q = this.queues[this.pickQueue(this.flowOf(r.input, r.hash).hand)]!;
        this.addWaiting(q, r);
      }
      this.metrics.waiting.set(this.totWaiting, this.lastRealMs);
    }
    this.dispatchAsMuchAsPossible();
  }

  private syncTime(): void {
    const now = this.clock.now();
    if (this.activeQueues > 0) {
      const ratio = Math.min(this.totSeatsInUse + this.totSeatsWaiting, this.limit) / this.activeQueues;
      this.currentR += ((now - this.lastRealMs) / 1000) * ratio;
      if (this.currentR >= HIGH_R) this.advanceEpoch();
    }
    this.lastRealMs = now;
  }

  /** kube's advanceEpoch: R and the readings taken from it wound back; a reading that would go below 0 (kube's underflow) is a failed advance. */
  private advanceEpoch(): void {
    this.currentR -= R_DECREMENT;
    let success = true;
    for (const q of this.queues) {
      if (!q.active) {
        q.nextDispatchR = 0;
        continue;
      }
      q.nextDispatchR -= R_DECREMENT;
      if (q.nextDispatchR < 0) success = false;
      for (const r of q.waiting) {
        r.arrivalR -= R_DECREMENT;
        if (r.arrivalR < 0) success = false;
      }
    }
    this.metrics.epochAdvance(success);
  }

  /** The flow's hash and hand (cached: hashing and dealing happen once per flow and configuration). */
  private flowOf(input: NewRequest, hash?: bigint): { hash: bigint; hand: number[] } {
    const key = `${input.flowSchema}\0${input.distinguisher}`;
    let h = this.hands.get(key);
    if (!h) {
      if (this.hands.size >= HAND_CACHE_LIMIT) this.hands.clear();
      const value = hash ?? hashFlowID(input.flowSchema, input.distinguisher);
      h = { hash: value, hand: deal(value, this.queuing!.queues, this.queuing!.handSize) };
      this.hands.set(key, h);
    }
    return h;
  }

  /** The queue of the hand with the least waiting work (the first such in dealing order). */
  private pickQueue(hand: readonly number[]): number {
    let best = -1;
    let least = Infinity;
    for (const i of hand) {
      const w = this.queues[i]!.waitingWork;
      if (w < least) {
        least = w;
        best = i;
      }
    }
    return best;
  }

  private setActive(q: Queue, was: boolean): void {
    if (q.active !== was) this.activeQueues += q.active ? 1 : -1;
  }

  private addWaiting(q: Queue, r: Req): void {
    const was = q.active;
    if (!was) q.nextDispatchR = Math.max(q.nextDispatchR, this.currentR);
    r.queue = q;
    q.waiting.push(r);
    q.waitingWork += r.work;
    this.totWaiting++;
    this.totSeatsWaiting += r.maxSeats;
    this.setActive(q, was);
    this.metrics.waiting.set(this.totWaiting, this.lastRealMs);
  }

  private canAccommodate(seats: number): boolean {
    if (seats > this.limit) return this.totExecuting === 0;
    return this.totSeatsInUse + seats <= this.limit;
  }

  start(input: NewRequest): StartResult {
    this.syncTime();
    const e = input.estimate;
    const maxSeats = Math.max(e.initialSeats, e.finalSeats);
    const work = e.initialSeats * ESTIMATED_SERVICE_SECONDS + e.finalSeats * (e.additionalLatencyMs / 1000);
    const now = this.clock.now();
    if (!this.queuing) {
      if (!this.canAccommodate(maxSeats)) return { kind: 'reject', reason: 'concurrency-limit' };
      const r: Req = { input, maxSeats, work, arrivalR: this.currentR, arrivedAt: now, arrivedWall: Date.now(), hash: 0n, queue: undefined, startedAt: now };
      return { kind: 'execute', ticket: this.execute(r) };
    }
    const flow = this.flowOf(input);
    const q = this.queues[this.pickQueue(flow.hand)]!;
    if (this.totSeatsInUse >= this.limit && q.waiting.length >= this.queuing.queueLengthLimit) return { kind: 'reject', reason: 'queue-full' };
    const r: Req = { input, maxSeats, work, arrivalR: this.currentR, arrivedAt: now, arrivedWall: Date.now(), hash: flow.hash, queue: undefined, startedAt: 0 };
    this.addWaiting(q, r);
    this.queueLengthAfterEnqueue = q.waiting.length;
    // the common case, nothing else waiting and a seat free: the scan of every queue would pick this one
    if (this.totWaiting === 1 && this.canAccommodate(maxSeats)) {
      this.robin = q.index;
      const s = Math.max(q.nextDispatchR, r.arrivalR);
      const ds = s - q.seatsInUse * ESTIMATED_SERVICE_SECONDS;
      this.noteDispatch(s, s, s, ds, ds);
      return { kind: 'execute', ticket: this.dispatchHead(q) };
    }
    let started: Started | undefined;
    r.settle = (s) => (started = s);
    this.dispatchAsMuchAsPossible();
    if (started) return started;
    const result = new Promise<Started>((resolve) => (r.settle = resolve));
    r.cancelTimer = this.clock.after(input.maxWaitMs, () => this.removeWaiting(r, 'time-out'));
    return { kind: 'wait', result, cancel: () => this.removeWaiting(r, 'cancelled') };
  }

  /** The length of the queue the last request joined (kube's request_queue_length_after_enqueue). */
  queueLengthAfterEnqueue = 0;

  private removeWaiting(r: Req, reason: RejectReason): void {
    const q = r.queue;
    if (!q) return;
    const i = q.waiting.indexOf(r);
    if (i < 0) return;
    this.syncTime();
    const was = q.active;
    q.waiting.splice(i, 1);
    q.waitingWork -= r.work;
    this.totWaiting--;
    this.totSeatsWaiting -= r.maxSeats;
    this.setActive(q, was);
    this.metrics.waiting.set(this.totWaiting, this.lastRealMs);
    this.noteDemand();
    this.settleWaiting(r, { kind: 'reject', reason });
    // a wide request leaving may let others go
    this.dispatchAsMuchAsPossible();
  }

  private settleWaiting(r: Req, s: Started): void {
    r.cancelTimer?.();
    const settle = r.settle;
    r.settle = undefined;
    settle?.(s);
  }

  private dispatchAsMuchAsPossible(): void {
    // as kube: no attempt (and no no-accommodation) while every seat is taken
    while (this.totWaiting > 0 && this.totSeatsInUse < this.limit) {
      const q = this.selectQueue();
      if (!q) break;
      const r = q.waiting[0]!;
      this.settleWaiting(r, { kind: 'execute', ticket: this.dispatchHead(q) });
    }
    this.noteDemand();
  }

  /** The oldest request of the queue starts executing. */
  private dispatchHead(q: Queue): Ticket {
    const was = q.active;
    const r = q.waiting.shift()!;
    if (q.nextDispatchR < r.arrivalR) q.nextDispatchR = r.arrivalR;
    q.waitingWork -= r.work;
    this.totWaiting--;
    this.totSeatsWaiting -= r.maxSeats;
    q.nextDispatchR += r.work;
    this.setActive(q, was);
    this.metrics.waiting.set(this.totWaiting, this.lastRealMs);
    return this.execute(r);
  }

  private selectQueue(): Queue | undefined {
    const n = this.queues.length;
    let min: Queue | undefined;
    let minFinish = Infinity;
    let minIndex = this.robin;
    let sMin = Infinity, sMax = -Infinity, dsMin = Infinity, dsMax = -Infinity;
    for (let k = 0; k < n; k++) {
      const i = (this.robin + 1 + k) % n;
      const q = this.queues[i]!;
      const head = q.waiting[0];
      if (!head) continue;
      const ds = q.nextDispatchR - q.seatsInUse * ESTIMATED_SERVICE_SECONDS;
      if (q.nextDispatchR < sMin) sMin = q.nextDispatchR;
      if (q.nextDispatchR > sMax) sMax = q.nextDispatchR;
      if (ds < dsMin) dsMin = ds;
      if (ds > dsMax) dsMax = ds;
      const finish = Math.max(q.nextDispatchR, head.arrivalR) + head.work;
      if (finish < minFinish) {
        minFinish = finish;
        min = q;
        minIndex = i;
      }
    }
    if (!min) return undefined;
    if (!this.canAccommodate(min.waiting[0]!.maxSeats)) {
      this.metrics.noAccommodation(min.waiting[0]!.input.flowSchema);
      return undefined;
    }
    this.robin = minIndex;
    if (min.nextDispatchR < min.waiting[0]!.arrivalR) min.nextDispatchR = min.waiting[0]!.arrivalR;
    this.noteDispatch(min.nextDispatchR, sMin, sMax, dsMin, dsMax);
    return min;
  }

  private noteDispatch(s: number, sMin: number, sMax: number, dsMin: number, dsMax: number): void {
    const d = this.lastDispatch;
    d.seen = true;
    d.r = this.currentR;
    d.s = s;
    d.sMin = sMin;
    d.sMax = sMax;
    d.dsMin = dsMin;
    d.dsMax = dsMax;
  }

  private execute(r: Req): Ticket {
    const q = r.queue;
    r.startedAt = this.clock.now();
    const was = q?.active ?? false;
    if (q) {
      q.executing++;
      q.seatsInUse += r.maxSeats;
      this.setActive(q, was);
    }
    this.totExecuting++;
    this.totSeatsInUse += r.maxSeats;
    this.metrics.executing.set(this.totExecuting - this.totFinalStage, this.lastRealMs);
    this.metrics.seats.set(this.totSeatsInUse, this.lastRealMs);
    this.noteDemand();
    let done = false;
    return {
      waitedMs: r.startedAt - r.arrivedAt,
      finish: () => {
        if (done) return;
        done = true;
        this.finishInitial(r);
      },
    };
  }

  private finishInitial(r: Req): void {
    this.syncTime();
    const actual = (this.clock.now() - r.startedAt) / 1000;
    const q = r.queue;
    if (q) {
      q.nextDispatchR -= r.input.estimate.initialSeats * (ESTIMATED_SERVICE_SECONDS - actual);
      const head = q.waiting[0];
      if (head && q.nextDispatchR < head.arrivalR) q.nextDispatchR = head.arrivalR;
    }
    const e = r.input.estimate;
    if (e.additionalLatencyMs > 0 && e.finalSeats > 0) {
      this.totFinalStage++;
      this.metrics.executing.set(this.totExecuting - this.totFinalStage, this.lastRealMs);
      this.clock.after(e.additionalLatencyMs, () => {
        this.totFinalStage--;
        this.release(r);
      });
    } else {
      this.release(r);
    }
  }

  private release(r: Req): void {
    this.syncTime();
    const q = r.queue;
    if (q && this.queues[q.index] === q) {
      const was = q.active;
      q.executing--;
      q.seatsInUse -= r.maxSeats;
      this.setActive(q, was);
    }
    this.totExecuting--;
    this.totSeatsInUse -= r.maxSeats;
    this.metrics.executing.set(this.totExecuting - this.totFinalStage, this.lastRealMs);
    this.metrics.seats.set(this.totSeatsInUse, this.lastRealMs);
    this.dispatchAsMuchAsPossible();
  }

  dumpQueues(): QueueDump[] {
    return this.queues.map((q) => ({
      index: q.index, pendingRequests: q.waiting.length, nextDispatchR: q.nextDispatchR, executingRequests: q.executing, seatsInUse: q.seatsInUse,
      initialSeatsSum: q.waiting.reduce((s, r) => s + r.input.estimate.initialSeats, 0),
      maxSeatsSum: q.waiting.reduce((s, r) => s + r.maxSeats, 0),
      totalWorkSum: q.waiting.reduce((s, r) => s + r.work, 0),
    }));
  }

  dumpRequests(): RequestDump[] {
    return this.queues.flatMap((q) => q.waiting.map((r, i) => ({
      flowSchema: r.input.flowSchema, distinguisher: r.input.distinguisher, queue: q.index, indexInQueue: i,
      initialSeats: r.input.estimate.initialSeats, finalSeats: r.input.estimate.finalSeats, additionalLatencyMs: r.input.estimate.additionalLatencyMs,
      arrivedWall: r.arrivedWall, user: r.input.user ?? '', info: r.input.info,
    })));
  }
}
