// The pod evaluator: usage (init containers, overhead, hugepages, extended
// resources, terminal pods), names, scopes with every operator, constraints.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import type { ScopedResourceSelectorRequirement } from '../evaluator.js';
import { podEvaluator } from './pods.js';
import { obj, quota, texts } from './testutil.js';

const ev = podEvaluator();
const c = (name: string, requests?: Record<string, string>, limits?: Record<string, string>) => ({ name, image: 'i', resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) } });
const pod = (spec: Record<string, unknown>, extra: Partial<ApiObject> = {}) => obj(spec, extra);

describe('pod usage', () => {
  const NOW = Date.parse('2026-01-01T00:00:10Z');
  const rows: [string, ApiObject, Record<string, string>][] = [
    ['best effort: only the counts', pod({ containers: [c('a')] }), { 'count/pods': '1', pods: '1' }],
    ['requests and limits summed over containers', pod({ containers: [c('a', { cpu: '100m', memory: '1Gi' }, { cpu: '200m', memory: '1Gi' }), c('b', { cpu: '1' }, { cpu: '1' })] }), {
      'count/pods': '1', pods: '1', cpu: '1100m', 'requests.cpu': '1100m', 'limits.cpu': '1200m', memory: '1Gi', 'requests.memory': '1Gi', 'limits.memory': '1Gi',
    }],
    ['ephemeral storage', pod({ containers: [c('a', { 'ephemeral-storage': '1Gi' }, { 'ephemeral-storage': '2Gi' })] }), {
      'count/pods': '1', pods: '1', 'ephemeral-storage': '1Gi', 'requests.ephemeral-storage': '1Gi', 'limits.ephemeral-storage': '2Gi',
    }],
    ['an init container larger than the sum wins', pod({ initContainers: [c('i', { cpu: '2' }, { cpu: '3' })], containers: [c('a', { cpu: '500m', memory: '64Mi' }), c('b', { cpu: '500m' })] }), {
      'count/pods': '1', pods: '1', cpu: '2', 'requests.cpu': '2', 'limits.cpu': '3', memory: '64Mi', 'requests.memory': '64Mi',
    }],
    ['init containers are not summed (max of each)', pod({ initContainers: [c('i1', { cpu: '300m' }), c('i2', { cpu: '400m' })], containers: [c('a', { cpu: '500m' })] }), {
      'count/pods': '1', pods: '1', cpu: '500m', 'requests.cpu': '500m',
    }],
    ['overhead added to requests, and to limits the pod has', pod({ overhead: { cpu: '250m', memory: '120Mi' }, containers: [c('a', { cpu: '1', memory: '1Gi' }, { cpu: '2' })] }), {
      'count/pods': '1', pods: '1', cpu: '1250m', 'requests.cpu': '1250m', 'limits.cpu': '2250m', memory: '1144Mi', 'requests.memory': '1144Mi',
    }],
    ['hugepages: the size and requests.<size>', pod({ containers: [c('a', { 'hugepages-2Mi': '100Mi', memory: '1Gi' }, { 'hugepages-2Mi': '100Mi', memory: '1Gi' })] }), {
      'count/pods': '1', pods: '1', 'hugepages-2Mi': '100Mi', 'requests.hugepages-2Mi': '100Mi', memory: '1Gi', 'requests.memory': '1Gi', 'limits.memory': '1Gi',
    }],
    ['extended resources: requests.<name> only', pod({ containers: [c('a', { 'example.com/gpu': '2' }, { 'example.com/gpu': '2' })] }), {
      'count/pods': '1', pods: '1', 'requests.example.com/gpu': '2',
    }],
    ['a native prefixed resource is not extended', pod({ containers: [c('a', { 'kubernetes.io/foo': '1' })] }), { 'count/pods': '1', pods: '1' }],
    ['Succeeded: only count/pods', pod({ containers: [c('a', { cpu: '1' })] }, { status: { phase: 'Succeeded' } }), { 'count/pods': '1' }],
    ['Failed: only count/pods', pod({ containers: [c('a', { cpu: '1' })] }, { status: { phase: 'Failed' } }), { 'count/pods': '1' }],
    ['deleting within its grace: counts', pod({ containers: [c('a', { cpu: '1' })] }, { metadata: { name: 'x', deletionTimestamp: '2026-01-01T00:00:00Z', deletionGracePeriodSeconds: 30 } }), {
      'count/pods': '1', pods: '1', cpu: '1', 'requests.cpu': '1',
    }],
    ['past its deletion grace: only count/pods', pod({ containers: [c('a', { cpu: '1' })] }, { metadata: { name: 'x', deletionTimestamp: '2026-01-01T00:00:00Z', deletionGracePeriodSeconds: 5 } }), { 'count/pods': '1' }],
  ];
  for (const [name, p, want] of rows) it(name, () => assert.deepEqual(texts(ev.usage(p, NOW)), want));

  it('counts follows the phase and the deletion grace', () => {
    assert.equal(ev.counts(rows[1]![1], NOW), true);
    assert.equal(ev.counts(rows[9]![1], NOW), false);
    assert.equal(ev.counts(rows[12]![1], NOW), false);
    assert.equal(ev.counts(rows[11]![1], NOW), true);
  });
});

