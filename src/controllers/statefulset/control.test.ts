// One pass of the StatefulSet algorithm against a fake pod control: what it
// creates, deletes and updates, in order, for each situation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../registry/object.js';
import { updateStatefulSet, type StatefulPodControl } from './control.js';
import { newStatefulSetPod, setPodRevision, type SetSpec } from './identity.js';

const REF = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'set-uid', controller: true, blockOwnerDeletion: true };

function set(spec: SetSpec, extra: Partial<ApiObject['metadata']> = {}): ApiObject {
  return {
    apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web', namespace: 'ns', uid: 'set-uid', generation: 1, ...extra },
    spec: {
      replicas: 3, serviceName: 'web', selector: { matchLabels: { app: 'web' } }, podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }] } }, ...spec,
    },
  };
}

type State = 'pending' | 'ready' | 'running' | 'failed' | 'succeeded' | 'terminating';
/** A created pod `web-<n>` at a revision, in a state. */
function pod(s: ApiObject, n: number, state: State, revision = 'A'): ApiObject {
  const p = newStatefulSetPod(s, n, REF);
  p.metadata.uid = `pod-${n}`;
  setPodRevision(p, revision);
  const phase = { pending: 'Pending', ready: 'Running', running: 'Running', failed: 'Failed', succeeded: 'Succeeded', terminating: 'Running' }[state];
  p.status = { phase, conditions: [{ type: 'Ready', status: state === 'ready' || state === 'terminating' ? 'True' : 'False' }] };
  if (state === 'terminating') p.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
  return p;
}

class FakeControl implements StatefulPodControl {
  readonly actions: string[] = [];
  async createPod(_s: ApiObject, p: ApiObject) { this.actions.push(`create ${p.metadata.name}@${p.metadata.labels!['controller-revision-hash']}`); }
  async updatePod(_s: ApiObject, p: ApiObject) { this.actions.push(`update ${p.metadata.name}`); }
  async deletePod(_s: ApiObject, p: ApiObject) { this.actions.push(`delete ${p.metadata.name}`); }
  async createMissingClaims() {}
  claimsMatchRetentionPolicy() { return true; }
  async updateClaimsForRetentionPolicy() {}
  podClaimIsStale() { return false; }
  event(_s: ApiObject, type: string, reason: string) { this.actions.push(`event ${type} ${reason}`); }
}

const parallel: SetSpec = { podManagementPolicy: 'Parallel' };

const mu = (maxUnavailable: number | string, partition = 0): SetSpec => ({ podManagementPolicy: 'Parallel', replicas: 4, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition, maxUnavailable } } });

