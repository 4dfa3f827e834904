// flowcontrol.apiserver.svc.io/v1beta3 defaulting (v1.27 behaviour).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../core/v1/defaults.js';
import { defaulters } from './defaults.js';

const rows: [kind: string, name: string, input: Json, want: Json][] = [
  ['FlowSchema', 'matchingPrecedence 1000', { spec: {} }, { spec: { matchingPrecedence: 1000 } }],
  ['PriorityLevelConfiguration', 'nominalConcurrencyShares, not assuredConcurrencyShares', { spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 1 } } } } }, {
    spec: { type: 'Limited', limited: { nominalConcurrencyShares: 30, lendablePercent: 0, limitResponse: { type: 'Queue', queuing: { queues: 1, handSize: 8, queueLengthLimit: 50 } } } },
  }],
];

describe('flowcontrol.apiserver.svc.io/v1beta3 defaults', () => {
  for (const [kind, name, input, want] of rows) {
    it(`${kind}: ${name}`, () => {
      const obj = structuredClone(input);
      defaulters[kind]!(obj, { enabled: () => false });
      assert.deepEqual(obj, want);
    });
  }
});
