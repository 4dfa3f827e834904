import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onceThisTurn, servedJSON, textOnce, writeServedJSONCached, type PieceSink } from './encoded.js';
import { withTypeMeta, type ApiObject } from './object.js';

// What the store's decode + the endpoints' stringify produce, with resourceVersion moved to
// metadata's front (where servedJSON writes it): servedJSON must match it byte for byte.
function decoded(stored: string, rv: string): ApiObject {
  const obj = JSON.parse(stored) as ApiObject;
  obj.metadata = { resourceVersion: rv, ...obj.metadata };
  return obj;
}
function asItem(obj: ApiObject): string {
  const { apiVersion: _a, kind: _k, ...rest } = obj;
  return JSON.stringify(rest);
}

const objects: Record<string, unknown> = {
  'type meta first': { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns', uid: 'u' }, data: { k: 'v' } },
  'type meta last (set on create when the body had none)': { metadata: { name: 'a' }, spec: { x: [1, 2, { y: null }] }, status: {}, apiVersion: 'apps.svc.io/v1', kind: 'Deployment' },
  'type meta missing': { metadata: { name: 'a', labels: { 'a/b': 'c' } }, data: { '}': '{', '"': '\\' } },
  'only kind': { kind: 'X', metadata: { name: 'n' } },
  'empty metadata': { apiVersion: 'v1', kind: 'Namespace', metadata: {} },
  'metadata last': { apiVersion: 'v1', kind: 'Secret', data: { a: 'b' }, type: 'Opaque', metadata: { name: 's' } },
  'metadata between': { kind: 'Pod', metadata: { name: 'p', annotations: { 'x': '{"json":["in",1,"string"]}' } }, apiVersion: 'v1', spec: { containers: [{ name: 'c', args: ['a\\"b', '\u00e9\u4e2d\ud83d\ude00', '\u0000\u001f'] }] } },
  'numbers and literals': { apiVersion: 'v1', kind: 'K', metadata: { name: 'n', generation: 3 }, spec: { a: -1.5e-7, b: true, c: false, d: null, e: 0, f: [], g: {}, h: [[]] } },
  'nested metadata-like names': { apiVersion: 'v1', kind: 'K', spec: { metadata: { name: 'x' }, kind: 'inner', apiVersion: 'inner' }, metadata: { name: 'n', managedFields: [{ manager: 'm', fieldsV1: { 'f:metadata': { 'f:resourceVersion': {} } } }] } },
  'kind and apiVersion after metadata, with others before it': { spec: { a: 1 }, metadata: { name: 'n' }, status: { b: [] }, kind: 'K', apiVersion: 'v1' },
  'others before metadata, kind and apiVersion first': { kind: 'K', apiVersion: 'v1', spec: { a: 1 }, metadata: { name: 'n' }, status: {} },
  'a resourceVersion text inside a string': { apiVersion: 'v1', kind: 'K', metadata: { name: 'n', annotations: { last: '{"metadata":{"resourceVersion":"5"}}' } } },
  'unusual names': { apiVersion: 'v1', kind: 'K', metadata: { name: 'n', 'resourceVersio': 'x', 'resourceVersionX': 'y' }, ['__proto__']: { a: 1 }, 'kind2': 'z' },
};

for (const [name, obj] of Object.entries(objects)) {
  const stored = JSON.stringify(obj);
  test(`servedJSON matches decode + stringify: ${name}`, () => {
    const bytes = Buffer.from(stored);
    assert.equal(servedJSON(bytes, '42')?.toString(), asItem(decoded(stored, '42')));
    const typeMeta = { kind: 'Kind', apiVersion: 'g.k8s.io/v2' };
    assert.equal(servedJSON(bytes, '7', { typeMeta })?.toString(), JSON.stringify(withTypeMeta(decoded(stored, '7'), typeMeta.apiVersion, typeMeta.kind)));
    assert.equal(
      servedJSON(new Uint8Array(bytes), '9', { typeMeta, before: '{"type":"ADDED","object":', after: '}\n' })?.toString(),
      `{"type":"ADDED","object":${JSON.stringify(withTypeMeta(decoded(stored, '9'), typeMeta.apiVersion, typeMeta.kind))}}\n`,
    );
  });
}

/** writeServedJSONCached's output as text, and how many pieces it wrote. */
function cachedText(value: Uint8Array, rv: number, form?: Parameters<typeof servedJSON>[2]): { text: string | null; pieces: number } {
  const parts: Buffer[] = [];
  const sink: PieceSink = { text: (t) => void parts.push(Buffer.from(t)), bytes: (b, start, end) => void parts.push(b.subarray(start, end)) };
  const ok = writeServedJSONCached(sink, value, rv, form);
  return { text: ok ? Buffer.concat(parts).toString() : null, pieces: parts.length };
}

for (const [name, obj] of Object.entries(objects)) {
  const stored = JSON.stringify(obj);
  test(`writeServedJSONCached writes what servedJSON writes, first and later times: ${name}`, () => {
    const value = new Uint8Array(Buffer.from(stored));
    const typeMeta = { kind: 'Kind', apiVersion: 'g.k8s.io/v2' };
    for (let round = 0; round < 2; round++) {
      const item = cachedText(value, 42);
      assert.equal(item.text, asItem(decoded(stored, '42')));
      // a list item is at most a head, metadata's members and the rest, whatever the member order
      assert.ok(item.pieces <= 2 + 2 * Object.keys(obj as object).length, `${item.pieces} pieces`);
      assert.equal(cachedText(value, 7, { typeMeta }).text, JSON.stringify(withTypeMeta(decoded(stored, '7'), typeMeta.apiVersion, typeMeta.kind)));
    }
    // another resourceVersion for the same bytes is not answered from the kept item
    assert.equal(cachedText(value, 43).text, asItem(decoded(stored, '43')));
  });
}

test('writeServedJSONCached: a plain item with type meta first is three copies', () => {
  const value = Buffer.from(JSON.stringify(objects['type meta first']));
  assert.equal(cachedText(value, 5).pieces, 2);
  assert.equal(cachedText(Buffer.from(JSON.stringify(objects['type meta last (set on create when the body had none)'])), 5).pieces, 3);
});

const declined: Record<string, string> = {
  'whitespace (not written by the store)': '{ "metadata": {"name":"a"} }',
  'metadata already has a resourceVersion': '{"metadata":{"name":"a","resourceVersion":"3"}}',
  'a resourceVersion member elsewhere (an Event\'s involvedObject)': '{"apiVersion":"v1","kind":"Event","metadata":{"name":"e"},"involvedObject":{"resourceVersion":"3"}}',
  'metadata not an object': '{"metadata":null,"kind":"K"}',
  'no metadata': '{"apiVersion":"v1","kind":"K","spec":{}}',
  'not an object': '["metadata"]',
  'truncated': '{"metadata":{"name":"a"},"spec":{"x":"y',
  'trailing bytes': '{"metadata":{"name":"a"}}x',
  'bad literal': '{"metadata":{"name":"a"},"x":tru e}',
};

for (const [name, text] of Object.entries(declined)) {
  test(`servedJSON declines (the caller decodes): ${name}`, () => {
    assert.equal(servedJSON(Buffer.from(text), '1'), null);
    assert.equal(servedJSON(Buffer.from(text), '1', { typeMeta: { kind: 'K', apiVersion: 'v1' } }), null);
    const value = Buffer.from(text);
    for (let round = 0; round < 2; round++) assert.equal(cachedText(value, 1).text, null);
  });
}

test('textOnce makes a text once per owner and variant', () => {
  const owner = {};
  let made = 0;
  const make = () => `t${++made}`;
  assert.equal(textOnce(owner, 'v1', make), 't1');
  assert.equal(textOnce(owner, 'v1', make), 't1');
  assert.equal(textOnce(owner, 'v2', make), 't2');
  assert.equal(textOnce({}, 'v1', make), 't3');
});

test('onceThisTurn shares bytes within a turn of the event loop, then forgets them', async () => {
  const owner = {};
  let made = 0;
  const make = () => Buffer.from(`b${++made}`);
  const first = onceThisTurn(owner, 'a', make);
  assert.equal(onceThisTurn(owner, 'a', make), first);
  assert.equal(onceThisTurn(owner, 'b', make).toString(), 'b2');
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  assert.equal(onceThisTurn(owner, 'a', make).toString(), 'b3');
});
