// flowcontrol.apiserver.svc.io v1beta3 (storage) ⇄ v1beta2: the concurrency
// shares rename, FlowSchema unchanged, and round trips.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { convert } from './index.js';
import { schemaProblems } from './testing.js';

type O = Record<string, unknown>;
const G = 'flowcontrol.apiserver.svc.io';
const to = (version: string, kind: string) => (o: O) => convert(o, { group: G, version, kind });
const plc = (version: string, limited: O | undefined, type = 'Limited'): O => ({
  kind: 'PriorityLevelConfiguration', apiVersion: `${G}/${version}`, metadata: { name: 'workload-low' },
  spec: { type, ...(limited ? { limited } : {}) },
  status: { conditions: [{ type: 'ConcurrencyShared', status: 'True', lastTransitionTime: '2023-06-01T08:00:00Z' }] },
});
const QUEUING = { type: 'Queue', queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } };

describe('flowcontrol PriorityLevelConfiguration', () => {
  const rows: [string, O | undefined, O | undefined][] = [
    ['limited: the shares field is renamed in place', {
      nominalConcurrencyShares: 100, limitResponse: QUEUING, lendablePercent: 90, borrowingLimitPercent: 10,
    }, {
      assuredConcurrencyShares: 100, limitResponse: QUEUING, lendablePercent: 90, borrowingLimitPercent: 10,
    }],
    ['limited without shares (left to the defaulter)', { limitResponse: { type: 'Reject' } }, { limitResponse: { type: 'Reject' } }],
    ['zero shares stay zero (in 1.27 0 means the default)', { nominalConcurrencyShares: 0, limitResponse: { type: 'Reject' }, lendablePercent: 0 }, {
      assuredConcurrencyShares: 0, limitResponse: { type: 'Reject' }, lendablePercent: 0,
    }],
  ];
  for (const [name, beta3, beta2] of rows) {
    it(`v1beta3 → v1beta2: ${name}`, () => {
      const out = to('v1beta2', 'PriorityLevelConfiguration')(plc('v1beta3', beta3));
      assert.deepEqual(out, plc('v1beta2', beta2));
      assert.deepEqual(Object.keys((out.spec as O).limited as O), Object.keys(beta2 ?? {}));
      assert.deepEqual(schemaProblems(out), []);
    });
    it(`v1beta2 → v1beta3: ${name}`, () => {
      const out = to('v1beta3', 'PriorityLevelConfiguration')(plc('v1beta2', beta2));
      assert.deepEqual(out, plc('v1beta3', beta3));
      assert.deepEqual(schemaProblems(out), []);
    });
  }
  it('exempt levels have no limited part and convert unchanged', () => {
    assert.deepEqual(to('v1beta2', 'PriorityLevelConfiguration')(plc('v1beta3', undefined, 'Exempt')), plc('v1beta2', undefined, 'Exempt'));
  });
  it('round trips lose nothing', () => {
    const stored = plc('v1beta3', rows[0]![1]);
    assert.deepEqual(to('v1beta3', 'PriorityLevelConfiguration')(to('v1beta2', 'PriorityLevelConfiguration')(stored)), stored);
    const old = plc('v1beta2', rows[0]![2]);
    assert.deepEqual(to('v1beta2', 'PriorityLevelConfiguration')(to('v1beta3', 'PriorityLevelConfiguration')(old)), old);
  });
});

describe('flowcontrol FlowSchema', () => {
  const fs = (version: string): O => ({
    kind: 'FlowSchema', apiVersion: `${G}/${version}`, metadata: { name: 'service-accounts' },
    spec: {
      priorityLevelConfiguration: { name: 'workload-low' }, matchingPrecedence: 9000, distinguisherMethod: { type: 'ByUser' },
      rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:serviceaccounts' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }] }],
    },
  });
  it('is the same in both versions: only apiVersion changes', () => {
    assert.deepEqual(to('v1beta2', 'FlowSchema')(fs('v1beta3')), fs('v1beta2'));
    assert.deepEqual(to('v1beta3', 'FlowSchema')(fs('v1beta2')), fs('v1beta3'));
    assert.deepEqual(schemaProblems(to('v1beta2', 'FlowSchema')(fs('v1beta3'))), []);
  });
});
