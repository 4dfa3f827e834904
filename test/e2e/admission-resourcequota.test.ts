// ResourceQuota end to end, on SQLite and etcd: the quota controller fills a
// new quota's status and releases usage when an object goes; admission
// charges creates (kube's 403 texts over quota), records nothing for a dry
// run, and 64 concurrent creates against pods=10 leave exactly 10.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from './backends.js';
import { eventually, type TestServer } from './harness.js';

const NS = '/api/v1/namespaces/rq';
const pod = (name: string, cpu: string | null = '10m') => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: { containers: [{ name: 'app', image: 'x:1', ...(cpu ? { resources: { requests: { cpu } } } : {}) }] },
});
const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });

for (const backend of BACKENDS) {
  describe(`ResourceQuota admission and controller (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestServer;
    const used = async (name: string): Promise<Record<string, string> | undefined> => (await t.req('GET', `${NS}/resourcequotas/${name}`)).body.status?.used;
    before(async () => {
      t = await backend.start();
      assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'rq' } })).status, 201);
    });
    after(async () => t?.stop());

    it('the controller fills a new quota\'s status', async () => {
      const q = await t.req('POST', `${NS}/resourcequotas`, { metadata: { name: 'counts' }, spec: { hard: { pods: '10', 'count/configmaps': '2' } } });
      assert.equal(q.status, 201, q.text);
      assert.equal((await t.req('POST', `${NS}/resourcequotas`, { metadata: { name: 'compute' }, spec: { hard: { 'requests.cpu': '1' } } })).status, 201);
      await eventually(async () => JSON.stringify(await used('counts')) === JSON.stringify({ 'count/configmaps': '0', pods: '0' }));
      await eventually(async () => JSON.stringify(await used('compute')) === JSON.stringify({ 'requests.cpu': '0' }));
      const got = await t.req('GET', `${NS}/resourcequotas/counts`);
      assert.deepEqual(got.body.status.hard, { 'count/configmaps': '2', pods: '10' });
    });

    it('refuses a create over quota with kube\'s text, and releases after a delete', async () => {
      for (const n of ['c0', 'c1']) assert.equal((await t.req('POST', `${NS}/configmaps`, configMap(n))).status, 201);
      assert.deepEqual(await used('counts'), { 'count/configmaps': '2', pods: '0' });
      const over = await t.req('POST', `${NS}/configmaps`, configMap('c2'));
      assert.equal(over.status, 403, over.text);
      assert.equal(over.body.reason, 'Forbidden');
      assert.equal(over.body.message, 'configmaps "c2" is forbidden: exceeded quota: counts, requested: count/configmaps=1, used: count/configmaps=2, limited: count/configmaps=2');
      assert.equal((await t.req('DELETE', `${NS}/configmaps/c0`)).status, 200);
      await eventually(async () => (await used('counts'))?.['count/configmaps'] === '1');
      assert.equal((await t.req('POST', `${NS}/configmaps`, configMap('c2'))).status, 201);
    });

    it('refuses a pod without the cpu request a quota tracks', async () => {
      const res = await t.req('POST', `${NS}/pods`, pod('nocpu', null));
      assert.equal(res.status, 403, res.text);
      assert.equal(res.body.message, 'pods "nocpu" is forbidden: failed quota: compute: must specify requests.cpu for: app');
    });

    it('a dry run is checked and records nothing', async () => {
      const res = await t.req('POST', `${NS}/pods?dryRun=All`, pod('dry'));
      assert.equal(res.status, 201, res.text);
      assert.equal((await used('counts'))?.pods, '0');
      assert.equal((await used('compute'))?.['requests.cpu'], '0');
      assert.equal((await t.req('GET', `${NS}/pods/dry`)).status, 404);
    });

    it('64 concurrent creates against pods=10: exactly 10 exist and used pods=10', async () => {
      const results = await Promise.all(Array.from({ length: 64 }, (_, i) => t.req('POST', `${NS}/pods`, pod(`p${i}`))));
      const codes = results.map((r) => r.status);
      assert.equal(codes.filter((c) => c === 201).length, 10, JSON.stringify(codes));
      for (const r of results.filter((x) => x.status !== 201)) {
        assert.equal(r.status, 403, r.text);
        assert.match(r.body.message, /^pods "p\d+" is forbidden: exceeded quota: counts, requested: pods=1, used: pods=10, limited: pods=10$/);
      }
      assert.equal((await t.req('GET', `${NS}/pods`)).body.items.length, 10);
      assert.equal((await used('counts'))?.pods, '10');
      assert.equal((await used('compute'))?.['requests.cpu'], '100m');
      // a delete releases a pod's share
      const first = results.findIndex((r) => r.status === 201);
      assert.equal((await t.req('DELETE', `${NS}/pods/p${first}?gracePeriodSeconds=0`)).status, 200);
      await eventually(async () => (await used('counts'))?.pods === '9');
    });
  });
}
