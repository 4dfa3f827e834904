import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { isActive, isFailed, pastBackoffLimitOnFailure, podFromTemplate, podGenerateName } from './pods.js';

const job = (spec: Record<string, unknown> = {}, name = 'pi'): ApiObject => ({
  apiVersion: 'batch/v1', kind: 'Job', metadata: { name, namespace: 'ns', uid: 'u1' },
  spec: {
    template: { metadata: { labels: { app: 'x', 'controller-uid': 'u1' }, annotations: { a: 'b' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }], initContainers: [{ name: 'init', image: 'i', env: [{ name: 'K', value: 'v' }] }] } },
    ...spec,
  },
});
const ENV = { name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } } };

describe('podFromTemplate', () => {
  it('a NonIndexed pod: template labels plus the Job\'s, finalizer, controller reference', () => {
    const pod = podFromTemplate(job());
    assert.deepEqual(pod.metadata, {
      generateName: 'pi-', namespace: 'ns',
      labels: { app: 'x', 'controller-uid': 'u1', 'batch.kubernetes.io/controller-uid': 'u1', 'batch.kubernetes.io/job-name': 'pi' },
      annotations: { a: 'b' },
      finalizers: ['batch.kubernetes.io/job-tracking'],
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'pi', uid: 'u1', controller: true, blockOwnerDeletion: true }],
    });
    assert.equal((pod.spec as { hostname?: string }).hostname, undefined);
  });
  it('an Indexed pod: index annotation, env in every container, hostname', () => {
    const pod = podFromTemplate(job({ completionMode: 'Indexed' }), 3);
    assert.equal(pod.metadata.generateName, 'pi-3-');
    assert.equal(pod.metadata.annotations!['batch.kubernetes.io/job-completion-index'], '3');
    const spec = pod.spec as { hostname: string; containers: { env: unknown[] }[]; initContainers: { env: unknown[] }[] };
    assert.equal(spec.hostname, 'pi-3');
    assert.deepEqual(spec.containers[0]!.env, [ENV]);
    assert.deepEqual(spec.initContainers[0]!.env, [{ name: 'K', value: 'v' }, ENV]);
  });
  it('a manual selector: no labels added', () => {
    assert.deepEqual(podFromTemplate(job({ manualSelector: true })).metadata.labels, { app: 'x', 'controller-uid': 'u1' });
  });
  it('the template is not changed', () => {
    const j = job({ completionMode: 'Indexed' });
    const before = JSON.stringify(j);
    podFromTemplate(j, 1);
    assert.equal(JSON.stringify(j), before);
  });
});

describe('podGenerateName', () => {
  const long = 'x'.repeat(63);
  const cases: [string, number | undefined, string][] = [['pi', undefined, 'pi-'], ['pi', 12, 'pi-12-'], [long, undefined, 'x'.repeat(58)], [long, 7, `${'x'.repeat(55)}-7-`]];
  for (const [name, ix, want] of cases) it(`${name.slice(0, 8)} ${ix}`, () => assert.equal(podGenerateName(name, ix), want));
});

describe('pod predicates', () => {
  const pod = (phase: string, deleting = false): ApiObject => ({ metadata: { ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) }, status: { phase } });
  const cases: { name: string; pod: ApiObject; active: boolean; failed: boolean; failedWithPolicy: boolean }[] = [
    { name: 'pending', pod: pod('Pending'), active: true, failed: false, failedWithPolicy: false },
    { name: 'running', pod: pod('Running'), active: true, failed: false, failedWithPolicy: false },
    { name: 'failed', pod: pod('Failed'), active: false, failed: true, failedWithPolicy: true },
    { name: 'succeeded', pod: pod('Succeeded'), active: false, failed: false, failedWithPolicy: false },
    { name: 'running on a node, being deleted: failed; with a policy, once the node says so', pod: { ...pod('Running', true), spec: { nodeName: 'n1' } }, active: false, failed: true, failedWithPolicy: false },
    { name: 'unscheduled, being deleted: failed (with a policy, as the pod GC marks it)', pod: pod('Pending', true), active: false, failed: true, failedWithPolicy: true },
    { name: 'succeeded, being deleted', pod: pod('Succeeded', true), active: false, failed: false, failedWithPolicy: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(isActive(c.pod), c.active);
      assert.equal(isFailed(c.pod, false), c.failed);
      assert.equal(isFailed(c.pod, true), c.failedWithPolicy);
    });
  }
});

describe('pastBackoffLimitOnFailure', () => {
  const pod = (phase: string, restarts: number[], init: number[] = []): ApiObject => ({
    metadata: {}, status: { phase, containerStatuses: restarts.map((restartCount) => ({ restartCount })), initContainerStatuses: init.map((restartCount) => ({ restartCount })) },
  });
  const cases: { name: string; policy: string; pods: ApiObject[]; limit: number; want: boolean }[] = [
    { name: 'Never: restarts do not count', policy: 'Never', pods: [pod('Running', [9])], limit: 1, want: false },
    { name: 'restarts below the limit', policy: 'OnFailure', pods: [pod('Running', [1]), pod('Pending', [1])], limit: 3, want: false },
    { name: 'restarts of running and pending pods reach the limit', policy: 'OnFailure', pods: [pod('Running', [1], [1]), pod('Pending', [1])], limit: 3, want: true },
    { name: 'finished pods are not counted', policy: 'OnFailure', pods: [pod('Failed', [5]), pod('Succeeded', [5])], limit: 3, want: false },
    { name: 'limit 0: any restart', policy: 'OnFailure', pods: [pod('Running', [1])], limit: 0, want: true },
    { name: 'limit 0, no restart', policy: 'OnFailure', pods: [pod('Running', [0])], limit: 0, want: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(pastBackoffLimitOnFailure(c.policy, c.pods, c.limit), c.want));
});
