// The audit backends of a real server: the log file rotated by size with
// maxbackup, and the webhook backend posting EventList batches to a local
// HTTPS server, a failed post retried.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startTestServer } from './harness.js';
import { tempDir } from '../../src/testing/tempdir.js';
import { waitFor } from '../../src/testing/wait.js';
import { defaultAuditOptions } from '../../src/audit/options.js';
import { startCallbackServer } from '../../src/testing/webhookserver.js';
import { auditOptions, readLog, type Ev } from './auditlog.js';

describe('audit log rotation (e2e)', () => {
  it('rotates by size and keeps maxbackup backups', async () => {
    const dir = tempDir('svc-e2e-audit-rot-');
    const policy = 'apiVersion: audit.svc.io/v1\nkind: Policy\nrules:\n- level: RequestResponse\n  resources: [{resources: [configmaps]}]\n';
    const t = await startTestServer({ audit: auditOptions(dir, { maxSize: 1, maxBackups: 1 }, policy) });
    try {
      // each create writes ~2 × 300 KB (RequestReceived has no objects; ResponseComplete both): 1 MB per ~2 creates
      const big = 'x'.repeat(300 * 1024);
      for (let i = 0; i < 6; i++) assert.equal((await t.req('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: `big${i}` }, data: { big } })).status, 201);
      const backups = await waitFor('one backup left', async () => {
        const names = readdirSync(dir).filter((n) => /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/.test(n));
        return names.length === 1 ? names : undefined;
      }, 10_000);
      assert.equal(backups.length, 1);
      const current = readLog(join(dir, 'audit.log'));
      assert.ok(current.length > 0);
      assert.ok(readFileSync(join(dir, 'audit.log')).length <= 1024 * 1024);
      assert.ok(current.every((e) => e.kind === 'Event'));
    } finally {
      await t.stop();
    }
  });
});

describe('audit webhook backend (e2e)', () => {
  it('the server posts its events as EventList batches to the kubeconfig\'s server, retrying a failure', async () => {
    let failFirst = true;
    const hook = await startCallbackServer({ handle: () => (failFirst ? ((failFirst = false), { status: 503, body: '{}' }) : { body: '{}' }) });
    const dir = tempDir('svc-e2e-audit-hook-');
    const configFile = join(dir, 'audit-webhook.kubeconfig');
    writeFileSync(configFile, `apiVersion: v1\nkind: Config\nclusters:\n- name: a\n  cluster:\n    server: https://127.0.0.1:${hook.port}/events\n    certificate-authority-data: ${hook.caBundle}\nusers:\n- name: u\n  user: {}\ncontexts:\n- name: c\n  context: {cluster: a, user: u}\ncurrent-context: c\n`);
    const policyFile = join(dir, 'policy.yaml');
    writeFileSync(policyFile, 'apiVersion: audit.svc.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nrules:\n- level: None\n  users: [system:apiserver]\n- level: Metadata\n  resources: [{resources: [configmaps]}]\n');
    const d = defaultAuditOptions();
    const t = await startTestServer({ audit: { ...d, policyFile, webhook: { ...d.webhook, configFile, initialBackoffMs: 50, batch: { ...d.webhook.batch, maxBatchWaitMs: 100 } } } });
    try {
      const ids: string[] = [];
      for (const name of ['h1', 'h2', 'h3']) ids.push(String((await t.req('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name } })).headers['audit-id']));
      const received = await waitFor('the three events at the webhook', async () => {
        const items = hook.seen.filter((r) => r.headers['content-type'] === 'application/json').flatMap((r) => (JSON.parse(r.body) as { items: Ev[] }).items);
        return ids.every((id) => items.some((e) => e.auditID === id)) ? items : undefined;
      }, 15_000);
      assert.ok(hook.seen.length >= 2, 'the failed post was retried');
      const first = JSON.parse(hook.seen[0]!.body);
      assert.equal(first.kind, 'EventList');
      assert.equal(first.apiVersion, 'audit.k8s.io/v1');
      // batches go out concurrently (as kube's batch backend): the retry of the refused one need not be the next post
      assert.ok(hook.seen.slice(1).some((r) => r.body === hook.seen[0]!.body), 'the retry posts the same batch');
      const ev = received.find((e) => e.auditID === ids[0])!;
      assert.equal(ev.verb, 'create');
      assert.equal(ev.objectRef.name, 'h1');
      assert.equal(ev.responseStatus.code, 201);
    } finally {
      await t.stop();
      await hook.close();
    }
  });
});
