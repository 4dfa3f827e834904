// The request-metrics filter on a fake request context: what each request adds
// to the exposition (metrics are process-global: every check is a delta).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Handler, RequestContext, Response } from '../context.js';
import { withRequestMetrics } from './metrics.js';
import { withRequestInfo } from './requestinfo.js';
import { withMaxInFlight } from './inflight.js';
import { withTimeout } from './timeout.js';
import { writeText } from '../respond.js';
import { newNotFound } from '../../api/meta/index.js';
import { canonicalGroup } from '../../endpoints/requestinfo.js';
import { exposition } from '../../metrics/registry.js';
import { inflightWatermark } from '../../metrics/apiserver.js';
import { sampleSum } from '../../testing/metricstext.js';
import { trackApfQueueWait, trackMutatingWebhook, trackValidatingWebhook } from '../../metrics/latencytrackers.js';

function fakeCtx(method: string, url: string, headers: Record<string, string> = {}): RequestContext {
  let ended = false;
  const res: Response = {
    statusCode: 200,
    get headersSent() { return ended; },
    get writableEnded() { return ended; },
    setHeader: () => undefined,
    getHeader: () => undefined,
    write: () => true,
    end: () => { ended = true; },
    once: () => undefined,
    off: () => undefined,
  };
  const req = { method, url, headers, socket: {}, once: () => undefined, async *[Symbol.asyncIterator]() {} };
  return { req, res, url: new URL(url, 'https://x') } as unknown as RequestContext;
}

const SERVED: Record<string, string[]> = { '/v1/configmaps': [], '/v1/pods': ['status', 'exec', 'log'], 'apps/v1/deployments': ['status', 'scale'], 'rbac.authorization.svc.io/v1/clusterroles': [] };
const deps = { served: (g: string, v: string, r: string) => SERVED[`${canonicalGroup(g)}/${v}/${r}`] };
const chain = (inner: Handler) => withRequestInfo(withRequestMetrics(inner, deps));
const answer = (code: number, body = 'x'): Handler => async (ctx) => writeText(ctx, code, body);

async function delta(run: () => Promise<void>, name: string, labels: Record<string, string>): Promise<number> {
  const before = sampleSum(await exposition(), name, labels);
  await run();
  return sampleSum(await exposition(), name, labels) - before;
}

const base = { dry_run: '', group: '', version: 'v1', resource: 'configmaps', subresource: '', component: 'apiserver' };

