import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatQuantity, parseQuantity } from './quantity.js';

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
