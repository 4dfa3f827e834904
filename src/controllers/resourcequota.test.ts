import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../registry/object.js';
import { desiredStatus, objectEventRecounts, quotaEventSyncs, quotaUsage } from './resourcequota.js';
import type { UsageEvaluator } from '../quota/evaluator.js';
import { serviceEvaluator } from '../quota/evaluators/services.js';
import { persistentVolumeClaimEvaluator } from '../quota/evaluators/persistentvolumeclaims.js';
import { podEvaluator } from '../quota/evaluators/pods.js';
import { objectCountEvaluator } from '../quota/evaluators/objectcount.js';

const quota = (spec: Record<string, unknown>, status?: Record<string, unknown>): ApiObject => ({
  apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'ns' }, spec, ...(status ? { status } : {}),
});
const pod = (name: string, cpu: string, extra: Record<string, unknown> = {}, phase = 'Running'): ApiObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' },
  spec: { containers: [{ name: 'app', resources: { requests: { cpu } } }], ...extra }, status: { phase },
});

test('quotaEventSyncs: a new quota, or a changed spec.hard; never a status write alone (kube updateQuota)', () => {
  const q = (hard: Record<string, string>, status?: Record<string, unknown>, rv = '1') =>
    ({ ...quota({ hard }, status), metadata: { name: 'q', namespace: 'ns', resourceVersion: rv } }) as ApiObject;
  const cases: [string, ApiObject | undefined, ApiObject, boolean][] = [
    ['first seen, no status', undefined, q({ pods: '2' }), true],
    ['first seen, status in sync', undefined, q({ pods: '2' }, { hard: { pods: '2' }, used: { pods: '0' } }), true],
    ['status.used written (admission or controller)', q({ pods: '2' }, { hard: { pods: '2' }, used: { pods: '0' } }), q({ pods: '2' }, { hard: { pods: '2' }, used: { pods: '1' } }, '2'), false],
    ['status cleared by hand', q({ pods: '2' }, { hard: { pods: '2' }, used: { pods: '0' } }), q({ pods: '2' }, undefined, '2'), false],
    ['same hard, other spelling', q({ 'requests.cpu': '1' }), q({ 'requests.cpu': '1000m' }, undefined, '2'), false],
    ['hard raised', q({ pods: '2' }), q({ pods: '3' }, undefined, '2'), true],
    ['hard name added', q({ pods: '2' }), q({ pods: '2', 'count/secrets': '1' }, undefined, '2'), true],
    ['hard name removed', q({ pods: '2', 'count/secrets': '1' }), q({ pods: '2' }, undefined, '2'), true],
  ];
  for (const [name, old, cur, want] of cases) assert.equal(quotaEventSyncs(old, cur), want, name);
});

test('objectEventRecounts: deletes; pods that stop counting; service type changes; never creates (kube DefaultUpdateFilter)', () => {
  const NOW = Date.parse('2026-01-01T00:01:00Z');
  const pods = podEvaluator();
  const svcs = serviceEvaluator();
  const claims = persistentVolumeClaimEvaluator();
  const cms = objectCountEvaluator('', 'configmaps');
  const running = pod('a', '1');
  const deleting = (grace: number): ApiObject => ({ ...running, metadata: { ...running.metadata, deletionTimestamp: '2026-01-01T00:00:00Z', deletionGracePeriodSeconds: grace } });
  const svc = (type?: string): ApiObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'ns' }, spec: { ...(type ? { type } : {}), ports: [{ port: 80 }] } });
  const claim = (size: string): ApiObject => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c', namespace: 'ns' }, spec: { resources: { requests: { storage: size } } } });
  const cases: [string, UsageEvaluator, ApiObject | undefined, ApiObject | undefined, boolean][] = [
    ['pod created', pods, undefined, running, false],
    ['pod deleted', pods, running, undefined, true],
    ['pod status written, still running', pods, pod('a', '1', {}, 'Pending'), running, false],
    ['pod succeeded', pods, running, pod('a', '1', {}, 'Succeeded'), true],
    ['pod failed', pods, running, pod('a', '1', {}, 'Failed'), true],
    ['terminal pod updated again', pods, pod('a', '1', {}, 'Failed'), pod('a', '1', { nodeName: 'n' }, 'Failed'), false],
    ['pod deleting within its grace', pods, running, deleting(3600), false],
    ['pod deleting past its grace', pods, running, deleting(30), true],
    ['pod past its grace on both sides (kube evaluates both at now)', pods, deleting(30), deleting(30), false],
    ['service ClusterIP to NodePort', svcs, svc(), svc('NodePort'), true],
    ['service LoadBalancer to ClusterIP', svcs, svc('LoadBalancer'), svc('ClusterIP'), true],
    ['service ClusterIP to ExternalName (both no quota type)', svcs, svc('ClusterIP'), svc('ExternalName'), false],
    ['service label change', svcs, svc('NodePort'), svc('NodePort'), false],
    ['claim resized, gate off', claims, claim('1Gi'), claim('2Gi'), false],
    ['claim deleted', claims, claim('1Gi'), undefined, true],
    ['configmap updated', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns' } }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns' }, data: { a: 'b' } }, false],
  ];
  for (const [name, ev, old, cur, want] of cases) assert.equal(objectEventRecounts(ev, old, cur, NOW), want, name);
  assert.equal(objectEventRecounts(persistentVolumeClaimEvaluator({ recoverVolumeExpansionFailure: true }), claim('1Gi'), claim('1Gi'), NOW), true, 'claim updated, RecoverVolumeExpansionFailure on');
  const allocated = (cpu: string): ApiObject => ({ ...running, status: { phase: 'Running', containerStatuses: [{ name: 'app', allocatedResources: { cpu } }] } });
  assert.equal(objectEventRecounts(podEvaluator({ inPlacePodVerticalScaling: true }), allocated('1'), allocated('2'), NOW), true, 'allocated resources changed, InPlacePodVerticalScaling on');
  assert.equal(objectEventRecounts(podEvaluator({ inPlacePodVerticalScaling: true }), allocated('1'), allocated('1000m'), NOW), false, 'allocated resources the same, InPlacePodVerticalScaling on');
  assert.equal(objectEventRecounts(pods, allocated('1'), allocated('2'), NOW), false, 'allocated resources changed, gate off');
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
