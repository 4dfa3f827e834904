// EventRateLimit over HTTPS (issue 21), on SQLite and etcd: core Events
// written beyond a bucket's burst are refused with kube's 429 (reason
// TooManyRequests, `Too many requests: limit reached on type T for key K`, no
// Retry-After), one bucket per namespace, per user, per source and involved
// object, or one for the server; dry runs, other kinds and Events written
// through events.svc.io are not counted (as kube). The configuration embedded
// and by `path`; none, or a bad one, stops the start.
//
// No timing assertions: each burst is sent at once, and the buckets gain one
// token a second (qps 1), so a burst of burst+k requests sees a refusal as
// long as it is admitted within k seconds, and its first `burst` always pass.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { tempDir } from '../../src/testing/tempdir.js';
import { writeTokenFile, type HttpResult, type TestServer } from './harness.js';
import { runSvc } from './svcprocess.js';
import { BACKENDS } from './backends.js';
import { admissionConfig, given } from './admission-table.js';

const USERS = Array.from({ length: 60 }, (_, i) => `u${i}`);
const TOKENS = USERS.map((u) => `tok-${u},${u},uid-${u},"system:masters"`).join('\n') + '\n';
const as = (user: string) => ({ token: `tok-${user}` });
const NAMESPACES = ['crowd', 'quiet', 'so', 'modern', ...Array.from({ length: 14 }, (_, i) => `n${i}`)];

const LIMITS = [
  { type: 'Namespace', qps: 1, burst: 12, cacheSize: 100 },
  { type: 'User', qps: 1, burst: 4 },
  { type: 'SourceAndObject', qps: 1, burst: 2 },
];

interface EventSpec {
  readonly ns: string;
  readonly name: string;
  /** The involved Pod (default: the event's name). */
  readonly pod?: string;
  readonly source?: { component: string; host?: string };
}

const coreEvent = (e: EventSpec) => ({
  metadata: { name: e.name },
  involvedObject: { kind: 'Pod', apiVersion: 'v1', namespace: e.ns, name: e.pod ?? e.name },
  reason: 'Tested', message: 'a test event', type: 'Normal', source: e.source ?? { component: `c-${e.name}` },
});

