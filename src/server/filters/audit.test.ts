// The audit filter on a fake request context: stages, levels, status, the
// hooks later stages call, impersonation, failed authentication, the strict mode.
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { trackMutatingWebhook, trackValidatingWebhook } from '../../metrics/latencytrackers.js';
import type { Handler } from '../context.js';
import { withRecovery } from './recovery.js';
import { withRequestInfo } from './requestinfo.js';
import { withAuthorization } from './authz.js';
import { withImpersonation } from './impersonation.js';
import { withAuthentication } from './authn.js';
import { withAudit, failedAuthenticationAudit } from './audit.js';
import { alwaysAllow, alwaysDeny } from '../../authz/authorizer.js';
import { AuthenticationError, UnionAuthenticator } from '../../authn/authenticator.js';
import { PolicyEvaluator } from '../../audit/checker.js';
import { parsePolicy } from '../../audit/policy.js';
import { auditRequestObject, enableAuditHooks, nowMicros } from '../../audit/record.js';
import type { Backend } from '../../audit/backend.js';
import type { AuditEvent } from '../../audit/types.js';
import { writeJSONText, writeObject } from '../respond.js';
import { configureMetrics, exposition } from '../../metrics/registry.js';
import { newGone } from '../../api/meta/index.js';
import { fakeContext } from '../../testing/fakecontext.js';

enableAuditHooks();

const fakeCtx = (method: string, url: string, headers: Record<string, string> = {}) => fakeContext(method, url, headers);

class Recorder implements Backend {
  readonly name = 'recorder';
  events: AuditEvent[] = [];
  constructor(private readonly ok = true) {}
  processEvents(e: readonly AuditEvent[]) {
    this.events.push(...e);
    return Promise.resolve(this.ok);
  }
  async shutdown() {}
}

const POLICY = parsePolicy(`
apiVersion: audit.svc.io/v1
kind: Policy
rules:
- level: None
  nonResourceURLs: [/healthz]
- level: RequestResponse
  omitManagedFields: true
  resources: [{group: "", resources: [secrets]}]
- level: Request
  resources: [{group: "", resources: [configmaps]}]
- level: Metadata
  omitStages: [RequestReceived]
  resources: [{group: "", resources: [events]}]
- level: Metadata
`);

function chain(handler: Handler, o: { backend?: Backend; authorizer?: typeof alwaysAllow } = {}) {
  const backend = o.backend ?? new Recorder();
  let h = withAuthorization(handler, o.authorizer ?? alwaysAllow);
  h = withImpersonation(h, alwaysAllow);
  h = withAudit(h, { backend, policy: new PolicyEvaluator(POLICY) });
  return { h: withRecovery(withRequestInfo(h)), backend };
}

const events = (b: Backend) => (b as Recorder).events;
const stages = (b: Backend) => events(b).map((e) => e.stage);

beforeEach(() => configureMetrics());

