// /metrics end to end (issue 26): a scrape before and after known traffic moves
// exactly by that traffic (metrics are process-global: deltas), kube's content
// type, /metrics authorized as a non-resource URL (system:monitoring may,
// others get 403), APF's time-weighted ratios, the request SLI, DELETE /metrics
// (reset with --profiling, plain metrics without), and admission webhooks'
// calls, rejections and fail-open.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestServer, writeTokenFile, type TestServer } from './harness.js';
import { tempDir } from '../../src/testing/tempdir.js';
import { helpAndType, parseSamples, sampleSum, type Sample } from '../../src/testing/metricstext.js';
import { pathOf, reviewOf, startCallbackServer, type CallbackRequest, type CallbackServer } from '../../src/testing/webhookserver.js';
import { BACKENDS } from './backends.js';

const USERS = 'token-mon,mon,uid-mon,"system:monitoring"\ntoken-alice,alice,uid-alice\n';
const NS = 'metrics-e2e';

describe('/metrics', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ tokenAuthFile: writeTokenFile(tempDir('svc-metrics-'), USERS) });
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
  });
  after(async () => t?.stop());

  const scrape = async (): Promise<Sample[]> => {
    const r = await t.req('GET', '/metrics');
    assert.equal(r.status, 200);
    return parseSamples(r.text);
  };

  it('is served in the text format with kube\'s content type, process and runtime metrics included', async () => {
    const r = await t.req('GET', '/metrics');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
    assert.match(r.text, /^# HELP apiserver_request_total \[STABLE\] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code\.$/m);
    assert.match(r.text, /^# TYPE apiserver_request_duration_seconds histogram$/m);
    assert.match(r.text, /^process_resident_memory_bytes \d+/m);
    assert.match(r.text, /^nodejs_heap_size_used_bytes \d+/m);
  });

  it('moves by exactly the traffic sent', async () => {
    const cm = (name: string) => ({ metadata: { name }, data: { k: 'v' } });
    const base = { dry_run: '', group: '', version: 'v1', resource: 'configmaps', subresource: '', component: 'apiserver' };
    const probes: [name: string, labels: Record<string, string>, want: number][] = [
      ['apiserver_request_total', { ...base, verb: 'POST', scope: 'resource', code: '201' }, 3],
      ['apiserver_request_total', { ...base, verb: 'POST', dry_run: 'All', scope: 'resource', code: '201' }, 1],
      ['apiserver_request_total', { ...base, verb: 'POST', scope: 'resource', code: '409' }, 1],
      ['apiserver_request_total', { ...base, verb: 'GET', scope: 'resource', code: '200' }, 2],
      ['apiserver_request_total', { ...base, verb: 'GET', scope: 'resource', code: '404' }, 1],
      ['apiserver_request_total', { ...base, verb: 'LIST', scope: 'namespace', code: '200' }, 1],
      ['apiserver_request_total', { ...base, verb: 'APPLY', scope: 'resource', code: '200' }, 1],
      ['apiserver_request_total', { ...base, verb: 'DELETE', scope: 'resource', code: '200' }, 1],
      ['apiserver_request_total', { ...base, verb: 'WATCH', scope: 'namespace', code: '200' }, 1],
      ['apiserver_request_duration_seconds_count', { ...base, verb: 'GET', scope: 'resource' }, 3],
      ['apiserver_response_sizes_count', { verb: 'GET', resource: 'configmaps', scope: 'resource' }, 3],
      ['apiserver_response_sizes_count', { verb: 'POST', resource: 'configmaps' }, 0],
      // storage: 4 creates (3 and the one refused as existing; the dry run writes nothing), the delete
      ['etcd_request_duration_seconds_count', { operation: 'create', type: 'configmaps' }, 4],
      ['etcd_request_duration_seconds_count', { operation: 'delete', type: 'configmaps' }, 1],
      // admission: NamespaceLifecycle refuses a write into a namespace that does not exist
      ['apiserver_admission_controller_admission_duration_seconds_count', { name: 'NamespaceLifecycle', operation: 'CREATE', rejected: 'true' }, 1],
      ['apiserver_request_total', { ...base, verb: 'POST', scope: 'resource', code: '404' }, 1],
      // a refused token
      ['authentication_attempts', { result: 'error' }, 1],
      // the request SLI (no dry_run label): every POST but for watches, which kube does not track
      ['apiserver_request_sli_duration_seconds_count', { group: '', version: 'v1', resource: 'configmaps', subresource: '', component: 'apiserver', verb: 'POST', scope: 'resource' }, 6],
      ['apiserver_request_slo_duration_seconds_count', { group: '', version: 'v1', resource: 'configmaps', subresource: '', component: 'apiserver', verb: 'POST', scope: 'resource' }, 6],
      ['apiserver_request_sli_duration_seconds_count', { group: '', version: 'v1', resource: 'configmaps', verb: 'WATCH' }, 0],
    ];
    const before = await scrape();
    const sizes: number[] = [];
    for (const n of ['a', 'b', 'c']) assert.equal((await t.req('POST', `/api/v1/namespaces/${NS}/configmaps`, cm(n))).status, 201);
    assert.equal((await t.req('POST', `/api/v1/namespaces/${NS}/configmaps?dryRun=All`, cm('d'))).status, 201);
    assert.equal((await t.req('POST', `/api/v1/namespaces/${NS}/configmaps`, cm('a'))).status, 409);
    for (const n of ['a', 'b', 'missing']) {
      const r = await t.req('GET', `/api/v1/namespaces/${NS}/configmaps/${n}`);
      sizes.push(Buffer.byteLength(r.text));
    }
    assert.equal((await t.req('GET', `/api/v1/namespaces/${NS}/configmaps`)).status, 200);
    const apply = await t.req('PATCH', `/api/v1/namespaces/${NS}/configmaps/b?fieldManager=m&force=true`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' }, data: { k: 'w' } }, { headers: { 'content-type': 'application/apply-patch+yaml' } });
    assert.equal(apply.status, 200);
    assert.equal((await t.req('DELETE', `/api/v1/namespaces/${NS}/configmaps/c`)).status, 200);
    const watch = await t.req('GET', `/api/v1/namespaces/${NS}/configmaps?watch=1&timeoutSeconds=1`);
    assert.equal(watch.status, 200);
    assert.equal((await t.req('GET', `/api/v1/namespaces/${NS}/configmaps`, undefined, { token: 'no-such-token' })).status, 401);
    assert.equal((await t.req('POST', '/api/v1/namespaces/no-such-namespace/configmaps', cm('x'))).status, 404);
    const after = await scrape();

    for (const [name, labels, want] of probes) {
      assert.equal(sampleSum(after, name, labels) - sampleSum(before, name, labels), want, `${name} ${JSON.stringify(labels)}`);
    }
    // every admission step is recorded in kube's histogram and in its 5-hour summary alike
    const step = { type: 'validate', operation: 'CREATE', rejected: 'false' };
    const histogramSteps = sampleSum(after, 'apiserver_admission_step_admission_duration_seconds_count', step) - sampleSum(before, 'apiserver_admission_step_admission_duration_seconds_count', step);
    assert.ok(histogramSteps >= 4, `validating steps of the creates: ${histogramSteps}`);
    assert.equal(sampleSum(after, 'apiserver_admission_step_admission_duration_seconds_summary_count', step) - sampleSum(before, 'apiserver_admission_step_admission_duration_seconds_summary_count', step), histogramSteps);
    for (const q of ['0.5', '0.9', '0.99']) {
      const median = sampleSum(after, 'apiserver_admission_step_admission_duration_seconds_summary', { ...step, quantile: q });
      assert.ok(median > 0 && median < 10, `the step's ${q} quantile, in seconds: ${median}`);
    }
    assert.equal(helpAndType((await t.req('GET', '/metrics')).text, 'apiserver_admission_step_admission_duration_seconds_summary').type, 'summary');
    const sizeLabels = { verb: 'GET', group: '', version: 'v1', resource: 'configmaps', subresource: '', scope: 'resource', component: 'apiserver' };
    assert.equal(sampleSum(after, 'apiserver_response_sizes_sum', sizeLabels) - sampleSum(before, 'apiserver_response_sizes_sum', sizeLabels), sizes.reduce((a, b) => a + b, 0), 'response sizes are the bodies\' bytes');
    // objects per resource, from the watch caches: what a list counts
    const all = await t.req('GET', '/api/v1/configmaps');
    assert.equal(sampleSum(await scrape(), 'apiserver_storage_objects', { resource: 'configmaps' }), all.body.items.length);
  });

  it('counts LISTs the watch cache cannot serve (an exact resourceVersion): objects read, tested, returned', async () => {
    const rv = (await t.req('GET', `/api/v1/namespaces/${NS}/configmaps`)).body.metadata.resourceVersion as string;
    const probes = ['apiserver_storage_list_total', 'apiserver_storage_list_fetched_objects_total', 'apiserver_storage_list_evaluated_objects_total', 'apiserver_storage_list_returned_objects_total'];
    const before = await scrape();
    const r = await t.req('GET', `/api/v1/namespaces/${NS}/configmaps?resourceVersion=${rv}&resourceVersionMatch=Exact&labelSelector=none%3Dnone`);
    assert.equal(r.status, 200);
    const all = await t.req('GET', `/api/v1/namespaces/${NS}/configmaps?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    const after = await scrape();
    const n = all.body.items.length;
    const got = probes.map((p) => sampleSum(after, p, { resource: 'configmaps' }) - sampleSum(before, p, { resource: 'configmaps' }));
    assert.deepEqual(got, [2, 2 * n, 2 * n, n]);
  });

  it('publishes the in-flight watermark (APF or the in-flight limit keeps it) once a second', async () => {
    let text = '';
    await eventually(async () => {
      text = (await t.req('GET', '/metrics')).text;
      return /^apiserver_current_inflight_requests\{request_kind="readOnly"\} [1-9]/m.test(text);
    });
    assert.match(text, /^apiserver_current_inflight_requests\{request_kind="mutating"\} \d+$/m);
  });

  it('counts watch events as they are sent', async () => {
    const before = await scrape();
    // no selector: the watch starts with the current state (the namespace's configmaps)
    const listed = await t.req('GET', `/api/v1/namespaces/${NS}/configmaps`);
    const r = await t.req('GET', `/api/v1/namespaces/${NS}/configmaps?watch=1&timeoutSeconds=1`);
    const lines = r.text.split('\n').filter((l) => l !== '');
    assert.equal(lines.length, listed.body.items.length);
    const after = await scrape();
    const labels = { group: '', version: 'v1', kind: 'ConfigMap' };
    assert.equal(sampleSum(after, 'apiserver_watch_events_total', labels) - sampleSum(before, 'apiserver_watch_events_total', labels), lines.length);
    const bytes = lines.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
    assert.equal(sampleSum(after, 'apiserver_watch_events_sizes_sum', labels) - sampleSum(before, 'apiserver_watch_events_sizes_sum', labels), bytes);
  });

  it('APF\'s time-weighted ratios: a series per priority level (exempt ones at 0), time spent above 0 while requests run', async () => {
    // alice may read /version: flow schema global-default, a limited level
    for (let i = 0; i < 5; i++) assert.equal((await t.req('GET', '/version', undefined, { token: 'token-alice' })).status, 200);
    const r = await t.req('GET', '/metrics');
    const text = r.text;
    assert.match(text, /^# HELP apiserver_flowcontrol_priority_level_seat_utilization EXPERIMENTAL: \[ALPHA\] Observations, at the end of every nanosecond, of utilization of seats for any stage of execution \(but only initial stage for WATCHes\)$/m);
    assert.match(text, /^# TYPE apiserver_flowcontrol_demand_seats histogram$/m);
    // the last dispatch's R and S bounds, for a level that dispatched from its queues
    const parsed = parseSamples(text);
    for (const [m, bound] of [['dispatch_r'], ['latest_s'], ['next_s_bounds', 'min'], ['next_discounted_s_bounds', 'max']] as const) {
      const labels: Record<string, string> = { priority_level: 'global-default', ...(bound ? { bound } : {}) };
      assert.ok(parsed.some((x) => x.name === `apiserver_flowcontrol_${m}` && Object.entries(labels).every(([k, v]) => x.labels[k] === v)), m);
    }
    const samples = parseSamples(text);
    const spent = (name: string, labels: Record<string, string>) => {
      const count = sampleSum(samples, `${name}_count`, labels);
      const atZero = sampleSum(samples, `${name}_bucket`, { ...labels, le: '0' });
      return { count, aboveZero: count - atZero };
    };
    const gd = { priority_level: 'global-default' };
    for (const [name, labels] of [
      ['apiserver_flowcontrol_priority_level_seat_utilization', { ...gd, phase: 'executing' }],
      ['apiserver_flowcontrol_priority_level_request_utilization', { ...gd, phase: 'executing' }],
      ['apiserver_flowcontrol_read_vs_write_current_requests', { phase: 'executing', request_kind: 'readOnly' }],
    ] as const) {
      const s = spent(name, labels);
      assert.ok(s.count > 0 && s.aboveZero > 0, `${name} ${JSON.stringify(labels)}: ${JSON.stringify(s)}`);
    }
    // demand_seats has no 0 bucket: its count is the time since the level was made, growing between scrapes
    const demand = sampleSum(samples, 'apiserver_flowcontrol_demand_seats_count', gd);
    assert.ok(demand > 0);
    assert.ok(sampleSum(await scrape(), 'apiserver_flowcontrol_demand_seats_count', gd) > demand);
    // the exempt level never runs through a queue set: its ratios stay at 0, as kube's
    const exempt = spent('apiserver_flowcontrol_priority_level_seat_utilization', { priority_level: 'exempt' });
    assert.ok(exempt.count > 0);
    assert.equal(exempt.aboveZero, 0);
    assert.ok(sampleSum(samples, 'apiserver_flowcontrol_priority_level_request_utilization_count', { phase: 'waiting', priority_level: 'global-default' }) > 0);
  });

  it('DELETE /metrics (--profiling, the default) resets them; it needs verb delete on /metrics', async () => {
    assert.equal((await t.req('POST', `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: 'reset-me' } })).status, 201);
    const posted = { resource: 'configmaps', verb: 'POST', code: '201' };
    assert.ok(sampleSum(await scrape(), 'apiserver_request_total', posted) > 0);
    // system:monitoring may get /metrics, not delete it
    assert.equal((await t.req('DELETE', '/metrics', undefined, { token: 'token-mon' })).status, 403);
    assert.ok(sampleSum(await scrape(), 'apiserver_request_total', posted) > 0, 'a refused DELETE resets nothing');
    const before = await scrape();
    const r = await t.req('DELETE', '/metrics');
    assert.equal(r.status, 200);
    assert.equal(r.text, 'metrics reset\n');
    const after = await scrape();
    assert.equal(sampleSum(after, 'apiserver_request_total', posted), 0, 'the series is gone');
    const exempt = { priority_level: 'exempt' };
    assert.ok(sampleSum(after, 'apiserver_flowcontrol_priority_level_seat_utilization_count', exempt) < sampleSum(before, 'apiserver_flowcontrol_priority_level_seat_utilization_count', exempt),
      'time is counted again from the reset, not from the server\'s start');
    assert.equal((await t.req('POST', `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: 'reset-me-2' } })).status, 201);
    assert.equal(sampleSum(await scrape(), 'apiserver_request_total', posted), 1, 'counted again from 0');
  });

  it('is a non-resource URL: system:monitoring may read it, other users get 403', async () => {
    const mon = await t.req('GET', '/metrics', undefined, { token: 'token-mon' });
    assert.equal(mon.status, 200);
    assert.match(mon.text, /^apiserver_request_total\{/m);
    const alice = await t.req('GET', '/metrics', undefined, { token: 'token-alice' });
    assert.equal(alice.status, 403);
    assert.equal(alice.body.message, 'forbidden: User "alice" cannot get path "/metrics"');
    assert.equal((await t.req('GET', '/metrics', undefined, { anonymous: true })).status, 403);
  });

  it('does not count requests refused by authentication or authorization (kube answers them before its handlers)', async () => {
    const labels = { resource: 'configmaps', verb: 'LIST' };
    const before = await scrape();
    assert.equal((await t.req('GET', `/api/v1/namespaces/${NS}/configmaps`, undefined, { token: 'token-alice' })).status, 403);
    assert.equal((await t.req('GET', `/api/v1/namespaces/${NS}/configmaps`, undefined, { token: 'wrong' })).status, 401);
    const after = await scrape();
    assert.equal(sampleSum(after, 'apiserver_request_total', labels) - sampleSum(before, 'apiserver_request_total', labels), 0);
    assert.equal(sampleSum(after, 'authentication_attempts', { result: 'error' }) - sampleSum(before, 'authentication_attempts', { result: 'error' }), 1);
  });
});

const etcdBackend = BACKENDS.find((b) => b.name === 'etcd')!;

describe('/metrics on etcd: storage metrics from the etcd backend', { skip: etcdBackend.skip }, () => {
  let t: TestServer;
  before(async () => {
    t = await etcdBackend.start();
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
  });
  after(async () => t?.stop());

  it('etcd_request_duration_seconds counts each etcd call by operation and resource; storage objects from the watch cache', async () => {
    const count = (samples: Sample[], operation: string) => sampleSum(samples, 'etcd_request_duration_seconds_count', { operation, type: 'configmaps' });
    const before = parseSamples((await t.req('GET', '/metrics')).text);
    for (const n of ['e1', 'e2']) assert.equal((await t.req('POST', `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: n }, data: { k: 'v' } })).status, 201);
    // without a resourceVersion a get reads etcd (its watch cache is not exact, unlike SQLite's)
    assert.equal((await t.req('GET', `/api/v1/namespaces/${NS}/configmaps/e1`)).status, 200);
    const list = await t.req('GET', `/api/v1/namespaces/${NS}/configmaps`);
    assert.equal(list.status, 200);
    assert.equal((await t.req('PUT', `/api/v1/namespaces/${NS}/configmaps/e1`, { metadata: { name: 'e1', resourceVersion: list.body.items[0].metadata.resourceVersion }, data: { k: 'w' } })).status, 200);
    assert.equal((await t.req('DELETE', `/api/v1/namespaces/${NS}/configmaps/e2`)).status, 200);
    const after = parseSamples((await t.req('GET', '/metrics')).text);
    assert.equal(count(after, 'create') - count(before, 'create'), 2);
    assert.equal(count(after, 'delete') - count(before, 'delete'), 1);
    assert.ok(count(after, 'get') - count(before, 'get') >= 1, 'the get read etcd');
    assert.ok(count(after, 'list') - count(before, 'list') >= 1, 'the list read etcd');
    assert.ok(count(after, 'update') - count(before, 'update') >= 1, 'the update wrote etcd');
    await eventually(async () => {
      const all = await t.req('GET', '/api/v1/configmaps');
      return sampleSum(parseSamples((await t.req('GET', '/metrics')).text), 'apiserver_storage_objects', { resource: 'configmaps' }) === all.body.items.length;
    });
  });
});

