// A call's deadline: the part of AbortSignal the callback client uses
// (aborted, reason, abort listeners), without an AbortController and its
// event target per call — a webhook call is a hot path (two per write with a
// mutating and a validating webhook). An AbortSignal satisfies `Cancel` too.

export interface Cancel {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export class Deadline implements Cancel {
  aborted = false;
  reason: unknown = undefined;
  private listeners: (() => void)[] | undefined;
  private readonly timer: NodeJS.Timeout;

  /** Aborts with `reason()` after `ms`. */
  constructor(ms: number, reason: () => unknown) {
    this.timer = setTimeout(() => this.abort(reason()), ms);
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const ls = this.listeners;
    this.listeners = undefined;
    if (ls) for (const l of ls) l();
  }

  /** Listeners run once, at the abort. */
  addEventListener(_type: 'abort', listener: () => void): void {
    (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const ls = this.listeners;
    if (!ls) return;
    const i = ls.indexOf(listener);
    if (i >= 0) ls.splice(i, 1);
  }

  /** The call ended: the timer stops. */
  clear(): void {
    clearTimeout(this.timer);
    this.listeners = undefined;
  }
}
