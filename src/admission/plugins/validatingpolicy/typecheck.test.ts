// status.typeChecking as kube's TypeChecker computes it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TestEngine } from '../../matchconditions/testengine.js';
import { typeCheckPolicy, typesToCheck, type GroupVersionKind } from './typecheck.js';
import { policyStatus } from './status.js';
import type { ApiObject } from '../../../registry/object.js';

const KINDS: Record<string, GroupVersionKind> = {
  '/v1/configmaps': { group: '', version: 'v1', kind: 'ConfigMap' },
  '/v1/secrets': { group: '', version: 'v1', kind: 'Secret' },
  'apps/v1/deployments': { group: 'apps', version: 'v1', kind: 'Deployment' },
  'networking.k8s.io/v1/ingresses': { group: 'networking.svc.io', version: 'v1', kind: 'Ingress' },
};
const deps = {
  kindsFor: (g: string, v: string, r: string) => (KINDS[`${g}/${v}/${r}`] ? [KINDS[`${g}/${v}/${r}`]!] : []),
  schemaOf: (gvk: GroupVersionKind) => (gvk.kind === 'Secret' ? undefined : { title: gvk.kind, type: 'object' }),
};
const rule = (apiGroups: string[], apiVersions: string[], resources: string[]) => ({ apiGroups, apiVersions, resources, operations: ['*'] });
const spec = (resourceRules: unknown[], validations: string[] = []) => ({ matchConstraints: { resourceRules }, validations: validations.map((expression) => ({ expression })) });

describe('typesToCheck', () => {
  const rows: [string, unknown[], string[]][] = [
    ['explicit kinds, sorted by group, version, kind', [rule(['apps', ''], ['v1'], ['deployments', 'configmaps'])], ['/v1/ConfigMap', 'apps/v1/Deployment']],
    ['wildcards give nothing', [rule(['*'], ['v1'], ['configmaps']), rule([''], ['*'], ['configmaps'])], []],
    ['subresources and * resources are skipped', [rule([''], ['v1'], ['configmaps/status', '*', 'secrets'])], ['/v1/Secret']],
    ['unserved resources are skipped; either group spelling', [rule(['networking.k8s.io'], ['v1'], ['ingresses', 'nothing'])], ['networking.svc.io/v1/Ingress']],
  ];
  for (const [name, rules, want] of rows) it(name, () => assert.deepEqual(typesToCheck(spec(rules), deps).map((g) => `${g.group}/${g.version}/${g.kind}`), want));
});

describe('typeCheckPolicy', () => {
  const engine = new TestEngine({
    'object.foo == 1': { type: 'bool', fn: () => true, typeIssues: (title) => `ERROR: <input>:1:7: undefined field 'foo' (${title})` },
    'object.data.size() > 0': { type: 'bool', fn: () => true, typeIssues: (title) => (title === 'Deployment' ? "ERROR: <input>:1:7: undefined field 'data'" : undefined) },
    'true': { type: 'bool', fn: () => true },
  });
  it('one warning per failing validation, a line per kind with issues, kinds without a schema skipped', () => {
    const p = { spec: spec([rule(['', 'apps'], ['v1'], ['configmaps', 'deployments', 'secrets'])], ['true', 'object.foo == 1', 'object.data.size() > 0']) };
    assert.deepEqual(typeCheckPolicy(engine, p, deps), [
      { fieldRef: 'spec.validations[1].expression', warning: "/v1, Kind=ConfigMap: ERROR: <input>:1:7: undefined field 'foo' (ConfigMap)\napps/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'foo' (Deployment)" },
      { fieldRef: 'spec.validations[2].expression', warning: "apps/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'data'" },
    ]);
  });
  it('status: observedGeneration, typeChecking, conditions kept', () => {
    const p = { metadata: { name: 'p', generation: 3 }, spec: spec([rule([''], ['v1'], ['configmaps'])], ['true']), status: { observedGeneration: 1, conditions: [{ type: 'X' }] } } as unknown as ApiObject;
    assert.deepEqual(policyStatus(engine, p, deps), { observedGeneration: 3, conditions: [{ type: 'X' }], typeChecking: {} });
  });
});
