// The decisions of one admission evaluation, between CEL's synchronous
// evaluation and src/authz's Authorizer (a Decision, or a Promise of one for
// authorizers that wait, e.g. a webhook):
//
//   check ──▶ session cache ──hit──▶ Decision
//                │ miss: authorize(attributes)
//                ├─ Decision ─▶ cached, returned (RBAC, Node, ABAC…)
//                └─ Promise ─▶ recorded as pending; the check throws
//                               AuthzPending (a CelError)
//
// evaluateWithAuthorizer: after an evaluation that left checks pending, await
// them (cached), evaluate again; repeat until no check is pending. An
// evaluation is deterministic over the same inputs and decisions, so the
// re-run asks the same checks and finds them answered; the final run is a
// plain synchronous evaluation (its result and runtime cost are exact). A
// caller that knows its checks can settle them ahead (prefetch).

import { CelError } from '../../values.js';
import type { Attributes, Authorizer, Decision } from '../../../authz/authorizer.js';

/** Thrown by a check whose decision is still being awaited. */
export class AuthzPending extends CelError {
  constructor() {
    super('authorization check pending');
  }
}

type Settled = { decision: Decision } | { error: string };

/** The decisions of one admission evaluation (one request): cached by attributes. */
export class AuthzSession {
  private readonly decided = new Map<string, Settled>();
  private readonly waiting = new Map<string, Promise<void>>();

  constructor(readonly authorizer: Authorizer) {}

  /** Whether some check of the last evaluation is waiting for its decision. */
  get pending(): boolean {
    return this.waiting.size > 0;
  }

  /** The decision for attributes (synchronous), or AuthzPending. */
  decide(a: Attributes): Decision {
    const key = attributesKey(a);
    let s = this.decided.get(key);
    if (s === undefined) {
      if (this.waiting.has(key)) throw new AuthzPending();
      let d: Decision | Promise<Decision>;
      try {
        d = this.authorizer.authorize(a);
      } catch (e) {
        d = Promise.reject(e);
      }
      if (d instanceof Promise) {
        this.waiting.set(key, this.await(key, d));
        throw new AuthzPending();
      }
      s = { decision: d };
      this.decided.set(key, s);
    }
    if ('error' in s) throw new CelError(`error in authorization check: ${s.error}`);
    if (s.decision.error !== undefined) throw new CelError(`error in authorization check: ${s.decision.error}`);
    return s.decision;
  }

  private async await(key: string, p: Promise<Decision>): Promise<void> {
    try {
      this.decided.set(key, { decision: await p });
    } catch (e) {
      this.decided.set(key, { error: e instanceof Error ? e.message : String(e) });
    }
  }

  /** Waits for every pending decision. */
  async settle(): Promise<void> {
    const all = [...this.waiting.values()];
    this.waiting.clear();
    await Promise.all(all);
  }

  /** Asks for decisions ahead of evaluation (e.g. the request's own resource). */
  async prefetch(attrs: readonly Attributes[]): Promise<void> {
    for (const a of attrs) {
      try {
        this.decide(a);
      } catch {
        // pending or an error: settled below / reported when the rule asks
      }
    }
    await this.settle();
  }
}

/** Runs `evaluate` until no authorization check is left pending (at most maxRounds re-runs). */
export async function evaluateWithAuthorizer<R>(session: AuthzSession, evaluate: () => R, maxRounds = 32): Promise<R> {
  for (let round = 0; ; round++) {
    let result: R | undefined;
    let error: unknown;
    let threw = false;
    try {
      result = evaluate();
    } catch (e) {
      error = e;
      threw = true;
    }
    if (!session.pending) {
      if (threw) throw error;
      return result as R;
    }
    if (round >= maxRounds) throw new CelError('error in authorization check: too many rounds of pending checks');
    await session.settle();
  }
}

function attributesKey(a: Attributes): string {
  const u = a.user;
  const who = JSON.stringify([u.name, u.uid ?? '', u.groups, u.extra ?? null]);
  if (a.isResourceRequest) {
    return `${who}\u0000r\u0000${a.verb}\u0000${a.apiGroup}\u0000${a.apiVersion}\u0000${a.resource}\u0000${a.subresource}\u0000${a.namespace}\u0000${a.name}`;
  }
  return `${who}\u0000p\u0000${a.verb}\u0000${a.path}`;
}