describe('withRequestMetrics', () => {
  it('apiserver_request_sli_duration_seconds (and _slo_): the duration less webhooks\' time and the APF queue wait; none for watches', async () => {
    const labels = { verb: 'POST', group: '', version: 'v1', resource: 'configmaps', subresource: '', scope: 'resource', component: 'apiserver' };
    const sums = async () => {
      const text = await exposition();
      return {
        duration: sampleSum(text, 'apiserver_request_duration_seconds_sum', labels),
        sli: sampleSum(text, 'apiserver_request_sli_duration_seconds_sum', labels),
        slo: sampleSum(text, 'apiserver_request_slo_duration_seconds_sum', labels),
        sliCount: sampleSum(text, 'apiserver_request_sli_duration_seconds_count', labels),
      };
    };
    const before = await sums();
    // mutating webhooks 2 s + 3 s (summed), validating 4 s and 1 s (the longest), APF wait 0.5 s
    await chain(async (ctx) => {
      trackMutatingWebhook(ctx, 2000);
      trackMutatingWebhook(ctx, 3000);
      trackValidatingWebhook(ctx, 4000);
      trackValidatingWebhook(ctx, 1000);
      trackApfQueueWait(ctx, 500);
      writeText(ctx, 201, 'x');
    })(fakeCtx('POST', '/api/v1/namespaces/n/configmaps'));
    const after = await sums();
    assert.equal(after.sliCount - before.sliCount, 1);
    const excluded = (after.duration - before.duration) - (after.sli - before.sli);
    assert.ok(Math.abs(excluded - 9.5) < 1e-9, String(excluded));
    assert.ok(Math.abs((after.slo - before.slo) - (after.sli - before.sli)) < 1e-9, 'the deprecated name records the same');

    const watch = { ...labels, verb: 'WATCH', scope: 'namespace' };
    const watchCtx = fakeCtx('GET', '/api/v1/namespaces/n/configmaps?watch=true');
    const h = chain(answer(200));
    const t0 = await exposition();
    await h(watchCtx);
    const t1 = await exposition();
    assert.equal(sampleSum(t1, 'apiserver_request_duration_seconds_count', watch) - sampleSum(t0, 'apiserver_request_duration_seconds_count', watch), 1);
    assert.equal(sampleSum(t1, 'apiserver_request_sli_duration_seconds_count', watch) - sampleSum(t0, 'apiserver_request_sli_duration_seconds_count', watch), 0);
  });

  it('counts, times and sizes requests with kube\'s labels', async () => {
    const rows: [method: string, url: string, handler: Handler, labels: Record<string, string>, headers?: Record<string, string>][] = [
      ['GET', '/api/v1/namespaces/n/configmaps/c', answer(200), { ...base, verb: 'GET', scope: 'resource', code: '200' }],
      ['GET', '/api/v1/namespaces/n/configmaps', answer(200), { ...base, verb: 'LIST', scope: 'namespace', code: '200' }],
      ['POST', '/api/v1/namespaces/n/configmaps?dryRun=All', answer(201), { ...base, verb: 'POST', dry_run: 'All', scope: 'resource', code: '201' }],
      ['PATCH', '/apis/apps/v1/namespaces/n/deployments/d/scale', answer(200), { ...base, group: 'apps', resource: 'deployments', subresource: 'scale', verb: 'APPLY', scope: 'resource', code: '200' }, { 'content-type': 'application/apply-patch+yaml' }],
      // the group as the request spelled it
      ['GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/r', answer(200), { ...base, group: 'rbac.authorization.k8s.io', resource: 'clusterroles', verb: 'GET', scope: 'resource', code: '200' }],
      ['GET', '/apis/rbac.authorization.svc.io/v1/clusterroles/r', answer(200), { ...base, group: 'rbac.authorization.svc.io', resource: 'clusterroles', verb: 'GET', scope: 'resource', code: '200' }],
      // thrown errors are written here, and their code recorded
      ['GET', '/api/v1/namespaces/n/configmaps/missing', async () => { throw newNotFound({ group: '', resource: 'configmaps' }, 'missing'); }, { ...base, verb: 'GET', scope: 'resource', code: '404' }],
      // unbounded values are blanked: unknown resources, unknown subresources
      ['GET', '/apis/example.com/v1/widgets/w', answer(404), { ...base, group: '', version: '', resource: '', verb: 'GET', scope: 'resource', code: '404' }],
      ['GET', '/api/v1/namespaces/n/pods/p/whatever', answer(404), { ...base, resource: 'pods', verb: 'GET', scope: 'resource', code: '404' }],
      // health roots as kube's health handlers record them
      ['GET', '/healthz', answer(200), { verb: 'GET', dry_run: '', group: '', version: '', resource: '', subresource: '/healthz', scope: '', component: '', code: '200' }],
    ];
    for (const [method, url, handler, labels, headers] of rows) {
      const h = chain(handler);
      const n = await delta(() => h(fakeCtx(method, url, headers)), 'apiserver_request_total', labels);
      assert.equal(n, 1, `${method} ${url}`);
      const { code: _code, ...series } = labels;
      const timed = await delta(() => h(fakeCtx(method, url, headers)), 'apiserver_request_duration_seconds_count', series);
      assert.equal(timed, 1, `${method} ${url} duration`);
    }
  });

  it('records response sizes for GET and LIST only, in body bytes', async () => {
    const labels = { verb: 'GET', group: '', version: 'v1', resource: 'configmaps', subresource: '', scope: 'resource', component: 'apiserver' };
    const body = 'é'.repeat(100); // 200 bytes
    const h = chain(answer(200, body));
    assert.equal(await delta(() => h(fakeCtx('GET', '/api/v1/namespaces/n/configmaps/c')), 'apiserver_response_sizes_sum', labels), 200);
    const post = chain(answer(201, body));
    assert.equal(await delta(() => post(fakeCtx('POST', '/api/v1/namespaces/n/configmaps')), 'apiserver_response_sizes_count', { verb: 'POST' }), 0);
  });

  it('does not record other non-resource requests', async () => {
    const h = chain(answer(200));
    assert.equal(await delta(() => h(fakeCtx('GET', '/version')), 'apiserver_request_total', {}), 0);
  });

  it('counts long-running requests while they run', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const h = chain(async (ctx) => { await gate; writeText(ctx, 200, ''); });
    const labels = { verb: 'WATCH', group: '', version: 'v1', resource: 'configmaps', scope: 'namespace' };
    const before = sampleSum(await exposition(), 'apiserver_longrunning_requests', labels);
    const ctx = fakeCtx('GET', '/api/v1/namespaces/n/configmaps?watch=1');
    const p = h(ctx);
    await new Promise((r) => setImmediate(r));
    assert.equal(sampleSum(await exposition(), 'apiserver_longrunning_requests', labels) - before, 1);
    release();
    await p;
    assert.equal(sampleSum(await exposition(), 'apiserver_longrunning_requests', labels) - before, 0);
  });

  it('counts terminations: 429 from the in-flight limit, 504 on timeout', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const limited = chain(withMaxInFlight(async (ctx) => { await gate; writeText(ctx, 200, ''); }, { readonly: 1, mutating: 1 }));
    const labels = { verb: 'LIST', group: '', version: 'v1', resource: 'configmaps', subresource: '', scope: 'namespace', component: 'apiserver', code: '429' };
    const first = limited(fakeCtx('GET', '/api/v1/namespaces/n/configmaps'));
    const before = await exposition();
    await limited(fakeCtx('GET', '/api/v1/namespaces/n/configmaps'));
    const after = await exposition();
    release();
    await first;
    assert.equal(sampleSum(after, 'apiserver_request_terminations_total', labels) - sampleSum(before, 'apiserver_request_terminations_total', labels), 1);
    assert.equal(sampleSum(after, 'apiserver_request_total', { ...labels, dry_run: '' }) - sampleSum(before, 'apiserver_request_total', { ...labels, dry_run: '' }), 1);

    const slow = chain(withTimeout(() => new Promise(() => undefined), 20));
    const t504 = { ...labels, verb: 'GET', scope: 'resource', code: '504' };
    assert.equal(await delta(() => slow(fakeCtx('GET', '/api/v1/namespaces/n/configmaps/c')), 'apiserver_request_terminations_total', t504), 1);
  });

  it('publishes the most requests in flight during the last window', async () => {
    inflightWatermark.publish();
    inflightWatermark.started(false);
    inflightWatermark.started(false);
    inflightWatermark.started(true);
    inflightWatermark.finished(false);
    inflightWatermark.finished(false);
    inflightWatermark.finished(true);
    inflightWatermark.publish();
    let text = await exposition();
    assert.equal(sampleSum(text, 'apiserver_current_inflight_requests', { request_kind: 'readOnly' }), 2);
    assert.equal(sampleSum(text, 'apiserver_current_inflight_requests', { request_kind: 'mutating' }), 1);
    inflightWatermark.publish(); // a quiet window: back to what is in flight now
    text = await exposition();
    assert.equal(sampleSum(text, 'apiserver_current_inflight_requests', { request_kind: 'readOnly' }), 0);
  });
});

