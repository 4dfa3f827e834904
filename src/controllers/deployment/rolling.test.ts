// The rollout steps against a recording Scaler: what each step writes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reconcileNewReplicaSet, reconcileOldReplicaSets, scaleDeployment } from './rolling.js';
import { deployment, recordingScaler, replicaSet, type DeploymentFixture, type RSFixture } from './testing.js';

interface Step {
  name: string;
  d: DeploymentFixture;
  newRS: RSFixture;
  olds: RSFixture[];
  writes: string[];
}

describe('rolling update steps', () => {
  const up: Step[] = [
    { name: 'first step takes the surge', d: { replicas: 4 }, newRS: { name: 'new', replicas: 0 }, olds: [{ name: 'old', replicas: 4, available: 4 }], writes: ['new=1'] },
    { name: 'no surge left: nothing', d: { replicas: 4 }, newRS: { name: 'new', replicas: 1 }, olds: [{ name: 'old', replicas: 4, available: 4 }], writes: [] },
    { name: 'a new ReplicaSet larger than replicas shrinks to replicas', d: { replicas: 2 }, newRS: { name: 'new', replicas: 3 }, olds: [], writes: ['new=2'] },
    { name: 'maxSurge 0: waits for old ones to shrink', d: { replicas: 3, surge: 0, unavailable: 1 }, newRS: { name: 'new', replicas: 0 }, olds: [{ name: 'old', replicas: 3, available: 3 }], writes: [] },
  ];
  for (const s of up) {
    it(`scale up: ${s.name}`, async () => {
      const d = deployment(s.d);
      const scaler = recordingScaler(d);
      const newRS = replicaSet(s.newRS);
      await reconcileNewReplicaSet(scaler, d, [...s.olds.map(replicaSet), newRS], newRS);
      assert.deepEqual(scaler.writes, s.writes);
    });
  }

  const down: Step[] = [
    { name: 'one old replica goes while one may be unavailable', d: { replicas: 4 }, newRS: { name: 'new', replicas: 1 }, olds: [{ name: 'old', replicas: 4, available: 4 }], writes: ['old=3'] },
    { name: 'nothing while the new pods are not available yet', d: { replicas: 4 }, newRS: { name: 'new', replicas: 2 }, olds: [{ name: 'old', replicas: 3, available: 3 }], writes: [] },
    { name: 'as new pods become available, old ones go', d: { replicas: 4 }, newRS: { name: 'new', replicas: 2, available: 2 }, olds: [{ name: 'old', replicas: 3, available: 3 }], writes: ['old=1'] },
    {
      // the old ReplicaSet was just shrunk to 2 and its status still counts the pod being removed: 2 count, not 3
      name: 'an old ReplicaSet\'s available pods beyond its replicas are on their way out: not counted', d: { replicas: 4 },
      newRS: { name: 'new', replicas: 2, available: 2 }, olds: [{ name: 'old', replicas: 2, available: 3 }], writes: ['old=1'],
    },
    {
      name: 'unhealthy old replicas go first, oldest ReplicaSet first', d: { replicas: 4, surge: 0, unavailable: 1 },
      newRS: { name: 'new', replicas: 0 },
      olds: [{ name: 'b', replicas: 2, available: 1, created: 2 }, { name: 'a', replicas: 2, available: 2, created: 1 }],
      writes: ['b=1'],
    },
    {
      name: 'several old ReplicaSets shrink oldest first', d: { replicas: 4, surge: 0, unavailable: 2 },
      newRS: { name: 'new', replicas: 0 },
      olds: [{ name: 'b', replicas: 2, available: 2, created: 2 }, { name: 'a', replicas: 2, available: 2, created: 1 }],
      writes: ['a=0'],
    },
  ];
  for (const s of down) {
    it(`scale down: ${s.name}`, async () => {
      const d = deployment(s.d);
      const scaler = recordingScaler(d);
      const newRS = replicaSet(s.newRS);
      const olds = s.olds.map(replicaSet);
      await reconcileOldReplicaSets(scaler, d, [...olds, newRS], olds.filter((rs) => (rs.spec as { replicas: number }).replicas > 0), newRS);
      assert.deepEqual(scaler.writes, s.writes);
    });
  }

  const resize: Step[] = [
    { name: 'one active ReplicaSet takes the new size', d: { replicas: 5 }, newRS: { name: 'new', replicas: 3 }, olds: [{ name: 'old', replicas: 0 }], writes: ['new=5'] },
    {
      name: '5 → 10 mid-rollout: spread in proportion (kube\'s 4 and 6)', d: { replicas: 10, surge: 0, unavailable: 1 },
      newRS: { name: 'new', replicas: 2, created: 2, annotations: { 'deployment.kubernetes.io/max-replicas': '5' } },
      olds: [{ name: 'old', replicas: 3, created: 1, annotations: { 'deployment.kubernetes.io/max-replicas': '5' } }],
      writes: ['old=6', 'new=4'],
    },
    {
      name: '10 → 5 mid-rollout: each gives up its share, oldest-largest first', d: { replicas: 5, surge: 0, unavailable: 1 },
      newRS: { name: 'new', replicas: 4, created: 2, annotations: { 'deployment.kubernetes.io/max-replicas': '10' } },
      olds: [{ name: 'old', replicas: 6, created: 1, annotations: { 'deployment.kubernetes.io/max-replicas': '10' } }],
      writes: ['old=3', 'new=2'],
    },
    {
      name: 'a saturated new ReplicaSet: old ones to 0', d: { replicas: 3 },
      newRS: { name: 'new', replicas: 3, available: 3, annotations: { 'deployment.kubernetes.io/desired-replicas': '3' } },
      olds: [{ name: 'old', replicas: 1 }],
      writes: ['old=0'],
    },
  ];
  for (const s of resize) {
    it(`resize: ${s.name}`, async () => {
      const d = deployment(s.d);
      const scaler = recordingScaler(d);
      await scaleDeployment(scaler, d, replicaSet(s.newRS), s.olds.map(replicaSet), 0);
      assert.deepEqual(scaler.writes, s.writes);
    });
  }
});
