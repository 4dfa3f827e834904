// An event name taken by another recorder in the same millisecond: the next nanosecond.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextEventName } from './recorder.js';

describe('nextEventName', () => {
  const rows: [string, string][] = [
    ['data.18ebe51e82d43700', 'data.18ebe51e82d43701'],
    ['a.b.c.ff', 'a.b.c.100'],
    ['no-suffix', 'no-suffix.1'],
    ['name.not-hex', 'name.not-hex.1'],
  ];
  for (const [from, want] of rows) it(`${from} → ${want}`, () => assert.equal(nextEventName(from), want));
});