describe('pod matchingResources', () => {
  const rows: [string[], string[]][] = [
    [['pods', 'count/pods', 'cpu', 'limits.memory', 'requests.ephemeral-storage'], ['pods', 'count/pods', 'cpu', 'limits.memory', 'requests.ephemeral-storage']],
    [['services', 'secrets', 'requests.storage', 'count/services'], []],
    [['hugepages-1Gi', 'requests.hugepages-2Mi'], ['hugepages-1Gi', 'requests.hugepages-2Mi']],
    [['requests.example.com/gpu', 'limits.example.com/gpu', 'example.com/gpu'], ['requests.example.com/gpu']],
    [['requests.kubernetes.io/x', 'pods', 'pods'], ['pods']],
  ];
  for (const [input, want] of rows) it(input.join(','), () => assert.deepEqual(ev.matchingResources(input), want));
});

describe('pod scopes', () => {
  const best = pod({ containers: [c('a')] });
  const burst = pod({ containers: [c('a', { cpu: '1' })], activeDeadlineSeconds: 30, priorityClassName: 'high' });
  const zeroDeadline = pod({ containers: [c('a')], activeDeadlineSeconds: 0, priorityClassName: 'low' });
  const crossNs = pod({ containers: [c('a')], affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { topologyKey: 'k', namespaceSelector: {} } }] } } });
  const crossNsList = pod({ containers: [c('a')], affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'k', namespaces: ['other'] }] } } });
  const sameNs = pod({ containers: [c('a')], affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'k', namespaces: [] }] } } });
  const pc = (operator: ScopedResourceSelectorRequirement['operator'], values?: string[]): ScopedResourceSelectorRequirement => ({ scopeName: 'PriorityClass', operator, ...(values ? { values } : {}) });
  const rows: [string, ScopedResourceSelectorRequirement, ApiObject, boolean][] = [
    ['Terminating with a deadline', { scopeName: 'Terminating', operator: 'Exists' }, burst, true],
    ['Terminating with deadline 0', { scopeName: 'Terminating', operator: 'Exists' }, zeroDeadline, true],
    ['Terminating without', { scopeName: 'Terminating', operator: 'Exists' }, best, false],
    ['NotTerminating without', { scopeName: 'NotTerminating', operator: 'Exists' }, best, true],
    ['NotTerminating with', { scopeName: 'NotTerminating', operator: 'Exists' }, burst, false],
    ['BestEffort', { scopeName: 'BestEffort', operator: 'Exists' }, best, true],
    ['BestEffort (burstable)', { scopeName: 'BestEffort', operator: 'Exists' }, burst, false],
    ['NotBestEffort', { scopeName: 'NotBestEffort', operator: 'Exists' }, burst, true],
    ['NotBestEffort (best effort)', { scopeName: 'NotBestEffort', operator: 'Exists' }, best, false],
    ['PriorityClass In, named', pc('In', ['high', 'mid']), burst, true],
    ['PriorityClass In, other', pc('In', ['mid']), burst, false],
    ['PriorityClass In, no class', pc('In', ['high']), best, false],
    ['PriorityClass In without values', pc('In', []), burst, false],
    ['PriorityClass NotIn, other', pc('NotIn', ['mid']), burst, true],
    ['PriorityClass NotIn, named', pc('NotIn', ['high']), burst, false],
    ['PriorityClass NotIn, no class', pc('NotIn', ['high']), best, true],
    ['PriorityClass Exists', pc('Exists'), zeroDeadline, true],
    ['PriorityClass Exists, no class', pc('Exists'), best, false],
    ['PriorityClass DoesNotExist, no class', pc('DoesNotExist'), best, true],
    ['PriorityClass DoesNotExist, named', pc('DoesNotExist'), burst, false],
    ['CrossNamespacePodAffinity: namespaceSelector in a preferred anti-affinity term', { scopeName: 'CrossNamespacePodAffinity', operator: 'Exists' }, crossNs, true],
    ['CrossNamespacePodAffinity: namespaces in a required term', { scopeName: 'CrossNamespacePodAffinity', operator: 'Exists' }, crossNsList, true],
    ['CrossNamespacePodAffinity: own namespace only', { scopeName: 'CrossNamespacePodAffinity', operator: 'Exists' }, sameNs, false],
    ['an unknown scope', { scopeName: 'VolumeAttributesClass', operator: 'Exists' }, best, false],
  ];
  for (const [name, sel, p, want] of rows) {
    it(`${name}: matchingScopes`, () => assert.deepEqual(ev.matchingScopes(p, [sel]), want ? [sel] : []));
    it(`${name}: a quota with it in scopeSelector`, () => assert.equal(ev.matchesScopes(quota({ hard: { pods: '1' }, scopeSelector: { matchExpressions: [sel] } }), p), want));
  }

  it('spec.scopes and scopeSelector are and-ed; no scopes match every pod', () => {
    const q = quota({ scopes: ['NotBestEffort', 'Terminating'], scopeSelector: { matchExpressions: [pc('In', ['high'])] } });
    assert.equal(ev.matchesScopes(q, burst), true);
    assert.equal(ev.matchesScopes(quota({ scopes: ['NotBestEffort', 'NotTerminating'] }), burst), false);
    assert.equal(ev.matchesScopes(quota({ hard: { pods: '1' } }), best), true);
  });

  it('uncoveredScopes: the limited scopes no quota scope names', () => {
    const limited = [pc('In', ['high']), { scopeName: 'BestEffort', operator: 'Exists' as const }];
    assert.deepEqual(ev.uncoveredScopes(limited, [pc('Exists')]), [limited[1]]);
    assert.deepEqual(ev.uncoveredScopes(limited, []), limited);
    assert.deepEqual(ev.uncoveredScopes(limited, [{ scopeName: 'BestEffort', operator: 'Exists' }, pc('NotIn', ['x'])]), []);
  });
});

