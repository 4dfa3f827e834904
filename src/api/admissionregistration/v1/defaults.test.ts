// admissionregistration.svc.io/v1 defaulting (v1.27 behaviour).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../core/v1/defaults.js';
import { defaulters } from './defaults.js';

const HOOK = { failurePolicy: 'Fail', matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, timeoutSeconds: 10 };
const given = { name: 'w.example.com', sideEffects: 'None', admissionReviewVersions: ['v1'], clientConfig: { service: { namespace: 'n', name: 's' } }, rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] };
const out = { ...given, clientConfig: { service: { namespace: 'n', name: 's', port: 443 } }, rules: [{ ...given.rules[0], scope: '*' }] };

const rows: [kind: string, name: string, input: Json, want: Json][] = [
  ['ValidatingWebhookConfiguration', 'every webhook default; sideEffects and review versions stay required', { webhooks: [given] }, { webhooks: [{ ...out, ...HOOK }] }],
  ['MutatingWebhookConfiguration', 'plus reinvocationPolicy Never', { webhooks: [given] }, { webhooks: [{ ...out, ...HOOK, reinvocationPolicy: 'Never' }] }],
  ['ValidatingWebhookConfiguration', 'no sideEffects default', { webhooks: [{ name: 'a', clientConfig: { url: 'https://x' } }] }, { webhooks: [{ name: 'a', clientConfig: { url: 'https://x' }, ...HOOK }] }],
  ['MutatingWebhookConfiguration', 'given values kept', {
    webhooks: [{ name: 'a', failurePolicy: 'Ignore', matchPolicy: 'Exact', timeoutSeconds: 3, reinvocationPolicy: 'IfNeeded', namespaceSelector: { matchLabels: { a: 'b' } }, rules: [{ scope: 'Namespaced' }] }],
  }, {
    webhooks: [{ name: 'a', failurePolicy: 'Ignore', matchPolicy: 'Exact', timeoutSeconds: 3, reinvocationPolicy: 'IfNeeded', namespaceSelector: { matchLabels: { a: 'b' } }, objectSelector: {}, rules: [{ scope: 'Namespaced' }] }],
  }],
];

describe('admissionregistration.svc.io/v1 defaults', () => {
  for (const [kind, name, input, want] of rows) {
    it(`${kind}: ${name}`, () => {
      const obj = structuredClone(input);
      defaulters[kind]!(obj, { enabled: () => false });
      assert.deepEqual(obj, want);
    });
  }
});
