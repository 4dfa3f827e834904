// Webhook configuration (v1) validation causes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderCause } from '../../meta/govalue.js';
import { admissionregistrationValidators } from './validation.js';

type O = { [k: string]: unknown };
const v = admissionregistrationValidators();
const hook = (o: O = {}): O => ({
  name: 'check.example.com',
  clientConfig: { service: { namespace: 'ns', name: 'svc', port: 443 } },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' }],
  failurePolicy: 'Fail',
  matchPolicy: 'Equivalent',
  sideEffects: 'None',
  timeoutSeconds: 10,
  admissionReviewVersions: ['v1'],
  ...o,
});
const cfg = (...webhooks: O[]) => ({ metadata: { name: 'c' }, webhooks });
describe('ValidatingWebhookConfiguration', () => {
  const rows: [string, O, string[]][] = [
    ['valid', cfg(hook()), []],
    ['sideEffects required', cfg(hook({ sideEffects: undefined })), ['webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun']],
    ['sideEffects values', cfg(hook({ sideEffects: 'Some' })), ['webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"']],
    ['admissionReviewVersions required', cfg(hook({ admissionReviewVersions: [] })), ['webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1']],
    ['admissionReviewVersions known', cfg(hook({ admissionReviewVersions: ['v2'] })), ['webhooks[0].admissionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1']],
    ['unique names', cfg(hook(), hook()), ['webhooks[1].name: Duplicate value: "check.example.com"']],
    ['name three segments', cfg(hook({ name: 'check.example' })), ['webhooks[0].name: Invalid value: "check.example": should be a domain with at least three segments separated by dots']],
    ['timeout 1–30', cfg(hook({ timeoutSeconds: 31 })), ['webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds']],
    ['policies', cfg(hook({ failurePolicy: 'Maybe', matchPolicy: 'Loose' })), ['webhooks[0].failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"', 'webhooks[0].matchPolicy: Unsupported value: "Loose": supported values: "Equivalent", "Exact"']],
    ['rules operations and scope', cfg(hook({ rules: [{ operations: ['PATCH'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: 'Global' }] })), [
      'webhooks[0].rules[0].operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
      'webhooks[0].rules[0].scope: Unsupported value: "Global": supported values: "*", "Cluster", "Namespaced"',
    ]],
    ['wildcard operations', cfg(hook({ rules: [{ operations: ['*', 'CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] })), [
      `webhooks[0].rules[0].operations: Invalid value: []admissionregistration.OperationType{"*", "CREATE"}: if '*' is present, must not specify other operations`,
    ]],
    ['client config', cfg(hook({ clientConfig: {} })), ['webhooks[0].clientConfig: Required value: exactly one of url or service is required']],
    ['url https', cfg(hook({ clientConfig: { url: 'http://example.com/x' } })), ["webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]"]],
  ];
  for (const [name, o, want] of rows) it(name, () => assert.deepEqual(v.ValidatingWebhookConfiguration!.validate(o).map(renderCause), want));
  it('an update keeps an old object that broke a v1 rule updatable', () => {
    const old = cfg(hook({ admissionReviewVersions: ['v2'] }));
    assert.deepEqual(v.ValidatingWebhookConfiguration!.validateUpdate(old, old), []);
  });
});