describe('pod constraints', () => {
  const p = pod({ initContainers: [c('init', { cpu: '1' })], containers: [c('a', { cpu: '1', memory: '1Gi' }, { cpu: '1' }), c('b')] });
  const rows: [string[], string | undefined][] = [
    [['pods', 'requests.storage'], undefined],
    [['hugepages-2Mi', 'ephemeral-storage', 'limits.ephemeral-storage'], undefined],
    [['requests.cpu'], 'must specify requests.cpu for: b'],
    [['cpu', 'limits.memory', 'pods'], 'must specify cpu for: b; limits.memory for: a,b,init'],
    [['memory', 'limits.cpu'], 'must specify limits.cpu for: b,init; memory for: b,init'],
  ];
  for (const [required, want] of rows) it(required.join(','), () => assert.equal(ev.constraints(required, p), want));
  it('a value that is not a quantity states nothing; limits do not state requests', () => {
    const odd = pod({ containers: [c('x', { cpu: 'lots' }, { memory: '1Gi' })] });
    assert.equal(ev.constraints(['requests.cpu', 'requests.memory', 'limits.memory'], odd), 'must specify requests.cpu for: x; requests.memory for: x');
  });
});

describe('pod handles', () => {
  it('creates only (v1.27, InPlacePodVerticalScaling off); never subresources', () => {
    assert.equal(ev.handles('CREATE', ''), true);
    assert.equal(ev.handles('UPDATE', ''), false);
    assert.equal(ev.handles('DELETE', ''), false);
    assert.equal(ev.handles('CREATE', 'binding'), false);
    assert.equal(podEvaluator({ inPlacePodVerticalScaling: true }).handles('UPDATE', ''), true);
  });
});