describe('recordRequestTermination without the filter\'s labels', () => {
  it('names the server\'s own non-resource paths, blanks others', async () => {
    const { recordRequestTermination } = await import('../../metrics/apiserver.js');
    const { resolveRequestInfo } = await import('../../endpoints/requestinfo.js');
    const rows: [string, string][] = [['/version', '/version'], ['/random/thing', '']];
    for (const [path, sub] of rows) {
      const ctx = { req: { method: 'GET', headers: {} }, requestInfo: resolveRequestInfo({ method: 'GET', url: path }) };
      const labels = { verb: 'GET', group: '', version: '', resource: '', subresource: sub, scope: '', component: 'apiserver', code: '429' };
      assert.equal(await delta(async () => recordRequestTermination(ctx, 429), 'apiserver_request_terminations_total', labels), 1, path);
    }
  });
});

describe('requests refused by the authentication and authorization filters', () => {
  it('are not counted, as kube answers them before its instrumented handlers', async () => {
    const refused = chain(async (ctx) => { ctx.refusedBy = 'authorization'; writeText(ctx, 403, 'forbidden'); });
    assert.equal(await delta(() => refused(fakeCtx('GET', '/api/v1/namespaces/n/configmaps/c')), 'apiserver_request_total', { resource: 'configmaps' }), 0);
    const allowed = chain(answer(403));
    assert.equal(await delta(() => allowed(fakeCtx('GET', '/api/v1/namespaces/n/configmaps/c')), 'apiserver_request_total', { resource: 'configmaps', code: '403' }), 1, 'a 403 from a handler (admission) is counted');
  });
});

describe('the in-queue watermark (for API Priority and Fairness)', () => {
  it('publishes to apiserver_current_inqueue_requests', async () => {
    const { inqueueWatermark } = await import('../../metrics/apiserver.js');
    inqueueWatermark.publish();
    inqueueWatermark.started(true);
    inqueueWatermark.publish();
    inqueueWatermark.finished(true);
    const text = await exposition();
    assert.equal(sampleSum(text, 'apiserver_current_inqueue_requests', { request_kind: 'mutating' }), 1);
  });
});
