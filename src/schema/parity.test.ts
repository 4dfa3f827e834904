// Parity of the shared meta/v1 pieces with the official OpenAPI v3 documents,
// and parity's own detection of every kind of difference.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import * as common from './common.js';
import { bool, int32, int64, list, mapOf, obj, str, type S } from './dsl.js';
import { compareWithReference, formatDifference, type OpenAPIDocument } from './parity.js';

// dist/src/schema/ → ../shared beside the repository; else from the working directory (the repository root).
const candidates = [fileURLToPath(new URL('../../../../shared/reference/openapi/', import.meta.url)), join(process.cwd(), '../shared/reference/openapi/')];
const REFERENCE = candidates.find((d) => existsSync(d));
const load = (version: string): OpenAPIDocument => JSON.parse(readFileSync(join(REFERENCE!, version, 'api__v1_openapi.json'), 'utf8')) as OpenAPIDocument;

/** Intended differences, each with its reason; everything else must match. */
const INTENDED: { [difference: string]: string } = {
  'finalizers: listType: ours "set", reference none':
    'server-side apply treats finalizers as a set (its patch strategy is merge on a scalar list); Kubernetes 1.30 publishes +listType=set',
  'matchExpressions[].key: patchStrategy: ours none, reference "merge"': 'a stray marker on a scalar in v1.26 only; v1.28 dropped it and it has no effect',
  'matchExpressions[].key: patchMergeKey: ours none, reference "key"': 'as above',
  'key: patchStrategy: ours none, reference "merge"': 'as above, on LabelSelectorRequirement itself',
  'key: patchMergeKey: ours none, reference "key"': 'as above',
};

const PIECES: [string, S][] = [
  ['ObjectMeta', common.ObjectMeta],
  ['ListMeta', common.ListMeta],
  ['LabelSelector', common.LabelSelector],
  ['LabelSelectorRequirement', common.LabelSelectorRequirement],
  ['OwnerReference', common.OwnerReference],
  ['ManagedFieldsEntry', common.ManagedFieldsEntry],
  ['FieldsV1', common.FieldsV1],
  ['Time', common.Time],
  ['MicroTime', common.MicroTime],
  ['Quantity', common.Quantity],
  ['IntOrString', common.IntOrString],
];

describe('meta/v1 parity with the official documents', { skip: REFERENCE ? false : 'the reference documents (../shared/reference/openapi) are not beside the repository' }, () => {
  for (const version of ['v1.26.1', 'v1.28.0']) {
    for (const [name, s] of PIECES) {
      it(`${version} ${name}`, () => {
        const diffs = compareWithReference(s.schema, load(version), s.schema.id!).map(formatDifference);
        assert.deepEqual(diffs.filter((d) => !(d in INTENDED)), []);
      });
    }
  }
  it('every intended difference still occurs (drop it when it no longer does)', () => {
    const seen = new Set(['v1.26.1', 'v1.28.0'].flatMap((v) => PIECES.flatMap(([, s]) => compareWithReference(s.schema, load(v), s.schema.id!).map(formatDifference))));
    assert.deepEqual(Object.keys(INTENDED).filter((d) => !seen.has(d)), []);
  });
});

describe('parity finds each kind of difference', () => {
  const doc: OpenAPIDocument = {
    components: {
      schemas: {
        Thing: {
          type: 'object',
          required: ['name'],
          properties: {
            name: { type: 'string' },
            count: { type: 'integer', format: 'int32' },
            gone: { type: 'string' },
            mode: { type: 'string', enum: ['A', 'B'] },
            items: { type: 'array', items: { allOf: [{ $ref: '#/components/schemas/Item' }], default: {} }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['id'], 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'id' },
            labels: { type: 'object', additionalProperties: { type: 'string' } },
            port: { format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] },
            sel: { $ref: '#/components/schemas/Item' },
          },
        },
        Item: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { id: { type: 'string' }, on: { type: 'boolean' } } },
      },
    },
  };
  const Item = obj({ id: str(), on: bool() }).atomic().id('Item');
  const good = obj({
    name: str().required(),
    count: int32(),
    gone: str(),
    mode: str().enum('B', 'A'),
    items: list(Item).map('id').patch('merge', 'id'),
    labels: mapOf(str()),
    port: common.IntOrString,
    sel: Item,
  });
  it('none when equal (enum and required order aside)', () => assert.deepEqual(compareWithReference(good.schema, doc, 'Thing'), []));
  it('an unknown component', () => assert.throws(() => compareWithReference(good.schema, doc, 'Nope'), /no component Nope/));

  const bad = obj({
    name: str(),
    count: int64(),
    extra: str(),
    mode: str().enum('A'),
    items: list(obj({ id: str().required(), on: str() })).set(),
    labels: obj({}),
    port: str(),
    sel: obj({ id: str(), on: bool() }),
  });
  it('all of them, by path', () =>
    assert.deepEqual(compareWithReference(bad.schema, doc, 'Thing').map(formatDifference), [
      '(root): required: ours none, reference ["name"]',
      'gone: missing: ours none, reference none',
      'count: format: ours "int64", reference "int32"',
      'extra: extra: ours none, reference none',
      'mode: enum: ours ["A"], reference ["A","B"]',
      'items: listType: ours "set", reference "map"',
      'items: listMapKeys: ours none, reference ["id"]',
      'items: patchStrategy: ours none, reference "merge"',
      'items: patchMergeKey: ours none, reference "id"',
      'items[]: required: ours ["id"], reference none',
      'items[]: mapType: ours none, reference "atomic"',
      'items[].on: type: ours "string", reference "boolean"',
      'labels: additionalProperties: ours none, reference "schema"',
      'port: type: ours "string", reference "int-or-string"',
      'sel: mapType: ours none, reference "atomic"',
    ]));
});
