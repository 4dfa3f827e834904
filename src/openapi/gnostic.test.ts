// The gnostic encoding, read back field by field with openapiv2/OpenAPIv2.proto's numbers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonValue } from '../schema/model.js';
import { servedResources } from '../server/served.js';
import { encodeDocument } from './gnostic.js';
import { doubleOf, fieldsOf, readFields, stringOf, type ProtoField } from './protobuf.js';
import { OpenAPIService } from './service.js';

/** A decoded message with accessors by field number. */
class Msg {
  readonly fields: ProtoField[];
  constructor(bytes: Uint8Array) {
    this.fields = readFields(bytes);
  }
  all(n: number): ProtoField[] {
    return fieldsOf(this.fields, n);
  }
  msg(n: number, i = 0): Msg {
    const f = this.all(n)[i];
    assert.ok(f && f.value instanceof Uint8Array, `no message in field ${n}[${i}]`);
    return new Msg(f.value);
  }
  msgs(n: number): Msg[] {
    return this.all(n).map((f) => new Msg(f.value as Uint8Array));
  }
  str(n: number): string | undefined {
    return stringOf(this.all(n)[0]);
  }
  strs(n: number): string[] {
    return this.all(n).map((f) => stringOf(f)!);
  }
  num(n: number): number | undefined {
    const f = this.all(n)[0];
    return f === undefined ? undefined : (f.value as number);
  }
  /** Named* pairs (name = 1, value = 2) of repeated field n. */
  named(n: number): Map<string, Msg> {
    return new Map(this.msgs(n).map((m) => [m.str(1)!, m.msg(2)]));
  }
  /** Vendor extensions (NamedAny in field n): name → the parsed YAML (JSON) text of Any.yaml (2). */
  extensions(n: number): Record<string, unknown> {
    return Object.fromEntries(this.msgs(n).map((m) => [m.str(1)!, JSON.parse(m.msg(2).str(2)!)]));
  }
}

