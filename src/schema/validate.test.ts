// validate(): one row per rule, each with the exact message Kubernetes v1.27 gives for a custom resource.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorBody, type FieldError } from '../api/meta/field.js';
import { newInvalid } from '../api/meta/status.js';
import { bool, enumOf, int32, int64, intOrString, list, mapOf, num, obj, quantity, str, any, time } from './dsl.js';
import { goNumber, validate } from './validate.js';

const Spec = obj({
  replicas: int32().min(1).max(5),
  ratio: num().min(0, true).max(1, true),
  name: str().minLen(1).maxLen(5),
  dns: str().pattern('^[a-z]+$'),
  policy: enumOf('Always', 'Never'),
  level: int64().enum(1, 2),
  paused: bool(),
  port: intOrString(),
  cpu: quantity(),
  when: time(),
  ip: str().format('ipv4'),
  tags: list(str()).minItems(1).maxItems(2),
  labels: mapOf(str()).minProps(1).maxProps(2),
  containers: list(obj({ name: str().required(), image: str().maxLen(3) })),
  opt: str().nullable(),
  free: any(),
  nested: obj({ a: obj({ b: int32().required() }) }),
}).required();
const Root = obj({ apiVersion: str(), kind: str(), spec: Spec });

const msgs = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${errorBody(e)}`);
const check = (spec: unknown) => msgs(validate(Root.schema, { spec }));

describe('validate', () => {
  const rows: [string, unknown, string[]][] = [
    ['a valid object', { replicas: 3, ratio: 0.5, name: 'abc', dns: 'abc', policy: 'Never', level: 2, paused: true, port: 80, cpu: '100m', when: '2023-04-11T10:00:00Z', ip: '10.0.0.1', tags: ['a'], labels: { a: 'b' }, containers: [{ name: 'c' }], opt: null, free: [1, { x: null }], nested: { a: { b: 1 } } }, []],
    ['integer as string', { replicas: 'three' }, ['spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"']],
    ['integer as float', { replicas: 1.5 }, ['spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"']],
    ['a whole float is an integer', { replicas: 2.0 }, []],
    ['number accepts integers', { ratio: 0.25 }, []],
    ['boolean as string', { paused: 'yes' }, ['spec.paused: Invalid value: "string": spec.paused in body must be of type boolean: "string"']],
    ['object as array', { labels: [] }, ['spec.labels: Invalid value: "array": spec.labels in body must be of type object: "array"']],
    ['null where not nullable', { name: null }, ['spec.name: Invalid value: "null": spec.name in body must be of type string: "null"']],
    ['maximum', { replicas: 6 }, ['spec.replicas: Invalid value: 6: spec.replicas in body should be less than or equal to 5']],
    ['minimum', { replicas: 0 }, ['spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1']],
    ['exclusive maximum', { ratio: 1 }, ['spec.ratio: Invalid value: 1: spec.ratio in body should be less than 1']],
    ['exclusive minimum', { ratio: 0 }, ['spec.ratio: Invalid value: 0: spec.ratio in body should be greater than 0']],
    ['maxLength', { name: 'abcdef' }, ['spec.name: Too long: may not be longer than 5']],
    ['maxLength counts code points', { name: '😀😀😀😀😀' }, []],
    ['minLength', { name: '' }, ['spec.name: Invalid value: "": spec.name in body should be at least 1 chars long']],
    ['pattern', { dns: 'A_b' }, ['spec.dns: Invalid value: "A_b": spec.dns in body should match \'^[a-z]+$\'']],
    ['enum', { policy: 'Sometimes' }, ['spec.policy: Unsupported value: "Sometimes": supported values: "Always", "Never"']],
    ['numeric enum', { level: 3 }, ['spec.level: Unsupported value: 3: supported values: "1", "2"']],
    ['int-or-string accepts both', { port: 'http' }, []],
    ['int-or-string rejects others', { port: true }, ['spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"']],
    ['a quantity may be a fraction', { cpu: 0.5 }, []],
    ['date-time format', { when: 'yesterday' }, ['spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"']],
    ['date-time checks the calendar', { when: '2023-02-30T00:00:00Z' }, ['spec.when: Invalid value: "2023-02-30T00:00:00Z": spec.when in body must be of type date-time: "2023-02-30T00:00:00Z"']],
    ['ipv4 format', { ip: '10.0.0.256' }, ['spec.ip: Invalid value: "10.0.0.256": spec.ip in body must be of type ipv4: "10.0.0.256"']],
    ['minItems', { tags: [] }, ['spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items']],
    ['maxItems', { tags: ['a', 'b', 'c'] }, ['spec.tags: Too many: 3: must have at most 2 items']],
    ['list item type', { tags: ['a', 7] }, ['spec.tags[1]: Invalid value: "integer": spec.tags[1] in body must be of type string: "integer"']],
    ['minProperties', { labels: {} }, ['spec.labels: Invalid value: 0: spec.labels in body should have at least 1 properties']],
    ['maxProperties', { labels: { a: '1', b: '2', c: '3' } }, ['spec.labels: Too many: 3: must have at most 2 items']],
    ['map value type', { labels: { a: 1 } }, ['spec.labels.a: Invalid value: "integer": spec.labels.a in body must be of type string: "integer"']],
    ['required in list items', { containers: [{ name: 'a' }, { image: 'x' }] }, ['spec.containers[1].name: Required value']],
    ['nested paths', { containers: [{ name: 'a', image: 'long' }] }, ['spec.containers[0].image: Too long: may not be longer than 3']],
    ['nested required', { nested: { a: {} } }, ['spec.nested.a.b: Required value']],
    ['several errors, in document order', { replicas: 9, name: 'toolong', policy: 'x' }, [
      'spec.replicas: Invalid value: 9: spec.replicas in body should be less than or equal to 5',
      'spec.name: Too long: may not be longer than 5',
      'spec.policy: Unsupported value: "x": supported values: "Always", "Never"',
    ]],
    ['unknown fields are not validation errors', { bogus: 1 }, []],
  ];
  for (const [name, spec, want] of rows) it(name, () => assert.deepEqual(check(spec), want));

  it('a missing required root field', () => assert.deepEqual(msgs(validate(Root.schema, {})), ['spec: Required value']));
  it('a base path', () => assert.deepEqual(msgs(validate(Spec.schema, { replicas: 'x' }, { path: 'spec' })), ['spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"']));
  it('the causes reach an Invalid status as Kubernetes renders it', () => {
    const e = newInvalid({ group: 'stable.example.com', kind: 'CronTab' }, 'my', validate(Root.schema, { spec: { replicas: 12 } }));
    assert.equal(e.status.message, 'CronTab.stable.example.com "my" is invalid: spec.replicas: Invalid value: 12: spec.replicas in body should be less than or equal to 5');
    assert.deepEqual(e.status.details!.causes, [{ reason: 'FieldValueInvalid', message: 'Invalid value: 12: spec.replicas in body should be less than or equal to 5', field: 'spec.replicas' }]);
  });

  const numbers: [number, boolean, string][] = [
    [5, true, '5'],
    [5, false, '5'],
    [1.5, false, '1.5'],
    [1000000, true, '1000000'],
    [1000000, false, '1e+06'],
    [1500000, false, '1.5e+06'],
    [100000, false, '100000'],
    [0.0001, false, '0.0001'],
    [0.00001, false, '1e-05'],
  ];
  for (const [n, int, want] of numbers) it(`goNumber(${n}, ${int})`, () => assert.equal(goNumber(n, int), want));
});
