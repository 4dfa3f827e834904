// The pod-template-hash: FNV-32a, kube's safe alphabet, stability and change.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalJson, computeHash, fnv32a, safeEncodeString } from './hash.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const template = (image: string) => ({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image }] } });

describe('pod-template-hash', () => {
  for (const [input, want] of [['', 0x811c9dc5], ['a', 0xe40c292c], ['foobar', 0xbf9cf968]] as const) {
    it(`fnv32a(${JSON.stringify(input)}) is the published FNV-1a value`, () => assert.equal(fnv32a(bytes(input)), want));
  }

  for (const [input, want] of [['0123456789', '456789bcdf'], ['', ''], ['abc', 'vwx']] as const) {
    it(`safeEncodeString(${JSON.stringify(input)}) maps into kube's alphabet`, () => assert.equal(safeEncodeString(input), want));
  }

  it('canonical JSON sorts keys at every level and drops undefined members', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } }), '{"a":{"d":[{"y":2,"z":1}]},"b":1}');
  });

  const cases: { name: string; a: [unknown, number?]; b: [unknown, number?]; same: boolean }[] = [
    { name: 'the same template hashes the same', a: [template('nginx')], b: [template('nginx')], same: true },
    { name: 'key order does not matter', a: [{ spec: { containers: [] }, metadata: {} }], b: [{ metadata: {}, spec: { containers: [] } }], same: true },
    { name: 'another image changes the hash', a: [template('nginx')], b: [template('nginx:1.25')], same: false },
    { name: 'a collision count changes the hash', a: [template('nginx')], b: [template('nginx'), 1], same: false },
    { name: 'two collision counts differ', a: [template('nginx'), 1], b: [template('nginx'), 2], same: false },
    { name: 'collision count 0 differs from none (kube writes its bytes)', a: [template('nginx')], b: [template('nginx'), 0], same: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const a = computeHash(...c.a);
      const b = computeHash(...c.b);
      assert.match(a, /^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
      assert.equal(a === b, c.same, `${a} vs ${b}`);
    });
  }
});
