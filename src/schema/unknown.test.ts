// Unknown fields and pruning: which keys are unknown, their paths, and removal in place.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kind } from './common.js';
import { any, embedded, freeform, int32, intOrString, list, mapOf, obj, str } from './dsl.js';
import { prune } from './prune.js';
import { duplicateFieldMessage, unknownFieldMessage, unknownFields } from './unknown.js';

const Pod = kind({
  spec: obj({
    replicas: int32(),
    port: intOrString(),
    containers: list(obj({ name: str(), env: list(obj({ name: str(), value: str() })) })),
    selector: mapOf(str()),
    volumes: mapOf(obj({ path: str() })),
    raw: freeform(),
    anything: any(),
    kept: obj({ a: str(), inner: obj({ b: str() }) }).preserveUnknown(),
    template: embedded(),
    closed: obj({}),
  }),
});

describe('unknownFields', () => {
  const rows: [string, unknown, string[]][] = [
    ['nothing unknown', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a', labels: { x: 'y' } }, spec: { replicas: 1, containers: [{ name: 'c' }] } }, []],
    ['top level and nested', { foo: 1, spec: { bar: 2 } }, ['foo', 'spec.bar']],
    ['list items', { spec: { containers: [{ name: 'a' }, { name: 'b', bogus: true, env: [{ name: 'x', valu: 'y' }] }] } }, ['spec.containers[1].bogus', 'spec.containers[1].env[0].valu']],
    ['metadata is ObjectMeta', { metadata: { name: 'a', nmae: 'b', ownerReferences: [{ uid: 'u', extra: 1 }] } }, ['metadata.nmae', 'metadata.ownerReferences[0].extra']],
    ['map keys are known, map values are checked', { spec: { selector: { anything: 'x' }, volumes: { v1: { path: '/', size: 3 } } } }, ['spec.volumes.v1.size']],
    ['preserve-unknown-fields keeps any key but checks known ones', { spec: { raw: { x: { y: 1 } }, anything: { z: 1 }, kept: { a: 'x', other: 1, inner: { b: 'y', c: 2 } } } }, ['spec.kept.inner.c']],
    ['int-or-string is a leaf', { spec: { port: 'http' } }, []],
    ['an embedded resource knows apiVersion, kind and metadata', { spec: { template: { apiVersion: 'v1', kind: 'X', metadata: { name: 'n', bad: 1 }, spec: { free: 1 } } } }, ['spec.template.metadata.bad']],
    ['an object without properties knows nothing', { spec: { closed: { a: 1 } } }, ['spec.closed.a']],
    ['type mismatches are left to validation', { spec: { containers: { name: 'x' }, replicas: { x: 1 } } }, []],
  ];
  for (const [name, value, want] of rows) it(name, () => assert.deepEqual(unknownFields(Pod.schema, value), want));
  it('a base path', () => assert.deepEqual(unknownFields(Pod.schema.properties!.spec!, { x: 1 }, { path: 'spec' }), ['spec.x']));
  it('messages', () => {
    assert.equal(unknownFieldMessage('spec.containers[0].bogus'), 'unknown field "spec.containers[0].bogus"');
    assert.equal(duplicateFieldMessage('metadata.name'), 'duplicate field "metadata.name"');
  });
});

describe('prune', () => {
  it('removes unknown fields in place and returns their paths', () => {
    const v = { kind: 'Pod', foo: 1, spec: { replicas: 2, bar: 2, containers: [{ name: 'c', bogus: 1 }], raw: { keep: 1 } } };
    assert.deepEqual(prune(Pod.schema, v), ['foo', 'spec.bar', 'spec.containers[0].bogus']);
    assert.deepEqual(v, { kind: 'Pod', spec: { replicas: 2, containers: [{ name: 'c' }], raw: { keep: 1 } } });
  });
  it('leaves a clean object untouched', () => {
    const v = { spec: { replicas: 1 } };
    assert.deepEqual(prune(Pod.schema, v), []);
    assert.deepEqual(v, { spec: { replicas: 1 } });
  });
});
