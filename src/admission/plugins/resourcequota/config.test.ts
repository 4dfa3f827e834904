import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseResourceQuotaConfiguration, sameGroup } from './config.js';

test('ResourceQuota configuration: accepted spellings', () => {
  const body = 'limitedResources:\n- resource: pods\n  matchContains: [requests.cpu]\n  matchScopes:\n  - {scopeName: PriorityClass, operator: In, values: [high]}\n';
  for (const head of [
    'apiVersion: apiserver.config.k8s.io/v1\nkind: ResourceQuotaConfiguration\n',
    'apiVersion: apiserver.config.svc.io/v1\nkind: ResourceQuotaConfiguration\n',
    'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: ResourceQuotaConfiguration\n',
    'apiVersion: resourcequota.admission.k8s.io/v1beta1\nkind: Configuration\n',
    'apiVersion: resourcequota.admission.svc.io/v1alpha1\nkind: Configuration\n',
  ]) {
    assert.deepEqual(parseResourceQuotaConfiguration(head + body), {
      limitedResources: [{ apiGroup: '', resource: 'pods', matchContains: ['requests.cpu'], matchScopes: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] }],
    }, head);
  }
  assert.deepEqual(parseResourceQuotaConfiguration(undefined), { limitedResources: [] });
  // an embedded configuration arrives as an object
  assert.deepEqual(parseResourceQuotaConfiguration({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'ResourceQuotaConfiguration' }), { limitedResources: [] });
});

test('ResourceQuota configuration: errors name the field', () => {
  const head = 'apiVersion: apiserver.config.k8s.io/v1\nkind: ResourceQuotaConfiguration\n';
  const cases: [string, string, RegExp][] = [
    ['wrong kind', 'apiVersion: apiserver.config.k8s.io/v1\nkind: Configuration\n', /no kind "Configuration" is registered for version "apiserver.config.k8s.io\/v1"/],
    ['no kind', 'apiVersion: apiserver.config.k8s.io/v1\n', /Object 'Kind' is missing/],
    ['missing resource', `${head}limitedResources:\n- apiGroup: ""\n`, /: limitedResources\[0\]\.resource: Required value$/],
    ['bad matchContains', `${head}limitedResources:\n- resource: pods\n  matchContains: x\n`, /limitedResources\[0\]\.matchContains: must be a list of strings/],
    ['bad operator', `${head}limitedResources:\n- resource: pods\n  matchScopes: [{scopeName: X, operator: Is}]\n`, /limitedResources\[0\]\.matchScopes\[0\]\.operator: Unsupported value: "Is"/],
    ['two problems', `${head}limitedResources:\n- {}\n- {}\n`, /: \[limitedResources\[0\]\.resource: Required value, limitedResources\[1\]\.resource: Required value\]$/],
  ];
  for (const [name, text, want] of cases) assert.throws(() => parseResourceQuotaConfiguration(text), want, name);
});

test('group spellings', () => {
  assert.ok(sameGroup('networking.k8s.io', 'networking.svc.io'));
  assert.ok(sameGroup('', ''));
  assert.ok(!sameGroup('apps', ''));
});
