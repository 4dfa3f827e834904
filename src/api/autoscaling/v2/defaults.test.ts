// autoscaling/v2 defaulting (v1.27 behaviour).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../core/v1/defaults.js';
import { defaulters } from './defaults.js';

const CPU = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
const UP = { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] };
const DOWN = { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };
const memory = [{ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Gi' } } }];

const rows: [string, Json, Json][] = [
  ['minReplicas, the CPU metric; no behavior unless given', { spec: { maxReplicas: 3 } }, { spec: { maxReplicas: 3, minReplicas: 1, metrics: CPU } }],
  ['given metrics are kept', { spec: { minReplicas: 2, metrics: memory } }, { spec: { minReplicas: 2, metrics: memory } }],
  ['an empty behavior is filled', { spec: { metrics: memory, behavior: {} } }, { spec: { minReplicas: 1, metrics: memory, behavior: { scaleUp: UP, scaleDown: DOWN } } }],
  ['given rule fields are kept, the rest filled', {
    spec: { metrics: memory, behavior: { scaleDown: { stabilizationWindowSeconds: 60, policies: [] }, scaleUp: { selectPolicy: 'Disabled' } } },
  }, {
    spec: { minReplicas: 1, metrics: memory, behavior: { scaleUp: { ...UP, selectPolicy: 'Disabled' }, scaleDown: { selectPolicy: 'Max', stabilizationWindowSeconds: 60, policies: [] } } },
  }],
];

describe('autoscaling/v2 defaults', () => {
  for (const [name, input, want] of rows) {
    it(name, () => {
      const obj = structuredClone(input);
      defaulters.HorizontalPodAutoscaler!(obj, { enabled: () => false });
      assert.deepEqual(obj, want);
    });
  }
});