const rows: { name: string; spec?: SetSpec; pods: (s: ApiObject) => ApiObject[]; want: string[]; startOrdinal?: boolean; maxUnavailable?: boolean; deleting?: boolean; update?: string }[] = [
  { name: 'OrderedReady from nothing: web-0 only', pods: () => [], want: ['create web-0@A'] },
  { name: 'OrderedReady: web-1 once web-0 is Running and Ready', pods: (s) => [pod(s, 0, 'ready')], want: ['create web-1@A'] },
  { name: 'OrderedReady: web-0 pending blocks', pods: (s) => [pod(s, 0, 'pending')], want: [] },
  { name: 'OrderedReady: web-0 running but not Ready blocks', pods: (s) => [pod(s, 0, 'running')], want: [] },
  { name: 'OrderedReady: a gap is filled first', pods: (s) => [pod(s, 0, 'ready'), pod(s, 2, 'ready')], want: ['create web-1@A'] },
  { name: 'Parallel from nothing: all at once', spec: parallel, pods: () => [], want: ['create web-0@A', 'create web-1@A', 'create web-2@A'] },
  { name: 'Parallel: not blocked by a pending pod', spec: parallel, pods: (s) => [pod(s, 0, 'pending')], want: ['create web-1@A', 'create web-2@A'] },
  { name: 'OrderedReady scale down: the highest ordinal only', spec: { replicas: 1 }, pods: (s) => [pod(s, 0, 'ready'), pod(s, 1, 'ready'), pod(s, 2, 'ready')], want: ['delete web-2'] },
  { name: 'OrderedReady scale down waits for a terminating pod', spec: { replicas: 1 }, pods: (s) => [pod(s, 0, 'ready'), pod(s, 1, 'ready'), pod(s, 2, 'terminating')], want: [] },
  { name: 'OrderedReady scale down: an unhealthy condemned pod is deleted if it is the first unhealthy one', spec: { replicas: 1 }, pods: (s) => [pod(s, 0, 'ready'), pod(s, 1, 'ready'), pod(s, 2, 'pending')], want: ['delete web-2'] },
  { name: 'OrderedReady scale down: a healthy replica set but a lower unhealthy condemned pod blocks the higher', spec: { replicas: 1 }, pods: (s) => [pod(s, 0, 'ready'), pod(s, 1, 'pending'), pod(s, 2, 'running')], want: [] },
  { name: 'Parallel scale down: all condemned at once', spec: { replicas: 1, ...parallel }, pods: (s) => [pod(s, 0, 'ready'), pod(s, 1, 'ready'), pod(s, 2, 'ready')], want: ['delete web-2', 'delete web-1'] },
  { name: 'rolling update: the highest ordinal not at the update revision is deleted', pods: (s) => [0, 1, 2].map((n) => pod(s, n, 'ready')), update: 'B', want: ['delete web-2'] },
  { name: 'rolling update: an updated pod not yet Ready blocks the next', spec: parallel, pods: (s) => [pod(s, 0, 'ready'), pod(s, 1, 'ready'), pod(s, 2, 'pending', 'B')], update: 'B', want: [] },
  { name: 'rolling update continues below an updated Ready pod', pods: (s) => [pod(s, 0, 'ready'), pod(s, 1, 'ready'), pod(s, 2, 'ready', 'B')], update: 'B', want: ['delete web-1'] },
  { name: 'rolling update stops at the partition', spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } }, pods: (s) => [pod(s, 0, 'ready'), pod(s, 1, 'ready'), pod(s, 2, 'ready', 'B')], update: 'B', want: [] },
  { name: 'partition: a missing pod below it is created at the current revision', spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } }, pods: (s) => [pod(s, 0, 'ready')], update: 'B', want: ['create web-1@A'] },
  { name: 'partition: a missing pod at or above it is created at the update revision', spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } }, pods: (s) => [pod(s, 0, 'ready'), pod(s, 1, 'ready')], update: 'B', want: ['create web-2@B'] },
  { name: 'OnDelete: nothing is deleted for an update', spec: { updateStrategy: { type: 'OnDelete' } }, pods: (s) => [0, 1, 2].map((n) => pod(s, n, 'ready')), update: 'B', want: [] },
  { name: 'a failed pod is deleted and created again', pods: (s) => [pod(s, 0, 'ready'), pod(s, 1, 'failed'), pod(s, 2, 'ready')], want: ['event Warning RecreatingFailedPod', 'delete web-1'] },
  { name: 'a failed pod already terminating is waited for', pods: (s) => { const p = pod(s, 1, 'failed'); p.metadata.deletionTimestamp = '2026-01-01T00:00:00Z'; return [pod(s, 0, 'ready'), p, pod(s, 2, 'ready')]; }, want: [] },
  { name: 'Parallel: a failed pod does not hold back the others', spec: parallel, pods: (s) => [pod(s, 0, 'failed')], want: ['event Warning RecreatingFailedPod', 'delete web-0', 'create web-1@A', 'create web-2@A'] },
  { name: 'a succeeded pod is deleted and created again', pods: (s) => [pod(s, 0, 'succeeded'), pod(s, 1, 'ready'), pod(s, 2, 'ready')], want: ['event Normal RecreatingTerminatedPod', 'delete web-0'] },
  { name: 'a pod whose identity label was removed is updated', pods: (s) => { const p = pod(s, 0, 'ready'); delete p.metadata.labels!['statefulset.kubernetes.io/pod-name']; return [p, pod(s, 1, 'ready'), pod(s, 2, 'ready')]; }, want: ['update web-0'] },
  { name: 'StatefulSetStartOrdinal on: ordinals from spec.ordinals.start', spec: { replicas: 2, ordinals: { start: 5 }, ...parallel }, startOrdinal: true, pods: () => [], want: ['create web-5@A', 'create web-6@A'] },
  { name: 'StatefulSetStartOrdinal off: spec.ordinals ignored', spec: { replicas: 2, ordinals: { start: 5 }, ...parallel }, pods: () => [], want: ['create web-0@A', 'create web-1@A'] },
  { name: 'StatefulSetStartOrdinal on: pods below the start are condemned', spec: { replicas: 1, ordinals: { start: 1 } }, startOrdinal: true, pods: (s) => [pod(s, 0, 'ready'), pod(s, 1, 'ready')], want: ['delete web-0'] },
  { name: 'a set being deleted: nothing', deleting: true, pods: () => [], want: [] },
  { name: 'MaxUnavailableStatefulSet: maxUnavailable 2 deletes the two highest at once', spec: mu(2), maxUnavailable: true, pods: (s) => [0, 1, 2, 3].map((n) => pod(s, n, 'ready')), update: 'B', want: ['delete web-3', 'delete web-2'] },
  { name: 'MaxUnavailableStatefulSet: one unhealthy leaves room for one', spec: mu(2), maxUnavailable: true, pods: (s) => [pod(s, 0, 'ready'), pod(s, 1, 'ready'), pod(s, 2, 'ready'), pod(s, 3, 'pending', 'B')], update: 'B', want: ['delete web-2'] },
  { name: 'MaxUnavailableStatefulSet: 50% of 4, down to the partition', spec: mu('50%', 3), maxUnavailable: true, pods: (s) => [0, 1, 2, 3].map((n) => pod(s, n, 'ready')), update: 'B', want: ['delete web-3'] },
  { name: 'MaxUnavailableStatefulSet: 10% rounds down to 0, then 1', spec: mu('10%'), maxUnavailable: true, pods: (s) => [0, 1, 2, 3].map((n) => pod(s, n, 'ready')), update: 'B', want: ['delete web-3'] },
  { name: 'MaxUnavailableStatefulSet off: maxUnavailable ignored', spec: mu(2), pods: (s) => [0, 1, 2, 3].map((n) => pod(s, n, 'ready')), update: 'B', want: ['delete web-3'] },
];

