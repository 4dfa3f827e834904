// The priority-and-fairness filter in process: the PF headers, exempt
// requests bypassing the queues, kube's plain-text 429 with Retry-After when
// a level rejects, and a watch giving back its seat once its response starts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withPriorityAndFairness } from './apf.js';
import { FlowControlConfig } from '../../flowcontrol/config.js';
import { FakeClock } from '../../flowcontrol/clock.js';
import type { RequestContext, Response } from '../context.js';
import type { RequestInfo } from '../../endpoints/requestinfo.js';
import type { UserInfo } from '../../authn/user.js';
import type { ApiObject } from '../../registry/object.js';

class FakeResponse {
  statusCode = 200;
  headersSent = false;
  writableEnded = false;
  headers: Record<string, unknown> = {};
  body = '';
  setHeader(n: string, v: unknown) { this.headers[n.toLowerCase()] = v; }
  getHeader(n: string) { return this.headers[n.toLowerCase()]; }
  writeHead(code: number) { this.statusCode = code; this.headersSent = true; }
  write(c: string) { this.headersSent = true; this.body += c; return true; }
  end(c?: string) { this.headersSent = true; this.writableEnded = true; this.body += c ?? ''; }
  once() { return this; }
  off() { return this; }
}

const info = (verb: string): RequestInfo => ({
  isResourceRequest: true, verb: verb as never, apiPrefix: 'api', apiGroup: '', apiVersion: 'v1', namespace: 'default', resource: 'pods', subresource: '', name: '', parts: ['pods'], path: '/api/v1/namespaces/default/pods',
});
const ctxFor = (user: UserInfo, verb = 'get'): RequestContext & { res: FakeResponse } => ({
  req: { method: 'GET', url: '/', headers: {}, socket: {}, once() { return this; }, [Symbol.asyncIterator]: async function* () {} } as never,
  res: new FakeResponse() as unknown as Response & FakeResponse, url: new URL('https://x/api/v1/namespaces/default/pods'),
  requestInfo: info(verb), user, longRunning: verb === 'watch',
}) as RequestContext & { res: FakeResponse };

// one limited level of one seat that rejects (no queues), plus exempt
const config = new FlowControlConfig(new FakeClock(), 1);
config.apply([
  { metadata: { name: 'exempt', uid: 'fs-exempt' }, spec: { priorityLevelConfiguration: { name: 'exempt' }, matchingPrecedence: 1, rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:masters' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }] }] } },
  { metadata: { name: 'catch-all', uid: 'fs-catch-all' }, spec: { priorityLevelConfiguration: { name: 'catch-all' }, matchingPrecedence: 10000, distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects: [{ kind: 'Group', group: { name: '*' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }] }] } },
] as unknown as ApiObject[], [
  { metadata: { name: 'exempt', uid: 'pl-exempt' }, spec: { type: 'Exempt' } },
  { metadata: { name: 'catch-all', uid: 'pl-catch-all' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } } } },
] as unknown as ApiObject[]);
const counts = { objects: () => 0, watchers: () => 0 };
const alice: UserInfo = { name: 'alice', groups: ['system:authenticated'] };
const admin: UserInfo = { name: 'admin', groups: ['system:masters', 'system:authenticated'] };

describe('priority and fairness filter', () => {
  it('sets the PF headers; exempt requests run however busy the levels are', async () => {
    let release!: () => void;
    const blocked = new Promise<void>((r) => (release = r));
    const h = withPriorityAndFairness(async (ctx) => {
      if (ctx.user === alice) await blocked;
      ctx.res.end('ok');
    }, { controller: config, counts, watchList: false, requestTimeoutMs: 60_000 });
    const busy = ctxFor(alice);
    const running = h(busy);
    const a = ctxFor(admin);
    await h(a);
    assert.equal(a.res.body, 'ok');
    assert.equal(a.res.headers['x-kubernetes-pf-flowschema-uid'], 'fs-exempt');
    assert.equal(a.res.headers['x-kubernetes-pf-prioritylevel-uid'], 'pl-exempt');
    assert.equal(busy.res.headers['x-kubernetes-pf-flowschema-uid'], 'fs-catch-all');
    // the one seat is taken: the next request of the level is refused as kube refuses it
    const refused = ctxFor(alice);
    await h(refused);
    assert.equal(refused.res.statusCode, 429);
    assert.equal(refused.res.headers['retry-after'], '1');
    assert.equal(refused.res.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(refused.res.body, 'Too many requests, please try again later.\n');
    release();
    await running;
    const again = ctxFor(alice);
    await h(again);
    assert.equal(again.res.body, 'ok');
  });

  it('a watch holds its seat only until its response starts', async () => {
    let stop!: () => void;
    const ended = new Promise<void>((r) => (stop = r));
    const h = withPriorityAndFairness(async (ctx) => {
      if (ctx.longRunning) {
        (ctx.res as unknown as FakeResponse).writeHead(200);
        await ended;
      }
      ctx.res.end('');
    }, { controller: config, counts, watchList: false, requestTimeoutMs: 60_000 });
    const watching = h(ctxFor(alice, 'watch'));
    await new Promise((r) => setImmediate(r));
    assert.equal(config.level('catch-all')!.qs.totSeatsInUse, 0);
    const get = ctxFor(alice);
    await h(get);
    assert.equal(get.res.statusCode, 200);
    stop();
    await watching;
  });

  it('other long-running requests (exec, logs, proxy) pass untracked', async () => {
    const h = withPriorityAndFairness(async (ctx) => void ctx.res.end('streamed'), { controller: config, counts, watchList: false, requestTimeoutMs: 60_000 });
    const ctx = ctxFor(alice, 'get');
    ctx.longRunning = true;
    await h(ctx);
    assert.equal(ctx.res.body, 'streamed');
    assert.equal(ctx.res.headers['x-kubernetes-pf-flowschema-uid'], undefined);
  });

  it('a request whose client left before it queued leaves the queue at once (its close event passed unheard)', async () => {
    const queued = new FlowControlConfig(new FakeClock(), 1);
    queued.apply([
      { metadata: { name: 'catch-all', uid: 'fs-q' }, spec: { priorityLevelConfiguration: { name: 'catch-all' }, matchingPrecedence: 10000, distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects: [{ kind: 'Group', group: { name: '*' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }] }] } },
    ] as unknown as ApiObject[], [
      { metadata: { name: 'catch-all', uid: 'pl-q' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Queue', queuing: { queues: 4, handSize: 2, queueLengthLimit: 10 } } } } },
    ] as unknown as ApiObject[]);
    let release!: () => void;
    const blocked = new Promise<void>((r) => (release = r));
    let ran = 0;
    const h = withPriorityAndFairness(async (ctx) => {
      ran++;
      if (ran === 1) await blocked;
      ctx.res.end('ok');
    }, { controller: queued, counts, watchList: false, requestTimeoutMs: 60_000 });
    const running = h(ctxFor(alice));
    const gone = ctxFor(alice);
    Object.assign(gone.res, { destroyed: true });
    let settled = false;
    const leaving = h(gone).then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(settled, true, 'answered without waiting for a seat');
    assert.equal(queued.level('catch-all')!.qs.totWaiting, 0);
    release();
    await Promise.all([running, leaving]);
    assert.equal(ran, 1, 'the gone request never ran');
  });
});

