// The webhook backend against a real local HTTPS server: EventList batches
// from the batch mode, a retry after a 500, a failure after every attempt.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startCallbackServer, type CallbackAnswer, type CallbackRequest, type CallbackServer } from '../testing/webhookserver.js';
import { tempDir } from '../testing/tempdir.js';
import { configureMetrics, exposition } from '../metrics/registry.js';
import { buildAudit, defaultAuditOptions, type AuditOptions } from './options.js';
import { setPluginErrorLog } from './metrics.js';
import { parsePolicy } from './policy.js';
import type { AuditEvent } from './types.js';

const ev = (id: string): AuditEvent => ({
  level: 'Metadata', auditID: id, stage: 'ResponseComplete', requestURI: '/api', verb: 'get', user: { username: 'u' }, sourceIPs: ['127.0.0.1'], userAgent: 'ua',
  responseStatus: { code: 200 }, requestReceivedTimestamp: 1.7e15, stageTimestamp: 1.7e15,
});

describe('the audit webhook backend', () => {
  let server: CallbackServer;
  let answers: CallbackAnswer[] = [];
  let configFile: string;
  before(async () => {
    server = await startCallbackServer({ handle: (_r: CallbackRequest) => answers.shift() ?? { body: '{}' } });
    const dir = tempDir('svc-audit-webhook-');
    configFile = join(dir, 'webhook.kubeconfig');
    writeFileSync(configFile, `apiVersion: v1
kind: Config
clusters:
- name: audit
  cluster:
    server: https://127.0.0.1:${server.port}/audit
    certificate-authority-data: ${server.caBundle}
users:
- name: apiserver
  user: {}
contexts:
- name: default
  context: {cluster: audit, user: apiserver}
current-context: default
`);
  });
  after(async () => server?.close());
  beforeEach(() => {
    server.seen.length = 0;
    answers = [];
    configureMetrics();
    setPluginErrorLog(() => undefined);
  });

  function options(batch: Partial<AuditOptions['webhook']['batch']>, initialBackoffMs = 10): AuditOptions {
    const d = defaultAuditOptions();
    return { ...d, policy: parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n'), webhook: { ...d.webhook, configFile, initialBackoffMs, batch: { ...d.webhook.batch, ...batch } } };
  }

  it('batch mode: POSTs EventLists of at most maxBatchSize, the rest after maxBatchWait', async () => {
    const audit = buildAudit(options({ maxBatchSize: 3, maxBatchWaitMs: 50, throttleEnable: false }))!;
    for (const id of ['1', '2', '3', '4', '5']) assert.equal(audit.backend.processEvents([ev(id)]), true, 'batch mode answers at once');
    await audit.backend.shutdown();
    assert.equal(server.seen.length, 2);
    const lists = server.seen.map((r) => JSON.parse(r.body));
    assert.deepEqual(lists.map((l) => l.items.map((i: AuditEvent) => i.auditID)), [['1', '2', '3'], ['4', '5']]);
    for (const [i, l] of lists.entries()) {
      assert.equal(l.kind, 'EventList');
      assert.equal(l.apiVersion, 'audit.k8s.io/v1');
      assert.equal(server.seen[i]!.url, '/audit');
      assert.equal(server.seen[i]!.headers['content-type'], 'application/json');
      assert.equal(l.items[0].kind, 'Event');
    }
  });

  it('retries a 500 with backoff and delivers', async () => {
    answers = [{ status: 500, body: '{}' }];
    const audit = buildAudit(options({ mode: 'blocking-strict' }))!;
    assert.equal(await audit.backend.processEvents([ev('r1')]), true);
    assert.equal(server.seen.length, 2);
    assert.equal(server.seen[0]!.body, server.seen[1]!.body);
    await audit.backend.shutdown();
  });

  it('every failure is retried (kube retryOnError); after 5 attempts: false in blocking-strict, counted under plugin "webhook"', async () => {
    const before = Number(/^apiserver_audit_error_total\{plugin="webhook"\} (\S+)$/m.exec(await exposition())?.[1] ?? 0);
    answers = [{ status: 400, body: '{}' }, { status: 403, body: '{}' }, { status: 404, body: '{}' }, { status: 400, body: '{}' }, { status: 400, body: '{}' }];
    const audit = buildAudit(options({ mode: 'blocking-strict' }, 1))!;
    assert.equal(await audit.backend.processEvents([ev('f1'), ev('f2')]), false);
    assert.equal(server.seen.length, 5);
    assert.match(await exposition(), new RegExp(`^apiserver_audit_error_total\\{plugin="webhook"\\} ${before + 2}$`, 'm'));
    await audit.backend.shutdown();
  });

  it('a configuration file that cannot be read stops the start', () => {
    assert.throws(() => buildAudit({ ...options({}), webhook: { ...options({}).webhook, configFile: '/nonexistent/kubeconfig' } }), /^AuditConfigError: initializing audit webhook: /);
  });
});
