import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatQuantity, parseQuantity, parseQuantityFresh } from './quantity.js';
import { prng } from '../../testing/prng.js';

test('parseQuantity: the same answer on a first and a remembered read, for quantities and for texts that are none', () => {
  const rows: [string, string | undefined][] = [
    ['100m', '100m'], ['1Gi', '1Gi'], ['0.5', '500m'], ['1e3', '1e3'], ['', undefined], ['abc', undefined], [' 1', undefined], ['1.5.5', undefined],
  ];
  for (const [text, want] of rows) {
    for (const read of ['first', 'remembered']) {
      const q = parseQuantity(text);
      assert.equal(q === undefined ? undefined : formatQuantity(q), want, `${JSON.stringify(text)} (${read})`);
    }
  }
});

test('formatQuantity: a text it made and remembered parses exactly as a fresh parse does (random values and formats)', () => {
  const r = prng(11);
  const formats = ['DecimalSI', 'BinarySI', 'DecimalExponent'] as const;
  const scales = [1n, 1000n, 1_000_000n, 1_000_000_000n, 1024n * 1_000_000_000n, 1024n ** 3n * 1_000_000_000n, 10n ** 24n];
  for (let i = 0; i < 3000; i++) {
    const nanos = BigInt(r.int(5000) - (i % 7 === 0 ? 2500 : 0)) * scales[r.int(scales.length)]!;
    const q = { nanos, format: formats[r.int(formats.length)]! };
    const text = formatQuantity(q);
    const fresh = parseQuantityFresh(text);
    assert.deepEqual(parseQuantity(text), fresh, `${JSON.stringify(q, (_, v) => (typeof v === 'bigint' ? String(v) : v))} → ${text}`);
    assert.equal(fresh?.nanos, nanos, text);
  }
});
