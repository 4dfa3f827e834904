// When the CSR cleaner deletes a request (kube's cleaner criteria).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { cleanupReason } from './cleaner.js';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const H = 3_600_000;
const csr = (created: number, conditions: { type: string; lastUpdateTime?: string }[] = [], certificate?: string): ApiObject => ({
  metadata: { name: 'c', creationTimestamp: ago(created) },
  status: { conditions, ...(certificate ? { certificate } : {}) },
});

describe('cleanupReason', () => {
  const rows: [string, ApiObject, string | undefined][] = [
    ['pending for 23 hours: kept', csr(23 * H), undefined],
    ['pending for 25 hours', csr(25 * H), 'it is more than 24h0m0s old and unhandled'],
    ['denied 30 minutes ago: kept', csr(25 * H, [{ type: 'Denied', lastUpdateTime: ago(H / 2) }]), undefined],
    ['denied 2 hours ago', csr(3 * H, [{ type: 'Denied', lastUpdateTime: ago(2 * H) }]), 'it is more than 1h0m0s old and denied'],
    ['failed 2 hours ago', csr(3 * H, [{ type: 'Failed', lastUpdateTime: ago(2 * H) }]), 'it is more than 1h0m0s old and failed'],
    ['approved 2 hours ago but not issued: kept (a condition, so not pending either)', csr(30 * H, [{ type: 'Approved', lastUpdateTime: ago(2 * H) }]), undefined],
    ['approved and issued 2 hours ago', csr(3 * H, [{ type: 'Approved', lastUpdateTime: ago(2 * H) }], 'bm90IGEgY2VydA=='), 'it is more than 1h0m0s old and approved'],
    ['approved and issued 10 minutes ago: kept', csr(3 * H, [{ type: 'Approved', lastUpdateTime: ago(H / 6) }], 'bm90IGEgY2VydA=='), undefined],
    ['a condition without lastUpdateTime is never old', csr(30 * H, [{ type: 'Denied' }]), undefined],
  ];
  for (const [what, c, want] of rows) it(what, () => assert.equal(cleanupReason(c, NOW), want));
});
