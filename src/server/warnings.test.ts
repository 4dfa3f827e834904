import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TRUNCATE_AT_TOTAL_RUNES, TRUNCATE_ITEM_RUNES, WarningRecorder, warningHeader } from './warnings.js';

const record = (texts: string[]) => {
  const r = new WarningRecorder();
  for (const t of texts) r.add(t);
  return r.headers;
};

describe('Warning headers (kube warning recorder)', () => {
  const cases: [string, string[], string[]][] = [
    ['one warning', ['looked at it'], ['299 - "looked at it"']],
    ['quotes escaped', ['say "hi"'], ['299 - "say \\"hi\\""']],
    ['a repeat is dropped', ['a', 'b', 'a'], ['299 - "a"', '299 - "b"']],
    ['empty is dropped', [''], []],
  ];
  for (const [name, texts, want] of cases) it(name, () => assert.deepEqual(record(texts), want));

  it('non-ASCII text is sent as its UTF-8 bytes', () => {
    assert.equal(Buffer.from(warningHeader('é'), 'latin1').toString('utf8'), '299 - "é"');
  });
  it('past 4096 runes every warning is cut to 256 and later ones dropped at the limit', () => {
    const big = (c: string) => c.repeat(3000);
    const h = record([big('a'), big('b'), ...Array.from({ length: 40 }, (_, i) => `${i}`.padEnd(300, 'x'))]);
    assert.equal(h[0], `299 - "${'a'.repeat(TRUNCATE_ITEM_RUNES)}"`);
    assert.equal(h[1], `299 - "${'b'.repeat(TRUNCATE_ITEM_RUNES)}"`);
    // 256 runes each until the total reaches 4096: 16 warnings in all
    assert.equal(h.length, TRUNCATE_AT_TOTAL_RUNES / TRUNCATE_ITEM_RUNES);
  });
  it('characters outside the BMP count as one rune each and are never cut in half', () => {
    const smile = '\u{1F600}';
    assert.deepEqual(record([smile.repeat(3000), 'a'.repeat(1000)]).map((h) => h.length), ['299 - ""'.length + Buffer.byteLength(smile.repeat(3000)), '299 - ""'.length + 1000]);
    const cut = record([smile.repeat(3000), 'b'.repeat(2000)]);
    assert.equal(Buffer.from(cut[0]!, 'latin1').toString('utf8'), `299 - "${smile.repeat(TRUNCATE_ITEM_RUNES)}"`);
  });
  it('under the limit nothing is cut', () => {
    assert.equal(record(['x'.repeat(1000)])[0]!.length, '299 - ""'.length + 1000);
  });
});
