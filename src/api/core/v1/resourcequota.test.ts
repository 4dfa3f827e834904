// ResourceQuota validation: each row the exact `field: message` causes
// kube-apiserver v1.27 answers with (the golden admission-03 rows included).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderCause } from '../../meta/govalue.js';
import type { FieldError } from '../../meta/field.js';
import { coreValidators } from './validation.js';
import { goQuantity, isIntegerResourceName, isScopeValidForResource, isStandardQuotaResourceName, resourceQuotaValidator, validateResourceQuota, validateResourceQuotaUpdate } from './resourcequota.js';

type O = { [k: string]: unknown };
const rq = (spec: O, status: O = {}): O => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'ns' }, spec, status });
const causes = (errs: FieldError[]) => errs.map(renderCause);
type Row = [name: string, errs: () => FieldError[], want: string[]];
const table = (rows: Row[]) => {
  for (const [name, errs, want] of rows) it(name, () => assert.deepEqual(causes(errs()), want));
};
const create = (spec: O, status: O = {}) => () => validateResourceQuota(rq(spec, status));
const EXISTS_ONLY =
  "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity";

describe('ResourceQuota create: names and values', () => {
  table([
    [
      'every standard and qualified name is accepted',
      create({
        hard: {
          cpu: '1', memory: '1Gi', 'ephemeral-storage': '1Gi', 'requests.cpu': '500m', 'requests.memory': '1Gi', 'requests.storage': '10Gi',
          'requests.ephemeral-storage': '1Gi', 'limits.cpu': '2', 'limits.memory': '2Gi', 'limits.ephemeral-storage': '2Gi', pods: '10',
          resourcequotas: '1', services: '5', replicationcontrollers: '2', secrets: '10', persistentvolumeclaims: '4', configmaps: '10',
          'services.nodeports': '0', 'services.loadbalancers': '0', 'hugepages-2Mi': '1Gi', 'requests.hugepages-1Gi': '2Gi',
          'count/deployments.apps': '3', 'count/widgets.example.com': '1', 'count/leases.coordination.svc.io': '2',
          'gold.storageclass.storage.k8s.io/requests.storage': '5Gi', 'gold.storageclass.storage.svc.io/persistentvolumeclaims': '2',
          'silver.storageclass.storage.svc.io/requests.storage': '1Ti', 'requests.example.com/gpu': '4', 'requests.nvidia.com/gpu': '1',
        },
      }),
      [],
    ],
    [
      'golden admission-03 invalid-quota: not standard, not for quota',
      create({ hard: { 'no-such-resource': '1' } }),
      [
        'spec.hard[no-such-resource]: Invalid value: "no-such-resource": must be a standard resource type or fully qualified',
        'spec.hard[no-such-resource]: Invalid value: "no-such-resource": must be a standard resource for quota',
      ],
    ],
    ['golden admission-03 negative-quota', create({ hard: { pods: '-1' } }), ['spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0']],
    [
      'storage is a standard resource, but not one for quota',
      create({ hard: { storage: '1Gi' } }),
      ['spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota'],
    ],
    [
      'a name that is not qualified: the qualified-name message, then the quota one',
      create({ hard: { 'Foo_': '1' } }),
      [
        `spec.hard[Foo_]: Invalid value: "Foo_": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
        'spec.hard[Foo_]: Invalid value: "Foo_": must be a standard resource for quota',
      ],
    ],
    [
      'negative compute values use the canonical text',
      create({ hard: { 'requests.cpu': '-0.5', memory: '-1Gi' } }),
      [
        'spec.hard[memory]: Invalid value: "-1Gi": must be greater than or equal to 0',
        'spec.hard[requests.cpu]: Invalid value: "-500m": must be greater than or equal to 0',
      ],
    ],
    [
      'object counts and extended resources must be whole (Go prints the Quantity struct)',
      create({ hard: { pods: '1.5', 'count/deployments.apps': '500m', 'requests.cpu': '1.5' } }),
      [
        'spec.hard[count/deployments.apps]: Invalid value: resource.Quantity{i:resource.int64Amount{value:500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"500m", Format:"DecimalSI"}: must be an integer',
        'spec.hard[pods]: Invalid value: resource.Quantity{i:resource.int64Amount{value:15, scale:-1}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"", Format:"DecimalSI"}: must be an integer',
      ],
    ],
    [
      'negative and fractional: both causes',
      create({ hard: { secrets: '-1.5' } }),
      [
        'spec.hard[secrets]: Invalid value: "-1500m": must be greater than or equal to 0',
        'spec.hard[secrets]: Invalid value: resource.Quantity{i:resource.int64Amount{value:-15, scale:-1}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"", Format:"DecimalSI"}: must be an integer',
      ],
    ],
    [
      'status.hard and status.used are checked on create as well',
      create({ hard: { pods: '1' } }, { hard: { foo: '1' }, used: { pods: '-2' } }),
      [
        'status.hard[foo]: Invalid value: "foo": must be a standard resource type or fully qualified',
        'status.hard[foo]: Invalid value: "foo": must be a standard resource for quota',
        'status.used[pods]: Invalid value: "-2": must be greater than or equal to 0',
      ],
    ],
  ]);
});

describe('ResourceQuota create: scopes', () => {
  table([
    ['BestEffort with pods', create({ hard: { pods: '5' }, scopes: ['BestEffort'] }), []],
    ['NotBestEffort and Terminating with compute', create({ hard: { pods: '5', 'requests.cpu': '1', 'limits.memory': '1Gi' }, scopes: ['NotBestEffort', 'Terminating'] }), []],
    ['a scope never limits a resource it does not know', create({ hard: { 'count/deployments.apps': '1', 'requests.example.com/gpu': '1' }, scopes: ['BestEffort'] }), []],
    [
      'BestEffort with requests.cpu',
      create({ hard: { 'requests.cpu': '1' }, scopes: ['BestEffort'] }),
      ['spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort"}: unsupported scope applied to resource'],
    ],
    [
      'Terminating with configmaps and secrets: one cause per resource',
      create({ hard: { configmaps: '1', secrets: '1', pods: '1' }, scopes: ['Terminating'] }),
      [
        'spec.scopes: Invalid value: []core.ResourceQuotaScope{"Terminating"}: unsupported scope applied to resource',
        'spec.scopes: Invalid value: []core.ResourceQuotaScope{"Terminating"}: unsupported scope applied to resource',
      ],
    ],
    [
      'an unknown scope',
      create({ hard: { pods: '1' }, scopes: ['Foo'] }),
      ['spec.scopes: Invalid value: []core.ResourceQuotaScope{"Foo"}: unsupported scope'],
    ],
    [
      'conflicting scopes',
      create({ hard: { pods: '1' }, scopes: ['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating'] }),
      [
        'spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort", "Terminating", "NotTerminating"}: conflicting scopes',
        'spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort", "Terminating", "NotTerminating"}: conflicting scopes',
      ],
    ],
    ['PriorityClass and CrossNamespacePodAffinity are known scopes', create({ hard: { pods: '1', cpu: '1' }, scopes: ['PriorityClass', 'CrossNamespacePodAffinity'] }), []],
  ]);
});

describe('ResourceQuota create: scopeSelector', () => {
  const sel = (...exprs: O[]) => ({ matchExpressions: exprs });
  table([
    ['PriorityClass In values', create({ hard: { pods: '1' }, scopeSelector: sel({ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }) }), []],
    ['BestEffort Exists', create({ hard: { pods: '1' }, scopeSelector: sel({ scopeName: 'BestEffort', operator: 'Exists' }) }), []],
    ['PriorityClass DoesNotExist', create({ hard: { cpu: '1' }, scopeSelector: sel({ scopeName: 'PriorityClass', operator: 'DoesNotExist' }) }), []],
    [
      'BestEffort with In: must be Exists (and In needs values)',
      create({ hard: { pods: '1' }, scopeSelector: sel({ scopeName: 'BestEffort', operator: 'In' }) }),
      [
        `spec.scopeSelector.matchExpressions.operator: Invalid value: "In": ${EXISTS_ONLY}`,
        "spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
      ],
    ],
    [
      'Exists with values',
      create({ hard: { pods: '1' }, scopeSelector: sel({ scopeName: 'PriorityClass', operator: 'Exists', values: ['a'] }) }),
      ["spec.scopeSelector.matchExpressions.values: Invalid value: []string{\"a\"}: must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"],
    ],
    [
      'an unknown operator and scope',
      create({ hard: { 'count/foo': '1' }, scopeSelector: sel({ scopeName: 'Foo', operator: 'Gt' }) }),
      [
        'spec.scopeSelector.matchExpressions.scopeName: Invalid value: "Foo": unsupported scope',
        'spec.scopeSelector.matchExpressions.operator: Invalid value: "Gt": not a valid selector operator',
      ],
    ],
    [
      'BestEffort selector with requests.memory: the selector is the value',
      create({ hard: { 'requests.memory': '1Gi' }, scopeSelector: sel({ scopeName: 'BestEffort', operator: 'Exists' }) }),
      [
        'spec.scopeSelector.matchExpressions: Invalid value: core.ScopeSelector{MatchExpressions:[]core.ScopedResourceSelectorRequirement{core.ScopedResourceSelectorRequirement{ScopeName:"BestEffort", Operator:"Exists", Values:[]string(nil)}}}: unsupported scope applied to resource',
      ],
    ],
    [
      'conflicting selector scopes report spec.scopes',
      create({ hard: { pods: '1' }, scopeSelector: sel({ scopeName: 'Terminating', operator: 'Exists' }, { scopeName: 'NotTerminating', operator: 'Exists' }) }),
      ['spec.scopeSelector.matchExpressions: Invalid value: []core.ResourceQuotaScope(nil): conflicting scopes'],
    ],
  ]);
});

describe('ResourceQuota update and /status', () => {
  const old = rq({ hard: { pods: '2' }, scopes: ['BestEffort'] }, { hard: { pods: '2' }, used: { pods: '0' } });
  table([
    ['a hard change within the scopes', () => resourceQuotaValidator.validateUpdate(rq({ hard: { pods: '3' }, scopes: ['BestEffort'] }, old.status as O), old), []],
    [
      'scopes are immutable',
      () => validateResourceQuotaUpdate(rq({ hard: { pods: '2' }, scopes: ['NotBestEffort'] }), old),
      ['spec.scopes: Invalid value: []core.ResourceQuotaScope{"NotBestEffort"}: field is immutable'],
    ],
    [
      'scopes removed',
      () => validateResourceQuotaUpdate(rq({ hard: { pods: '2' } }), old),
      ['spec.scopes: Invalid value: []core.ResourceQuotaScope(nil): field is immutable'],
    ],
    ['scopes reordered are the same set', () => validateResourceQuotaUpdate(rq({ hard: { pods: '2' }, scopes: ['NotTerminating', 'NotBestEffort'] }), rq({ hard: { pods: '2' }, scopes: ['NotBestEffort', 'NotTerminating'] })), []],
    [
      'an invalid spec on update',
      () => resourceQuotaValidator.validateUpdate(rq({ hard: { pods: '-2', 'requests.cpu': '1' }, scopes: ['BestEffort'] }, old.status as O), old),
      [
        'spec.hard[pods]: Invalid value: "-2": must be greater than or equal to 0',
        'spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort"}: unsupported scope applied to resource',
      ],
    ],
    [
      'a /status write with a negative used value',
      () => resourceQuotaValidator.validateUpdate(rq(old.spec as O, { hard: { pods: '2' }, used: { pods: '-1', bogus: '1' } }), old),
      [
        'status.used[bogus]: Invalid value: "bogus": must be a standard resource type or fully qualified',
        'status.used[bogus]: Invalid value: "bogus": must be a standard resource for quota',
        'status.used[pods]: Invalid value: "-1": must be greater than or equal to 0',
      ],
    ],
    ['a /status write with a valid status', () => resourceQuotaValidator.validateUpdate(rq(old.spec as O, { hard: { pods: '2' }, used: { pods: '1', 'count/configmaps': '3' } }), old), []],
    [
      'the status subresource validates the status alone (kube\'s status strategy), even an invalid live spec',
      () => resourceQuotaValidator.validateUpdate(rq({ hard: { pods: '-2' }, scopes: ['BestEffort'] }, { hard: { pods: '2' }, used: { pods: '-1' } }), old, 'status'),
      ['status.used[pods]: Invalid value: "-1": must be greater than or equal to 0'],
    ],
    [
      'the status subresource validates an unchanged status too',
      () => resourceQuotaValidator.validateUpdate(rq(old.spec as O, { hard: { pods: '2' }, used: { 'requests.foo': '1' } }), rq(old.spec as O, { hard: { pods: '2' }, used: { 'requests.foo': '1' } }), 'status'),
      [
        'status.used[requests.foo]: Invalid value: "requests.foo": must be a standard resource type or fully qualified',
        'status.used[requests.foo]: Invalid value: "requests.foo": must be a standard resource for quota',
      ],
    ],
  ]);
});

describe('ResourceQuota helpers and registration', () => {
  it('is registered in the core validators', () => {
    assert.equal(coreValidators().ResourceQuota, resourceQuotaValidator);
  });
  it('quota names', () => {
    for (const n of ['pods', 'requests.storage', 'hugepages-2Mi', 'requests.hugepages-1Gi', 'services.loadbalancers']) assert.equal(isStandardQuotaResourceName(n), true, n);
    for (const n of ['storage', 'foo', 'count/pods', 'limits.storage']) assert.equal(isStandardQuotaResourceName(n), false, n);
  });
  it('integer names: counts, extended resources and group-qualified names in either spelling', () => {
    for (const n of ['pods', 'configmaps', 'count/deployments.apps', 'example.com/gpu', 'gold.storageclass.storage.k8s.io/requests.storage', 'gold.storageclass.storage.svc.io/requests.storage']) assert.equal(isIntegerResourceName(n), true, n);
    for (const n of ['cpu', 'requests.cpu', 'requests.example.com/gpu', 'kubernetes.io/foo', 'svc.io/foo', 'hugepages-2Mi']) assert.equal(isIntegerResourceName(n), false, n);
  });
  it('scope and resource compatibility', () => {
    assert.equal(isScopeValidForResource('BestEffort', 'pods'), true);
    assert.equal(isScopeValidForResource('BestEffort', 'cpu'), false);
    assert.equal(isScopeValidForResource('PriorityClass', 'requests.memory'), true);
    assert.equal(isScopeValidForResource('CrossNamespacePodAffinity', 'services'), false);
    assert.equal(isScopeValidForResource('Unknown', 'services'), true);
  });
  it('goQuantity keeps the text only when Go would (canonical decimal forms)', () => {
    assert.match(goQuantity('1500m').goText, /value:1500, scale:-3\}.*s:"1500m"/);
    assert.match(goQuantity('0.5').goText, /value:5, scale:-1\}.*s:""/);
    assert.match(goQuantity(2.5).goText, /value:25, scale:-1\}/);
    assert.match(goQuantity('1.25k').goText, /value:125, scale:1\}.*s:""/);
  });
});
