// A client that resumes a watch from its last seen resourceVersion loses no
// event and sees none twice: across a restart of the embedded server, and
// across servers sharing one etcd (one of them stopped while the client was
// away).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './harness.js';
import { openWatch, type Stream } from './watchclient.js';
import { findTool } from '../../src/testing/tools.js';
import { startEtcd, type EtcdServer } from '../../src/storage/etcd/testserver.js';

const cm = '/api/v1/namespaces/default/configmaps';
const lastRv = (s: Stream) => s.events.filter((e) => e.type !== 'BOOKMARK').at(-1)!.object.metadata.resourceVersion;
const created = (s: Stream) => s.events.filter((e) => e.type === 'ADDED').map((e) => e.object.metadata.name);

describe('watch resume across an embedded server restart', () => {
  it('events written before the restart and not yet seen arrive after it, in order, once', async () => {
    const first = await startTestServer();
    const dataDir = first.dataDir;
    const start = (await first.req('GET', cm)).body.metadata.resourceVersion as string;
    const s = await openWatch(first, `${cm}?watch=1&resourceVersion=${start}`);
    for (let i = 0; i < 3; i++) await first.req('POST', cm, { metadata: { name: `seen-${i}` } });
    await s.waitFor(3);
    s.close();
    const resumeFrom = lastRv(s);
    for (let i = 0; i < 3; i++) await first.req('POST', cm, { metadata: { name: `missed-${i}` } }); // the client is away
    await first.server.shutdown();

    const second = await startTestServer({ dataDir, storage: { backend: 'sqlite', dataDir } });
    try {
      const r = await openWatch(second, `${cm}?watch=1&resourceVersion=${resumeFrom}`);
      await second.req('POST', cm, { metadata: { name: 'after' } });
      await r.waitFor(4);
      r.close();
      assert.deepEqual(created(r), ['missed-0', 'missed-1', 'missed-2', 'after']);
    } finally {
      await second.stop();
    }
  });
});

const etcd = findTool('etcd', "Debian's etcd-server (apt-get install etcd-server)");

describe('watch resume across API servers on one etcd', { skip: etcd.skip }, () => {
  let store: EtcdServer;
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    store = await startEtcd();
    a = await startTestServer({ storage: { backend: 'etcd3', etcdServers: [store.url] } });
    b = await startTestServer({ storage: { backend: 'etcd3', etcdServers: [store.url] } });
  });
  after(async () => {
    await b?.stop();
    await store?.stop();
  });

  it('a client moves from a stopped server to another and misses nothing', async () => {
    const ns = '/api/v1/namespaces/default/secrets';
    const start = (await a.req('GET', ns)).body.metadata.resourceVersion as string;
    const s = await openWatch(a, `${ns}?watch=1&resourceVersion=${start}`);
    for (let i = 0; i < 3; i++) await b.req('POST', ns, { metadata: { name: `s-${i}` } }); // written through the other server
    await s.waitFor(3);
    s.close();
    const resumeFrom = lastRv(s);
    await a.stop();
    for (let i = 3; i < 6; i++) await b.req('POST', ns, { metadata: { name: `s-${i}` } });

    const r = await openWatch(b, `${ns}?watch=1&resourceVersion=${resumeFrom}`);
    await b.req('DELETE', `${ns}/s-0`);
    await r.waitFor(4);
    r.close();
    assert.deepEqual(created(s), ['s-0', 's-1', 's-2']);
    assert.deepEqual(r.events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED s-3', 'ADDED s-4', 'ADDED s-5', 'DELETED s-0']);
    const revs = r.events.map((e) => Number(e.object.metadata.resourceVersion));
    assert.deepEqual(revs, [...revs].sort((x, y) => x - y), 'in revision order');
  });
});
