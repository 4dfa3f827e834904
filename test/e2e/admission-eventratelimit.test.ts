// EventRateLimit over HTTPS (issue 21), on SQLite and etcd: a Namespace limit
// (burst 2, 1 qps) from the admission configuration file — the third Event
// in a namespace within a second is refused with kube's 429, another
// namespace has its own bucket, other kinds and events.k8s.io requests are not
// counted; and a server asked for the plugin without a configuration does not
// start.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tempDir } from '../../src/testing/tempdir.js';
import type { TestServer } from './harness.js';
import { BACKENDS } from './backends.js';
import { admissionConfig, given } from './admission-table.js';
import { runSvc } from './svcprocess.js';

const event = (ns: string, name: string) => ({
  apiVersion: 'v1', kind: 'Event', metadata: { name, namespace: ns },
  involvedObject: { kind: 'Pod', namespace: ns, name: 'p', apiVersion: 'v1' }, reason: 'Started', message: 'started', type: 'Normal',
  source: { component: 'kubelet', host: 'n1' },
});
const newEvent = (ns: string, name: string) => ({
  apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name, namespace: ns }, eventTime: '2026-11-27T00:00:00.000000Z',
  reportingController: 'example.com/c', reportingInstance: 'c-1', action: 'Start', reason: 'Started', type: 'Normal',
  regarding: { kind: 'Pod', namespace: ns, name: 'p', apiVersion: 'v1' },
});

for (const backend of BACKENDS) {
  describe(`EventRateLimit (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestServer;
    before(async () => {
      const configFile = admissionConfig(tempDir('svc-adm-erl-'), {
        EventRateLimit: { apiVersion: 'eventratelimit.admission.k8s.io/v1alpha1', kind: 'Configuration', limits: [{ type: 'Namespace', qps: 1, burst: 2 }] },
      });
      t = await backend.start({ admission: { enable: ['EventRateLimit'], configFile } });
      await given(t, [['/api/v1/namespaces', { metadata: { name: 'busy' } }], ['/api/v1/namespaces', { metadata: { name: 'quiet' } }]]);
    });
    after(async () => t?.stop());

    it('a namespace\'s burst is spent: 429 with kube\'s text; another namespace is not affected; other writes pass', async () => {
      // six at once against burst 2 at 1 qps: two pass (a third only if a second passed meanwhile)
      const rs = await Promise.all(Array.from({ length: 6 }, (_, i) => t.req('POST', '/api/v1/namespaces/busy/events', event('busy', `e${i}`))));
      const created = rs.filter((r) => r.status === 201).length;
      const refused = rs.filter((r) => r.status === 429);
      assert.ok(created >= 2 && created <= 3 && created + refused.length === 6, rs.map((r) => r.status).join(','));
      for (const r of refused) {
        assert.equal(r.body.reason, 'TooManyRequests');
        assert.equal(r.body.code, 429);
        assert.equal(r.body.message, 'Too many requests: limit reached on type Namespace for key busy');
        assert.equal(r.body.details, undefined);
      }
      assert.equal((await t.req('POST', '/api/v1/namespaces/quiet/events', event('quiet', 'q0'))).status, 201);
      assert.equal((await t.req('POST', '/api/v1/namespaces/busy/configmaps', { metadata: { name: 'cm' } })).status, 201);
      assert.equal((await t.req('POST', '/apis/events.k8s.io/v1/namespaces/busy/events', newEvent('busy', 'n0'))).status, 201);
    });
  });
}

describe('EventRateLimit without a configuration', () => {
  it('stops the start with kube\'s message', async () => {
    const p = runSvc(['apiserver', `--data-dir=${tempDir('svc-erl-none-')}`, '--secure-port=0', '--enable-admission-plugins=EventRateLimit']);
    assert.equal(await p.exit, 1, p.out());
    assert.match(p.out(), /couldn't init admission plugin "EventRateLimit": limits: Invalid value: \[\]eventratelimit\.Limit\(nil\): must not be empty/);
  });
});
