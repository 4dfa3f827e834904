// YAML bodies and answers as kube-apiserver reads and writes them (sigs.k8s.io/yaml over go-yaml v2).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseGoYaml, stringifyGoYaml } from './yaml.js';

describe('YAML read as go-yaml v2 resolves plain scalars', () => {
  const cases: [string, unknown, string][] = [
    ['y', true, 'YAML 1.1 booleans: y/yes/on are true'],
    ['Yes', true, 'capitalised forms too'],
    ['ON', true, 'upper case forms too'],
    ['n', false, 'n/no/off are false'],
    ['Off', false, 'capitalised off'],
    ['true', true, 'the 1.2 spellings stay booleans'],
    ['yEs', 'yEs', 'mixed case is a string'],
    ['~', null, 'tilde is null'],
    ['', null, 'an empty scalar is null'],
    ['Null', null, 'Null is null'],
    ['010', 8, 'a leading 0 is octal (Go ParseInt base 0)'],
    ['0o17', 15, '0o octal'],
    ['0x1F', 31, 'hex'],
    ['0b101', 5, 'binary'],
    ['1_000', 1000, 'underscores are removed before parsing'],
    ['-12', -12, 'signed integers'],
    ['08', 8, 'not an octal integer: ParseFloat reads 8'],
    ['1e3', 1000, 'exponent floats'],
    ['.5', 0.5, 'a float may start with a dot'],
    ['1.', 1, 'a trailing dot is a float'],
    ['.', '.', 'a lone dot is a string (managedFields key ".")'],
    ['2001-12-14', '2001-12-14', 'timestamps stay text when decoded into interface{}'],
    ['2001-12-14 10:00:00', '2001-12-14 10:00:00', 'timestamps with a time too'],
    ['1:20', '1:20', 'no base-60 numbers in go-yaml'],
    ['12abc', '12abc', 'digits followed by letters are a string'],
    ['.inf', '.inf', 'infinity is not a JSON number: read as its text'],
  ];
  for (const [text, want, why] of cases) {
    it(`${JSON.stringify(text)} → ${JSON.stringify(want)} (${why})`, () => {
      assert.deepEqual(parseGoYaml(`v: ${text}\n`), { v: want });
    });
  }

  it('keys resolve too: a key n is the boolean false, written as "false" in JSON', () => {
    assert.deepEqual(parseGoYaml('n: 1\n.: {}\n'), { false: 1, '.': {} });
  });

  it('duplicate keys are refused unless asked to keep the last', () => {
    assert.throws(() => parseGoYaml('a: 1\na: 2\n'), /unique/);
    assert.deepEqual(parseGoYaml('a: 1\na: 2\n', { uniqueKeys: false }), { a: 2 });
  });
});

describe('YAML written as go-yaml v2 writes it', () => {
  const cases: [unknown, string, string][] = [
    ['.', '.', 'a lone dot needs no quotes (managedFields: `.: {}`)'],
    ['y', '"y"', 'a string that would read as a boolean is quoted'],
    ['on', '"on"', 'on too'],
    ['010', '"010"', 'a string that would read as a number is quoted'],
    ['1_000', '"1_000"', 'with underscores too'],
    ['2001-12-14', '"2001-12-14"', 'a timestamp-like string is quoted'],
    ['1:20', '"1:20"', 'a base-60-like string is quoted'],
    ['.inf', '".inf"', 'special floats are quoted'],
    ['~', '"~"', 'null-like strings are quoted'],
    ['', '""', 'the empty string is quoted'],
    ['yes please', 'yes please', 'only the whole scalar counts'],
    ['2001-12', '2001-12', 'not a timestamp: plain'],
    [1.5, '1.5', 'numbers plain'],
    [true, 'true', 'booleans plain'],
    [null, 'null', 'null'],
  ];
  for (const [value, want, why] of cases) {
    it(`${JSON.stringify(value)} → ${want} (${why})`, () => {
      assert.equal(stringifyGoYaml({ v: value }), `v: ${want}\n`);
    });
  }

  it('sorts keys and does not indent sequences', () => {
    assert.equal(stringifyGoYaml({ b: ['x', 'y'], a: { d: 1, c: 2 } }), 'a:\n  c: 2\n  d: 1\nb:\n- x\n- "y"\n');
  });

  it('round-trips what it writes', () => {
    const value = { '.': {}, a: 'y', b: '010', c: '2001-12-14', d: [1, 'n', null], e: 'multi\nline' };
    assert.deepEqual(parseGoYaml(stringifyGoYaml(value)), value);
  });
});
