// Which ReplicaSet is a Deployment's new one: its template equals the
// Deployment's once the pod-template-hash label is set aside (EqualIgnoreHash).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { equalIgnoreHash } from './controller.js';

const t = (labels: Record<string, string> | undefined, image = 'nginx') => ({ metadata: labels ? { labels } : {}, spec: { containers: [{ name: 'c', image }] } });

describe('equalIgnoreHash', () => {
  const cases: [string, unknown, unknown, boolean][] = [
    ['the hash label is ignored', t({ app: 'web', 'pod-template-hash': 'abc' }), t({ app: 'web' }), true],
    ['two different hashes are ignored', t({ app: 'web', 'pod-template-hash': 'abc' }), t({ app: 'web', 'pod-template-hash': 'xyz' }), true],
    ['key order does not matter', { spec: { containers: [] }, metadata: { labels: { a: '1', b: '2' } } }, { metadata: { labels: { b: '2', a: '1' } }, spec: { containers: [] } }, true],
    ['another label differs', t({ app: 'web', tier: 'x' }), t({ app: 'web' }), false],
    ['another image differs', t({ app: 'web' }, 'nginx:1'), t({ app: 'web' }, 'nginx:2'), false],
    ['only the hash label: as no labels', t({ 'pod-template-hash': 'abc' }), t(undefined), true],
    ['empty maps, empty lists and nulls are as missing (Semantic.DeepEqual)', { metadata: { annotations: {} }, spec: { containers: [{ name: 'c', args: [] }], nodeSelector: null } }, { metadata: {}, spec: { containers: [{ name: 'c' }] } }, true],
    ['a list element is not dropped', { spec: { containers: [{ name: 'c' }, {}] } }, { spec: { containers: [{ name: 'c' }] } }, false],
  ];
  for (const [name, a, b, want] of cases) {
    it(name, () => {
      assert.equal(equalIgnoreHash(a, b), want);
      assert.equal(equalIgnoreHash(b, a), want);
    });
  }

  it('does not change its arguments', () => {
    const a = t({ app: 'web', 'pod-template-hash': 'abc' });
    equalIgnoreHash(a, t({ app: 'web' }));
    assert.equal(a.metadata.labels!['pod-template-hash'], 'abc');
  });
});
