// Leader election's settings, as kube-controller-manager's and
// kube-scheduler's --leader-elect* flags give them (component-base
// LeaderElectionConfiguration; defaults 15 s / 10 s / 2 s), checked with
// client-go's NewLeaderElector messages, and the identity a candidate holds a
// lock under: `<hostname>_<uuid>` (kube's id).
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';

export interface LeaderElectionConfig {
  /** --leader-elect: run only while holding the lock (default true). */
  readonly leaderElect: boolean;
  /** --leader-elect-lease-duration: how long non-leaders wait after the last observed renewal before taking over. */
  readonly leaseDurationMs: number;
  /** --leader-elect-renew-deadline: how long the leader keeps trying to renew before it gives up leading. */
  readonly renewDeadlineMs: number;
  /** --leader-elect-retry-period: the wait between attempts to acquire or renew. */
  readonly retryPeriodMs: number;
  /** --leader-elect-resource-namespace / -name: the Lease. */
  readonly resourceNamespace: string;
  readonly resourceName: string;
}

/** client-go's JitterFactor: acquire attempts wait retryPeriod × (1 + up to 1.2). */
export const JITTER_FACTOR = 1.2;

export const LEADER_ELECTION_DEFAULTS = { leaderElect: true, leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 } as const;

export class LeaderElectionConfigError extends Error {
  override readonly name = 'LeaderElectionConfigError';
}

/** The timing checks of client-go's NewLeaderElector, in its order and words. */
export function validateTiming(c: Pick<LeaderElectionConfig, 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs'>): void {
  if (c.leaseDurationMs <= c.renewDeadlineMs) throw new LeaderElectionConfigError('leaseDuration must be greater than renewDeadline');
  if (c.renewDeadlineMs <= JITTER_FACTOR * c.retryPeriodMs) throw new LeaderElectionConfigError('renewDeadline must be greater than retryPeriod*JitterFactor');
  if (c.leaseDurationMs < 1) throw new LeaderElectionConfigError('leaseDuration must be greater than zero');
  if (c.renewDeadlineMs < 1) throw new LeaderElectionConfigError('renewDeadline must be greater than zero');
  if (c.retryPeriodMs < 1) throw new LeaderElectionConfigError('retryPeriod must be greater than zero');
}

/** A candidate's identity: `<hostname>_<uuid>`, unique per process start (kube-controller-manager's id). */
export function newIdentity(host = hostname()): string {
  return `${host}_${randomUUID()}`;
}
