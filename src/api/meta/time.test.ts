import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { microTime, rfc3339, rfc3339Nano } from './time.js';

describe('object time formats', () => {
  const at = Date.UTC(2026, 0, 2, 3, 4, 5);
  const cases: { ms: number; time: string; micro: string; nano: string }[] = [
    { ms: at, time: '2026-01-02T03:04:05Z', micro: '2026-01-02T03:04:05.000000Z', nano: '2026-01-02T03:04:05Z' },
    { ms: at + 678, time: '2026-01-02T03:04:05Z', micro: '2026-01-02T03:04:05.678000Z', nano: '2026-01-02T03:04:05.678Z' },
    { ms: at + 670, time: '2026-01-02T03:04:05Z', micro: '2026-01-02T03:04:05.670000Z', nano: '2026-01-02T03:04:05.67Z' },
    { ms: at + 999.9, time: '2026-01-02T03:04:05Z', micro: '2026-01-02T03:04:05.999000Z', nano: '2026-01-02T03:04:05.999Z' },
    { ms: Date.UTC(2026, 0, 2, 3, 4, 10), time: '2026-01-02T03:04:10Z', micro: '2026-01-02T03:04:10.000000Z', nano: '2026-01-02T03:04:10Z' },
    { ms: Date.UTC(2026, 0, 2, 3, 4, 10, 100), time: '2026-01-02T03:04:10Z', micro: '2026-01-02T03:04:10.100000Z', nano: '2026-01-02T03:04:10.1Z' },
  ];
  for (const c of cases) {
    it(c.time + ' +' + (c.ms % 1000) + ' ms', () => {
      assert.equal(rfc3339(c.ms), c.time);
      assert.equal(microTime(c.ms), c.micro);
      assert.equal(rfc3339Nano(c.ms), c.nano);
    });
  }
});
