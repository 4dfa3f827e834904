// PodSecurityConfiguration: the versions and spellings accepted, defaults, and Kubernetes' validation.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePodSecurityConfiguration } from './config.js';
import { lvString } from './levels.js';

const yaml = (apiVersion: string, body = '') => `apiVersion: ${apiVersion}\nkind: PodSecurityConfiguration\n${body}`;

describe('PodSecurityConfiguration', () => {
  for (const apiVersion of ['pod-security.admission.config.k8s.io/v1', 'pod-security.admission.config.k8s.io/v1beta1', 'pod-security.admission.config.k8s.io/v1alpha1', 'pod-security.admission.config.svc.io/v1', 'pod-security.admission.config.svc.io/v1beta1']) {
    it(`accepts ${apiVersion}`, () => {
      const c = parsePodSecurityConfiguration(yaml(apiVersion, 'defaults:\n  enforce: baseline\n  enforce-version: v1.26\n  warn: restricted\nexemptions:\n  usernames: [admin]\n  runtimeClasses: [kata]\n  namespaces: [svc-system]\n'));
      assert.equal(lvString(c.defaults.enforce), 'baseline:v1.26');
      assert.equal(lvString(c.defaults.warn), 'restricted:latest');
      assert.equal(lvString(c.defaults.audit), 'privileged:latest');
      assert.deepEqual(c.exemptions, { usernames: ['admin'], runtimeClasses: ['kata'], namespaces: ['svc-system'] });
    });
  }
  it('no configuration: privileged:latest everywhere, no exemptions', () => {
    for (const input of [undefined, '', null]) {
      const c = parsePodSecurityConfiguration(input);
      assert.equal(lvString(c.defaults.enforce), 'privileged:latest');
      assert.deepEqual(c.exemptions.namespaces, []);
    }
  });
  it('an embedded (already parsed) configuration', () => {
    const c = parsePodSecurityConfiguration({ apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration', defaults: { audit: 'restricted', 'audit-version': 'v1.25' } });
    assert.equal(lvString(c.defaults.audit), 'restricted:v1.25');
  });
  const bad: [string, unknown, RegExp | string][] = [
    ['an unknown group version', yaml('pod-security.admission.config.k8s.io/v2'), 'PodSecurityConfiguration: no kind "PodSecurityConfiguration" is registered for version "pod-security.admission.config.k8s.io/v2"'],
    ['another kind', 'apiVersion: pod-security.admission.config.k8s.io/v1\nkind: Other\n', 'PodSecurityConfiguration: no kind "Other" is registered for version "pod-security.admission.config.k8s.io/v1"'],
    ['an unknown field', yaml('pod-security.admission.config.k8s.io/v1', 'defaults:\n  enforce-level: baseline\n'), 'PodSecurityConfiguration: strict decoding error: unknown field "defaults.enforce-level"'],
    ['a bad level', yaml('pod-security.admission.config.k8s.io/v1', 'defaults:\n  enforce: strict\n'), 'PodSecurity invalid: defaults.enforce: Invalid value: "strict": must be one of privileged, baseline, restricted'],
    [
      'bad versions, in Kubernetes\' order (enforce, warn, audit)',
      yaml('pod-security.admission.config.k8s.io/v1', 'defaults:\n  audit-version: "1.2"\n  warn-version: v2\n'),
      'PodSecurity invalid: [defaults.warn-version: Invalid value: "v2": must be "latest" or "v1.x", defaults.audit-version: Invalid value: "1.2": must be "latest" or "v1.x"]',
    ],
    [
      'bad and duplicate exemptions',
      yaml('pod-security.admission.config.k8s.io/v1', 'exemptions:\n  namespaces: [a, a, Bad_NS]\n  usernames: ["", u, u]\n'),
      /^PodSecurity invalid: \[exemptions\.namespaces\[1\]: Duplicate value: "a", exemptions\.namespaces\[2\]: Invalid value: "Bad_NS": a lowercase RFC 1123 label must consist of .*, exemptions\.usernames\[0\]: Required value, exemptions\.usernames\[2\]: Duplicate value: "u"\]$/,
    ],
    ['exemptions that are not lists', yaml('pod-security.admission.config.k8s.io/v1', 'exemptions:\n  namespaces: a\n'), 'PodSecurityConfiguration: exemptions.namespaces must be a list of strings'],
  ];
  for (const [what, input, message] of bad) {
    it(`refuses ${what}`, () => assert.throws(() => parsePodSecurityConfiguration(input), { message }));
  }
});
