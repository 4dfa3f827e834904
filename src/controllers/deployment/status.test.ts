// Deployment status and conditions as kube's syncRolloutStatus writes them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nowTimestamp } from '../../registry/object.js';
import { setCondition, type DeploymentCondition } from './conditions.js';
import { calculateStatus, recheckAfterMs, rolloutStatus } from './status.js';
import { deployment, replicaSet } from './testing.js';

const NOW = Date.parse('2026-01-01T00:10:00Z');
const at = (secondsAgo: number) => nowTimestamp(NOW - secondsAgo * 1000);
const cond = (type: string, status: DeploymentCondition['status'], reason: string, secondsAgo = 60): DeploymentCondition =>
  ({ type, status, reason, message: 'm', lastUpdateTime: at(secondsAgo), lastTransitionTime: at(secondsAgo) });

describe('deployment status', () => {
  it('counts: replicas and updated from status.replicas, unavailable from spec minus available, never negative', () => {
    const d = deployment({ replicas: 3, generation: 4 });
    const s = calculateStatus(d, [replicaSet({ name: 'old', replicas: 1, actual: 2, available: 2 }), replicaSet({ name: 'new', replicas: 3, actual: 3, available: 1, ready: 2 })], replicaSet({ name: 'new', replicas: 3, actual: 3 }), NOW);
    assert.deepEqual({ ...s, conditions: undefined }, { observedGeneration: 4, replicas: 5, updatedReplicas: 3, readyReplicas: 4, availableReplicas: 3, unavailableReplicas: 1, conditions: undefined });
    const over = calculateStatus(d, [replicaSet({ name: 'a', replicas: 1, available: 3 })], undefined, NOW);
    assert.equal(over.unavailableReplicas, 0);
  });

  const availability: [string, number, number, string, string][] = [
    ['enough available (4 - 25%)', 4, 3, 'True', 'MinimumReplicasAvailable'],
    ['too few available', 4, 2, 'False', 'MinimumReplicasUnavailable'],
  ];
  for (const [name, replicas, available, status, reason] of availability) {
    it(`Available: ${name}`, () => {
      const s = calculateStatus(deployment({ replicas }), [replicaSet({ name: 'n', replicas, available })], undefined, NOW);
      const c = s.conditions!.find((x) => x.type === 'Available')!;
      assert.equal(c.status, status);
      assert.equal(c.reason, reason);
      assert.equal(c.message, status === 'True' ? 'Deployment has minimum availability.' : 'Deployment does not have minimum availability.');
    });
  }

  const progress: { name: string; status: Record<string, unknown>; rs: Parameters<typeof replicaSet>[0]; want: [string, string, string] | undefined }[] = [
    {
      name: 'complete: NewReplicaSetAvailable', status: { conditions: [cond('Progressing', 'True', 'ReplicaSetUpdated')] },
      rs: { name: 'web-1', replicas: 2, available: 2 }, want: ['True', 'NewReplicaSetAvailable', 'ReplicaSet "web-1" has successfully progressed.'],
    },
    {
      name: 'more available than before: ReplicaSetUpdated', status: { availableReplicas: 0, conditions: [cond('Progressing', 'True', 'NewReplicaSetCreated')] },
      rs: { name: 'web-1', replicas: 2, available: 1 }, want: ['True', 'ReplicaSetUpdated', 'ReplicaSet "web-1" is progressing.'],
    },
    {
      name: 'no progress past the deadline: ProgressDeadlineExceeded', status: { replicas: 2, updatedReplicas: 2, conditions: [cond('Progressing', 'True', 'ReplicaSetUpdated', 700)] },
      rs: { name: 'web-1', replicas: 2 }, want: ['False', 'ProgressDeadlineExceeded', 'ReplicaSet "web-1" has timed out progressing.'],
    },
    {
      name: 'no progress within the deadline: unchanged', status: { replicas: 2, updatedReplicas: 2, conditions: [cond('Progressing', 'True', 'ReplicaSetUpdated', 60)] },
      rs: { name: 'web-1', replicas: 2 }, want: ['True', 'ReplicaSetUpdated', 'm'],
    },
  ];
  for (const p of progress) {
    it(`Progressing: ${p.name}`, () => {
      const d = deployment({ replicas: 2, progressDeadlineSeconds: 600, status: p.status });
      const rs = replicaSet(p.rs);
      const c = rolloutStatus(d, [rs], rs, NOW).conditions!.find((x) => x.type === 'Progressing');
      assert.deepEqual(c && [c.status, c.reason, c.message], p.want);
    });
  }

  it('Progressing is dropped without a progress deadline (MaxInt32)', () => {
    const d = deployment({ replicas: 1, progressDeadlineSeconds: 2147483647, status: { conditions: [cond('Progressing', 'True', 'ReplicaSetUpdated')] } });
    const rs = replicaSet({ name: 'n', replicas: 1, available: 1 });
    assert.equal(rolloutStatus(d, [rs], rs, NOW).conditions!.some((x) => x.type === 'Progressing'), false);
  });

  it('a ReplicaSet\'s ReplicaFailure is copied up, and dropped once it is gone', () => {
    const d = deployment({ replicas: 1, progressDeadlineSeconds: 600 });
    const failing = replicaSet({ name: 'n', replicas: 1 });
    (failing.status as Record<string, unknown>).conditions = [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'quota', lastTransitionTime: at(5) }];
    const c = rolloutStatus(d, [failing], failing, NOW).conditions!.find((x) => x.type === 'ReplicaFailure')!;
    assert.deepEqual([c.status, c.reason, c.message, c.lastUpdateTime], ['True', 'FailedCreate', 'quota', at(5)]);
    const healed = deployment({ replicas: 1, progressDeadlineSeconds: 600, status: { conditions: [c] } });
    const rs = replicaSet({ name: 'n', replicas: 1 });
    assert.equal(rolloutStatus(healed, [rs], rs, NOW).conditions!.some((x) => x.type === 'ReplicaFailure'), false);
  });

  it('setCondition: same status and reason changes nothing; same status keeps lastTransitionTime', () => {
    const old = cond('Progressing', 'True', 'ReplicaSetUpdated', 100);
    assert.deepEqual(setCondition([old], cond('Progressing', 'True', 'ReplicaSetUpdated', 0)), [old]);
    const next = setCondition([old], cond('Progressing', 'True', 'NewReplicaSetAvailable', 0))[0]!;
    assert.equal(next.lastTransitionTime, old.lastTransitionTime);
    assert.equal(next.lastUpdateTime, at(0));
    const flipped = setCondition([old], cond('Progressing', 'False', 'ProgressDeadlineExceeded', 0))[0]!;
    assert.equal(flipped.lastTransitionTime, at(0));
  });

  it('a stuck rollout is looked at again a second after its deadline; not when complete or timed out', () => {
    const d = deployment({ replicas: 2, progressDeadlineSeconds: 600, status: { conditions: [cond('Progressing', 'True', 'ReplicaSetUpdated', 100)] } });
    assert.equal(recheckAfterMs(d, { replicas: 2, updatedReplicas: 1, availableReplicas: 1 }, NOW), 501_000);
    assert.equal(recheckAfterMs(d, { replicas: 2, updatedReplicas: 2, availableReplicas: 2, observedGeneration: 1 }, NOW), undefined);
    const late = deployment({ replicas: 2, progressDeadlineSeconds: 600, status: { conditions: [cond('Progressing', 'True', 'ReplicaSetUpdated', 700)] } });
    assert.equal(recheckAfterMs(late, {}, NOW), 1000);
    const timedOut = deployment({ replicas: 2, progressDeadlineSeconds: 600, status: { conditions: [cond('Progressing', 'False', 'ProgressDeadlineExceeded', 700)] } });
    assert.equal(recheckAfterMs(timedOut, {}, NOW), undefined);
  });
});
