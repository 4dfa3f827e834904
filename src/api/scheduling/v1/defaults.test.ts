// scheduling.svc.io/v1 defaulting (v1.27 behaviour).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../core/v1/defaults.js';
import { defaulters } from './defaults.js';

const rows: [string, Json, Json][] = [
  ['preemptionPolicy PreemptLowerPriority', { value: 10 }, { value: 10, preemptionPolicy: 'PreemptLowerPriority' }],
  ['Never is kept', { value: 10, preemptionPolicy: 'Never' }, { value: 10, preemptionPolicy: 'Never' }],
];

describe('scheduling.svc.io/v1 defaults', () => {
  for (const [name, input, want] of rows) {
    it(name, () => {
      const obj = structuredClone(input);
      defaulters.PriorityClass!(obj, { enabled: () => false });
      assert.deepEqual(obj, want);
    });
  }
});
