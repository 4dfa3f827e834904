import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Double, Timestamp, Uint } from '../values.js';
import { k8sListConcat, k8sListEquals, type K8sList } from './lists.js';

const SET: K8sList = { listType: 'set' };
const PORTS: K8sList = { listType: 'map', mapKeys: ['containerPort', 'protocol'] };
const NAMED: K8sList = { listType: 'map', mapKeys: ['name'] };
const p = (containerPort: number, protocol: string, name?: string): Record<string, unknown> =>
  name === undefined ? { containerPort, protocol } : { containerPort, protocol, name };

test('k8sListEquals: set and map lists ignore order', () => {
  const rows: [string, K8sList, unknown[], unknown[], boolean][] = [
    ['same order', SET, ['a', 'b'], ['a', 'b'], true],
    ['other order', SET, ['a', 'b', 'c'], ['c', 'a', 'b'], true],
    ['different element', SET, ['a', 'b'], ['a', 'c'], false],
    ['different size', SET, ['a'], ['a', 'a'], false],
    ['empty', SET, [], [], true],
    ['numbers across int/double/uint', SET, [1, 2], [new Double(2), new Uint(1)], true],
    ['timestamps', SET, [new Timestamp(1, 0), new Timestamp(2, 0)], [new Timestamp(2, 0), new Timestamp(1, 0)], true],
    ['bigints', SET, [2n ** 60n, 3], [3, 2n ** 60n], true],
    ['string is not int', SET, ['1'], [1], false],
    ['map list, other order', PORTS, [p(80, 'TCP'), p(80, 'UDP')], [p(80, 'UDP'), p(80, 'TCP')], true],
    ['map list, same key other value', PORTS, [p(80, 'TCP', 'a'), p(81, 'TCP')], [p(81, 'TCP'), p(80, 'TCP', 'b')], false],
    ['map list, missing key', PORTS, [p(80, 'TCP')], [p(80, 'UDP')], false],
    ['map list, absent key property', NAMED, [{ v: 1 }, { name: 'a' }], [{ name: 'a' }, { v: 1 }], true],
  ];
  for (const [what, kind, x, y, want] of rows) assert.equal(k8sListEquals(kind, x, y), want, what);
});

test('k8sListConcat: set union and map merge keep the left positions', () => {
  assert.deepEqual(k8sListConcat(SET, ['a', 'b'], ['c', 'a', 'd']), ['a', 'b', 'c', 'd']);
  assert.deepEqual(k8sListConcat(SET, ['a'], ['b', 'b']), ['a', 'b'], "Y's duplicates are added once");
  assert.deepEqual(k8sListConcat(SET, [1], [new Double(1), 2]), [1, 2]);
  assert.deepEqual(k8sListConcat(SET, [], ['x']), ['x']);
  const x = ['a'];
  assert.equal(k8sListConcat(SET, x, []), x);
  assert.deepEqual(k8sListConcat(SET, x, ['b']), ['a', 'b']);
  assert.deepEqual(x, ['a'], 'the operand is not modified');
  assert.deepEqual(
    k8sListConcat(PORTS, [p(80, 'TCP', 'http'), p(443, 'TCP', 'https')], [p(53, 'UDP', 'dns'), p(80, 'TCP', 'web')]),
    [p(80, 'TCP', 'web'), p(443, 'TCP', 'https'), p(53, 'UDP', 'dns')],
  );
  assert.deepEqual(
    k8sListConcat(NAMED, [{ name: 'a', v: 1 }], [{ name: 'b', v: 2 }, { name: 'b', v: 3 }]),
    [{ name: 'a', v: 1 }, { name: 'b', v: 2 }, { name: 'b', v: 3 }],
    "only X's keys are merged into (kube): Y's duplicate keys are both appended",
  );
});
