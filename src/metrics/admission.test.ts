import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Admission, type AdmissionAttributes, type AdmissionPlugin } from '../registry/admission.js';
import { newForbidden } from '../api/meta/index.js';
import { exposition } from './registry.js';
import { observeWebhook, type WebhookOutcome } from './admission.js';
import { sampleSum } from '../testing/metricstext.js';

async function deltas(run: () => Promise<void>, probes: [name: string, labels: Record<string, string>][]): Promise<number[]> {
  const before = await exposition();
  await run();
  const after = await exposition();
  return probes.map(([n, l]) => sampleSum(after, n, l) - sampleSum(before, n, l));
}

const attrs = (operation: 'CREATE' | 'UPDATE'): AdmissionAttributes => ({
  operation, object: undefined, oldObject: undefined, resource: { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' },
  namespace: 'n', name: 'c', namespaced: true, dryRun: false, user: undefined,
});

describe('admission metrics', () => {
  it('times each plugin and each phase, rejected or not', async () => {
    const allow: AdmissionPlugin = { name: 'TestAllow', phase: 'mutating', admit: () => undefined, validate: async () => undefined };
    const deny: AdmissionPlugin = { name: 'TestDeny', phase: 'validating', admit: () => { throw newForbidden({ group: '', resource: 'configmaps' }, 'c', 'no'); } };
    const chain = new Admission([allow, deny]);
    const c = 'apiserver_admission_controller_admission_duration_seconds_count';
    const s = 'apiserver_admission_step_admission_duration_seconds_count';
    const got = await deltas(async () => {
      await chain.mutate(attrs('CREATE'));
      await assert.rejects(chain.admit(attrs('CREATE')));
    }, [
      [c, { name: 'TestAllow', type: 'admit', operation: 'CREATE', rejected: 'false' }],
      [c, { name: 'TestAllow', type: 'validate', operation: 'CREATE', rejected: 'false' }],
      [c, { name: 'TestDeny', type: 'validate', operation: 'CREATE', rejected: 'true' }],
      [s, { type: 'admit', operation: 'CREATE', rejected: 'false' }],
      [s, { type: 'validate', operation: 'CREATE', rejected: 'true' }],
    ]);
    assert.deepEqual(got, [1, 1, 1, 1, 1]);
  });

  it('webhook calls: requests, rejections and fail-open as kube\'s dispatchers record them', async () => {
    const rows: [outcome: WebhookOutcome, code: string, rejected: string, rejection: [string, string] | undefined, failOpen: number][] = [
      [{ kind: 'allowed' }, '200', 'false', undefined, 0],
      [{ kind: 'rejected', code: 403 }, '403', 'true', ['no_error', '403'], 0],
      [{ kind: 'rejected', code: 999 }, '600', 'true', ['no_error', '600'], 0],
      [{ kind: 'callFailed', failOpen: false, code: 0 }, '0', 'true', ['calling_webhook_error', '0'], 0],
      [{ kind: 'callFailed', failOpen: true, code: 0 }, '0', 'false', undefined, 1],
      [{ kind: 'internal' }, '0', 'true', ['apiserver_internal_error', '0'], 0],
    ];
    for (const [outcome, code, rejected, rejection, failOpen] of rows) {
      const name = `hook-${outcome.kind}-${code}`;
      const got = await deltas(async () => observeWebhook(name, 'validating', 'UPDATE', 0.01, outcome), [
        ['apiserver_admission_webhook_request_total', { name, type: 'validating', operation: 'UPDATE', code, rejected }],
        ['apiserver_admission_webhook_admission_duration_seconds_count', { name, type: 'validating', operation: 'UPDATE', rejected }],
        ['apiserver_admission_webhook_rejection_count', rejection ? { name, type: 'validating', operation: 'UPDATE', error_type: rejection[0], rejection_code: rejection[1] } : { name }],
        ['apiserver_admission_webhook_fail_open_count', { name, type: 'validating' }],
      ]);
      assert.deepEqual(got, [1, 1, rejection ? 1 : 0, failOpen], JSON.stringify(outcome));
    }
  });
});
