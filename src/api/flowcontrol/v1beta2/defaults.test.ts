// flowcontrol.apiserver.svc.io/v1beta2 defaulting (v1.27 behaviour).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../core/v1/defaults.js';
import { defaulters } from './defaults.js';

const rows: [kind: string, name: string, input: Json, want: Json][] = [
  ['FlowSchema', 'matchingPrecedence 1000', { spec: { priorityLevelConfiguration: { name: 'p' } } }, { spec: { priorityLevelConfiguration: { name: 'p' }, matchingPrecedence: 1000 } }],
  ['FlowSchema', 'given precedence kept', { spec: { matchingPrecedence: 5 } }, { spec: { matchingPrecedence: 5 } }],
  ['PriorityLevelConfiguration', 'limited with queuing', { spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } } }, {
    spec: { type: 'Limited', limited: { assuredConcurrencyShares: 30, lendablePercent: 0, limitResponse: { type: 'Queue', queuing: { handSize: 8, queues: 64, queueLengthLimit: 50 } } } },
  }],
  ['PriorityLevelConfiguration', '0 shares means the default; Reject has no queuing', { spec: { type: 'Limited', limited: { assuredConcurrencyShares: 0, lendablePercent: 10, limitResponse: { type: 'Reject' } } } }, {
    spec: { type: 'Limited', limited: { assuredConcurrencyShares: 30, lendablePercent: 10, limitResponse: { type: 'Reject' } } },
  }],
  ['PriorityLevelConfiguration', 'exempt: nothing', { spec: { type: 'Exempt' } }, { spec: { type: 'Exempt' } }],
];

describe('flowcontrol.apiserver.svc.io/v1beta2 defaults', () => {
  for (const [kind, name, input, want] of rows) {
    it(`${kind}: ${name}`, () => {
      const obj = structuredClone(input);
      defaulters[kind]!(obj, { enabled: () => false });
      assert.deepEqual(obj, want);
    });
  }
});
