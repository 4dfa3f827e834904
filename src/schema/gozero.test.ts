// Go's always-written zero values.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fillGoStatus, fillGoZeroValues, finishGoDecode, goZeroObject } from './gozero.js';
import { ObjectMeta, Quantity, Time, kind } from './common.js';
import { bool, int32, int64, list, obj, ref, str, toSchema } from './dsl.js';

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

// The fields Go always writes (goAlways), on a made-up kind with one of each shape.
const Inner = obj({ port: int32().proto(1, { always: true }), host: str().proto(2) }).id('x.v1.Inner');
const Cond = obj({
  type: str().proto(1, { always: true }),
  lastTransitionTime: ref(Time).proto(2, { always: true }),
  reason: str().proto(3),
}).id('x.v1.Cond');
const WidgetStatus = obj({
  replicas: int32().proto(1, { always: true }),
  ready: bool().proto(2, { always: true }),
  phase: str().proto(3, { always: true }),
  observed: int64().proto(4),
  collisions: int32().proto(5, { keepZero: true }), // a pointer: never filled
  metrics: list(str()).proto(6, { always: true }),
  size: ref(Quantity).proto(7, { always: true }),
  endpoint: ref(Inner).proto(8, { always: true }),
  conditions: list(ref(Cond)).proto(9),
}).id('x.v1.WidgetStatus');
const Widget = toSchema(kind({ metadata: ref(ObjectMeta), spec: obj({ image: str().proto(1) }).id('x.v1.WidgetSpec'), status: ref(WidgetStatus) }));
const ZERO_STATUS = { replicas: 0, ready: false, phase: '', metrics: null, size: '0', endpoint: { port: 0 } };

describe('always-written fields (goAlways)', () => {
  it('a missing status is the zero struct with every always-written field', () => {
    const body: Record<string, unknown> = { metadata: { name: 'a' }, spec: {} };
    finishGoDecode(Widget, body);
    assert.deepEqual(body.status, ZERO_STATUS);
  });
  it('fills what a present struct lacks, keeps what it has, and turns null into the zero value (null stays null for nil kinds)', () => {
    const body: Record<string, unknown> = { metadata: {}, status: { replicas: 3, ready: null, metrics: null, endpoint: { host: 'h' }, conditions: [{ type: 'Ready' }, { reason: 'r', lastTransitionTime: '2020-01-01T00:00:00Z' }] } };
    finishGoDecode(Widget, body);
    assert.deepEqual(body.status, {
      replicas: 3, ready: false, phase: '', metrics: null, size: '0', endpoint: { host: 'h', port: 0 },
      conditions: [{ type: 'Ready', lastTransitionTime: null }, { type: '', reason: 'r', lastTransitionTime: '2020-01-01T00:00:00Z' }],
    });
  });
  it('keeps zero values Go writes (no omitempty drop) and drops the omitempty ones', () => {
    const body: Record<string, unknown> = { metadata: {}, status: { ...ZERO_STATUS, observed: 0, collisions: 0, metrics: [] } };
    finishGoDecode(Widget, body);
    assert.deepEqual(body.status, { ...ZERO_STATUS, collisions: 0, metrics: [] });
  });
  it('fillGoStatus walks the status only, and makes one where there is none', () => {
    const obj: Record<string, unknown> = { spec: { template: {} }, status: { conditions: [{}] } };
    fillGoStatus(Widget, obj);
    assert.deepEqual(obj, { spec: { template: {} }, status: { ...ZERO_STATUS, conditions: [{ type: '', lastTransitionTime: null }] } });
    const none: Record<string, unknown> = {};
    fillGoStatus(Widget, none);
    assert.deepEqual(none.status, ZERO_STATUS);
    assert.notEqual((none.status as { endpoint: unknown }).endpoint, (obj.status as { endpoint: unknown }).endpoint, 'zero structs are fresh objects');
  });
  it('the Go zero object (what a create is compared against) has them too', () => {
    assert.deepEqual(goZeroObject(Widget).status, ZERO_STATUS);
  });
});
