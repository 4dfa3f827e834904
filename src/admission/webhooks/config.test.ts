import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseWebhookAdmissionConfig, WebhookConfigError } from './config.js';

describe('WebhookAdmissionConfiguration', () => {
  const ok: [string, unknown, string | undefined][] = [
    ['none', undefined, undefined],
    ['v1 object', { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'WebhookAdmissionConfiguration', kubeConfigFile: '/etc/creds' }, '/etc/creds'],
    ['v1alpha1 YAML text', 'apiVersion: apiserver.config.k8s.io/v1alpha1\nkind: WebhookAdmission\nkubeConfigFile: /x\n', '/x'],
    ['svc.io spelling, no file', { apiVersion: 'apiserver.config.svc.io/v1', kind: 'WebhookAdmissionConfiguration' }, undefined],
  ];
  for (const [name, config, file] of ok) it(`reads ${name}`, () => assert.equal(parseWebhookAdmissionConfig(config).kubeConfigFile, file));
  const bad: [string, unknown, RegExp][] = [
    ['a relative path', { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'WebhookAdmissionConfiguration', kubeConfigFile: 'rel' }, /^kubeConfigFile "rel" must be an absolute file path$/],
    ['a wrong kind', { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'Other' }, /no kind "Other" is registered/],
  ];
  for (const [name, config, re] of bad) it(`refuses ${name}`, () => assert.throws(() => parseWebhookAdmissionConfig(config), (e: unknown) => e instanceof WebhookConfigError && re.test(e.message)));
});
