// Shuffle sharding: hands of distinct cards within the deck, the mixed-radix
// reading of the hash, and kube's entropy limit.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deal, validateDeal } from './dealer.js';
import { hashFlowID } from './classify.js';

describe('dealer', () => {
  const rows: [string, bigint, number, number, number[]][] = [
    ['hash 0 deals the first cards', 0n, 10, 3, [0, 1, 2]],
    ['each digit picks among the cards left', 10n * 1n + 3n, 10, 2, [3, 1]],
    ['a later digit skips the cards dealt', 3n + 10n * 3n, 10, 2, [3, 4]],
    ['one card', 12345n, 7, 1, [12345 % 7]],
  ];
  for (const [name, hash, deck, hand, want] of rows) it(name, () => assert.deepEqual(deal(hash, deck, hand), want));

  it('deals distinct cards within the deck for many flows', () => {
    for (let i = 0; i < 500; i++) {
      const hand = deal(hashFlowID('fs', `user-${i}`), 128, 6);
      assert.equal(new Set(hand).size, 6);
      for (const c of hand) assert.ok(c >= 0 && c < 128);
    }
  });

  it('checks the hand against the deck and the entropy limit', () => {
    assert.equal(validateDeal(128, 6), undefined);
    assert.equal(validateDeal(4, 5), 'handSize 5 must not exceed deckSize 4');
    assert.match(validateDeal(512, 8) ?? '', /should not be greater than 60/);
    assert.equal(validateDeal(10, 0), 'handSize 0 must be positive');
  });

  it('hashes flows as kube does: sha256 of schema NUL distinguisher, first 8 bytes little-endian', () => {
    assert.notEqual(hashFlowID('a', 'bc'), hashFlowID('ab', 'c'));
    assert.equal(hashFlowID('global-default', 'alice'), hashFlowID('global-default', 'alice'));
  });
});
