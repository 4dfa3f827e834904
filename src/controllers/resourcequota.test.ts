import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../registry/object.js';
import { desiredStatus, needsSync, quotaUsage } from './resourcequota.js';
import { podEvaluator } from '../quota/evaluators/pods.js';
import { objectCountEvaluator } from '../quota/evaluators/objectcount.js';

const quota = (spec: Record<string, unknown>, status?: Record<string, unknown>): ApiObject => ({
  apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'ns' }, spec, ...(status ? { status } : {}),
});
const pod = (name: string, cpu: string, extra: Record<string, unknown> = {}, phase = 'Running'): ApiObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' },
  spec: { containers: [{ name: 'app', resources: { requests: { cpu } } }], ...extra }, status: { phase },
});

test('needsSync: new quota, changed hard, missing used', () => {
  const cases: [string, ApiObject, boolean][] = [
    ['no status', quota({ hard: { pods: '2' } }), true],
    ['in sync', quota({ hard: { pods: '2' } }, { hard: { pods: '2' }, used: { pods: '1' } }), false],
    ['same value, other spelling', quota({ hard: { 'requests.cpu': '1000m' } }, { hard: { 'requests.cpu': '1' }, used: { 'requests.cpu': '0' } }), false],
    ['hard changed', quota({ hard: { pods: '3' } }, { hard: { pods: '2' }, used: { pods: '1' } }), true],
    ['used missing a name', quota({ hard: { pods: '2', 'count/pods': '2' } }, { hard: { pods: '2', 'count/pods': '2' }, used: { pods: '1' } }), true],
  ];
  for (const [name, q, want] of cases) assert.equal(needsSync(q), want, name);
});

test('quotaUsage and desiredStatus: sums what counts and the scopes select', () => {
  const pods = [pod('a', '100m'), pod('b', '250m', { priorityClassName: 'high' }), pod('done', '1', {}, 'Succeeded')];
  const sources = [{ ev: podEvaluator(), objects: pods }, { ev: objectCountEvaluator('', 'configmaps'), objects: [] }];
  const all = quota({ hard: { pods: '10', 'requests.cpu': '2', 'count/configmaps': '5', 'count/secrets': '1' } }, { used: { 'count/secrets': '1', stale: '3' } });
  assert.deepEqual(desiredStatus(all, quotaUsage(all, sources, 0)), {
    hard: { 'count/configmaps': '5', 'count/secrets': '1', pods: '10', 'requests.cpu': '2' },
    used: { 'count/configmaps': '0', 'count/secrets': '1', pods: '2', 'requests.cpu': '350m' },
  });
  const high = quota({ hard: { pods: '10' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } });
  assert.deepEqual(desiredStatus(high, quotaUsage(high, sources, 0)).used, { pods: '1' });
});
