import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../registry/object.js';
import { attrs, outcome } from '../testutil.js';
import { checkRequest, forWrite, goScopes } from './check.js';
import { podEvaluator } from '../../../quota/evaluators/pods.js';
import { objectCountEvaluator } from '../../../quota/evaluators/objectcount.js';
import type { LimitedResource } from './config.js';

const ev = podEvaluator();
const pod = (name: string, cpu?: string, extra: Record<string, unknown> = {}): ApiObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', resourceVersion: '5' },
  spec: { containers: [{ name: 'app', image: 'x', ...(cpu ? { resources: { requests: { cpu } } } : {}) }], ...extra },
});
const quota = (name: string, hard: Record<string, string> | undefined, used?: Record<string, string>, spec: Record<string, unknown> = {}): ApiObject => ({
  apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace: 'ns', resourceVersion: '1' },
  spec: { hard: hard ?? {}, ...spec }, ...(hard ? { status: { hard, ...(used ? { used } : {}) } } : {}),
});
const usedOf = (q: ApiObject | undefined) => (q && (forWrite(q).status as { used?: unknown } | undefined))?.used;

test('checkRequest: refusals with kube texts', async () => {
  const cases: [string, ApiObject[], ApiObject, string, number][] = [
    ['over quota', [quota('counts', { pods: '2', 'count/configmaps': '2' }, { pods: '2' })], pod('p3', '100m'),
      'pods "p3" is forbidden: exceeded quota: counts, requested: pods=1, used: pods=2, limited: pods=2', 403],
    ['two resources over', [quota('q', { pods: '1', 'requests.cpu': '500m' }, { pods: '1', 'requests.cpu': '400m' })], pod('p', '200m'),
      'pods "p" is forbidden: exceeded quota: q, requested: pods=1,requests.cpu=200m, used: pods=1,requests.cpu=400m, limited: pods=1,requests.cpu=500m', 403],
    ['status unknown', [quota('counts', { pods: '2', 'count/pods': '2' }, { pods: '0' })], pod('p', '1'),
      'pods "p" is forbidden: status unknown for quota: counts, resources: count/pods,pods', 403],
    ['constraints', [quota('compute', { 'requests.cpu': '1' }, { 'requests.cpu': '0' })], pod('p1'),
      'pods "p1" is forbidden: failed quota: compute: must specify requests.cpu for: app', 403],
  ];
  for (const [name, quotas, obj, message, code] of cases) {
    const s = await outcome(() => checkRequest(quotas, attrs({ object: obj }), ev, []));
    assert.equal(s?.message, message, name);
    assert.equal(s?.code, code, name);
  }
});

test('checkRequest: usage recorded per matching quota', () => {
  const quotas = [
    quota('counts', { pods: '2' }, { pods: '1' }),
    quota('compute', { 'requests.cpu': '1' }, { 'requests.cpu': '0' }),
    quota('nostatus', undefined),
    quota('high', { pods: '5' }, { pods: '0' }, { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } }),
  ];
  const out = checkRequest(quotas, attrs({ object: pod('p', '300m') }), ev, []);
  assert.deepEqual(usedOf(out[0]), { pods: '2' });
  assert.deepEqual(usedOf(out[1]), { 'requests.cpu': '300m' });
  assert.equal(out[2], quotas[2]);
  assert.equal(out[3], quotas[3], 'scoped quota not matching the pod is untouched');
  const high = checkRequest(quotas, attrs({ object: pod('p', '300m', { priorityClassName: 'high' }) }), ev, []);
  assert.deepEqual(usedOf(high[3]), { pods: '1' });
});

test('checkRequest: update charges the delta; no change, no write', () => {
  const quotas = [quota('compute', { 'requests.cpu': '1' }, { 'requests.cpu': '500m' })];
  const updating = { ...podEvaluator(), handles: () => true };
  const up = checkRequest(quotas, attrs({ operation: 'UPDATE', object: pod('p', '700m'), oldObject: pod('p', '400m') }), updating, []);
  assert.deepEqual(usedOf(up[0]), { 'requests.cpu': '800m' });
  const same = checkRequest(quotas, attrs({ operation: 'UPDATE', object: pod('p', '400m'), oldObject: pod('p', '400m') }), updating, []);
  assert.equal(same, quotas);
  const down = checkRequest(quotas, attrs({ operation: 'UPDATE', object: pod('p', '100m'), oldObject: pod('p', '400m') }), updating, []);
  assert.equal(down, quotas, 'a decrease is not credited by admission (the controller releases)');
  // an old object without resourceVersion (create on update) is charged in full
  const old = pod('p', '400m');
  delete old.metadata.resourceVersion;
  const full = checkRequest(quotas, attrs({ operation: 'UPDATE', object: pod('p', '400m'), oldObject: old }), updating, []);
  assert.deepEqual(usedOf(full[0]), { 'requests.cpu': '900m' });
});

test('checkRequest: limitedResources', async () => {
  const limited: LimitedResource[] = [{ apiGroup: '', resource: 'pods', matchContains: ['requests.cpu'], matchScopes: [] }];
  const none = await outcome(() => checkRequest([], attrs({ object: pod('p', '100m') }), ev, limited));
  assert.equal(none?.message, 'pods "p" is forbidden: insufficient quota to consume: requests.cpu');
  assert.equal(await outcome(() => checkRequest([], attrs({ object: pod('p') }), ev, limited)), undefined, 'nothing of the limited names consumed');
  const covered = checkRequest([quota('c', { 'requests.cpu': '1' }, { 'requests.cpu': '0' })], attrs({ object: pod('p', '100m') }), ev, limited);
  assert.deepEqual(usedOf(covered[0]), { 'requests.cpu': '100m' });

  const scoped: LimitedResource[] = [{ apiGroup: '', resource: 'pods', matchContains: [], matchScopes: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] }];
  const s = await outcome(() => checkRequest([quota('q', { pods: '5' }, { pods: '0' })], attrs({ object: pod('p', '1', { priorityClassName: 'high' }) }), ev, scoped));
  assert.equal(s?.message, 'insufficient quota to match these scopes: [{PriorityClass In [high]}]');
  assert.equal(s?.code, 500);
  const highQuota = quota('q', { pods: '5' }, { pods: '0' }, { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } });
  assert.equal(await outcome(() => checkRequest([highQuota], attrs({ object: pod('p', '1', { priorityClassName: 'high' }) }), ev, scoped)), undefined);
  assert.equal(goScopes([{ scopeName: 'BestEffort', operator: 'Exists' }]), '[{BestEffort Exists []}]');
});

test('object count evaluator: count/<resource>.<group>, both spellings', () => {
  const cm = objectCountEvaluator('', 'configmaps');
  const quotas = [quota('q', { 'count/configmaps': '1' }, { 'count/configmaps': '0' })];
  const out = checkRequest(quotas, attrs({ resource: 'configmaps', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } } }), cm, []);
  assert.deepEqual(usedOf(out[0]), { 'count/configmaps': '1' });
  const ing = objectCountEvaluator('networking.svc.io', 'ingresses');
  assert.deepEqual(ing.matchingResources(['count/ingresses.networking.k8s.io', 'pods', 'count/ingresses.networking.svc.io']),
    ['count/ingresses.networking.k8s.io', 'count/ingresses.networking.svc.io']);
});
