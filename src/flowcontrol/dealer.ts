// Shuffle sharding (kube's util/shufflesharding Dealer): a flow's 64-bit hash
// deals a hand of `handSize` distinct cards from a deck of `deckSize` queues,
// so two flows share all their queues only rarely. The hash is read as a
// mixed-radix number (deckSize, deckSize-1, …); each digit picks among the
// cards not dealt yet.
export const MAX_HAND_SIZE = 15;

/** The entropy a deck and hand need: log2(deckSize!/(deckSize-handSize)!) must stay within 60 bits (kube's check). */
export function validateDeal(deckSize: number, handSize: number): string | undefined {
  if (handSize <= 0) return `handSize ${handSize} must be positive`;
  if (deckSize <= 0) return `deckSize ${deckSize} must be positive`;
  if (handSize > deckSize) return `handSize ${handSize} must not exceed deckSize ${deckSize}`;
  if (handSize > MAX_HAND_SIZE) return `handSize ${handSize} must not exceed ${MAX_HAND_SIZE}`;
  let bits = 0;
  for (let i = 0; i < handSize; i++) bits += Math.log2(deckSize - i);
  if (bits > 60) return `required entropy bits of deckSize ${deckSize} and handSize ${handSize} should not be greater than 60`;
  return undefined;
}

export function deal(hash: bigint, deckSize: number, handSize: number): number[] {
  const digits: number[] = [];
  let h = hash;
  for (let i = 0; i < handSize; i++) {
    const radix = BigInt(deckSize - i);
    digits.push(Number(h % radix));
    h /= radix;
  }
  // digit i indexes the cards still in the deck: shift it past every smaller card already dealt
  const hand: number[] = [];
  for (let i = 0; i < handSize; i++) {
    let card = digits[i]!;
    for (let j = i - 1; j >= 0; j--) if (card >= digits[j]!) card++;
    hand.push(card);
  }
  return hand;
}
