import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detachedSignature } from './bootstrapsigner.js';

describe('bootstrap signer signatures', () => {
  it('a detached HS256 JWS keyed by the token secret (the vector of kube\'s jws tests)', () => {
    assert.equal(detachedSignature('Hello from the other side. I must have called a thousand times.', 'joshua', 'my voice is my passcode'),
      'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8');
  });
});
