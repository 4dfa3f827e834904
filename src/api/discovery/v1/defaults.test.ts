// discovery.svc.io/v1 defaulting (v1.27 behaviour).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../core/v1/defaults.js';
import { defaulters } from './defaults.js';

const rows: [string, Json, Json][] = [
  ['port name "" and protocol TCP', { addressType: 'IPv4', ports: [{ port: 80 }, { name: 'dns', port: 53, protocol: 'UDP' }, { name: null }] },
    { addressType: 'IPv4', ports: [{ port: 80, name: '', protocol: 'TCP' }, { name: 'dns', port: 53, protocol: 'UDP' }, { name: '', protocol: 'TCP' }] }],
  ['no ports, nothing', { addressType: 'IPv4', endpoints: [] }, { addressType: 'IPv4', endpoints: [] }],
];

describe('discovery.svc.io/v1 defaults', () => {
  for (const [name, input, want] of rows) {
    it(name, () => {
      const obj = structuredClone(input);
      defaulters.EndpointSlice!(obj, { enabled: () => false });
      assert.deepEqual(obj, want);
    });
  }
});
