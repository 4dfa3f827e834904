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
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Event names as client-go makes them, `<object name>.<hex UnixNano>`, from a
 * millisecond clock: each name this generator gives is later than the last,
 * so two events in one millisecond get different names.
 */
export class EventNamer {
  private last = 0n;

  name(objectName: string, ms: number): string {
    let n = BigInt(Math.floor(ms)) * 1_000_000n;
    if (n <= this.last) n = this.last + 1n;
    this.last = n;
    return `${objectName}.${n.toString(16)}`;
  }
}
