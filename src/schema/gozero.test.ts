// Go's always-written zero values.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fillGoZeroValues } from './gozero.js';
import { ObjectMeta, kind } from './common.js';
import { list, obj, ref, str, toSchema } from './dsl.js';

const Template = obj({ metadata: ref(ObjectMeta), spec: obj({ image: str() }) }).id('x.v1.Template');
const Thing = toSchema(kind({ metadata: ref(ObjectMeta), spec: obj({ template: ref(Template), claims: list(ref(Template)) }), status: obj({ ready: str() }).id('x.v1.ThingStatus') }));

describe('fillGoZeroValues', () => {
  it('writes embedded metadata with a null creationTimestamp and an empty status', () => {
    const body: Record<string, unknown> = { metadata: { name: 'a' }, spec: { template: { spec: { image: 'x' } }, claims: [{ metadata: { name: 'c' } }] } };
    fillGoZeroValues(Thing, body);
    assert.deepEqual(body, {
      metadata: { name: 'a' },
      spec: { template: { metadata: { creationTimestamp: null }, spec: { image: 'x' } }, claims: [{ metadata: { name: 'c', creationTimestamp: null } }] },
      status: {},
    });
  });
  it('keeps what is there', () => {
    const body: Record<string, unknown> = { metadata: {}, spec: { template: { metadata: { creationTimestamp: '2020-01-01T00:00:00Z' } } }, status: { ready: 'y' } };
    fillGoZeroValues(Thing, body);
    assert.deepEqual(body, { metadata: {}, spec: { template: { metadata: { creationTimestamp: '2020-01-01T00:00:00Z' } } }, status: { ready: 'y' } });
  });
});
