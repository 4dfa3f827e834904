// The evaluators of the served resources and the lookup by group/resource.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { servedResources } from '../server/served.js';
import { evaluatorFor, quotaEvaluators } from './registry.js';
import { formatQuantity } from '../api/meta/quantity.js';
import { DEFAULT_GATES, FeatureGates } from '../features/gates.js';

const evals = quotaEvaluators({ resources: () => servedResources() });
const namesOf = (group: string, resource: string) => evaluatorFor(evals, group, resource)?.matchingResources([
  `count/${resource}`, `count/${resource}.${group.replace('k8s.io', 'svc.io')}`, `count/${resource}.${group.replace('svc.io', 'k8s.io')}`, resource,
]);

describe('quotaEvaluators', () => {
  it('one evaluator per group/resource', () => {
    const keys = evals.map((e) => `${e.group}/${e.resource}`);
    assert.equal(new Set(keys).size, keys.length);
  });
  const rows: [string, string, string[] | undefined][] = [
    ['', 'pods', ['count/pods', 'pods']],
    ['', 'services', ['count/services', 'services']],
    ['', 'persistentvolumeclaims', ['count/persistentvolumeclaims', 'persistentvolumeclaims']],
    ['', 'configmaps', ['count/configmaps', 'configmaps']],
    ['', 'secrets', ['count/secrets', 'secrets']],
    ['', 'resourcequotas', ['count/resourcequotas', 'resourcequotas']],
    ['', 'replicationcontrollers', ['count/replicationcontrollers', 'replicationcontrollers']],
    ['', 'serviceaccounts', ['count/serviceaccounts']],
    ['apps', 'deployments', ['count/deployments.apps']],
    ['batch', 'jobs', ['count/jobs.batch']],
    ['networking.svc.io', 'ingresses', ['count/ingresses.networking.svc.io', 'count/ingresses.networking.k8s.io']],
    ['networking.k8s.io', 'ingresses', ['count/ingresses.networking.svc.io', 'count/ingresses.networking.k8s.io']],
    ['rbac.authorization.svc.io', 'roles', ['count/roles.rbac.authorization.svc.io', 'count/roles.rbac.authorization.k8s.io']],
    ['', 'events', undefined],
    ['events.k8s.io', 'events', undefined],
    ['authorization.svc.io', 'subjectaccessreviews', undefined],
    ['authentication.k8s.io', 'tokenreviews', undefined],
    ['', 'bindings', undefined],
  ];
  for (const [group, resource, want] of rows) it(`${group}/${resource}`, () => assert.deepEqual(namesOf(group, resource), want));

  it('served resources only: a list without apps has no deployments evaluator (evaluatorFor then makes one)', () => {
    const coreOnly = quotaEvaluators({ resources: () => servedResources().filter((r) => r.group === '') });
    assert.equal(coreOnly.some((e) => e.group === 'apps'), false);
    assert.equal(coreOnly.some((e) => e.resource === 'events'), false);
    assert.deepEqual(evaluatorFor(coreOnly, 'stable.example.com', 'crontabs')?.matchingResources(['count/crontabs.stable.example.com']), ['count/crontabs.stable.example.com']);
    assert.equal(evaluatorFor(coreOnly, 'stable.example.com', 'crontabs'), evaluatorFor(coreOnly, 'stable.example.com', 'crontabs'));
  });

  it('virtual resources and create-less ones are left out', () => {
    const served = servedResources();
    for (const e of evals) {
      const r = served.find((s) => s.group === e.group && s.resource === e.resource)!;
      assert.ok(r.verbs.includes('create') && !r.virtual, `${e.group}/${e.resource}`);
    }
  });

  it('feature gates reach the evaluators (RecoverVolumeExpansionFailure; InPlacePodVerticalScaling is not a known gate: off)', () => {
    const claim = { metadata: { name: 'c' }, spec: { resources: { requests: { storage: '1Gi' } } }, status: { allocatedResources: { storage: '2Gi' } } };
    const storage = (gates: FeatureGates) => evaluatorFor(quotaEvaluators({ resources: () => servedResources() }, { gates }), '', 'persistentvolumeclaims')!.usage(claim)['requests.storage']!;
    assert.equal(formatQuantity(storage(DEFAULT_GATES)), '1Gi');
    assert.equal(formatQuantity(storage(FeatureGates.parse('RecoverVolumeExpansionFailure=true'))), '2Gi');
    assert.equal(evaluatorFor(quotaEvaluators({ resources: () => servedResources() }, { gates: DEFAULT_GATES }), '', 'pods')!.handles('UPDATE', ''), false);
  });
});
