// The filters in isolation, on a fake request context.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Handler, RequestContext, Response } from '../context.js';
import { withMaxInFlight } from './inflight.js';
import { withTimeout } from './timeout.js';
import { withRecovery } from './recovery.js';
import { withAuthorization } from './authz.js';
import { withRequestInfo } from './requestinfo.js';
import { alwaysDeny } from '../../authz/authorizer.js';

function fakeCtx(method: string, url: string, headers: Record<string, string> = {}): RequestContext & { out: () => { status: number; headers: Record<string, unknown>; body: string } } {
  const hdrs: Record<string, unknown> = {};
  let body = '';
  let ended = false;
  const res: Response = {
    statusCode: 200,
    get headersSent() { return ended; },
    get writableEnded() { return ended; },
    setHeader: (n, v) => (hdrs[n.toLowerCase()] = v),
    getHeader: (n) => hdrs[n.toLowerCase()],
    write: (c) => ((body += String(c)), true),
    end: (c?: string | Uint8Array) => { if (c) body += String(c); ended = true; },
    once: () => undefined,
    off: () => undefined,
  };
  const req = { method, url, headers, socket: {}, once: () => undefined, async *[Symbol.asyncIterator]() {} };
  const ctx = { req, res, url: new URL(url, 'https://x'), user: { name: 'tester', groups: ['system:authenticated'] } } as unknown as RequestContext;
  return Object.assign(ctx, { out: () => ({ status: res.statusCode, headers: hdrs, body }) });
}

const ok: Handler = async (ctx) => { ctx.res.statusCode = 200; ctx.res.end('ok'); };

describe('filters', () => {
  it('max in-flight answers 429 with Retry-After over the limit, and exempts watches', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const h = withRecovery(withRequestInfo(withMaxInFlight(async (ctx) => { await gate; await ok(ctx); }, { readonly: 1, mutating: 1 })));
    const first = fakeCtx('GET', '/api/v1/namespaces/a/configmaps');
    const p = h(first);
    const second = fakeCtx('GET', '/api/v1/namespaces/a/configmaps');
    await h(second);
    assert.equal(second.out().status, 429);
    assert.equal(second.out().headers['retry-after'], '1');
    assert.equal(JSON.parse(second.out().body).reason, 'TooManyRequests');
    const write = fakeCtx('POST', '/api/v1/namespaces/a/configmaps');
    const pw = h(write); // the mutating budget is separate
    const watch = fakeCtx('GET', '/api/v1/namespaces/a/configmaps?watch=true');
    const pwatch = h(watch);
    release();
    await Promise.all([p, pw, pwatch]);
    assert.equal(first.out().status, 200);
    assert.equal(write.out().status, 200);
    assert.equal(watch.out().status, 200);
  });

  it('a request over the timeout gets 504 Timeout', async () => {
    const h = withRecovery(withRequestInfo(withTimeout(() => new Promise(() => undefined), 20)));
    const ctx = fakeCtx('GET', '/api/v1/namespaces');
    await h(ctx);
    assert.equal(ctx.out().status, 504);
    assert.equal(JSON.parse(ctx.out().body).reason, 'Timeout');
  });

  it('errors become Status bodies with an Audit-Id; unknown errors are 500', async () => {
    const ctx = fakeCtx('GET', '/x');
    await withRecovery(async () => { throw new Error('boom'); })(ctx);
    assert.equal(ctx.out().status, 500);
    assert.equal(JSON.parse(ctx.out().body).message, 'Internal error occurred: boom');
    assert.match(String(ctx.out().headers['audit-id']), /^[0-9a-f-]{36}$/);
  });

  it('a denied request is 403 with Kubernetes wording', async () => {
    const ctx = fakeCtx('GET', '/api/v1/namespaces/a/pods');
    await withRecovery(withRequestInfo(withAuthorization(ok, alwaysDeny)))(ctx);
    assert.equal(ctx.out().status, 403);
    assert.equal(JSON.parse(ctx.out().body).message, 'pods is forbidden: User "tester" cannot list resource "pods" in API group "" in the namespace "a": Everything is forbidden.');
  });
});
