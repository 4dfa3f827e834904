import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expandCommand, expandReferences } from './expand.js';
import { goDuration, goQuote, joinHostPort } from './goformat.js';

describe('expandReferences (kube expansion syntax)', () => {
  const vars = new Map([['A', 'alpha'], ['EMPTY', '']]);
  const rows: [input: string, want: string][] = [
    ['$(A)', 'alpha'],
    ['x$(A)y', 'xalphay'],
    ['$(A)$(A)', 'alphaalpha'],
    ['$(EMPTY)', ''],
    ['$(MISSING)', '$(MISSING)'],
    ['$$(A)', '$(A)'],
    ['$$', '$'],
    ['$', '$'],
    ['a$', 'a$'],
    ['$x', '$x'],
    ['$(A', '$(A'],
    ['$()', '$()'],
    ['no refs', 'no refs'],
  ];
  for (const [input, want] of rows) {
    it(JSON.stringify(input), () => assert.equal(expandReferences(input, (n) => vars.get(n)), want));
  }
  it('uses only literal env values; valueFrom variables are empty', () => {
    const env = [{ name: 'PORT', value: '8080' }, { name: 'SECRET', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }];
    assert.deepEqual(expandCommand(['curl', 'localhost:$(PORT)', '$(SECRET)', '$(OTHER)'], env), ['curl', 'localhost:8080', '', '$(OTHER)']);
  });
});

describe('Go texts', () => {
  const quotes: [string, string][] = [['sh -c true', '"sh -c true"'], ['a"b\\c', '"a\\"b\\\\c"'], ['tab\there\n', '"tab\\there\\n"'], ['\x01', '"\\x01"'], ['é', '"é"']];
  for (const [s, want] of quotes) it(`%q of ${JSON.stringify(s)}`, () => assert.equal(goQuote(s), want));
  const durations: [number, string][] = [[0, '0s'], [1, '1s'], [59, '59s'], [60, '1m0s'], [61, '1m1s'], [3600, '1h0m0s'], [3723, '1h2m3s']];
  for (const [s, want] of durations) it(`duration ${s}s`, () => assert.equal(goDuration(s), want));
  it('JoinHostPort brackets IPv6', () => {
    assert.equal(joinHostPort('10.0.0.1', 80), '10.0.0.1:80');
    assert.equal(joinHostPort('fd00::1', 80), '[fd00::1]:80');
  });
});