const tooMany = (message: string) => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Too many requests: ${message}`, reason: 'TooManyRequests', code: 429 });

/** Every answer 201, or 429 with exactly kube's body for `message` (no Retry-After); at least `burst` created, at least one refused. */
function assertBurst(rs: readonly HttpResult[], burst: number, message: string): void {
  const created = rs.filter((r) => r.status === 201);
  const refused = rs.filter((r) => r.status !== 201);
  assert.ok(created.length >= burst, `the first ${burst} pass: ${created.length} created`);
  assert.ok(refused.length >= 1, 'some refused');
  for (const r of refused) {
    assert.equal(r.status, 429, r.text);
    assert.deepEqual(r.body, tooMany(message));
    assert.equal(r.headers['retry-after'], undefined);
  }
}

for (const backend of BACKENDS) {
  describe(`EventRateLimit per namespace, user, source and object (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestServer;
    const post = (e: EventSpec, user: string, query = '') => t.req('POST', `/api/v1/namespaces/${e.ns}/events${query}`, coreEvent(e), as(user));
    before(async () => {
      const dir = tempDir('svc-adm-erl-');
      t = await backend.start({
        tokenAuthFile: writeTokenFile(dir, TOKENS),
        admission: { enable: ['EventRateLimit'], configFile: admissionConfig(dir, { EventRateLimit: { apiVersion: 'eventratelimit.admission.svc.io/v1alpha1', kind: 'Configuration', limits: LIMITS } }) },
      });
      await given(t, NAMESPACES.map((name) => ['/api/v1/namespaces', { metadata: { name } }] as [string, unknown]));
    });
    after(async () => {
      await t?.stop();
    });

    it('Namespace: a burst of Events in one namespace beyond its burst gets 429; refused ones are not stored', async () => {
      // 24 users, 24 objects: only the namespace's bucket (burst 12) empties.
      const rs = await Promise.all(USERS.slice(0, 24).map((u, i) => post({ ns: 'crowd', name: `e${i}` }, u)));
      assertBurst(rs, 12, 'limit reached on type Namespace for key crowd');
      const list = await t.req('GET', '/api/v1/namespaces/crowd/events');
      assert.equal(list.body.items.length, rs.filter((r) => r.status === 201).length);
    });

    it('Namespace: another namespace has its own bucket', async () => {
      const r = await post({ ns: 'quiet', name: 'calm' }, 'u0');
      assert.equal(r.status, 201, r.text);
    });

    it('User: one user\'s Events across namespaces beyond its burst get 429; another user is not limited', async () => {
      const rs = await Promise.all(Array.from({ length: 14 }, (_, i) => post({ ns: `n${i}`, name: 'chatty' }, 'u30')));
      assertBurst(rs, 4, 'limit reached on type User for key u30');
      const other = await post({ ns: 'n0', name: 'other-user' }, 'u31');
      assert.equal(other.status, 201, other.text);
    });

    it('SourceAndObject: Events of one source about one object beyond its burst get 429; another object is not limited', async () => {
      const source = { component: 'flappy', host: 'node-1' };
      const rs = await Promise.all(USERS.slice(40, 50).map((u, i) => post({ ns: 'so', name: `flap-${i}`, pod: 'pod-1', source }, u)));
      assertBurst(rs, 2, 'limit reached on type SourceAndObject for key flappynode-1Podsopod-1v1');
      const other = await post({ ns: 'so', name: 'flap-other', pod: 'pod-2', source }, 'u50');
      assert.equal(other.status, 201, other.text);
    });

    it('dry runs are neither counted nor refused (kube skips them)', async () => {
      const rs = await Promise.all(Array.from({ length: 12 }, (_, i) => post({ ns: `n${i}`, name: 'dry' }, 'u51', '?dryRun=All')));
      assert.deepEqual(rs.map((r) => r.status), rs.map(() => 201), rs.find((r) => r.status !== 201)?.text);
      assert.equal((await t.req('GET', '/api/v1/namespaces/n0/events/dry')).status, 404, 'nothing stored');
    });

    it('other kinds are not limited: ConfigMaps in a namespace whose Event bucket is empty, by one user', async () => {
      const rs = await Promise.all(Array.from({ length: 12 }, (_, i) => t.req('POST', '/api/v1/namespaces/crowd/configmaps', { metadata: { name: `cm-${i}` } }, as('u52'))));
      assert.deepEqual(rs.map((r) => r.status), rs.map(() => 201), rs.find((r) => r.status !== 201)?.text);
    });

    it('Events written through events.svc.io/v1 are not counted (kube compares the request\'s kind with core Event)', async () => {
      const ev = (i: number) => ({
        metadata: { name: `modern-${i}` }, eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'svc.io/test', reportingInstance: 'i1',
        action: 'Started', reason: 'Started', regarding: { kind: 'Pod', namespace: 'modern', name: 'p' }, note: 'hello', type: 'Normal',
      });
      const rs = await Promise.all(Array.from({ length: 10 }, (_, i) => t.req('POST', '/apis/events.svc.io/v1/namespaces/modern/events', ev(i), as('u53'))));
      assert.deepEqual(rs.map((r) => r.status), rs.map(() => 201), rs.find((r) => r.status !== 201)?.text);
    });
  });

  describe(`EventRateLimit for the whole server, configured by path (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestServer;
    before(async () => {
      const dir = tempDir('svc-adm-erl-server-');
      writeFileSync(join(dir, 'eventratelimit.yaml'), stringify({ apiVersion: 'eventratelimit.admission.k8s.io/v1alpha1', kind: 'Configuration', limits: [{ type: 'Server', qps: 1, burst: 3 }] }));
      const cfg = join(dir, 'admission.yaml');
      writeFileSync(cfg, stringify({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AdmissionConfiguration', plugins: [{ name: 'EventRateLimit', path: 'eventratelimit.yaml' }] }));
      t = await backend.start({ admission: { enable: ['EventRateLimit'], configFile: cfg } });
      await given(t, [['/api/v1/namespaces', { metadata: { name: 'a' } }], ['/api/v1/namespaces', { metadata: { name: 'b' } }]]);
    });
    after(async () => {
      await t?.stop();
    });

    it('one bucket for every Event: a burst across namespaces beyond it gets 429 (key "")', async () => {
      const rs = await Promise.all(Array.from({ length: 12 }, (_, i) => t.req('POST', `/api/v1/namespaces/${i % 2 ? 'a' : 'b'}/events`, coreEvent({ ns: i % 2 ? 'a' : 'b', name: `s${i}` }))));
      assertBurst(rs, 3, 'limit reached on type Server for key ');
    });
  });
}

describe('EventRateLimit configuration errors stop the start (exit 1)', () => {
  const rows: [string, unknown, RegExp][] = [
    ['no configuration', undefined, /Error: couldn't init admission plugin "EventRateLimit": limits: Invalid value: \[\]eventratelimit\.Limit\(nil\): must not be empty\n/],
    ['qps 0 and an unknown type', { apiVersion: 'eventratelimit.admission.svc.io/v1alpha1', kind: 'Configuration', limits: [{ type: 'Pod', qps: 0, burst: 1 }] },
      /Error: couldn't init admission plugin "EventRateLimit": \[limits\[0\]\.type: Unsupported value: "Pod": supported values: "Server", "Namespace", "User", "SourceAndObject", limits\[0\]\.qps: Invalid value: 0: must be positive\]\n/],
  ];
  for (const [what, config, message] of rows) {
    it(what, async () => {
      const flags = config === undefined ? [] : [`--admission-control-config-file=${admissionConfig(tempDir('svc-adm-erl-bad-'), { EventRateLimit: config })}`];
      const p = runSvc(['apiserver', '--enable-admission-plugins=EventRateLimit', ...flags, `--data-dir=${tempDir('svc-adm-erl-bad-')}`, '--secure-port=0']);
      assert.equal(await p.exit, 1, p.out());
      assert.match(p.out(), message);
    });
  }
});
