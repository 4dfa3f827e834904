// Lists written from stored bytes, over the real server: items are the
// objects a get returns (without kind and apiVersion, resourceVersion
// filled in), pages read from the watch cache form the same walk storage
// would give, and a body larger than one piece is one valid document.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../test/e2e/harness.js';
import { PIECE_BYTES } from './liststream.js';

describe('lists as JSON from stored bytes', () => {
  let t: TestServer;
  const cm = '/api/v1/namespaces/ls/configmaps';
  const N = 23;
  before(async () => {
    t = await startTestServer();
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'ls' } })).status, 201);
    for (let i = 0; i < N; i++) {
      const r = await t.req('POST', cm, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${String(i).padStart(2, '0')}`, labels: { odd: String(i % 2 === 1) } }, data: { i: String(i), text: 'é"\\\u2028' } });
      assert.equal(r.status, 201);
    }
  });
  after(async () => t?.stop());

  it('items are the objects a get returns, without kind and apiVersion', async () => {
    const list = await t.req('GET', cm);
    assert.equal(list.status, 200);
    assert.equal(list.body.kind, 'ConfigMapList');
    assert.equal(list.body.items.length, N);
    for (const item of list.body.items) {
      assert.equal(item.kind, undefined);
      assert.equal(item.apiVersion, undefined);
      const got = await t.req('GET', `${cm}/${item.metadata.name}`);
      const { kind: _k, apiVersion: _a, ...rest } = got.body;
      assert.deepEqual(item, rest);
    }
  });

  it('a paged walk with nothing changing: one revision, every item once in order, counts going down', async () => {
    for (const limit of [1, 4, 10, N, N + 5]) {
      const seen: string[] = [];
      let token: string | undefined;
      let rv: string | undefined;
      for (let page = 0; page < 50; page++) {
        const r = await t.req('GET', `${cm}?limit=${limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
        assert.equal(r.status, 200);
        rv ??= r.body.metadata.resourceVersion;
        assert.equal(r.body.metadata.resourceVersion, rv, 'every page is at the first page\'s revision');
        seen.push(...r.body.items.map((o: { metadata: { name: string } }) => o.metadata.name));
        token = r.body.metadata.continue;
        if (!token) {
          assert.equal(r.body.metadata.remainingItemCount, undefined);
          break;
        }
        assert.equal(r.body.items.length, limit);
        assert.equal(r.body.metadata.remainingItemCount, N - seen.length);
      }
      assert.deepEqual(seen, Array.from({ length: N }, (_, i) => `c${String(i).padStart(2, '0')}`), `limit=${limit}`);
    }
  });

  it('a page with a selector fills up to the limit and has no remainingItemCount', async () => {
    const r = await t.req('GET', `${cm}?limit=3&labelSelector=odd%3Dtrue`);
    assert.deepEqual(r.body.items.map((o: { metadata: { name: string } }) => o.metadata.name), ['c01', 'c03', 'c05']);
    assert.equal(r.body.metadata.remainingItemCount, undefined);
    const next = await t.req('GET', `${cm}?limit=100&labelSelector=odd%3Dtrue&continue=${encodeURIComponent(r.body.metadata.continue)}`);
    assert.equal(next.body.items.length, 8);
    assert.equal(next.body.metadata.continue, undefined);
  });

  it('a body of many pieces is one valid document, paged or not', async () => {
    const big = 'x'.repeat(20_000);
    const n = Math.ceil((3 * PIECE_BYTES) / big.length);
    for (let i = 0; i < n; i++) assert.equal((await t.req('POST', '/api/v1/namespaces/ls/secrets', { metadata: { name: `s${i}` }, stringData: { big } })).status, 201);
    const all = await t.req('GET', '/api/v1/namespaces/ls/secrets');
    assert.equal(all.status, 200);
    assert.ok(all.text.length > 3 * PIECE_BYTES);
    assert.equal(all.body.items.filter((s: { metadata: { name: string } }) => s.metadata.name.startsWith('s')).length, n);
    const page = await t.req('GET', `/api/v1/namespaces/ls/secrets?limit=${n}`);
    assert.equal(page.status, 200);
    assert.deepEqual(page.body.items, all.body.items.slice(0, n));
  });
});
