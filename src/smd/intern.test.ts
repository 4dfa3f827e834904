// Interning: an equal set comes back as the very set seen first; a different
// one is kept as itself; both are frozen; evicted sets stay valid.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { field, FieldSet, fromFieldsV1, key, toFieldsV1, type Path } from './fieldpath.js';
import { intern, INTERNED_SETS_KEPT } from './intern.js';

const spec = (...rest: Path) => [field('spec'), ...rest];
const container = (name: string, ...rest: Path) => spec(field('containers'), key({ name }), ...rest);

describe('intern', () => {
  it('an equal set, built apart, comes back as the first one', () => {
    const a = intern(FieldSet.of(container('app', field('image')), container('app', field('env')), spec(field('replicas'))));
    const b = FieldSet.of(spec(field('replicas')), container('app', field('env')), container('app', field('image')));
    assert.notEqual(a, b);
    assert.equal(intern(b), a);
    assert.ok(a.isFrozen() && b.isFrozen());
  });

  it('a set derived from an interned one by the algebra finds the equal set too', () => {
    const full = intern(FieldSet.of(container('app', field('image')), container('app', field('ports')), spec(field('paused'))));
    const less = full.difference(FieldSet.of(container('app', field('ports'))));
    const again = intern(FieldSet.of(container('app', field('image')), spec(field('paused'))));
    assert.equal(intern(less), again);
    assert.equal(intern(less.union(FieldSet.of(container('app', field('ports'))))), full);
  });

  const different: [string, Path[], Path[]][] = [
    ['another member', [spec(field('a'))], [spec(field('b'))]],
    ['member versus parent', [spec(field('a'))], [spec(field('a'), field('b'))]],
    ['member and parent versus parent', [spec(field('a')), spec(field('a'), field('b'))], [spec(field('a'), field('b'))]],
    ['another key', [container('x')], [container('y')]],
    ['a subset', [spec(field('a')), spec(field('b'))], [spec(field('a'))]],
  ];
  for (const [name, x, y] of different) {
    it(`different sets stay apart: ${name}`, () => {
      const a = intern(FieldSet.of(...x));
      const b = intern(FieldSet.of(...y));
      assert.notEqual(a, b);
      assert.ok(!a.equals(b));
    });
  }

  it('an interned set encodes once, and its encoding decodes back to it', () => {
    const a = intern(FieldSet.of(container('app', field('image')), spec(field('replicas'))));
    const v = toFieldsV1(a);
    assert.equal(toFieldsV1(intern(FieldSet.of(spec(field('replicas')), container('app', field('image'))))), v);
    assert.equal(fromFieldsV1(v), a);
  });

  it('past the limit the oldest sets are forgotten, and what is returned is still an equal set', () => {
    const first = intern(FieldSet.of(spec(field('first-of-many'))));
    for (let i = 0; i < INTERNED_SETS_KEPT + 10; i++) intern(FieldSet.of(spec(field(`f${i}`))));
    const again = FieldSet.of(spec(field('first-of-many')));
    const got = intern(again);
    assert.ok(got.equals(first));
    assert.equal(got, again, 'the first one was evicted, so the new one is kept');
  });
});
