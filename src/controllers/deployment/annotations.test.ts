// The revision and replica annotations on ReplicaSets, as kube writes them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { MAX_REVISION_HISTORY_CHARS, maxRevision, setNewReplicaSetAnnotations } from './annotations.js';

const rs = (annotations?: Record<string, string>): ApiObject => ({ metadata: { name: 'r', ...(annotations ? { annotations } : {}) } });
const d = (annotations: Record<string, string> = {}): ApiObject => ({ metadata: { name: 'web', annotations } });
const R = 'deployment.kubernetes.io/revision';
const H = 'deployment.kubernetes.io/revision-history';

describe('ReplicaSet annotations', () => {
  const cases: { name: string; rs: Record<string, string> | undefined; deployment?: Record<string, string>; revision: string; exists: boolean; want: Record<string, string>; changed: boolean }[] = [
    {
      name: 'a new ReplicaSet: revision, desired and max replicas, the Deployment\'s own annotations but not its revision or last-applied',
      rs: undefined, deployment: { team: 'a', [R]: '7', 'kubectl.kubernetes.io/last-applied-configuration': '{}' }, revision: '2', exists: false,
      want: { team: 'a', [R]: '2', 'deployment.kubernetes.io/desired-replicas': '3', 'deployment.kubernetes.io/max-replicas': '4' }, changed: true,
    },
    { name: 'an existing ReplicaSet already at the revision: unchanged', rs: { [R]: '2' }, revision: '2', exists: true, want: { [R]: '2' }, changed: false },
    { name: 'a lower revision never replaces a higher one', rs: { [R]: '5' }, revision: '3', exists: true, want: { [R]: '5' }, changed: false },
    { name: 'a rollback: the old revision joins the history', rs: { [R]: '1' }, revision: '3', exists: true, want: { [R]: '3', [H]: '1' }, changed: true },
    { name: 'a second rollback appends', rs: { [R]: '3', [H]: '1' }, revision: '5', exists: true, want: { [R]: '5', [H]: '1,3' }, changed: true },
    { name: 'an unreadable revision is left alone', rs: { [R]: 'x' }, revision: '3', exists: true, want: { [R]: 'x' }, changed: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const target = rs(c.rs && { ...c.rs });
      const changed = setNewReplicaSetAnnotations(target, { deployment: d(c.deployment), revision: c.revision, exists: c.exists, desired: 3, max: 4 });
      assert.equal(changed, c.changed);
      assert.deepEqual(target.metadata.annotations ?? {}, c.want);
    });
  }

  it('the history is trimmed from the front to stay within 2000 characters', () => {
    const long = Array.from({ length: 400 }, (_, i) => String(1000 + i)).join(','); // 1999 characters
    const target = rs({ [R]: '2000', [H]: long });
    setNewReplicaSetAnnotations(target, { deployment: d(), revision: '2001', exists: true, desired: 1, max: 1 });
    const history = target.metadata.annotations![H]!;
    assert.ok(history.length <= MAX_REVISION_HISTORY_CHARS, String(history.length));
    assert.ok(history.endsWith(',1399,2000'));
    assert.ok(!history.startsWith('1000,'));
  });

  it('maxRevision reads the revisions, ignoring unreadable ones', () => {
    assert.equal(maxRevision([rs({ [R]: '3' }), rs({ [R]: '10' }), rs({ [R]: 'x' }), rs()]), 10);
    assert.equal(maxRevision([]), 0);
  });
});
