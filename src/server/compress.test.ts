import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acceptsGzip } from './compress.js';

describe('acceptsGzip', () => {
  const cases: [string | undefined, boolean][] = [
    ['gzip', true],
    ['gzip, deflate, br', true],
    ['deflate;q=0.5, gzip;q=0.8', true],
    ['GZIP', true],
    ['*', true],
    ['gzip;q=0', false],
    ['identity', false],
    ['deflate', false],
    ['', false],
    [undefined, false],
  ];
  for (const [header, want] of cases) it(`${JSON.stringify(header)} → ${want}`, () => assert.equal(acceptsGzip(header), want));
});
