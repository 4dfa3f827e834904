// autoscaling/v1 defaulting (v1.27 behaviour).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../core/v1/defaults.js';
import { defaulters } from './defaults.js';

const rows: [string, Json, Json][] = [
  ['minReplicas 1; no CPU target added', { spec: { maxReplicas: 3 } }, { spec: { maxReplicas: 3, minReplicas: 1 } }],
  ['a given minReplicas is kept', { spec: { minReplicas: 2, targetCPUUtilizationPercentage: 50 } }, { spec: { minReplicas: 2, targetCPUUtilizationPercentage: 50 } }],
];

describe('autoscaling/v1 defaults', () => {
  for (const [name, input, want] of rows) {
    it(name, () => {
      const obj = structuredClone(input);
      defaulters.HorizontalPodAutoscaler!(obj, { enabled: () => false });
      assert.deepEqual(obj, want);
    });
  }
});