for (const row of rows) {
  test(`updateStatefulSet: ${row.name}`, async () => {
    const s = set(row.spec ?? {}, row.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {});
    const ctl = new FakeControl();
    const { error } = await updateStatefulSet(ctl, {
      set: s, currentSet: s, updateSet: s, currentRevision: 'A', updateRevision: row.update ?? 'A', collisionCount: 0,
      pods: row.pods(s), ref: REF, now: Date.parse('2026-01-01T00:00:00Z'), gates: { startOrdinal: row.startOrdinal ?? false, autoDeletePVC: true, maxUnavailable: row.maxUnavailable ?? false },
    });
    assert.equal(error, undefined);
    assert.deepEqual(ctl.actions, row.want);
  });
}

test('updateStatefulSet: status counts created, ready, current and updated pods', async () => {
  const s = set({});
  const { status } = await updateStatefulSet(new FakeControl(), {
    set: s, currentSet: s, updateSet: s, currentRevision: 'A', updateRevision: 'B', collisionCount: 2,
    pods: [pod(s, 0, 'ready'), pod(s, 1, 'pending'), pod(s, 2, 'ready', 'B')], ref: REF, now: 0, gates: { startOrdinal: false, autoDeletePVC: true },
  });
  assert.deepEqual(status, {
    observedGeneration: 1, currentRevision: 'A', updateRevision: 'B', collisionCount: 2,
    replicas: 3, readyReplicas: 2, availableReplicas: 2, currentReplicas: 2, updatedReplicas: 1,
  });
});

test('updateStatefulSet: a failed create is returned as the error with the status', async () => {
  const s = set({});
  const ctl = new FakeControl();
  ctl.createPod = async () => { throw new Error('quota'); };
  const { status, error } = await updateStatefulSet(ctl, {
    set: s, currentSet: s, updateSet: s, currentRevision: 'A', updateRevision: 'A', collisionCount: 0, pods: [], ref: REF, now: 0, gates: { startOrdinal: false, autoDeletePVC: true },
  });
  assert.equal((error as Error).message, 'quota');
  assert.equal(status.replicas, 0);
});
