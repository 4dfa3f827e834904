// propertyIndex: a schema's own declared properties, looked up by name, made once per properties object.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Schema } from './model.js';
import { propertyIndex } from './properties.js';
import { unknownFields } from './unknown.js';
import { validate } from './validate.js';

const str: Schema = { type: 'string' };

describe('propertyIndex', () => {
  const props = JSON.parse('{"a": {"type": "string"}, "__proto__": {"type": "integer"}, "constructor": {"type": "boolean"}}') as { [name: string]: Schema };
  const cases: { name: string; key: string; want: string | undefined }[] = [
    { name: 'a declared property', key: 'a', want: 'string' },
    { name: 'a property named __proto__ (JSON makes it an own property)', key: '__proto__', want: 'integer' },
    { name: 'a property named constructor', key: 'constructor', want: 'boolean' },
    { name: 'an inherited name is not declared', key: 'toString', want: undefined },
    { name: 'an undeclared name', key: 'b', want: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(propertyIndex(props).get(c.key)?.type, c.want));
  }

  it('is made once per properties object', () => {
    assert.equal(propertyIndex(props), propertyIndex(props));
    assert.notEqual(propertyIndex({ a: str }), propertyIndex({ a: str }));
  });

  it('the walks see only own properties: an inherited name is unknown, and not validated', () => {
    const s: Schema = { type: 'object', properties: { a: str } };
    assert.deepEqual(unknownFields(s, { a: 'x', toString: 1, hasOwnProperty: 2 }), ['toString', 'hasOwnProperty']);
    assert.deepEqual(validate(s, { a: 1, toString: 1 }).map((e) => e.field), ['a']);
  });
});
