import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fnv32, hashControllerRevision, rawData } from './hash.js';

const enc = (s: string) => new TextEncoder().encode(s);
const WEB = { spec: { template: { $patch: 'replace', metadata: { labels: { app: 'web' } }, spec: { containers: [{ image: 'nginx', name: 'nginx' }] } } } };

test('fnv32 is FNV-1 (Go hash/fnv New32)', () => {
  const rows: [string, number][] = [['', 0x811c9dc5], ['a', 0x050c5d7e], ['foobar', 0x31f0b262]];
  for (const [s, want] of rows) assert.equal(fnv32(enc(s)), want, s);
});

test('rawData writes Go json.Marshal of a map: sorted keys, compact, HTML-safe escapes', () => {
  const rows: [unknown, string][] = [
    [undefined, ''],
    [{ b: 1, a: [{ z: 'x', y: null }] }, '{"a":[{"y":null,"z":"x"}],"b":1}'],
    [{ s: '<a&b>' }, '{"s":"\\u003ca\\u0026b\\u003e"}'],
    [{ B: 1, a: 2, $patch: 3 }, '{"$patch":3,"B":1,"a":2}'],
  ];
  for (const [v, want] of rows) assert.equal(rawData(v), want);
});

// Expected values computed with Go: hash/fnv New32 over the same bytes, the
// collision count as strconv.FormatInt, rand.SafeEncodeString of fmt.Sprint(sum).
test('hashControllerRevision matches kube (computed with Go)', () => {
  const rows: [unknown, number | undefined, string][] = [
    [undefined, undefined, '65bb57b6b5'],
    [undefined, 0, 'd8bfb7bc'],
    [undefined, 12, '988b8f48d'],
    [WEB, undefined, '556754694b'],
    [WEB, 0, '67877dbf6b'],
    [WEB, 1, '67877dbf6c'],
    [WEB, 12, '6d4b999bc'],
  ];
  for (const [data, probe, want] of rows) assert.equal(hashControllerRevision(data, probe), want, `${JSON.stringify(data)} ${probe}`);
});

test('key order of the data does not change the hash', () => {
  const reordered = { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx' }] }, metadata: { labels: { app: 'web' } }, $patch: 'replace' } } };
  assert.equal(hashControllerRevision(reordered), hashControllerRevision(WEB));
});
