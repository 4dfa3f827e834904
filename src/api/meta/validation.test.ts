// The fast predicates of validation.ts (isQualifiedName, isLabelValue, …)
// must accept exactly what the message functions accept: checked here
// against the rules written out with Kubernetes' regular expressions, and
// against checks.ts for port and environment variable names, on edge cases
// and on many random strings.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { envVarNameErrors, portNameErrors } from './checks.js';
import {
  dns1123LabelErrors,
  dns1123SubdomainErrors,
  isDns1123Label,
  isDns1123Subdomain,
  isEnvVarName,
  isLabelValue,
  isPortName,
  isQualifiedName,
  labelValueErrors,
  qualifiedNameErrors,
} from './validation.js';

const LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const full = (s: string) => new RegExp(`^(?:${s})$`);
const refLabel = (v: string) => v.length <= 63 && full(LABEL).test(v);
const refSubdomain = (v: string) => v.length <= 253 && full(`${LABEL}(\\.${LABEL})*`).test(v);
const QUALIFIED = full('([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]');
const refLabelValue = (v: string) => v.length <= 63 && (v === '' || QUALIFIED.test(v));
function refQualifiedName(v: string): boolean {
  const parts = v.split('/');
  if (parts.length > 2) return false;
  const name = parts[parts.length - 1]!;
  if (parts.length === 2 && (parts[0] === '' || !refSubdomain(parts[0]!))) return false;
  return name.length <= 63 && QUALIFIED.test(name);
}

const EDGES = [
  '', 'a', 'A', '0', '-', '.', '..', '_', '/', 'a/', '/a', 'a/b', 'a/b/c', 'A/b', 'a.b/c', 'a..b/c', 'a-/b', '-a/b', 'example.com/MyName',
  'app.kubernetes.io/name', 'my.name', 'my_name', '-a', 'a-', 'a_', '_a', '.a', 'a.', 'a--b', '1abc', 'ABC', 'ü', 'aü', 'a b', 'a\nb', 'a:b',
  'x'.repeat(63), 'x'.repeat(64), `${'x'.repeat(253)}/a`, `${'x'.repeat(254)}/a`, `a/${'x'.repeat(63)}`, `a/${'x'.repeat(64)}`, 'y'.repeat(253), 'y'.repeat(254),
  `${'a'.repeat(63)}.${'b'.repeat(63)}`, 'http', 'http-2', 'h--p', 'HTTP', '123', 'abcdefghijklmno', 'abcdefghijklmnop', 'MY_VAR', 'my.env-name', '1VAR', '..x', '.x', 'x..',
];

/** Deterministic random strings over the characters the rules care about. */
function* randomStrings(n: number): Generator<string> {
  let seed = 12345;
  const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) / 16777216;
  const chars = 'aZ09-_./:ü';
  for (let i = 0; i < n; i++) {
    let s = next() < 0.05 ? 'a'.repeat(60 + Math.floor(next() * 200)) : '';
    for (let len = Math.floor(next() * 10); len > 0; len--) s += chars[Math.floor(next() * chars.length)];
    yield s;
  }
}

const cases = [...EDGES, ...randomStrings(20000)];

describe('fast predicates accept exactly what the message functions accept', () => {
  const rows: [string, (v: string) => boolean, (v: string) => boolean, (v: string) => string[]][] = [
    ['isDns1123Label', isDns1123Label, refLabel, dns1123LabelErrors],
    ['isDns1123Subdomain', isDns1123Subdomain, refSubdomain, dns1123SubdomainErrors],
    ['isLabelValue', isLabelValue, refLabelValue, labelValueErrors],
    ['isQualifiedName', isQualifiedName, refQualifiedName, qualifiedNameErrors],
  ];
  for (const [name, fast, ref, messages] of rows) {
    it(name, () => {
      for (const v of cases) {
        assert.equal(fast(v), ref(v), JSON.stringify(v));
        assert.equal(messages(v).length === 0, ref(v), JSON.stringify(v));
      }
      // A second round: answers served from a cache must not change.
      for (const v of cases) assert.equal(fast(v), ref(v), JSON.stringify(v));
    });
  }
  it('isPortName (checks.ts portNameErrors)', () => {
    for (const v of cases) assert.equal(isPortName(v), portNameErrors(v).length === 0, JSON.stringify(v));
  });
  it('isEnvVarName (checks.ts envVarNameErrors)', () => {
    for (const v of cases) assert.equal(isEnvVarName(v), envVarNameErrors(v).length === 0, JSON.stringify(v));
  });
  it('values that are not strings take the message path', () => {
    const odd = [1] as unknown as string;
    assert.equal(isQualifiedName(odd), false);
    assert.equal(isDns1123Subdomain(odd), false);
    assert.deepEqual(dns1123SubdomainErrors(odd), []); // as before: the regex reads [1] as "1"
  });
});
