import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BulkLane, type LaneClock } from './bulklane.js';

/** A clock moved by hand; deferred callbacks run one loop turn at a time, when the test says. */
function fakeClock(): LaneClock & { t: number; loopTurn(): Promise<void>; deferred: number } {
  let queue: (() => void)[] = [];
  const clock = {
    t: 0,
    deferred: 0,
    now: () => clock.t,
    defer(fn: () => void) {
      clock.deferred++;
      queue.push(fn);
    },
    /** The check phase: what was deferred before it began runs; then resumed writers run to their next await. */
    async loopTurn() {
      const now = queue;
      queue = [];
      for (const fn of now) fn();
      for (let i = 0; i < 20; i++) await Promise.resolve();
    },
  };
  return clock;
}

test('a writer alone goes on within its slice and lets the loop turn once the slice is used', async () => {
  const clock = fakeClock();
  const lane = new BulkLane(1, clock);
  const first = lane.turn(); // the first bulk work after a quiet time waits for the loop to turn
  assert.ok(first);
  await clock.loopTurn();
  await first;
  clock.t += 0.4;
  assert.equal(lane.turn(), undefined, 'within the slice');
  clock.t += 0.7;
  const later = lane.turn();
  assert.ok(later, 'past the slice');
  assert.equal(lane.waiters, 1);
  let resumed = false;
  void later.then(() => { resumed = true; });
  await Promise.resolve();
  assert.equal(resumed, false, 'not before the loop turns');
  await clock.loopTurn();
  assert.equal(resumed, true);
  assert.equal(lane.waiters, 0);
});

test('writers take one turn per loop turn, round-robin, however little of the slice a piece uses', async () => {
  const clock = fakeClock();
  const lane = new BulkLane(1, clock);
  const log: string[] = [];
  const writer = async (name: string, pieces: number) => {
    for (let i = 0; i < pieces; i++) {
      const t = lane.turn();
      if (t) await t;
      log.push(`${name}${i}`);
      clock.t += 0.1;
    }
  };
  const done = Promise.all([writer('a', 3), writer('b', 3), writer('c', 2)]);
  for (let turn = 0; turn < 8; turn++) {
    await clock.loopTurn();
    log.push('|');
  }
  await done;
  assert.deepEqual(log, ['a0', '|', 'b0', '|', 'c0', '|', 'a1', '|', 'b1', '|', 'c1', '|', 'a2', '|', 'b2', '|']);
});

test('a request that arrives while bulk bodies are written runs after at most one piece', async () => {
  const clock = fakeClock();
  const lane = new BulkLane(1, clock);
  const log: string[] = [];
  const writer = async (name: string) => {
    for (let i = 0; i < 3; i++) {
      const t = lane.turn();
      if (t) await t;
      log.push(name);
      clock.t += 0.5;
    }
  };
  const done = Promise.all([writer('list1'), writer('list2')]);
  await clock.loopTurn();
  log.push('get'); // the poll phase of the next loop turn: a small request runs
  await clock.loopTurn();
  log.push('get');
  for (let i = 0; i < 5; i++) await clock.loopTurn();
  await done;
  assert.deepEqual(log, ['list1', 'get', 'list2', 'get', 'list1', 'list2', 'list1', 'list2']);
});

test('a writer resumed by I/O (a drained socket) queues behind those already waiting', async () => {
  const clock = fakeClock();
  const lane = new BulkLane(5, clock);
  const a = lane.turn();
  await clock.loopTurn();
  await a;
  // b waits; a, back from a drain within its slice, must not overtake b
  clock.t += 0.1;
  const b = lane.turn();
  assert.ok(b === undefined, 'nobody waits yet: b goes on');
  const c = lane.turn();
  assert.equal(c, undefined);
  clock.t += 10;
  const d = lane.turn();
  assert.ok(d);
  const e = lane.turn();
  assert.ok(e, 'someone waits: queue behind them even within a slice');
  assert.equal(lane.waiters, 2);
});
