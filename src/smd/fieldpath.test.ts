// FieldSet algebra and the FieldsV1 encoding, checked against Kubernetes' spelling.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { field, FieldSet, fromFieldsV1, goJsonString, index, key, parseElement, pathToString, serializeElement, toFieldsV1, valueOf, type Path } from './fieldpath.js';
import { prng } from '../testing/prng.js';

const f = field;

describe('fieldpath elements', () => {
  const rows: [string, ReturnType<typeof field>, string][] = [
    ['field', f('spec'), 'f:spec'],
    ['field with dots and slashes', f('kubernetes.io/metadata.name'), 'f:kubernetes.io/metadata.name'],
    ['key sorted by name', key({ protocol: 'TCP', containerPort: 80 }), 'k:{"containerPort":80,"protocol":"TCP"}'],
    ['key with HTML characters', key({ name: 'a<b>&c' }), 'k:{"name":"a\\u003cb\\u003e\\u0026c"}'],
    ['value string', valueOf('kubernetes'), 'v:"kubernetes"'],
    ['value number', valueOf(3), 'v:3'],
    ['index', index(2), 'i:2'],
  ];
  for (const [name, pe, want] of rows) {
    it(`serializes ${name}`, () => {
      assert.equal(serializeElement(pe), want);
      assert.deepEqual(parseElement(want), pe);
    });
  }

  it('escapes like Go', () => {
    assert.equal(goJsonString('a"b\\c\n\u0001\u2028é'), '"a\\"b\\\\c\\n\\u0001\\u2028é"');
  });

  it('prints conflict paths as Kubernetes does', () => {
    assert.equal(pathToString([f('spec'), f('replicas')]), '.spec.replicas');
    assert.equal(pathToString([f('spec'), f('containers'), key({ name: 'nginx' }), f('image')]), '.spec.containers[name="nginx"].image');
    assert.equal(pathToString([f('metadata'), f('finalizers'), valueOf('x')]), '.metadata.finalizers[="x"]');
    assert.equal(pathToString([f('a'), index(0)]), '.a[0]');
  });
});

describe('FieldsV1', () => {
  it('encodes a Deployment set exactly as the reference server', () => {
    const c = [f('spec'), f('template'), f('spec'), f('containers'), key({ name: 'app' })];
    const s = FieldSet.of(
      [f('metadata'), f('labels'), f('app')],
      [f('spec'), f('replicas')],
      [f('spec'), f('selector')],
      c,
      [...c, f('name')],
      [...c, f('image')],
    );
    const want = {
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': { 'f:replicas': {}, 'f:selector': {}, 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } } },
    };
    const got = toFieldsV1(s);
    assert.deepEqual(got, want);
    assert.equal(JSON.stringify(got), JSON.stringify(want), 'key order');
  });

  it('orders fields before keys before values before indexes', () => {
    const s = FieldSet.of([index(0)], [valueOf('b')], [valueOf(1)], [key({ a: 1 })], [f('z')], [valueOf(true)], [valueOf(null)]);
    assert.deepEqual(Object.keys(toFieldsV1(s)), ['f:z', 'k:{"a":1}', 'v:1', 'v:"b"', 'v:true', 'v:null', 'i:0']);
  });

  it('round-trips, and a node with only "." is a member', () => {
    const encoded = { 'f:data': { '.': {}, 'f:a': {} }, 'f:x': { '.': {} } };
    const s = fromFieldsV1(encoded);
    assert.ok(s.has([f('data')]));
    assert.ok(s.has([f('data'), f('a')]));
    assert.ok(s.has([f('x')]));
    assert.deepEqual(toFieldsV1(s), { 'f:data': { '.': {}, 'f:a': {} }, 'f:x': {} });
  });

  it('ignores unknown element types and rejects malformed ones', () => {
    assert.ok(fromFieldsV1({ 'z:what': {} }).empty());
    assert.throws(() => fromFieldsV1({ 'k:{nope': {} }));
    assert.throws(() => fromFieldsV1({ x: {} }));
  });
});

describe('FieldSet algebra', () => {
  const a = FieldSet.of([f('a')], [f('a'), f('b')], [f('c'), f('d')]);
  const b = FieldSet.of([f('a'), f('b')], [f('c'), f('e')]);

  it('union, intersection, difference', () => {
    assert.deepEqual(a.union(b).paths().map(pathToString), ['.a', '.a.b', '.c.d', '.c.e']);
    assert.deepEqual(a.intersection(b).paths().map(pathToString), ['.a.b']);
    assert.deepEqual(a.difference(b).paths().map(pathToString), ['.a', '.c.d']);
  });

  it('recursive difference removes subtrees of members', () => {
    assert.deepEqual(a.recursiveDifference(FieldSet.of([f('a')])).paths().map(pathToString), ['.c.d']);
    assert.deepEqual(a.difference(FieldSet.of([f('a')])).paths().map(pathToString), ['.a.b', '.c.d']);
  });

  it('leaves drop members that have children', () => {
    assert.deepEqual(a.leaves().paths().map(pathToString), ['.a.b', '.c.d']);
  });

  it('satisfies set laws on random sets (seeded)', () => {
    const rnd = prng(42);
    const names = ['a', 'b', 'c'];
    const randomPath = (): Path => {
      const n = 1 + rnd.int(3);
      const p = [];
      for (let i = 0; i < n; i++) {
        const r = rnd.int(4);
        p.push(r === 0 ? key({ name: names[rnd.int(3)]! }) : r === 1 ? valueOf(rnd.int(2)) : f(names[rnd.int(3)]!));
      }
      return p;
    };
    const randomSet = (): FieldSet => {
      const s = new FieldSet();
      for (let i = rnd.int(6); i > 0; i--) s.insert(randomPath());
      return s;
    };
    for (let i = 0; i < 300; i++) {
      const x = randomSet();
      const y = randomSet();
      const u = x.union(y);
      for (const p of x.paths()) assert.ok(u.has(p));
      for (const p of u.paths()) assert.ok(x.has(p) || y.has(p));
      const d = x.difference(y);
      for (const p of d.paths()) assert.ok(x.has(p) && !y.has(p));
      for (const p of x.paths()) assert.ok(d.has(p) || y.has(p));
      assert.ok(x.intersection(y).equals(y.intersection(x)));
      assert.ok(d.union(x.intersection(y)).equals(x));
      assert.ok(fromFieldsV1(toFieldsV1(x)).equals(x), 'FieldsV1 round trip');
      assert.equal(x.size(), x.paths().length);
    }
  });
});
