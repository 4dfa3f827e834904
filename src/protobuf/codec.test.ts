// The schema-driven codec on small messages: each row encodes a JSON value,
// checks the exact bytes, and decodes them back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bool, bytes, int32, int64, list, mapOf, num, obj, ref, str, toSchema } from '../schema/dsl.js';
import { IntOrString, MicroTime, Quantity, RawExtension, Time } from '../schema/common.js';
import { decodeMessage, encodeMessage } from './codec.js';
import { Reader, Writer } from './wire.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const M = toSchema(
  obj({
    s: str().proto(1),
    i: int32().proto(2),
    l: int64().proto(3),
    b: bool().proto(4),
    d: num().proto(5),
    raw: bytes().proto(6),
    strs: list(str()).proto(7),
    ints: list(int64()).proto(8),
    m: mapOf(str()).proto(9),
    kept: int32().proto(10, { keepZero: true }),
    keptS: str().proto(11, { keepZero: true }),
    q: ref(Quantity).proto(12),
    ios: ref(IntOrString).proto(13),
    t: ref(Time).proto(14),
    mt: ref(MicroTime).proto(15),
    ext: ref(RawExtension).proto(16),
    sub: obj({ a: str().proto(1) }).proto(17),
    extra: mapOf(list(str())).proto(18),
    // a Go-embedded struct: both fields live in a message at field 19
    e1: str().proto(1, { in: 19 }),
    e2: int32().proto(2, { in: 19 }),
    nested: str().proto(1, { in: [20, 3] }),
  }),
);

describe('protobuf codec', () => {
  const rows: [string, Record<string, unknown>, string][] = [
    ['string', { s: 'hi' }, '0a026869'],
    ['int32', { i: 150 }, '109601'],
    ['negative int32 takes ten bytes', { i: -1 }, '10ffffffffffffffffff01'],
    ['int64 beyond 32 bits', { l: 4294967296 }, '188080808010'],
    ['bool', { b: true }, '2001'],
    ['double as fixed64', { d: 1.5 }, '29000000000000f83f'],
    ['bytes from base64', { raw: 'AAEC' }, '3203000102'],
    ['repeated strings, unpacked', { strs: ['a', 'b'] }, '3a01613a0162'],
    ['repeated int64, unpacked', { ints: [1, 2] }, '40014002'],
    ['map entries sorted by key', { m: { b: '2', a: '1' } }, '4a060a016112013' + '1' + '4a060a0162120132'],
    ['keepZero field written and kept', { kept: 0 }, '5000'],
    ['Quantity as {string=1}', { q: '100m' }, '62060a043130306d'],
    ['IntOrString int', { ios: 8080 }, '6a07080010903f1a00'],
    ['IntOrString string', { ios: 'http' }, '6a0a080110001a0468747470'],
    ['Time as {seconds, nanos}', { t: '1970-01-01T00:01:40Z' }, '72040864' + '1000'],
    ['MicroTime keeps microseconds', { mt: '1970-01-01T00:00:01.000002Z' }, '7a05080110d00f'],
    ['RawExtension as JSON in {raw=1}', { ext: { a: 1 } }, '8201090a077b2261223a317d'],
    ['nested message', { sub: { a: 'x' } }, '8a01030a0178'],
    ['empty nested message is written', { sub: {} }, '8a0100'],
    ['map of lists as ExtraValue messages', { extra: { k: ['v'] } }, '9201080a016b12030a0176'],
    ['Go-embedded fields share one message', { e1: 'x', e2: 1 }, '9a01050a01781001'],
    ['nested embedding', { nested: 'y' }, 'a201051a030a0179'],
  ];
  for (const [name, value, want] of rows) {
    it(name, () => {
      const b = encodeMessage(M, value);
      assert.equal(hex(b), want);
      assert.deepEqual(decodeMessage(M, b), value);
    });
  }

  it('a null Time is an empty message and reads back as null', () => {
    const b = encodeMessage(M, { t: null });
    assert.equal(hex(b), '7200');
    assert.deepEqual(decodeMessage(M, b), { t: null });
  });

  it('drops zero scalars Go writes for non-pointer omitempty fields, keeps keepZero ones', () => {
    const w = new Writer().tag(1, 2).string('').tag(2, 0).varint(0).tag(4, 0).varint(0).tag(10, 0).varint(0).tag(11, 2).string('');
    assert.deepEqual(decodeMessage(M, w.finish()), { kept: 0, keptS: '' });
  });

  it('reads packed repeated scalars too', () => {
    const w = new Writer().tag(8, 2).bytes(new Writer().varint(3).varint(4).finish());
    assert.deepEqual(decodeMessage(M, w.finish()), { ints: [3, 4] });
  });

  it('skips unknown fields of every wire type', () => {
    const w = new Writer().tag(99, 0).varint(5).tag(98, 1).double(1).tag(97, 2).string('x').tag(96, 5).raw(Buffer.alloc(4)).tag(1, 2).string('ok');
    assert.deepEqual(decodeMessage(M, w.finish()), { s: 'ok' });
  });

  it('an empty Quantity reads as "0", as Go prints a zero quantity', () => {
    assert.deepEqual(decodeMessage(M, Buffer.from('6200', 'hex')), { q: '0' });
  });

  it('reads varints of every width', () => {
    for (const n of [0, 1, 127, 128, 2 ** 28, 2 ** 31 - 1, 2 ** 40, -5, -(2 ** 40)]) {
      assert.equal(new Reader(new Writer().varint(n).finish()).varint(), n);
    }
  });
});
