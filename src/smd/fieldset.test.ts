// FieldSet against a plain model (a set of paths spelled as strings) on
// random sets: the algebra shares and freezes instead of copying, so the
// results must match the model and the operands must stay as they were.
// And decoding FieldsV1, memoized by shape, must stay exact.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { field, FieldSet, fromFieldsV1, index, key, serializeElement, toFieldsV1, valueOf, type FieldsV1, type Path } from './fieldpath.js';
import { prng } from '../testing/prng.js';

const spell = (p: Path): string => p.map(serializeElement).join('\u0000');
const model = (s: FieldSet): Set<string> => new Set(s.paths().map(spell));
const sorted = (m: Set<string>): string[] => [...m].sort();
const isPrefix = (a: string, b: string): boolean => b.startsWith(a + '\u0000');

describe('FieldSet against a set of paths', () => {
  const rnd = prng(7);
  const names = ['a', 'b', 'c', 'd'];
  const element = () => {
    const r = rnd.int(5);
    return r === 0 ? key({ name: names[rnd.int(3)]! }) : r === 1 ? valueOf(rnd.int(2) === 0 ? 'x' : 1) : r === 2 ? index(rnd.int(2)) : field(names[rnd.int(4)]!);
  };
  const randomSet = (): FieldSet => {
    const s = new FieldSet();
    for (let i = rnd.int(8); i > 0; i--) {
      const p: Path = Array.from({ length: 1 + rnd.int(4) }, element);
      s.insert(p);
    }
    return s;
  };

  it('union, intersection, difference, recursiveDifference, isSubsetOf, equals and leaves agree with the model; operands are unchanged', () => {
    for (let i = 0; i < 400; i++) {
      const x = randomSet();
      const y = rnd.int(4) === 0 ? x : randomSet();
      const mx = model(x);
      const my = model(y);
      const check = (got: FieldSet, want: Set<string>, what: string): void => assert.deepEqual(sorted(model(got)), sorted(want), what);
      check(x.union(y), new Set([...mx, ...my]), 'union');
      check(x.intersection(y), new Set([...mx].filter((p) => my.has(p))), 'intersection');
      check(x.difference(y), new Set([...mx].filter((p) => !my.has(p))), 'difference');
      check(x.recursiveDifference(y), new Set([...mx].filter((p) => !my.has(p) && ![...my].some((q) => isPrefix(q, p)))), 'recursiveDifference');
      check(x.leaves(), new Set([...mx].filter((p) => ![...mx].some((q) => isPrefix(p, q)))), 'leaves');
      assert.equal(x.isSubsetOf(y), [...mx].every((p) => my.has(p)), 'isSubsetOf');
      assert.equal(x.equals(y), mx.size === my.size && [...mx].every((p) => my.has(p)), 'equals');
      assert.equal(x.size(), mx.size, 'size');
      assert.deepEqual(sorted(model(x)), sorted(mx), 'x unchanged');
      assert.deepEqual(sorted(model(y)), sorted(my), 'y unchanged');
      for (const p of x.paths()) assert.ok(x.has(p));
      // A JSON round trip decodes (not a memo of this very object) to the same set.
      const back = fromFieldsV1(JSON.parse(JSON.stringify(toFieldsV1(x))) as FieldsV1);
      assert.ok(back.equals(x), 'FieldsV1 round trip');
    }
  });

  it('sets used in the algebra are read-only; a builder stays writable until then', () => {
    const a = FieldSet.of([field('a')]);
    a.insert([field('b')]);
    const u = a.union(FieldSet.of([field('c')]));
    assert.throws(() => a.insert([field('d')]), /read-only/);
    assert.throws(() => u.insert([field('d')]), /read-only/);
    assert.throws(() => u.withPrefix(field('x')).insert([field('d')]), /read-only/);
    const c = u.copy();
    c.insert([field('d')]);
    assert.deepEqual(c.paths().length, 4);
    assert.deepEqual(u.paths().length, 3);
  });

  it('returns an operand instead of a copy when nothing changes', () => {
    const a = FieldSet.of([field('a')], [field('b'), field('c')]);
    const sub = FieldSet.of([field('b'), field('c')]);
    assert.equal(a.union(sub), a);
    assert.equal(sub.union(a), a);
    assert.equal(a.difference(FieldSet.of([field('z')])), a);
    assert.equal(a.intersection(a), a);
    assert.equal(a.recursiveDifference(new FieldSet()), a);
  });
});

describe('FieldsV1 decoding memo', () => {
  it('answers equal shapes with the same set and any other shape with its own', () => {
    const text = '{"f:spec":{"f:containers":{"k:{\\"name\\":\\"a\\"}":{".":{},"f:image":{}}},"f:replicas":{}}}';
    const one = fromFieldsV1(JSON.parse(text));
    assert.equal(fromFieldsV1(JSON.parse(text)), one, 'same shape, same set');
    const variants = [
      '{"f:spec":{"f:containers":{"k:{\\"name\\":\\"a\\"}":{"f:image":{}}},"f:replicas":{}}}',
      '{"f:spec":{"f:containers":{"k:{\\"name\\":\\"b\\"}":{".":{},"f:image":{}}},"f:replicas":{}}}',
      '{"f:spec":{"f:containers":{"k:{\\"name\\":\\"a\\"}":{".":{},"f:image":{}}},"f:replicas":{".":{}}}}',
      '{"f:replicas":{},"f:spec":{"f:containers":{"k:{\\"name\\":\\"a\\"}":{".":{},"f:image":{}}}}}',
    ];
    for (const v of variants) {
      const s = fromFieldsV1(JSON.parse(v));
      const same = v.includes('"f:replicas":{".":{}}'); // {".":{}} alone is a member, as {} is
      assert.equal(JSON.stringify(toFieldsV1(s)), same ? text : v, v);
      assert.equal(s.equals(one), same, v);
    }
    // {"f:x":{".":{}}} is the same set as {"f:x":{}}, but each is decoded as itself.
    assert.ok(fromFieldsV1({ 'f:x': { '.': {} } }).equals(fromFieldsV1({ 'f:x': {} })));
  });

  it('still rejects a malformed object whose keys match a decoded one', () => {
    assert.ok(fromFieldsV1({ 'f:a': {}, 'f:b': {} }).size() === 2);
    assert.throws(() => fromFieldsV1({ 'f:a': [], 'f:b': {} }), /must be an object/);
    assert.throws(() => fromFieldsV1({ 'f:a': 1, 'f:b': {} }), /must be an object/);
    assert.throws(() => fromFieldsV1({ 'f:a': {}, 'f:b': null }), /must be an object/);
  });
});
