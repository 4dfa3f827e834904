// networking.svc.io/v1 defaulting (v1.27 behaviour).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../core/v1/defaults.js';
import { defaulters } from './defaults.js';

const rows: [kind: string, name: string, input: Json, want: Json][] = [
  ['NetworkPolicy', 'no rules: Ingress', { spec: { podSelector: {} } }, { spec: { podSelector: {}, policyTypes: ['Ingress'] } }],
  ['NetworkPolicy', 'egress rules add Egress; port protocols TCP', {
    spec: { ingress: [{ ports: [{ port: 80 }] }], egress: [{ ports: [{ port: 53, protocol: 'UDP' }, {}] }] },
  }, {
    spec: { ingress: [{ ports: [{ port: 80, protocol: 'TCP' }] }], egress: [{ ports: [{ port: 53, protocol: 'UDP' }, { protocol: 'TCP' }] }], policyTypes: ['Ingress', 'Egress'] },
  }],
  ['NetworkPolicy', 'given policyTypes are kept', { spec: { policyTypes: ['Egress'] } }, { spec: { policyTypes: ['Egress'] } }],
  ['IngressClass', 'parameters scope Cluster', { spec: { controller: 'c', parameters: { kind: 'K', name: 'n' } } }, { spec: { controller: 'c', parameters: { kind: 'K', name: 'n', scope: 'Cluster' } } }],
  ['IngressClass', 'no parameters, nothing', { spec: { controller: 'c' } }, { spec: { controller: 'c' } }],
];

describe('networking.svc.io/v1 defaults', () => {
  for (const [kind, name, input, want] of rows) {
    it(`${kind}: ${name}`, () => {
      const obj = structuredClone(input);
      defaulters[kind]!(obj, { enabled: () => false });
      assert.deepEqual(obj, want);
    });
  }
  it('Ingress has none (pathType is required)', () => assert.equal(defaulters.Ingress, undefined));
});
