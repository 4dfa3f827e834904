import assert from 'node:assert/strict';
import { test } from 'node:test';
import { base64Decode, base64Encode } from './base64.js';
import { throwsCel } from './testutil.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

test('base64 encode and decode (padded, then unpadded)', () => {
  assert.equal(base64Encode(bytes('hello')), 'aGVsbG8=');
  assert.equal(base64Encode(new Uint8Array()), '');
  assert.deepEqual(base64Decode('aGVsbG8='), bytes('hello'));
  assert.deepEqual(base64Decode('aGVsbG8'), bytes('hello'));
  assert.deepEqual(base64Decode('aGVs\nbG8='), bytes('hello'));
  assert.deepEqual(base64Decode(''), new Uint8Array());
  throwsCel(() => base64Decode('aGVsbG8*'), 'illegal base64 data at input byte 7');
  throwsCel(() => base64Decode('a'), 'illegal base64 data at input byte 0');
  throwsCel(() => base64Decode('aGVsbG8=='), 'illegal base64 data at input byte 7');
});
