// Lease validation causes.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { renderCause } from '../../meta/govalue.js';
import { validateLease } from './validation.js';

it('Lease: duration > 0, transitions ≥ 0', () => {
  assert.deepEqual(validateLease({ spec: { leaseDurationSeconds: 0, leaseTransitions: -1 } }).map(renderCause), [
    'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
    'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0',
  ]);
  assert.deepEqual(validateLease({ spec: { leaseDurationSeconds: 15, leaseTransitions: 0 } }), []);
});
