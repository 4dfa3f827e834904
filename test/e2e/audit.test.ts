// The audit log of a real server over HTTPS: a policy file, the JSON log
// file read back, one request per verb with the event kube would write
// (level, stages, objectRef, responseStatus, objects, annotations, Audit-ID),
// failed authentication, a 403, and rotation by size with maxbackup.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './harness.js';
import { openWatch } from './watchclient.js';
import { tempDir } from '../../src/testing/tempdir.js';
import { waitFor } from '../../src/testing/wait.js';
import { auditOptions, POLICY, readLog, type Ev } from './auditlog.js';

describe('audit log (e2e)', () => {
  let t: TestServer;
  let dir: string;
  let log: string;
  before(async () => {
    dir = tempDir('svc-e2e-audit-');
    log = join(dir, 'audit.log');
    t = await startTestServer({ audit: auditOptions(dir) });
    await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'au' } });
  });
  after(async () => t?.stop());

  /** The events of the request whose response carried this Audit-Id, once its last stage is in the file. */
  const eventsOf = (id: string, last = 'ResponseComplete') =>
    waitFor(`audit events of ${id}`, async () => {
      const evs = readLog(log).filter((e) => e.auditID === id);
      return evs.some((e) => e.stage === last) ? evs : undefined;
    }, 10_000);
  const complete = async (id: string) => (await eventsOf(id)).find((e) => e.stage === 'ResponseComplete')!;

  it('every response carries an Audit-Id; an incoming one is kept', async () => {
    const r = await t.req('GET', '/api/v1/namespaces/au', undefined, { headers: { 'Audit-ID': 'e2e-chosen-id' } });
    assert.equal(r.headers['audit-id'], 'e2e-chosen-id');
    const ev = await complete('e2e-chosen-id');
    assert.equal(ev.verb, 'get');
    const h = await t.req('GET', '/healthz');
    assert.match(String(h.headers['audit-id']), /^[0-9a-f-]{36}$/);
  });

  it('create (RequestResponse, managedFields omitted): the request and response objects, the Status-less 201', async () => {
    const r = await t.req('POST', '/api/v1/namespaces/au/configmaps?fieldManager=e2e', { metadata: { name: 'c1' }, data: { k: 'v' } }, { headers: { 'user-agent': 'audit-e2e/1.0' } });
    assert.equal(r.status, 201);
    const evs = await eventsOf(String(r.headers['audit-id']));
    assert.deepEqual(evs.map((e) => e.stage), ['ResponseComplete'], 'RequestReceived is omitted by the policy');
    const ev = evs[0]!;
    assert.equal(ev.kind, 'Event');
    assert.equal(ev.apiVersion, 'audit.k8s.io/v1');
    assert.equal(ev.level, 'RequestResponse');
    assert.equal(ev.verb, 'create');
    assert.equal(ev.requestURI, '/api/v1/namespaces/au/configmaps?fieldManager=e2e');
    assert.equal(ev.user.username, 'admin');
    assert.ok(ev.user.groups.includes('system:masters'));
    assert.deepEqual(ev.sourceIPs, ['127.0.0.1']);
    assert.equal(ev.userAgent, 'audit-e2e/1.0');
    assert.deepEqual(ev.objectRef, { resource: 'configmaps', namespace: 'au', name: 'c1', apiVersion: 'v1' });
    assert.deepEqual(ev.responseStatus, { metadata: {}, code: 201 });
    assert.equal(ev.requestObject.data.k, 'v');
    assert.equal(ev.responseObject.metadata.name, 'c1');
    assert.equal(ev.responseObject.metadata.managedFields, undefined);
    assert.ok(ev.responseObject.metadata.uid);
    assert.match(ev.requestReceivedTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    assert.match(ev.stageTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    assert.equal(ev.annotations['authorization.k8s.io/decision'], 'allow');
    assert.equal(ev.annotations['authorization.svc.io/decision'], 'allow');
    assert.ok('authorization.k8s.io/reason' in ev.annotations);
  });

  it('get, list (streamed), update, patch at RequestResponse', async () => {
    const g = await t.req('GET', '/api/v1/namespaces/au/configmaps/c1');
    const ge = await complete(String(g.headers['audit-id']));
    assert.equal(ge.verb, 'get');
    assert.deepEqual(ge.objectRef, { resource: 'configmaps', namespace: 'au', name: 'c1', apiVersion: 'v1' });
    assert.equal(ge.responseObject.data.k, 'v');
    assert.equal(ge.requestObject, undefined);

    const l = await t.req('GET', '/api/v1/namespaces/au/configmaps');
    const le = await complete(String(l.headers['audit-id']));
    assert.equal(le.verb, 'list');
    assert.equal(le.responseObject.kind, 'ConfigMapList');
    assert.deepEqual(le.responseObject.items.map((i: Ev) => i.metadata.name), ['c1']);
    assert.equal(le.responseObject.items[0].metadata.managedFields, undefined);

    // whatever the client negotiated, the event keeps the response as JSON (kube's audit encodes it so)
    const pb = await t.req('GET', '/api/v1/namespaces/au/configmaps', undefined, { headers: { accept: 'application/vnd.kubernetes.protobuf' } });
    assert.equal(pb.status, 200);
    assert.match(String(pb.headers['content-type']), /protobuf/);
    const pbe = await complete(String(pb.headers['audit-id']));
    assert.equal(pbe.responseObject.kind, 'ConfigMapList');
    assert.equal(pbe.responseObject.apiVersion, 'v1');
    assert.match(pbe.responseObject.metadata.resourceVersion, /^\d+$/);
    assert.deepEqual(pbe.responseObject.items.map((i: Ev) => [i.metadata.name, i.data.k, i.kind, i.metadata.managedFields]), [['c1', 'v', undefined, undefined]]);
    const tb = await t.req('GET', '/api/v1/namespaces/au/configmaps', undefined, { headers: { accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' } });
    assert.equal(tb.status, 200);
    const tbe = await complete(String(tb.headers['audit-id']));
    assert.equal(tbe.responseObject.kind, 'Table');
    assert.deepEqual(tbe.responseObject.rows.map((r: Ev) => r.cells[0]), ['c1']);

    const cur = g.body;
    const u = await t.req('PUT', '/api/v1/namespaces/au/configmaps/c1', { ...cur, data: { k: 'v2' } });
    assert.equal(u.status, 200);
    const ue = await complete(String(u.headers['audit-id']));
    assert.equal(ue.verb, 'update');
    assert.equal(ue.objectRef.uid, cur.metadata.uid, 'uid and resourceVersion from the request object');
    assert.equal(ue.objectRef.resourceVersion, cur.metadata.resourceVersion);
    assert.equal(ue.requestObject.data.k, 'v2');

    const p = await t.req('PATCH', '/api/v1/namespaces/au/configmaps/c1', undefined, { raw: '{"data":{"k":"v3"}}', headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(p.status, 200);
    const pe = await complete(String(p.headers['audit-id']));
    assert.equal(pe.verb, 'patch');
    assert.deepEqual(pe.requestObject, { data: { k: 'v3' } }, 'the patch as sent');
    assert.equal(pe.responseObject.data.k, 'v3');
  });

  it('delete and deletecollection; a 404 with its Status', async () => {
    await t.req('POST', '/api/v1/namespaces/au/configmaps', { metadata: { name: 'c2' } });
    const d = await t.req('DELETE', '/api/v1/namespaces/au/configmaps/c1');
    assert.equal(d.status, 200);
    const de = await complete(String(d.headers['audit-id']));
    assert.equal(de.verb, 'delete');
    assert.equal(de.objectRef.name, 'c1');
    assert.deepEqual(de.responseStatus, { metadata: {}, status: 'Success', details: de.responseObject.details, code: 200 });

    const dc = await t.req('DELETE', '/api/v1/namespaces/au/configmaps');
    const dce = await complete(String(dc.headers['audit-id']));
    assert.equal(dce.verb, 'deletecollection');
    assert.deepEqual(dce.responseObject.items.map((i: Ev) => i.metadata.name), ['c2']);

    const nf = await t.req('GET', '/api/v1/namespaces/au/configmaps/gone');
    assert.equal(nf.status, 404);
    const nfe = await complete(String(nf.headers['audit-id']));
    assert.deepEqual(nfe.responseStatus, { metadata: {}, status: 'Failure', message: 'configmaps "gone" not found', reason: 'NotFound', details: { name: 'gone', kind: 'configmaps' }, code: 404 });
  });

  it('Request level keeps the request only, with RequestReceived (the rule clears no stage, the policy omits it)', async () => {
    const r = await t.req('POST', '/api/v1/namespaces/au/secrets', { metadata: { name: 's1' }, stringData: { p: 'w' } });
    const evs = await eventsOf(String(r.headers['audit-id']));
    assert.deepEqual(evs.map((e) => e.stage), ['ResponseComplete'], "a rule's omitStages adds to the policy's");
    assert.equal(evs[0]!.level, 'Request');
    // as kube's: the decoded object in the request's version (stringData merged into data), with its type
    assert.deepEqual(evs[0]!.requestObject, { kind: 'Secret', apiVersion: 'v1', metadata: { name: 's1' }, type: 'Opaque', data: { p: 'dw==' } });
    assert.equal(evs[0]!.responseObject, undefined);
  });

  it('watch: ResponseStarted when the stream starts, ResponseComplete when it ends', async () => {
    const s = await openWatch(t, '/api/v1/namespaces/au/pods?watch=true&timeoutSeconds=1');
    assert.equal(s.status, 200);
    await s.ended;
    const evs = await waitFor('the watch events', async () => {
      const w = readLog(log).filter((e) => e.verb === 'watch' && e.objectRef?.namespace === 'au');
      return w.some((e) => e.stage === 'ResponseComplete') ? w : undefined;
    }, 10_000);
    assert.deepEqual(evs.map((e) => e.stage), ['ResponseStarted', 'ResponseComplete']);
    assert.equal(evs[0]!.level, 'Metadata');
    assert.deepEqual(evs[0]!.responseStatus, { metadata: {}, code: 200 });
    assert.equal(evs[0]!.auditID, evs[1]!.auditID);
  });

  it('a non-resource URL: verb is the method, no objectRef', async () => {
    const r = await t.req('GET', '/version');
    const ev = await complete(String(r.headers['audit-id']));
    assert.equal(ev.verb, 'get');
    assert.equal(ev.requestURI, '/version');
    assert.equal(ev.objectRef, undefined);
    assert.equal(ev.level, 'Metadata');
  });

  it('a 403: the Forbidden Status and forbid annotations; impersonation recorded', async () => {
    const r = await t.req('GET', '/api/v1/namespaces/au/secrets', undefined, { headers: { 'Impersonate-User': 'nobody' } });
    assert.equal(r.status, 403);
    const ev = await complete(String(r.headers['audit-id']));
    assert.equal(ev.user.username, 'admin');
    assert.deepEqual(ev.impersonatedUser, { username: 'nobody', groups: ['system:authenticated'] });
    assert.equal(ev.responseStatus.reason, 'Forbidden');
    assert.equal(ev.responseStatus.code, 403);
    assert.equal(ev.annotations['authorization.k8s.io/decision'], 'forbid');
  });

  it('a failed authentication: one ResponseStarted event, no user', async () => {
    const r = await t.req('GET', '/api/v1/namespaces', undefined, { token: 'not-a-token' });
    assert.equal(r.status, 401);
    const evs = await eventsOf(String(r.headers['audit-id']), 'ResponseStarted');
    assert.equal(evs.length, 1);
    assert.deepEqual(evs[0]!.user, {});
    assert.deepEqual(evs[0]!.responseStatus, { metadata: {}, message: 'Authentication failed, attempted: bearer', code: 401 });
  });
});

describe('audit events per level and verb (e2e)', () => {
  let t: TestServer;
  let log: string;
  before(async () => {
    const dir = tempDir('svc-e2e-audit-lv-');
    log = join(dir, 'audit.log');
    t = await startTestServer({ audit: auditOptions(dir, {}, POLICY.replace('omitStages: [RequestReceived]\n', '')) });
  });
  after(async () => t?.stop());

  const verbs: [string, (ns: string) => Promise<{ headers: Record<string, unknown>; status: number }>, boolean][] = [
    ['create', (ns) => t.req('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'a' }, data: { k: '1' } }), true],
    ['get', (ns) => t.req('GET', `/api/v1/namespaces/${ns}/configmaps/a`), false],
    ['list', (ns) => t.req('GET', `/api/v1/namespaces/${ns}/configmaps`), false],
    ['update', (ns) => t.req('PUT', `/api/v1/namespaces/${ns}/configmaps/a`, { metadata: { name: 'a' }, data: { k: '2' } }), true],
    ['patch', (ns) => t.req('PATCH', `/api/v1/namespaces/${ns}/configmaps/a`, undefined, { raw: '[{"op":"add","path":"/data/j","value":"3"}]', headers: { 'content-type': 'application/json-patch+json' } }), true],
    ['delete', (ns) => t.req('DELETE', `/api/v1/namespaces/${ns}/configmaps/a`), false],
    ['deletecollection', (ns) => t.req('DELETE', `/api/v1/namespaces/${ns}/configmaps`), false],
  ];
  for (const level of ['Metadata', 'Request', 'RequestResponse']) {
    it(`${level}: both stages for every verb; the request object from Request on (bodies only), the response object at RequestResponse`, async () => {
      const ns = `lvl-${level.toLowerCase()}`;
      await t.req('POST', '/api/v1/namespaces', { metadata: { name: ns } });
      for (const [verb, call, hasBody] of verbs) {
        const r = await call(ns);
        assert.ok(r.status < 300, `${verb}: ${r.status}`);
        const id = String(r.headers['audit-id']);
        const evs = await waitFor(`${verb} events`, async () => {
          const e = readLog(log).filter((x) => x.auditID === id);
          return e.some((x) => x.stage === 'ResponseComplete') ? e : undefined;
        }, 10_000);
        assert.deepEqual(evs.map((e) => e.stage), ['RequestReceived', 'ResponseComplete'], verb);
        const [rr, rc] = evs as [Ev, Ev];
        for (const e of evs) {
          assert.equal(e.level, level, verb);
          assert.equal(e.verb, verb);
          assert.equal(e.objectRef.namespace, ns);
          assert.equal(e.objectRef.resource, 'configmaps');
        }
        assert.equal(rr.responseStatus, undefined, `${verb}: RequestReceived has no status`);
        assert.equal(rc.responseStatus.code, r.status, verb);
        assert.equal(rc.requestObject !== undefined, hasBody && level !== 'Metadata', `${verb}: requestObject`);
        assert.equal(rc.responseObject !== undefined, level === 'RequestResponse', `${verb}: responseObject`);
        assert.equal(rr.requestObject, undefined, `${verb}: the request object is read after RequestReceived`);
      }
    });
  }
});