describe('the audit filter', () => {
  it('Metadata: RequestReceived then ResponseComplete, objectRef completed from the request object, no objects kept', async () => {
    const { h, backend } = chain(async (ctx) => {
      auditRequestObject(ctx, { kind: 'Pod', metadata: { name: 'p1', uid: 'u1' } });
      writeObject(ctx, 201, { kind: 'Pod', metadata: { name: 'p1' } });
    });
    const ctx = fakeCtx('POST', '/api/v1/namespaces/ns/pods', { 'user-agent': 'kubectl/v1.27.3', 'audit-id': 'my-id', 'x-forwarded-for': '1.2.3.4, bogus, 5.6.7.8' });
    await h(ctx);
    assert.equal(ctx.out().status, 201);
    assert.equal(ctx.out().headers['audit-id'], 'my-id');
    assert.deepEqual(stages(backend), ['RequestReceived', 'ResponseComplete']);
    const [rr, rc] = events(backend) as [AuditEvent, AuditEvent];
    assert.equal(rr.level, 'Metadata');
    assert.equal(rr.auditID, 'my-id');
    assert.equal(rr.verb, 'create');
    assert.equal(rr.requestURI, '/api/v1/namespaces/ns/pods');
    assert.deepEqual(rr.user, { username: 'tester', groups: ['system:authenticated'] });
    assert.deepEqual(rr.sourceIPs, ['1.2.3.4', '5.6.7.8', '10.0.0.9']);
    assert.equal(rr.userAgent, 'kubectl/v1.27.3');
    assert.equal(rr.responseStatus, undefined);
    assert.equal(rr.stageTimestamp, rr.requestReceivedTimestamp);
    assert.deepEqual(rr.objectRef, { resource: 'pods', namespace: 'ns', name: '', apiGroup: '', apiVersion: 'v1', subresource: '' });
    assert.deepEqual(rc.objectRef, { resource: 'pods', namespace: 'ns', name: 'p1', uid: 'u1', apiGroup: '', apiVersion: 'v1', subresource: '' });
    assert.deepEqual(rc.responseStatus, { code: 201 });
    assert.equal(rc.requestObject, undefined);
    assert.equal(rc.responseObject, undefined);
    assert.deepEqual(rc.annotations, { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '', 'authorization.svc.io/decision': 'allow', 'authorization.svc.io/reason': '' });
    assert.ok(rc.stageTimestamp >= rc.requestReceivedTimestamp);
  });

  it('a request slower than 500 ms carries its webhooks\' and its answer\'s times and the total (kube\'s apiserver.latency.k8s.io annotations); a fast one does not', async () => {
    // (the fast one "received" a second after now: under the threshold whatever the machine's speed)
    const rows: [name: string, receivedAgoMs: number, want: boolean][] = [['slow', 2000, true], ['fast', -1000, false]];
    for (const [name, ago, want] of rows) {
      const backend = new Recorder();
      // no recovery filter (it stamps the receive time): the receive time is moved back instead, so the request "took" that long
      const h = withRequestInfo(withAudit(async (ctx) => {
        trackMutatingWebhook(ctx, 250);
        trackValidatingWebhook(ctx, 1.5);
        writeObject(ctx, 201, { kind: 'Pod', metadata: { name: 'p1' } });
      }, { backend, policy: new PolicyEvaluator(POLICY) }));
      const ctx = fakeCtx('POST', '/api/v1/namespaces/ns/pods');
      ctx.receivedAt = nowMicros() - ago * 1000;
      await h(ctx);
      const rc = events(backend).at(-1) as AuditEvent;
      const notes = rc.annotations ?? {};
      if (!want) {
        assert.equal(Object.keys(notes).some((k) => k.startsWith('apiserver.latency.')), false, name);
        continue;
      }
      for (const d of ['k8s.io', 'svc.io']) {
        assert.equal(notes[`apiserver.latency.${d}/mutating-webhook`], '250ms', name);
        assert.equal(notes[`apiserver.latency.${d}/validating-webhook`], '1.5ms', name);
        assert.match(notes[`apiserver.latency.${d}/total`]!, /^\d+(\.\d+)?s$/, name);
        // writeObject timed its encoding and its write
        assert.match(notes[`apiserver.latency.${d}/serialize-response-object`]!, /^\d+(\.\d+)?(ns|µs|ms)$/, name);
        assert.match(notes[`apiserver.latency.${d}/response-write`]!, /^\d+(\.\d+)?(ns|µs|ms)$/, name);
        assert.equal(notes[`apiserver.latency.${d}/etcd`], undefined, 'no storage call');
      }
    }
  });

  it('Request keeps the request object only; RequestResponse both, managedFields omitted when the rule says so', async () => {
    const obj = { kind: 'X', metadata: { name: 'a', managedFields: [{ manager: 'm' }] }, data: { k: 'v' } };
    const handler: Handler = async (ctx) => {
      auditRequestObject(ctx, obj);
      writeJSONText(ctx, 200, JSON.stringify(obj));
    };
    const req = chain(handler);
    await req.h(fakeCtx('PUT', '/api/v1/namespaces/ns/configmaps/a'));
    const rc1 = events(req.backend)[1]!;
    assert.equal(rc1.level, 'Request');
    assert.deepEqual(JSON.parse(rc1.requestObject!), obj);
    assert.equal(rc1.responseObject, undefined);
    const rr = chain(handler);
    await rr.h(fakeCtx('PUT', '/api/v1/namespaces/ns/secrets/a'));
    const rc2 = events(rr.backend)[1]!;
    assert.equal(rc2.level, 'RequestResponse');
    assert.deepEqual(JSON.parse(rc2.requestObject!), { kind: 'X', metadata: { name: 'a' }, data: { k: 'v' } });
    assert.deepEqual(JSON.parse(rc2.responseObject!), { kind: 'X', metadata: { name: 'a' }, data: { k: 'v' } });
    // a body written as stored bytes (a get served from storage) is kept too
    const bytes = chain(async (ctx) => writeJSONText(ctx, 200, Buffer.from(JSON.stringify({ kind: 'X', data: { k: 'é' } }))));
    await bytes.h(fakeCtx('GET', '/api/v1/namespaces/ns/secrets/a'));
    assert.deepEqual(JSON.parse(events(bytes.backend)[1]!.responseObject!), { kind: 'X', data: { k: 'é' } });
  });

  it('a 403: the Status and the forbid annotations', async () => {
    const { h, backend } = chain(async () => assert.fail('not reached'), { authorizer: alwaysDeny });
    const ctx = fakeCtx('GET', '/api/v1/namespaces/ns/pods/p');
    await h(ctx);
    assert.equal(ctx.out().status, 403);
    const rc = events(backend).at(-1)!;
    assert.equal(rc.stage, 'ResponseComplete');
    assert.equal(rc.responseStatus?.status, 'Failure');
    assert.equal(rc.responseStatus?.reason, 'Forbidden');
    assert.equal(rc.responseStatus?.code, 403);
    assert.match(rc.responseStatus?.message ?? '', /^pods "p" is forbidden: User "tester" cannot get resource "pods"/);
    assert.equal(rc.annotations?.['authorization.k8s.io/decision'], 'forbid');
    assert.equal(rc.annotations?.['authorization.k8s.io/reason'], 'Everything is forbidden.');
  });

  it('a bug in a later stage: Panic instead of ResponseComplete, then 500', async () => {
    const { h, backend } = chain(async () => { throw new TypeError('boom'); });
    const ctx = fakeCtx('GET', '/api/v1/namespaces/ns/pods');
    const err = console.error;
    console.error = () => undefined;
    try {
      await h(ctx);
    } finally {
      console.error = err;
    }
    assert.equal(ctx.out().status, 500);
    assert.deepEqual(stages(backend), ['RequestReceived', 'Panic']);
    assert.deepEqual(events(backend)[1]!.responseStatus, { status: 'Failure', message: "APIServer panic'd: boom", reason: 'InternalError', code: 500 });
  });

  it('a watch: ResponseStarted when the head is written, ResponseComplete at the end', async () => {
    const { h, backend } = chain(async (ctx) => {
      const r = ctx.res as unknown as { writeHead(c: number): void };
      r.writeHead(200);
      assert.deepEqual(stages(backend), ['RequestReceived', 'ResponseStarted']); // as the head goes out
      await new Promise((res) => setImmediate(res));
      ctx.res.write('{"type":"ADDED"}\n');
      ctx.res.end();
    });
    await h(fakeCtx('GET', '/api/v1/namespaces/ns/pods?watch=true'));
    assert.deepEqual(stages(backend), ['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
    assert.equal(events(backend)[0]!.verb, 'watch');
    assert.deepEqual(events(backend)[1]!.responseStatus, { code: 200 });
  });

  it('an API error after the response started still ends with ResponseComplete', async () => {
    const { h, backend } = chain(async (ctx) => {
      const r = ctx.res as unknown as { writeHead(c: number): void };
      r.writeHead(200);
      ctx.res.write('{"type":"ADDED"}\n');
      throw newGone('too old resource version: 1 (5)');
    });
    const err = console.error;
    console.error = () => undefined;
    try {
      await h(fakeCtx('GET', '/api/v1/namespaces/ns/pods?watch=true'));
    } finally {
      console.error = err;
    }
    assert.deepEqual(stages(backend), ['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
    assert.deepEqual(events(backend)[2]!.responseStatus, { code: 200 });
  });

  it('omitStages, level None, and the level metric', async () => {
    const count = async (name: string) => Number(new RegExp(`^${name.replace(/[{}]/g, (c) => `\\${c}`)} (\\S+)$`, 'm').exec(await exposition())?.[1] ?? 0);
    const before = [await count('apiserver_audit_level_total{level="None"}'), await count('apiserver_audit_level_total{level="Metadata"}'), await count('apiserver_audit_event_total')];
    const { h, backend } = chain(async (ctx) => writeObject(ctx, 200, {}));
    await h(fakeCtx('GET', '/api/v1/namespaces/ns/events'));
    assert.deepEqual(stages(backend), ['ResponseComplete']);
    await h(fakeCtx('GET', '/healthz'));
    assert.equal(events(backend).length, 1);
    const after = [await count('apiserver_audit_level_total{level="None"}'), await count('apiserver_audit_level_total{level="Metadata"}'), await count('apiserver_audit_event_total')];
    assert.deepEqual(after, [before[0]! + 1, before[1]! + 1, before[2]! + 1]);
  });

  it('impersonation: the event keeps the real user and records the impersonated one after RequestReceived', async () => {
    const { h, backend } = chain(async (ctx) => writeObject(ctx, 200, {}));
    await h(fakeCtx('GET', '/api/v1/namespaces/ns/pods', { 'impersonate-user': 'bob', 'impersonate-group': 'devs' }));
    const [rr, rc] = events(backend) as [AuditEvent, AuditEvent];
    assert.equal(rr.impersonatedUser, undefined);
    assert.equal(rc.user.username, 'tester');
    assert.deepEqual(rc.impersonatedUser, { username: 'bob', groups: ['devs', 'system:authenticated'] });
  });

  it('blocking-strict: a RequestReceived that cannot be stored fails the request with 500', async () => {
    let reached = false;
    const rejected = Number(/^apiserver_audit_requests_rejected_total (\S+)$/m.exec(await exposition())?.[1]);
    const { h } = chain(async () => { reached = true; }, { backend: new Recorder(false) });
    const ctx = fakeCtx('GET', '/api/v1/namespaces/ns/pods');
    await h(ctx);
    assert.equal(reached, false);
    assert.equal(ctx.out().status, 500);
    assert.equal(ctx.out().body, 'Internal Server Error: "/api/v1/namespaces/ns/pods": failed to store audit event\n');
    assert.match(await exposition(), new RegExp(`^apiserver_audit_requests_rejected_total ${rejected + 1}$`, 'm'));
  });

  it('a failed authentication: one ResponseStarted event without a user, naming the credentials tried', async () => {
    const backend = new Recorder();
    const audit = { backend, policy: new PolicyEvaluator(POLICY) };
    const refuse = new UnionAuthenticator([{ name: 'refuse', authenticate: () => { throw new AuthenticationError('bad'); } }], { anonymous: false });
    const h = withRecovery(withRequestInfo(withAuthentication(withAudit(async () => assert.fail('not reached'), audit), refuse, failedAuthenticationAudit(audit))));
    const ctx = fakeCtx('GET', '/api/v1/namespaces', { authorization: 'Bearer abc' });
    await h(ctx);
    assert.equal(ctx.out().status, 401);
    assert.equal(events(backend).length, 1);
    const ev = events(backend)[0]!;
    assert.equal(ev.stage, 'ResponseStarted');
    assert.deepEqual(ev.user, {});
    assert.deepEqual(ev.responseStatus, { message: 'Authentication failed, attempted: bearer', code: 401 });
  });
});
