// AdmissionConfiguration files: the four apiVersions, YAML and JSON, path vs
// embedded configuration, and bad files naming the file and the field.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AdmissionConfigError, parseAdmissionConfiguration, pluginConfiguration, readAdmissionConfiguration } from './config.js';
import { tempDir } from '../testing/tempdir.js';

const FILE = '/etc/svc/admission.yaml';

describe('AdmissionConfiguration: accepted', () => {
  for (const apiVersion of ['apiserver.config.svc.io/v1', 'apiserver.config.k8s.io/v1', 'apiserver.svc.io/v1alpha1', 'apiserver.k8s.io/v1alpha1']) {
    it(`${apiVersion} (YAML)`, () => {
      const cfg = parseAdmissionConfiguration(`apiVersion: ${apiVersion}\nkind: AdmissionConfiguration\nplugins:\n- name: EventRateLimit\n  path: eventconfig.yaml\n`, FILE);
      assert.deepEqual(cfg.plugins, [{ name: 'EventRateLimit', path: '/etc/svc/eventconfig.yaml' }]);
    });
  }
  it('JSON, embedded configuration, absolute path, an entry with neither', () => {
    const cfg = parseAdmissionConfiguration(JSON.stringify({
      apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AdmissionConfiguration',
      plugins: [
        { name: 'PodSecurity', configuration: { apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration', defaults: { enforce: 'baseline' } } },
        { name: 'ImagePolicyWebhook', path: '/abs/image.json' },
        { name: 'ResourceQuota' },
      ],
    }), FILE);
    assert.deepEqual(cfg.plugins, [
      { name: 'PodSecurity', configuration: { apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration', defaults: { enforce: 'baseline' } } },
      { name: 'ImagePolicyWebhook', path: '/abs/image.json' },
      { name: 'ResourceQuota' },
    ]);
    assert.equal(pluginConfiguration(cfg, 'ResourceQuota'), undefined);
    assert.equal(pluginConfiguration(cfg, 'LimitRanger'), undefined, 'no entry');
  });
  it('no plugins at all', () => {
    assert.deepEqual(parseAdmissionConfiguration('apiVersion: apiserver.config.svc.io/v1\nkind: AdmissionConfiguration\n', FILE).plugins, []);
  });
  it('a legacy unversioned file is the configuration of ImagePolicyWebhook and PodNodeSelector', () => {
    const cfg = parseAdmissionConfiguration('podNodeSelectorPluginConfig:\n  clusterDefaultNodeSelector: a=b\n', FILE, ['NamespaceLifecycle', 'PodNodeSelector']);
    assert.deepEqual(cfg.plugins, [{ name: 'PodNodeSelector', path: FILE }]);
  });
});

describe('AdmissionConfiguration: the plugin configuration', () => {
  it('reads a path relative to the configuration file, YAML or JSON; embedded wins over path; the first entry counts', () => {
    const dir = tempDir('svc-admcfg-');
    writeFileSync(join(dir, 'a.yaml'), 'kind: A\nlimits:\n- type: Server\n  qps: 5\n');
    writeFileSync(join(dir, 'b.json'), '{"kind":"B"}');
    writeFileSync(join(dir, 'admission.json'), JSON.stringify({
      apiVersion: 'apiserver.config.svc.io/v1', kind: 'AdmissionConfiguration',
      plugins: [
        { name: 'EventRateLimit', path: 'a.yaml' },
        { name: 'ImagePolicyWebhook', path: 'b.json' },
        { name: 'PodNodeSelector', path: 'a.yaml', configuration: { kind: 'Embedded' } },
        { name: 'EventRateLimit', configuration: { kind: 'Second' } },
      ],
    }));
    const cfg = readAdmissionConfiguration(join(dir, 'admission.json'));
    assert.deepEqual(pluginConfiguration(cfg, 'EventRateLimit'), { kind: 'A', limits: [{ type: 'Server', qps: 5 }] });
    assert.deepEqual(pluginConfiguration(cfg, 'ImagePolicyWebhook'), { kind: 'B' });
    assert.deepEqual(pluginConfiguration(cfg, 'PodNodeSelector'), { kind: 'Embedded' });
  });
  it('a missing plugin file is an error naming it', () => {
    const cfg = parseAdmissionConfiguration('apiVersion: apiserver.config.svc.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: EventRateLimit\n  path: nope.yaml\n', '/nowhere/admission.yaml');
    assert.throws(() => pluginConfiguration(cfg, 'EventRateLimit'), (e: unknown) => e instanceof AdmissionConfigError && e.message.startsWith("couldn't open admission plugin configuration /nowhere/nope.yaml (plugin EventRateLimit): "));
  });
});

describe('AdmissionConfiguration: refused', () => {
  const head = 'apiVersion: apiserver.config.svc.io/v1\nkind: AdmissionConfiguration\n';
  const rows: [string, string, string][] = [
    ['not YAML', 'plugins: [\n', `${FILE}: error converting YAML to JSON: `],
    ['a list', '- a\n', `${FILE}: an AdmissionConfiguration must be an object`],
    ['no apiVersion', 'kind: AdmissionConfiguration\n', `${FILE}: Object 'apiVersion' is missing`],
    ['no kind', 'apiVersion: apiserver.config.svc.io/v1\n', `${FILE}: Object 'Kind' is missing`],
    ['another version', 'apiVersion: apiserver.config.svc.io/v2\nkind: AdmissionConfiguration\n', `${FILE}: no kind "AdmissionConfiguration" is registered for version "apiserver.config.svc.io/v2"`],
    ['another kind', 'apiVersion: apiserver.config.svc.io/v1\nkind: WebhookAdmission\n', `${FILE}: no kind "WebhookAdmission" is registered for version "apiserver.config.svc.io/v1"`],
    ['plugins not a list', `${head}plugins: {name: x}\n`, `${FILE}: plugins: must be a list`],
    ['a plugin not an object', `${head}plugins: [x]\n`, `${FILE}: plugins[0]: must be an object`],
    ['a plugin without a name', `${head}plugins:\n- name: A\n- path: x\n`, `${FILE}: plugins[1].name: Required value: a plugin name`],
    ['a path not a string', `${head}plugins:\n- name: A\n  path: 3\n`, `${FILE}: plugins[0].path: must be a string`],
    ['a configuration not an object', `${head}plugins:\n- name: A\n  configuration: [1]\n`, `${FILE}: plugins[0].configuration: must be an object`],
  ];
  for (const [what, text, message] of rows) {
    it(what, () => {
      assert.throws(() => parseAdmissionConfiguration(text, FILE), (e: unknown) => e instanceof AdmissionConfigError && e.message.startsWith(message));
    });
  }
  it('an unreadable file: kube\'s message', () => {
    assert.throws(() => readAdmissionConfiguration('/nowhere/admission.yaml'), (e: unknown) => (e as Error).message.startsWith('unable to read admission control configuration from "/nowhere/admission.yaml" ['));
  });
});
