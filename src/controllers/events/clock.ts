// The time event recording reads (k8s.io/utils/clock's PassiveClock), so
// tests can move it; and the timestamps events carry.
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const REAL_CLOCK: Clock = { now: () => Date.now() };

/** A clock that moves only when told to (tests). */
export class FakeClock implements Clock {
  constructor(private ms: number) {}
  now(): number {
    return this.ms;
  }
  step(ms: number): void {
    this.ms += ms;
  }
}

/** metav1.Time's text: RFC 3339 in whole seconds. */
export { rfc3339 } from '../../api/meta/time.js';

/** The last name's nanoseconds, for every recorder in the process: two recorders naming events about one object in one millisecond must not collide. */
let lastNanos = 0n;

/**
 * Event names as client-go makes them, `<object name>.<hex UnixNano>`, from a
 * millisecond clock: each name given in this process is later than the last,
 * so two events in one millisecond — from one recorder or two — get
 * different names.
 */
export class EventNamer {
  name(objectName: string, ms: number): string {
    let n = BigInt(Math.floor(ms)) * 1_000_000n;
    if (n <= lastNanos) n = lastNanos + 1n;
    lastNanos = n;
    return `${objectName}.${n.toString(16)}`;
  }
}