describe('/metrics with --profiling=false', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ metrics: { profiling: false } });
  });
  after(async () => t?.stop());

  it('DELETE resets nothing and answers with the metrics, as kube\'s plain handler does for any method', async () => {
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'kept' } })).status, 201);
    const posted = { resource: 'namespaces', verb: 'POST', code: '201' };
    const counted = sampleSum(parseSamples((await t.req('GET', '/metrics')).text), 'apiserver_request_total', posted);
    assert.ok(counted >= 1);
    const r = await t.req('DELETE', '/metrics');
    assert.equal(r.status, 200);
    assert.match(r.text, /^# TYPE apiserver_request_total counter$/m);
    const again = await t.req('GET', '/metrics');
    assert.equal(sampleSum(parseSamples(again.text), 'apiserver_request_total', posted), counted, 'nothing was reset');
  });
});

describe('/metrics: admission webhooks', () => {
  let t: TestServer;
  let cb: CallbackServer;
  const answer = (r: CallbackRequest) => {
    const review = reviewOf(r);
    const deny = pathOf(r) === '/deny';
    return { body: JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: !deny, ...(deny ? { status: { code: 403, message: 'no' } } : {}) } }) };
  };
  const hook = (name: string, url: string, label: string, more: Record<string, unknown> = {}) => ({
    name, clientConfig: { url, caBundle: cb.caBundle },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    objectSelector: { matchLabels: { case: label } }, sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy: 'Fail', timeoutSeconds: 5, ...more,
  });
  const cm = (name: string, label: string) => ({ metadata: { name, labels: { case: label } } });
  const CM = `/api/v1/namespaces/${NS}/configmaps`;

  before(async () => {
    cb = await startCallbackServer({ http2: false, handle: answer });
    t = await startTestServer();
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
    const at = (path: string) => `https://127.0.0.1:${cb.port}${path}`;
    const r = await t.req('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
      metadata: { name: 'metrics' },
      webhooks: [hook('allow.metrics.svc.io', at('/allow'), 'allow'), hook('deny.metrics.svc.io', at('/deny'), 'deny'), hook('down.metrics.svc.io', 'https://127.0.0.1:1/x', 'down', { failurePolicy: 'Ignore' })],
    });
    assert.equal(r.status, 201, r.text);
    let n = 0;
    await eventually(async () => (await t.req('POST', CM, cm(`probe-${n++}`, 'deny'))).status === 403);
  });
  after(async () => {
    await t?.stop();
    await cb?.close();
  });

  it('counts calls, rejections and fail-open per webhook as kube\'s dispatchers do', async () => {
    const before = await parseSamples((await t.req('GET', '/metrics')).text);
    assert.equal((await t.req('POST', CM, cm('a', 'allow'))).status, 201);
    assert.equal((await t.req('POST', CM, cm('d', 'deny'))).status, 403);
    assert.equal((await t.req('POST', CM, cm('x', 'down'))).status, 201);
    const after = await parseSamples((await t.req('GET', '/metrics')).text);
    const v = { type: 'validating', operation: 'CREATE' };
    const probes: [string, Record<string, string>, number][] = [
      ['apiserver_admission_webhook_request_total', { ...v, name: 'allow.metrics.svc.io', code: '200', rejected: 'false' }, 1],
      ['apiserver_admission_webhook_request_total', { ...v, name: 'deny.metrics.svc.io', code: '403', rejected: 'true' }, 1],
      ['apiserver_admission_webhook_rejection_count', { ...v, name: 'deny.metrics.svc.io', error_type: 'no_error', rejection_code: '403' }, 1],
      ['apiserver_admission_webhook_request_total', { ...v, name: 'down.metrics.svc.io', code: '0', rejected: 'false' }, 1],
      ['apiserver_admission_webhook_fail_open_count', { name: 'down.metrics.svc.io', type: 'validating' }, 1],
      ['apiserver_admission_webhook_admission_duration_seconds_count', { ...v, name: 'allow.metrics.svc.io', rejected: 'false' }, 1],
      ['apiserver_admission_controller_admission_duration_seconds_count', { name: 'ValidatingAdmissionWebhook', type: 'validate', operation: 'CREATE', rejected: 'true' }, 1],
    ];
    for (const [name, labels, want] of probes) assert.equal(sampleSum(after, name, labels) - sampleSum(before, name, labels), want, `${name} ${JSON.stringify(labels)}`);
  });
});