const sample: { [key: string]: JsonValue } = {
  swagger: '2.0',
  info: { title: 'svc', version: 'v1.27.0' },
  paths: {
    '/api/v1/namespaces/{namespace}/things/{name}': {
      parameters: [{ name: 'name', in: 'path', description: 'The name.', type: 'string', required: true }],
      get: {
        description: 'Read a Thing.',
        produces: ['application/json'],
        operationId: 'readCoreV1NamespacedThing',
        parameters: [
          { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/io.example.Thing' } },
          { name: 'limit', in: 'query', description: 'At most.', type: 'integer' },
        ],
        responses: { '200': { description: 'OK', schema: { $ref: '#/definitions/io.example.Thing' } }, '401': { description: 'Unauthorized' } },
        'x-kubernetes-action': 'get',
        'x-kubernetes-group-version-kind': { group: '', kind: 'Thing', version: 'v1' },
      },
    },
  },
  definitions: {
    'io.example.Thing': {
      description: 'A thing.',
      type: 'object',
      properties: {
        size: { type: 'integer', format: 'int32', maximum: 10.5, minLength: 300, default: 3 },
        mode: { type: 'string', enum: ['A', 'B'] },
        tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        free: { type: 'object', additionalProperties: false },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
      },
      required: ['size', 'mode'],
      'x-kubernetes-group-version-kind': [{ group: 'x.svc.io', kind: 'Thing', version: 'v1' }],
    },
  },
  securityDefinitions: { BearerToken: { type: 'apiKey', name: 'authorization', in: 'header', description: 'Bearer.' } },
  security: [{ BearerToken: [] }],
};

describe('encodeDocument', () => {
  const doc = new Msg(encodeDocument(sample));

  it('Document: swagger = 1, info = 2 (title 1, version 2)', () => {
    assert.equal(doc.str(1), '2.0');
    assert.equal(doc.msg(2).str(1), 'svc');
    assert.equal(doc.msg(2).str(2), 'v1.27.0');
  });

  it('paths = 8: NamedPathItem (2) with path-level parameters (9) and operations (get = 2)', () => {
    const paths = doc.msg(8).named(2);
    const item = paths.get('/api/v1/namespaces/{namespace}/things/{name}');
    assert.ok(item);
    // ParametersItem.parameter (1) → Parameter.non_body_parameter (2) → path_parameter_sub_schema (4)
    const pathParam = item.msg(9).msg(1).msg(2).msg(4);
    assert.deepEqual([pathParam.num(1), pathParam.str(2), pathParam.str(4), pathParam.str(5)], [1, 'path', 'name', 'string']);
    const get = item.msg(2);
    assert.equal(get.str(3), 'Read a Thing.');
    assert.equal(get.str(5), 'readCoreV1NamespacedThing');
    assert.deepEqual(get.strs(6), ['application/json']);
    assert.deepEqual(get.extensions(13), { 'x-kubernetes-action': 'get', 'x-kubernetes-group-version-kind': { group: '', kind: 'Thing', version: 'v1' } });
  });

  it('parameters = 8: a body parameter (Parameter.body_parameter = 1) and a query one (query_parameter_sub_schema = 3, type = 6)', () => {
    const params = doc.msg(8).named(2).get('/api/v1/namespaces/{namespace}/things/{name}')!.msg(2).msgs(8);
    const body = params[0]!.msg(1).msg(1);
    assert.deepEqual([body.str(2), body.str(3), body.num(4)], ['body', 'body', 1]);
    assert.equal(body.msg(5).str(1), '#/definitions/io.example.Thing');
    const query = params[1]!.msg(1).msg(2).msg(3);
    assert.deepEqual([query.str(2), query.str(3), query.str(4), query.str(6)], ['query', 'At most.', 'limit', 'integer']);
  });

  it('responses = 9: NamedResponseValue → ResponseValue.response (1) → description 1, schema 2 (SchemaItem.schema 1)', () => {
    const responses = doc.msg(8).named(2).get('/api/v1/namespaces/{namespace}/things/{name}')!.msg(2).msg(9).named(1);
    assert.deepEqual([...responses.keys()], ['200', '401']);
    const ok = responses.get('200')!.msg(1);
    assert.equal(ok.str(1), 'OK');
    assert.equal(ok.msg(2).msg(1).str(1), '#/definitions/io.example.Thing');
    const unauthorized = responses.get('401')!.msg(1);
    assert.equal(unauthorized.str(1), 'Unauthorized');
    assert.equal(unauthorized.all(2).length, 0);
  });

  it('definitions = 9: NamedSchema with Schema fields by number', () => {
    const thing = doc.msg(9).named(1).get('io.example.Thing')!;
    assert.equal(thing.str(4), 'A thing.');
    assert.deepEqual(thing.msg(22).strs(1), ['object']);
    assert.deepEqual(thing.strs(19), ['size', 'mode']);
    assert.deepEqual(thing.extensions(31), { 'x-kubernetes-group-version-kind': [{ group: 'x.svc.io', kind: 'Thing', version: 'v1' }] });
    const props = thing.msg(25).named(1);
    assert.deepEqual([...props.keys()], ['size', 'mode', 'tags', 'free', 'labels']);
    const size = props.get('size')!;
    assert.equal(size.str(2), 'int32');
    assert.equal(doubleOf(size.all(7)[0]), 10.5);
    assert.equal(size.num(12), 300);
    assert.equal(size.msg(5).str(2), '3\n', 'default is an Any with YAML text');
    assert.deepEqual(props.get('mode')!.msgs(20).map((a) => a.str(2)), ['"A"\n', '"B"\n']);
    const tags = props.get('tags')!;
    assert.deepEqual(tags.msg(23).msg(1).msg(22).strs(1), ['string'], 'items = 23 → ItemsItem.schema (1)');
    assert.deepEqual(tags.extensions(31), { 'x-kubernetes-list-type': 'set' });
    const free = props.get('free')!.msg(21);
    assert.deepEqual(free.all(2).map((f) => f.value), [0], 'additionalProperties: false is written (oneof member)');
    assert.deepEqual(props.get('labels')!.msg(21).msg(1).msg(22).strs(1), ['string']);
  });

  it('security = 12 and securityDefinitions = 13 (ApiKeySecurity = 2)', () => {
    assert.deepEqual(doc.msg(12).msgs(1).map((m) => [m.str(1), m.msg(2).all(1).length]), [['BearerToken', 0]]);
    const key = doc.msg(13).named(1).get('BearerToken')!.msg(2);
    assert.deepEqual([key.str(1), key.str(2), key.str(3), key.str(4)], ['apiKey', 'authorization', 'header', 'Bearer.']);
  });

  it('fails on keys it does not know instead of dropping them', () => {
    assert.throws(() => encodeDocument({ swagger: '2.0', bogus: 1 }), /Document has no field "bogus"/);
    assert.throws(() => encodeDocument({ definitions: { X: { type: 'object', oneOf: [] } } }), /Schema has no field "oneOf"/);
  });
});

describe('the published v2 document in protobuf', () => {
  const service = new OpenAPIService(servedResources());
  const json = JSON.parse(service.v2JsonBytes().body.toString()) as { paths: object; definitions: Record<string, { 'x-kubernetes-group-version-kind'?: unknown }> };
  const doc = new Msg(service.v2ProtoBytes().body);

  it('has every path and definition of the JSON document, in order', () => {
    assert.deepEqual([...doc.msg(8).named(2).keys()], Object.keys(json.paths));
    assert.deepEqual([...doc.msg(9).named(1).keys()], Object.keys(json.definitions));
  });

  it('carries the group-version-kinds kubectl looks kinds up by', () => {
    const defs = doc.msg(9).named(1);
    for (const id of ['io.k8s.api.core.v1.Pod', 'io.k8s.api.apps.v1.Deployment', 'io.k8s.api.rbac.v1.Role']) {
      assert.deepEqual(defs.get(id)!.extensions(31)['x-kubernetes-group-version-kind'], json.definitions[id]!['x-kubernetes-group-version-kind']);
    }
    assert.deepEqual(defs.get('io.k8s.api.rbac.v1.Role')!.extensions(31)['x-kubernetes-group-version-kind'], [
      { group: 'rbac.authorization.svc.io', kind: 'Role', version: 'v1' },
      { group: 'rbac.authorization.k8s.io', kind: 'Role', version: 'v1' },
    ]);
  });
});
