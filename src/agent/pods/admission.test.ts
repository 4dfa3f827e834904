import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseResourceList } from '../../quota/resources.js';
import type { ApiObject } from '../../registry/object.js';
import { PodAdmission } from './admission.js';

const pod = (uid: string, cpu: string): ApiObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: uid, namespace: 'ns', uid },
  spec: { containers: [{ name: 'a', image: 'i', resources: { requests: { cpu } } }] },
});

test('pods are admitted until allocatable is used; a verdict stands; released resources are free again', () => {
  const a = new PodAdmission();
  const alloc = parseResourceList({ cpu: '2', memory: '1Gi', pods: '3' });
  assert.equal(a.admit(pod('a', '1500m'), alloc), undefined);
  assert.deepEqual(a.admit(pod('b', '1'), alloc), { reason: 'OutOfcpu', message: "Node didn't have enough resource: cpu, requested: 1000, used: 1500, capacity: 2000" });
  assert.equal(a.rejection('b')?.reason, 'OutOfcpu');
  assert.equal(a.admit(pod('a', '1500m'), alloc), undefined, 'admitted once');
  a.release('a');
  assert.ok(a.admit(pod('b', '1'), alloc), 'a refused pod stays refused');
  assert.equal(a.admit(pod('c', '1'), alloc), undefined);
  assert.equal(a.admit(pod('d', '100m'), alloc), undefined);
  assert.equal(a.admit(pod('e', '100m'), alloc), undefined);
  assert.deepEqual(a.admit(pod('f', '100m'), alloc), { reason: 'OutOfpods', message: "Node didn't have enough resource: pods, requested: 1, used: 3, capacity: 3" });
});
