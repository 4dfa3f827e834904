// The protobuf writer against known wire bytes, and the reader reading them back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { doubleOf, fieldsOf, ProtoWriter, readFields, stringOf } from './protobuf.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('ProtoWriter', () => {
  const cases: [name: string, write: (w: ProtoWriter) => void, bytes: string][] = [
    ['string field 1 "2.0"', (w) => w.string(1, '2.0'), '0a03322e30'],
    ['empty string left out', (w) => w.string(1, ''), ''],
    ['empty string kept on request', (w) => w.string(1, '', true), '0a00'],
    ['utf-8 string', (w) => w.string(2, 'é'), '1202c3a9'],
    ['utf-8 string outside the BMP', (w) => w.string(2, 'a😀'), '120561f09f9880'],
    ['a lone surrogate as U+FFFD, as Buffer.from writes it', (w) => w.string(2, '\ud800'), '1203efbfbd'],
    ['bool true', (w) => w.bool(4, true), '2001'],
    ['bool false left out', (w) => w.bool(4, false), ''],
    ['bool false kept (oneof member)', (w) => w.bool(2, false, true), '1000'],
    ['int64 300 (two-byte varint)', (w) => w.int64(11, 300), '58ac02'],
    ['int64 above 2^32', (w) => w.int64(1, 2 ** 35), '08808080808001'],
    ['double 1.5', (w) => w.double(7, 1.5), '39000000000000f83f'],
    ['field number above 15 (two-byte tag)', (w) => w.string(31, 'x'), 'fa010178'],
    ['nested message', (w) => w.message(2, (m) => m.string(1, 'a')), '12030a0161'],
    ['empty nested message is still written', (w) => w.message(8, () => {}), '4200'],
  ];
  for (const [name, write, bytes] of cases) {
    it(name, () => {
      const w = new ProtoWriter();
      write(w);
      assert.equal(hex(w.finish()), bytes);
    });
  }

  it('rejects negative or fractional int64 values', () => {
    assert.throws(() => new ProtoWriter().int64(1, -1), /non-negative safe integer/);
    assert.throws(() => new ProtoWriter().int64(1, 1.5), /non-negative safe integer/);
  });

  it('grows past its first buffer', () => {
    const w = new ProtoWriter();
    const long = 'x'.repeat(100_000);
    for (let i = 0; i < 3; i++) w.string(1, long);
    const fields = readFields(w.finish());
    assert.equal(fields.length, 3);
    assert.equal(stringOf(fields[2]), long);
  });
});

describe('readFields', () => {
  it('reads back what the writer wrote', () => {
    const w = new ProtoWriter()
      .string(1, 'swagger')
      .message(2, (m) => m.string(1, 'title').bool(3, true))
      .double(9, -2.25)
      .int64(15, 1234567);
    const f = readFields(w.finish());
    assert.deepEqual(f.map((x) => [x.field, x.wire]), [[1, 2], [2, 2], [9, 1], [15, 0]]);
    assert.equal(stringOf(f[0]), 'swagger');
    const inner = readFields(f[1]!.value as Uint8Array);
    assert.equal(stringOf(fieldsOf(inner, 1)[0]), 'title');
    assert.equal(fieldsOf(inner, 3)[0]!.value, 1);
    assert.equal(doubleOf(f[2]), -2.25);
    assert.equal(f[3]!.value, 1234567);
  });

  it('rejects truncated input', () => {
    assert.throws(() => readFields(Uint8Array.from([0x0a, 0x05, 0x61])), /truncated length-delimited/);
    assert.throws(() => readFields(Uint8Array.from([0x08, 0x80])), /truncated varint/);
    assert.throws(() => readFields(Uint8Array.from([0x0b])), /unsupported wire type 3/);
  });
});
