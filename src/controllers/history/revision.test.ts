import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../registry/object.js';
import {
  CONTROLLER_REVISION_HASH_LABEL, controllerRevisionName, equalRevision, findEqualRevisions, maxRevision,
  newControllerRevision, sortControllerRevisions,
} from './revision.js';
import { hashControllerRevision } from './hash.js';

const rev = (name: string, revision: number, data: unknown, created = '2026-01-01T00:00:00Z', labels: Record<string, string> = {}): ApiObject =>
  ({ metadata: { name, creationTimestamp: created, labels }, data, revision } as ApiObject);

test('controllerRevisionName cuts the prefix to 223 characters', () => {
  const rows: [string, string][] = [['web', 'web-abc'], ['x'.repeat(223), `${'x'.repeat(223)}-abc`], ['y'.repeat(300), `${'y'.repeat(223)}-abc`]];
  for (const [prefix, want] of rows) assert.equal(controllerRevisionName(prefix, 'abc'), want);
});

test('newControllerRevision: owner, labels, hash label and name', () => {
  const parent = { metadata: { name: 'web', namespace: 'ns', uid: 'u1' } } as ApiObject;
  const ref = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'u1', controller: true, blockOwnerDeletion: true };
  const data = { spec: { template: { $patch: 'replace' } } };
  const rows: [number | undefined][] = [[undefined], [0], [3]];
  for (const [count] of rows) {
    const r = newControllerRevision({ parent, ownerRef: ref, templateLabels: { app: 'web' }, data, revision: 2, collisionCount: count });
    const hash = hashControllerRevision(data, count);
    assert.equal(r.metadata.name, `web-${hash}`);
    assert.equal(r.metadata.namespace, 'ns');
    assert.deepEqual(r.metadata.labels, { app: 'web', [CONTROLLER_REVISION_HASH_LABEL]: hash });
    assert.deepEqual(r.metadata.ownerReferences, [ref]);
    assert.equal(r.revision, 2);
    assert.deepEqual(r.data, data);
  }
});

test('equalRevision compares data; numeric hash labels that differ make revisions unequal', () => {
  const a = { x: 1, y: [1, 2] };
  const rows: [string, ApiObject | undefined, ApiObject | undefined, boolean][] = [
    ['both absent', undefined, undefined, true],
    ['one absent', rev('a', 1, a), undefined, false],
    ['same data, other key order', rev('a', 1, a), rev('b', 2, { y: [1, 2], x: 1 }), true],
    ['other data', rev('a', 1, a), rev('b', 1, { x: 2, y: [1, 2] }), false],
    ['encoded hash labels are ignored', rev('a', 1, a, undefined, { [CONTROLLER_REVISION_HASH_LABEL]: 'abc' }), rev('b', 1, a, undefined, { [CONTROLLER_REVISION_HASH_LABEL]: 'xyz' }), true],
    ['numeric hash labels differ', rev('a', 1, a, undefined, { [CONTROLLER_REVISION_HASH_LABEL]: '42' }), rev('b', 1, a, undefined, { [CONTROLLER_REVISION_HASH_LABEL]: '43' }), false],
    ['numeric hash labels equal', rev('a', 1, a, undefined, { [CONTROLLER_REVISION_HASH_LABEL]: '42' }), rev('b', 1, a, undefined, { [CONTROLLER_REVISION_HASH_LABEL]: '42' }), true],
  ];
  for (const [name, x, y, want] of rows) assert.equal(equalRevision(x, y), want, name);
});

test('findEqualRevisions keeps order', () => {
  const list = [rev('a', 1, { v: 1 }), rev('b', 2, { v: 2 }), rev('c', 3, { v: 1 })];
  assert.deepEqual(findEqualRevisions(list, rev('n', 0, { v: 1 })).map((r) => r.metadata.name), ['a', 'c']);
  assert.deepEqual(findEqualRevisions(list, rev('n', 0, { v: 9 })), []);
});

test('sortControllerRevisions: revision, then creation time, then name; maxRevision', () => {
  const rows: [ApiObject[], string[], number][] = [
    [[rev('c', 3, 0), rev('a', 1, 0), rev('b', 2, 0)], ['a', 'b', 'c'], 3],
    [[rev('late', 1, 0, '2026-01-02T00:00:00Z'), rev('early', 1, 0, '2026-01-01T00:00:00Z')], ['early', 'late'], 1],
    [[rev('z', 1, 0), rev('y', 1, 0)], ['y', 'z'], 1],
    [[], [], 0],
  ];
  for (const [list, want, max] of rows) {
    assert.deepEqual(sortControllerRevisions(list).map((r) => r.metadata.name), want);
    assert.equal(maxRevision(list), max);
  }
});
