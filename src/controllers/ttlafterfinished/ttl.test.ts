import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { expiry, type Expiry } from './ttl.js';

const T0 = Date.parse('2026-11-27T10:00:00Z');
const job = (ttl: number | undefined, finished?: { type: string; status: string; at?: string }): ApiObject => ({
  metadata: { name: 'j', namespace: 'n' },
  spec: ttl === undefined ? {} : { ttlSecondsAfterFinished: ttl },
  status: finished ? { conditions: [{ type: finished.type, status: finished.status, ...(finished.at ? { lastTransitionTime: finished.at } : {}) }] } : {},
});

describe('expiry', () => {
  const cases: { name: string; job: ApiObject; now: number; want: Expiry }[] = [
    { name: 'no TTL', job: job(undefined, { type: 'Complete', status: 'True', at: '2026-11-27T10:00:00Z' }), now: T0 + 1e9, want: { kind: 'keep' } },
    { name: 'not finished', job: job(0), now: T0, want: { kind: 'keep' } },
    { name: 'Complete False is not finished', job: job(0, { type: 'Complete', status: 'False', at: '2026-11-27T10:00:00Z' }), now: T0, want: { kind: 'keep' } },
    { name: 'TTL 0: expired at once', job: job(0, { type: 'Complete', status: 'True', at: '2026-11-27T10:00:00Z' }), now: T0, want: { kind: 'expired' } },
    { name: 'Failed counts as finished', job: job(60, { type: 'Failed', status: 'True', at: '2026-11-27T10:00:00Z' }), now: T0 + 60_000, want: { kind: 'expired' } },
    { name: 'waits the rest of the TTL', job: job(60, { type: 'Complete', status: 'True', at: '2026-11-27T10:00:00Z' }), now: T0 + 15_000, want: { kind: 'wait', ms: 45_000, finishedInFuture: false } },
    { name: 'finished in the future (clock skew)', job: job(10, { type: 'Complete', status: 'True', at: '2026-11-27T10:00:00Z' }), now: T0 - 5000, want: { kind: 'wait', ms: 15_000, finishedInFuture: true } },
    { name: 'no transition time', job: job(10, { type: 'Complete', status: 'True' }), now: T0, want: { kind: 'keep' } },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(expiry(c.job, c.now), c.want));
});
