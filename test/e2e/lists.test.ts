// Lists: paging with limit/continue over one snapshot, remainingItemCount,
// resourceVersion semantics, too-large versions (504) and expired tokens (410).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestServer } from './harness.js';
import { BACKENDS } from './backends.js';

for (const backend of BACKENDS) describe(`lists (paging and resource versions) on ${backend.name}`, { skip: backend.skip }, () => {
  let t: TestServer;
  const cm = '/api/v1/namespaces/pages/configmaps';
  before(async () => {
    t = await backend.start();
    await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'pages' } });
    for (let i = 0; i < 7; i++) await t.req('POST', cm, { metadata: { name: `cm-${i}`, labels: { odd: String(i % 2 === 1) } } });
  });
  after(async () => t?.stop());

  it('pages form one snapshot while writes continue', async () => {
    const first = await t.req('GET', `${cm}?limit=3`);
    assert.deepEqual(first.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['cm-0', 'cm-1', 'cm-2']);
    assert.equal(first.body.metadata.remainingItemCount, 4);
    const rv = first.body.metadata.resourceVersion;
    await t.req('POST', cm, { metadata: { name: 'cm-9' } });
    await t.req('DELETE', `${cm}/cm-4`);
    const second = await t.req('GET', `${cm}?limit=3&continue=${encodeURIComponent(first.body.metadata.continue)}`);
    assert.equal(second.body.metadata.resourceVersion, rv);
    assert.deepEqual(second.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['cm-3', 'cm-4', 'cm-5']);
    const third = await t.req('GET', `${cm}?limit=3&continue=${encodeURIComponent(second.body.metadata.continue)}`);
    assert.deepEqual(third.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['cm-6']);
    assert.equal(third.body.metadata.continue, undefined);
    assert.equal(third.body.metadata.remainingItemCount, undefined);
    const now = await t.req('GET', cm);
    assert.ok(Number(now.body.metadata.resourceVersion) > Number(rv));
  });

  it('with a label selector, pages fill up to the limit and carry no remainingItemCount', async () => {
    const p = await t.req('GET', `${cm}?limit=2&labelSelector=odd%3Dtrue`);
    assert.deepEqual(p.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['cm-1', 'cm-3']);
    assert.equal(p.body.metadata.remainingItemCount, undefined);
    assert.ok(p.body.metadata.continue);
  });

  it('resourceVersion rules', async () => {
    const list = await t.req('GET', cm);
    const rv = Number(list.body.metadata.resourceVersion);
    assert.equal((await t.req('GET', `${cm}?resourceVersion=0`)).status, 200);
    assert.equal((await t.req('GET', `${cm}?resourceVersion=${rv}&resourceVersionMatch=NotOlderThan`)).body.metadata.resourceVersion, String(rv));
    const exact = await t.req('GET', `${cm}?resourceVersion=${rv - 2}&resourceVersionMatch=Exact`);
    assert.equal(exact.body.metadata.resourceVersion, String(rv - 2), 'Exact serves the requested snapshot');
    const future = await t.req('GET', `${cm}?resourceVersion=${rv + 100}&resourceVersionMatch=NotOlderThan`);
    assert.equal(future.status, 504);
    assert.equal(future.body.message, `Timeout: Too large resource version: ${rv + 100}, current: ${rv}`);
    assert.equal(future.headers['retry-after'], '1');
    const getFuture = await t.req('GET', `${cm}/cm-1?resourceVersion=${rv + 100}`);
    assert.equal(getFuture.status, 504);
    const bad = await t.req('GET', `${cm}?limit=2&continue=abc&resourceVersion=5`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.message, 'specifying resource version is not allowed when using continue');
  });

  it('an unpaged list streams every item across storage chunks as one JSON document', async () => {
    await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'many' } });
    const n = 1234;
    for (let i = 0; i < n; i += 100) {
      await Promise.all(Array.from({ length: Math.min(100, n - i) }, (_, j) => t.req('POST', '/api/v1/namespaces/many/configmaps', { metadata: { name: `m-${String(i + j).padStart(4, '0')}` }, data: { i: String(i + j) } })));
    }
    const all = await t.req('GET', '/api/v1/namespaces/many/configmaps');
    assert.equal(all.body.kind, 'ConfigMapList');
    assert.equal(all.body.items.length, n);
    assert.equal(all.body.items[1233].metadata.name, 'm-1233');
    const yaml = await t.req('GET', '/api/v1/namespaces/many/configmaps?labelSelector=none', undefined, { headers: { accept: 'application/yaml' } });
    assert.match(yaml.text, /^apiVersion: v1\nitems: \[\]\nkind: ConfigMapList\n/); // sorted keys, as Go writes YAML
  });

  it('an expired continue token is 410 with a fresh token', async () => {
    const first = await t.req('GET', `${cm}?limit=2`);
    await t.req('POST', cm, { metadata: { name: 'later' } });
    await t.server.store.compact(await t.server.store.currentRevision());
    const next = await t.req('GET', `${cm}?limit=2&continue=${encodeURIComponent(first.body.metadata.continue)}`);
    assert.equal(next.status, 410);
    assert.equal(next.body.reason, 'Expired');
    assert.match(next.body.message, /^The provided continue parameter is too old/);
    assert.ok(next.body.metadata.continue, 'a token that continues at the current revision');
    const resumed = await t.req('GET', `${cm}?limit=2&continue=${encodeURIComponent(next.body.metadata.continue)}`);
    assert.equal(resumed.status, 200);
    assert.deepEqual(resumed.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['cm-2', 'cm-3']);
  });
});
