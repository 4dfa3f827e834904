// The etcd backend against a real etcd process: the whole conformance suite,
// key prefixes, start-up failures and watch resumption.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findTool } from '../../testing/tools.js';
import { runStoreConformance } from '../conformance/index.js';
import { Collector, text } from '../conformance/harness.js';
import { EtcdStore } from './store.js';
import { startEtcd, type EtcdServer } from './testserver.js';

const etcd = findTool('etcd', "Debian's etcd-server (apt-get install etcd-server)");

describe('etcd backend', { skip: etcd.skip }, () => {
  let server: EtcdServer;
  before(async () => { server = await startEtcd(); });
  after(async () => { await server?.stop(); });

  runStoreConformance({ name: 'etcd', open: () => EtcdStore.open({ servers: [server.url] }) });

  describe('etcd specifics', () => {
    it('key prefixes isolate stores sharing one cluster', async () => {
      const a = await EtcdStore.open({ servers: [server.url], keyPrefix: '/tenant-a' });
      const b = await EtcdStore.open({ servers: [server.url], keyPrefix: '/tenant-b' });
      try {
        await a.create('/registry/x', text('a'));
        await b.create('/registry/x', text('b'));
        assert.equal(Buffer.from((await a.get('/registry/x'))!.value).toString(), 'a');
        const r = await b.range('/registry/');
        assert.deepEqual(r.items.map((kv) => kv.key), ['/registry/x']);
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('two store processes sharing etcd see each other\'s writes and watches', async () => {
      const a = await EtcdStore.open({ servers: [server.url] });
      const b = await EtcdStore.open({ servers: [server.url] });
      try {
        const c = new Collector();
        c.handle = await b.watch({ prefix: '/shared/', fromRevision: await b.currentRevision() }, c.sink);
        const kv = await a.create('/shared/one', text('1'));
        await c.waitFor(1);
        c.handle.close();
        assert.equal(c.events[0]!.revision, kv.modRevision);
        assert.equal((await b.get('/shared/one'))!.modRevision, kv.modRevision);
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('watches resume without gaps or duplicates when etcd restarts', async () => {
      const s = await EtcdStore.open({ servers: [server.url] });
      try {
        const c = new Collector();
        c.handle = await s.watch({ prefix: '/resume/', fromRevision: await s.currentRevision() }, c.sink);
        const revs = [(await s.create('/resume/a', text('1'))).modRevision];
        await c.waitFor(1);
        await server.restart();
        for (let i = 0; i < 50; i++) {
          try {
            revs.push((await s.create('/resume/b', text('2'))).modRevision);
            break;
          } catch {
            await new Promise((r) => setTimeout(r, 100)); // the client reconnects
          }
        }
        revs.push((await s.update('/resume/a', text('3'))).modRevision);
        await c.waitFor(3, 20_000);
        await new Promise((r) => setTimeout(r, 100));
        c.handle.close();
        assert.equal(c.error, undefined);
        assert.deepEqual(c.events.map((e) => e.revision), revs);
      } finally {
        await s.close();
      }
    });

    it('an unreachable etcd fails start-up with a message naming it', async () => {
      await assert.rejects(EtcdStore.open({ servers: ['http://127.0.0.1:1'], dialTimeoutMs: 500 }), /cannot reach etcd at http:\/\/127\.0\.0\.1:1/);
    });
  });
});
