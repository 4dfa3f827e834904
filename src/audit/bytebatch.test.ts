// The batch's bytes and line ends: what Buffer.from of the joined lines gives,
// for ASCII and non-ASCII lines, across the spill bound, after a reset.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ByteBatch } from './bytebatch.js';

/** Lines as pieces; the expected bytes and byte ends. */
function expected(lines: readonly string[]): { bytes: Buffer; ends: number[] } {
  const ends: number[] = [];
  let at = 0;
  for (const l of lines) ends.push((at += Buffer.byteLength(`${l}\n`)));
  return { bytes: Buffer.from(lines.map((l) => `${l}\n`).join('')), ends };
}

function fill(b: ByteBatch, lines: readonly string[]): void {
  for (const l of lines) {
    // in pieces, as the encoder hands them
    for (let i = 0; i < l.length; i += 3) b.put(l.slice(i, i + 3));
    b.endLine();
  }
}

describe('ByteBatch', () => {
  const cases: [string, string[], { initial?: number; spill?: number }][] = [
    ['ASCII lines', ['{"a":1}', '{"b":"two"}', ''], {}],
    ['non-ASCII lines (ends measured per line)', ['{"user":"zoë"}', 'plain', '{"ua":"😀 client"}', 'ü'], {}],
    ['a lone surrogate (written as U+FFFD, 3 bytes)', ['x\ud800y', 'z'], {}],
    ['encoded in several spills, the buffer growing', Array.from({ length: 40 }, (_, i) => `line ${i} ${i % 7 === 0 ? 'é' : 'e'}`.repeat(5)), { initial: 16, spill: 50 }],
  ];
  for (const [name, lines, o] of cases) {
    it(name, () => {
      const b = new ByteBatch(o.initial, o.spill);
      fill(b, lines);
      assert.equal(b.lines, lines.length);
      const want = expected(lines);
      assert.deepEqual(b.bytes(), want.bytes);
      assert.deepEqual(b.ends, want.ends);
    });
  }

  it('keeps adding after bytes() was asked, and starts empty after a reset', () => {
    const b = new ByteBatch(8, 4);
    fill(b, ['first', 'sécond']);
    assert.equal(b.bytes().toString(), 'first\nsécond\n');
    fill(b, ['third']);
    assert.deepEqual(b.bytes(), expected(['first', 'sécond', 'third']).bytes);
    assert.deepEqual(b.ends, expected(['first', 'sécond', 'third']).ends);
    b.reset();
    assert.equal(b.lines, 0);
    assert.equal(b.bytes().length, 0);
    fill(b, ['again']);
    assert.deepEqual([b.bytes().toString(), b.ends], ['again\n', [6]]);
  });
});
