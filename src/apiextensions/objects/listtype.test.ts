// List-type uniqueness (apiextensions-apiserver listtype.ValidateListSetsAndMaps),
// with the messages of golden crd-07-listmap-apply-strict and the cases of
// kube's own table (validation_test.go), rendered as Status causes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FieldPath } from '../../api/meta/field.js';
import { renderCause } from '../../api/meta/govalue.js';
import type { Schema } from '../../schema/model.js';
import { validateListTypes } from './listtype.js';

const set = (items: Schema = {}): Schema => ({ type: 'array', 'x-kubernetes-list-type': 'set', items });
const map = (keys: string[], items: Schema = { type: 'object' }): Schema => ({ type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': keys, items });
const obj = (properties: Record<string, Schema>): Schema => ({ type: 'object', properties });

const causes = (s: Schema | undefined, o: unknown, root?: string) => validateListTypes(s, o, root === undefined ? {} : { path: new FieldPath(root) }).map(renderCause);

describe('validateListTypes: golden crd-07', () => {
  const schema = obj({ spec: obj({ ports: map(['name']), tags: set({ type: 'string' }), args: { type: 'array', items: { type: 'string' } } }) });
  const rows: [string, unknown, string[]][] = [
    ['duplicate map key', { spec: { ports: [{ name: 'http', port: 80 }, { name: 'http', port: 81 }] } }, ['spec.ports[1]: Duplicate value: map[string]interface {}{"name":"http"}']],
    ['duplicate set value', { spec: { tags: ['a', 'a'] } }, ['spec.tags[1]: Duplicate value: "a"']],
    ['atomic list may repeat', { spec: { args: ['a', 'a'] } }, []],
    ['distinct entries', { spec: { ports: [{ name: 'http' }, { name: 'https' }], tags: ['a', 'b'] } }, []],
  ];
  for (const [name, o, want] of rows) it(name, () => assert.deepEqual(causes(schema, o), want));
});

describe('validateListTypes: sets', () => {
  const rows: [string, Schema, unknown, string[]][] = [
    ['no schema', undefined as unknown as Schema, { a: [1, 1] }, []],
    ['not an object', obj({}), [1, 1], []],
    ['each value reported once, at its second appearance', obj({ array: set() }), { array: ['a', 'a', 'b', 'c', 'd', 'c', 'a'] },
      ['root.array[1]: Duplicate value: "a"', 'root.array[5]: Duplicate value: "c"']],
    ['integers and floats are different Go types', obj({ array: set() }), { array: [1, 1.5, 1, 1.5] },
      ['root.array[2]: Duplicate value: 1', 'root.array[3]: Duplicate value: 1.5']],
    ['a nil item prints as the string "null"', obj({ array: set() }), { array: [null, null, true, true] },
      ['root.array[1]: Duplicate value: "null"', 'root.array[3]: Duplicate value: true']],
    ['compound items compare as JSON with sorted keys', obj({ array: set() }), { array: [{ a: 1, b: [2] }, { b: [2], a: 1 }, [1, 'x'], [1, 'x']] },
      ['root.array[1]: Duplicate value: map[string]interface {}{"a":1, "b":[]interface {}{2}}', 'root.array[3]: Duplicate value: []interface {}{1, "x"}']],
    ['under additionalProperties', { type: 'object', additionalProperties: set() }, { k: ['x', 'x'] }, ['root[k][1]: Duplicate value: "x"']],
    ['nested sets under items', obj({ array: set(set()) }), { array: [['a', 'a'], ['b']] }, ['root.array[0][1]: Duplicate value: "a"']],
    ['a plain list is not checked', obj({ array: { type: 'array', items: {} } }), { array: ['a', 'a'] }, []],
  ];
  for (const [name, s, o, want] of rows) it(name, () => assert.deepEqual(causes(s, o, 'root'), want));
});

describe('validateListTypes: maps (kube validation_test "map list with compound map items")', () => {
  const schema = obj({
    strings: map(['a'], { type: 'string' }),
    'one key': map(['a']),
    'two keys': map(['a', 'b']),
    'undefined key': map(['a', 'b']),
    'compound key': map(['a']),
    'nil key': map(['a']),
    'nil item': map(['a']),
    'nil item multiple keys': map(['a', 'b']),
    'multiple duplicates': map(['a']),
  });
  const o = {
    strings: ['a'],
    'one key': [{ a: '0', c: '2' }, { a: '1', c: '1' }, { a: '1', c: '2' }, {}],
    'two keys': [{ a: '1', b: '1', c: '1' }, { a: '1', b: '2', c: '2' }, { a: '1', b: '2', c: '3' }, {}],
    'undefined key': [{ a: '1', b: '1', c: '1' }, { a: '1', c: '2' }, { a: '1', c: '3' }, {}],
    'compound key': [{ a: [], c: '1' }, { a: null, c: '1' }, { a: ['a'], c: '1' }, { a: ['a', 42], c: '2' }, { a: ['a', 42], c: ['3'] }],
    'nil key': [{ a: [], c: '1' }, { a: null, c: '1' }, { c: '1' }, { a: null }],
    'nil item': [null, { a: '0', c: '1' }, { a: null }, { c: '1' }],
    'nil item multiple keys': [null, { b: '0', c: '1' }, { a: null }, { c: '1' }],
    'multiple duplicates': [
      { a: [], c: '1' }, { a: null, c: '1' }, { a: ['a'], c: '1' }, { a: ['a', 42], c: '2' }, { a: ['a', 42], c: ['3'] }, { a: ['a'], c: '1', d: '1' }, { a: ['a'], c: '1', d: '2' },
    ],
  };
  it('reports kube\'s errors with Go-rendered keys', () => {
    assert.deepEqual(causes(schema, o, 'root'), [
      'root.strings[0]: Invalid value: "a": must be an object for an array of list-type map',
      'root.one key[2]: Duplicate value: map[string]interface {}{"a":"1"}',
      'root.two keys[2]: Duplicate value: map[string]interface {}{"a":"1", "b":"2"}',
      'root.undefined key[2]: Duplicate value: map[string]interface {}{"a":"1"}',
      'root.compound key[4]: Duplicate value: map[string]interface {}{"a":[]interface {}{"a", 42}}',
      'root.nil key[3]: Duplicate value: map[string]interface {}{"a":interface {}(nil)}',
      'root.nil item[3]: Duplicate value: map[string]interface {}{}',
      'root.nil item multiple keys[3]: Duplicate value: map[string]interface {}{}',
      'root.multiple duplicates[4]: Duplicate value: map[string]interface {}{"a":[]interface {}{"a", 42}}',
      'root.multiple duplicates[5]: Duplicate value: map[string]interface {}{"a":[]interface {}{"a"}}',
    ]);
  });
  it('an item that is not an object stops the list\'s check', () => {
    assert.deepEqual(causes(obj({ l: map(['name']) }), { l: [{ name: 'x' }, 5, { name: 'x' }] }), ['l[1]: Invalid value: 5: must be an object for an array of list-type map']);
  });
});

describe('validateListTypes: ratcheting on update', () => {
  const schema = obj({ tags: set() });
  const dup = { tags: ['a', 'a'] };
  it('an old object without duplicates: the new one is checked', () => {
    assert.deepEqual(validateListTypes(schema, dup, { old: { tags: ['a'] } }).map(renderCause), ['tags[1]: Duplicate value: "a"']);
  });
  it('an old object with duplicates: the new one is not checked', () => {
    assert.deepEqual(validateListTypes(schema, { tags: ['b', 'b'] }, { old: dup }), []);
  });
});
