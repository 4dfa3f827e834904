// Watch over HTTPS: the start table (unset / "0" / a revision), event shapes,
// selectors entering and leaving, ordering under concurrent writers,
// timeoutSeconds, bookmarks and 410 for a compacted revision.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestServer } from './harness.js';
import { openWatch, type Stream } from './watchclient.js';
import { BACKENDS } from './backends.js';
import { FeatureGates } from '../../src/features/gates.js';

const names = (s: Stream) => s.events.map((e) => `${e.type} ${e.object.metadata.name ?? ''}`.trim());

for (const backend of BACKENDS) describe(`watch on ${backend.name}`, { skip: backend.skip }, () => {
  let t: TestServer;
  const cm = '/api/v1/namespaces/w/configmaps';
  before(async () => {
    t = await backend.start({ watch: { bookmarkIntervalMs: 200 }, watchCacheWindow: { maxEvents: 50 }, featureGates: FeatureGates.parse('WatchList=true') });
    await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'w' } });
  });
  after(async () => t?.stop());

  it('from a list resourceVersion: changes after it, with the delete revision on DELETED', async () => {
    const list = await t.req('GET', cm);
    const s = await openWatch(t, `${cm}?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`);
    assert.equal(s.status, 200);
    const a = await t.req('POST', cm, { metadata: { name: 'a' }, data: { v: '1' } });
    const u = await t.req('PUT', `${cm}/a`, { metadata: { name: 'a' }, data: { v: '2' } });
    await t.req('DELETE', `${cm}/a`);
    await s.waitFor(3);
    s.close();
    assert.deepEqual(names(s), ['ADDED a', 'MODIFIED a', 'DELETED a']);
    assert.equal(s.events[0]!.object.kind, 'ConfigMap');
    assert.equal(s.events[0]!.object.metadata.resourceVersion, a.body.metadata.resourceVersion);
    assert.equal(s.events[1]!.object.metadata.resourceVersion, u.body.metadata.resourceVersion);
    assert.ok(Number(s.events[2]!.object.metadata.resourceVersion) > Number(u.body.metadata.resourceVersion));
    assert.deepEqual(s.events[2]!.object.data, { v: '2' }, 'DELETED carries the last state');
  });

  it('without a resourceVersion: synthetic ADDED for existing objects, then live changes', async () => {
    await t.req('POST', cm, { metadata: { name: 'pre1' } });
    await t.req('POST', cm, { metadata: { name: 'pre2' } });
    for (const rv of ['', '&resourceVersion=0']) {
      const s = await openWatch(t, `${cm}?watch=true${rv}`);
      await s.waitFor(2);
      await t.req('POST', cm, { metadata: { name: `live${rv.length}` } });
      await s.waitFor(3);
      s.close();
      assert.deepEqual(names(s).slice(0, 2).sort(), ['ADDED pre1', 'ADDED pre2']);
      assert.equal(names(s)[2], `ADDED live${rv.length}`);
      await t.req('DELETE', `${cm}/live${rv.length}`);
    }
  });

  it('selectors: leaving is DELETED, entering is ADDED', async () => {
    const rv = (await t.req('GET', cm)).body.metadata.resourceVersion;
    const s = await openWatch(t, `${cm}?watch=1&labelSelector=keep%3Dyes&resourceVersion=${rv}`);
    await t.req('POST', cm, { metadata: { name: 'x', labels: { keep: 'yes' } } });
    await t.req('POST', cm, { metadata: { name: 'y', labels: { keep: 'no' } } });
    await t.req('PUT', `${cm}/x`, { metadata: { name: 'x', labels: { keep: 'no' } } });
    await t.req('PUT', `${cm}/y`, { metadata: { name: 'y', labels: { keep: 'yes' } } });
    await s.waitFor(3);
    s.close();
    assert.deepEqual(names(s), ['ADDED x', 'DELETED x', 'ADDED y']);
  });

  it('keeps order with no gaps under concurrent writers', async () => {
    const rv = (await t.req('GET', cm)).body.metadata.resourceVersion;
    const s = await openWatch(t, `${cm}?watch=1&resourceVersion=${rv}`);
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => t.req('POST', cm, { metadata: { name: `c-${i}` } })));
    await s.waitFor(40);
    s.close();
    const got = s.events.map((e) => Number(e.object.metadata.resourceVersion));
    assert.deepEqual(got, results.map((r) => Number(r.body.metadata.resourceVersion)).sort((a, b) => a - b));
  });

  it('sendInitialEvents=true: the state, then a BOOKMARK marking its end at the synced version, then changes', async () => {
    const ns = '/api/v1/namespaces/w/secrets';
    await t.req('POST', ns, { metadata: { name: 's1' } });
    const s2 = await t.req('POST', ns, { metadata: { name: 's2' } });
    for (const rv of ['', '&resourceVersion=0', `&resourceVersion=${s2.body.metadata.resourceVersion}`]) {
      const s = await openWatch(t, `${ns}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true${rv}`);
      assert.equal(s.status, 200);
      await s.waitFor(3);
      assert.deepEqual(names(s).slice(0, 2).sort(), ['ADDED s1', 'ADDED s2']);
      const end = s.events[2]!;
      assert.equal(end.type, 'BOOKMARK');
      assert.deepEqual(end.object.metadata.annotations, { 'svc.io/initial-events-end': 'true', 'k8s.io/initial-events-end': 'true' });
      assert.ok(Number(end.object.metadata.resourceVersion) >= Number(s2.body.metadata.resourceVersion), 'synced at least to the given version');
      const live = await t.req('POST', ns, { metadata: { name: 'later' } });
      await s.waitFor(4);
      s.close();
      assert.equal(names(s)[3], 'ADDED later');
      assert.equal(s.events[3]!.object.metadata.resourceVersion, live.body.metadata.resourceVersion);
      await t.req('DELETE', `${ns}/later`);
    }
  });

  it('sendInitialEvents=false starts from now with no synthetic events; without bookmarks there is no end marker', async () => {
    const ns = '/api/v1/namespaces/w/serviceaccounts';
    await t.req('POST', ns, { metadata: { name: 'old' } });
    const s = await openWatch(t, `${ns}?watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan`);
    await t.req('POST', ns, { metadata: { name: 'new' } });
    await s.waitFor(1);
    s.close();
    assert.deepEqual(names(s), ['ADDED new']);
    const quiet = await openWatch(t, `${ns}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=1`);
    await quiet.ended;
    assert.deepEqual(names(quiet).sort(), ['ADDED new', 'ADDED old']);
  });

  it('invalid watch option combinations are 422 Invalid', async () => {
    const r = await t.req('GET', `${cm}?watch=1&sendInitialEvents=true`);
    assert.equal(r.status, 422);
    assert.equal(r.body.message, 'ListOptions.meta.svc.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
    assert.equal((await t.req('GET', `${cm}?watch=1&resourceVersionMatch=NotOlderThan&resourceVersion=1`)).status, 422);
    assert.equal((await t.req('GET', `${cm}?sendInitialEvents=true`)).status, 422);
  });

  it('timeoutSeconds ends the stream; bookmarks carry only the resourceVersion', async () => {
    const rv = (await t.req('GET', cm)).body.metadata.resourceVersion;
    const s = await openWatch(t, `${cm}?watch=1&resourceVersion=${rv}&timeoutSeconds=1&allowWatchBookmarks=true`);
    await s.ended;
    const bms = s.events.filter((e) => e.type === 'BOOKMARK');
    assert.ok(bms.length >= 2, 'periodic bookmarks and one before the end');
    assert.deepEqual(bms.at(-1)!.object, { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: rv } });
    const plain = await openWatch(t, `${cm}?watch=1&resourceVersion=${rv}&timeoutSeconds=1`);
    await plain.ended;
    assert.deepEqual(plain.events, [], 'no bookmarks unless allowed');
  });

  it('a version older than the cache window is served from storage history', async () => {
    const old = (await t.req('GET', cm)).body.metadata.resourceVersion;
    for (let i = 0; i < 60; i++) await t.req('POST', cm, { metadata: { name: `h-${i}` } }); // pushes `old` out of the 50-event window
    const s = await openWatch(t, `${cm}?watch=1&resourceVersion=${old}`);
    await s.waitFor(60);
    s.close();
    assert.deepEqual(names(s).slice(0, 2), ['ADDED h-0', 'ADDED h-1']);
  });

  it('a version older than both the window and storage history is 410 Gone before the stream starts', async () => {
    const old = (await t.req('GET', cm)).body.metadata.resourceVersion;
    for (let i = 0; i < 60; i++) await t.req('POST', cm, { metadata: { name: `g-${i}` } });
    await t.server.store.compact(await t.server.store.currentRevision());
    const r = await t.req('GET', `${cm}?watch=1&resourceVersion=${old}`);
    assert.equal(r.status, 410);
    assert.equal(r.body.reason, 'Expired');
    assert.match(r.body.message, /^too old resource version: /);
  });
});
