import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../testing/tempdir.js';
import { PolicyEvaluator, type AuditAttributes } from './checker.js';
import { AuditPolicyError, loadPolicyFile, parsePolicy } from './policy.js';

describe('audit policy decoding and validation', () => {
  const ok: [string, string, unknown][] = [
    ['the svc.io spelling, YAML', 'apiVersion: audit.svc.io/v1\nkind: Policy\nrules:\n- level: Metadata\n', { rules: [{ level: 'Metadata' }] }],
    ['the k8s.io spelling, JSON, unknown fields ignored', '{"apiVersion":"audit.k8s.io/v1","kind":"Policy","metadata":{"name":"x"},"whatever":1,"rules":[{"level":"None","users":["a"]}]}', { rules: [{ level: 'None', users: ['a'] }] }],
    ['policy-wide omitStages and omitManagedFields', 'apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nomitManagedFields: true\nrules:\n- level: Request\n  omitManagedFields: false\n  resources:\n  - group: ""\n    resources: [pods]\n    resourceNames: [a]\n', {
      rules: [{ level: 'Request', omitManagedFields: false, resources: [{ group: '', resources: ['pods'], resourceNames: ['a'] }] }], omitStages: ['RequestReceived'], omitManagedFields: true,
    }],
  ];
  for (const [name, text, want] of ok) it(`accepts ${name}`, () => assert.deepEqual(parsePolicy(text, () => undefined), want));

  it('warns about unknown fields (strict decoding falls back to lenient)', () => {
    const warned: string[] = [];
    parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nextra: 1\nrules:\n- level: None\n  user: [a]\n  resources: [{group: "", resource: [pods]}]\n', (m) => warned.push(m));
    assert.deepEqual(warned, ['Audit policy contains errors, falling back to lenient decoding: strict decoding error: unknown field "extra", unknown field "rules[0].user", unknown field "rules[0].resources[0].resource"']);
  });

  const bad: [string, string, string][] = [
    ['no kind', 'apiVersion: audit.k8s.io/v1\nrules: []\n', "failed decoding: Object 'Kind' is missing in"],
    ['an old version', 'apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules:\n- level: None\n', 'failed decoding: no kind "Policy" is registered for version "audit.k8s.io/v1beta1"'],
    ['no rules', 'apiVersion: audit.k8s.io/v1\nkind: Policy\n', 'loaded illegal policy with 0 rules'],
    ['a rule without level', 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- users: [a]\n', 'rules[0].level: Required value'],
    ['an unknown level', 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Everything\n', 'rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"'],
    ['a bad stage', 'apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [Started]\nrules:\n- level: None\n', 'omitStages[0]: Invalid value: "Started": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic'],
    ['a URL without slash', 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n  nonResourceURLs: [healthz]\n', `rules[0].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character`],
    ['a wildcard inside a URL', 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n  nonResourceURLs: ["/a*/b"]\n', `rules[0].nonResourceURLs[0]: Invalid value: "/a*/b": non-resource URL wildcards '*' must be the final character of the rule`],
    ['URLs and resources together', 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n  nonResourceURLs: ["/x"]\n  namespaces: [a]\n', 'rules[0].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs'],
    ['a group with a version', 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n  resources: [{group: rbac.authorization.k8s.io/v1}]\n', 'rules[0].resources.group: Invalid value: "rbac.authorization.k8s.io/v1"'],
    ['resource names without resources', 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n  resources: [{resourceNames: [a]}]\n', 'rules[0].resources.resourceNames: Invalid value: []string{"a"}: using resourceNames requires at least one resource'],
    ['a wrong type', 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n  users: a\n', 'failed decoding: json: cannot unmarshal string into Go struct field PolicyRule.users of type []string'],
  ];
  for (const [name, text, want] of bad) {
    it(`refuses ${name}`, () => {
      assert.throws(() => parsePolicy(text), (e: Error) => e instanceof AuditPolicyError && e.message.startsWith(want) || assert.fail(e.message));
    });
  }

  it('names the file', () => {
    const f = join(tempDir('svc-audit-policy-'), 'policy.yaml');
    writeFileSync(f, 'apiVersion: audit.k8s.io/v1\nkind: Policy\n');
    assert.throws(() => loadPolicyFile(f), { message: `loaded illegal policy with 0 rules: from file ${f}` });
    assert.throws(() => loadPolicyFile(`${f}.missing`), { message: `failed to read file path "${f}.missing": open ${f}.missing: no such file or directory` });
  });
});

const alice = { name: 'alice', groups: ['dev', 'system:authenticated'] };
const res = (verb: string, resource: string, o: Partial<AuditAttributes> = {}): AuditAttributes => ({ user: alice, verb, isResourceRequest: true, path: '/x', namespace: 'default', apiGroup: '', resource, subresource: '', name: '', ...o });
const url = (path: string, o: Partial<AuditAttributes> = {}): AuditAttributes => ({ user: alice, verb: 'get', isResourceRequest: false, path, ...o });

describe('audit policy evaluation', () => {
  const policy = parsePolicy(`
apiVersion: audit.svc.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: None
  users: [system:kube-proxy]
- level: None
  userGroups: [system:nodes]
  verbs: [get]
- level: RequestResponse
  resources:
  - group: rbac.authorization.k8s.io
    resources: ["*"]
- level: Request
  omitStages: [ResponseStarted]
  omitManagedFields: true
  resources:
  - group: ""
    resources: [configmaps]
    resourceNames: [special]
- level: Metadata
  resources:
  - group: ""
    resources: ["*/status", "pods/*"]
- level: None
  namespaces: [quiet]
- level: None
  nonResourceURLs: ["/healthz*", /version]
- level: Request
  resources:
  - group: apps
- level: Metadata
`);
  const ev = new PolicyEvaluator(policy);
  const cases: [string, AuditAttributes, string, string[]?, boolean?][] = [
    ['a user named by a rule', res('get', 'pods', { user: { name: 'system:kube-proxy', groups: [] } }), 'None'],
    ['a group and verb', res('get', 'nodes', { user: { name: 'n', groups: ['system:nodes'] } }), 'None'],
    ['the group but another verb falls through', res('update', 'nodes', { user: { name: 'n', groups: ['system:nodes'] } }), 'Metadata'],
    ['a group in the svc.io spelling matches a k8s.io rule', res('list', 'roles', { apiGroup: 'rbac.authorization.svc.io' }), 'RequestResponse'],
    ['a resource name', res('update', 'configmaps', { name: 'special' }), 'Request', ['RequestReceived', 'ResponseStarted'], true],
    ['another name falls through', res('update', 'configmaps', { name: 'other' }), 'Metadata', ['RequestReceived'], false],
    ['*/status', res('update', 'nodes', { subresource: 'status' }), 'Metadata'],
    ['pods/*', res('get', 'pods', { subresource: 'log' }), 'Metadata'],
    ['a namespace', res('get', 'secrets', { namespace: 'quiet' }), 'None'],
    ['a URL prefix', url('/healthz/etcd'), 'None'],
    ['an exact URL', url('/version'), 'None'],
    ['a URL rule does not match resources', res('get', 'secrets', { path: '/version' }), 'Metadata'],
    ['a group without resources', res('create', 'deployments', { apiGroup: 'apps' }), 'Request'],
    ['the catch-all', url('/metrics'), 'Metadata'],
  ];
  for (const [name, attrs, level, omit, omf] of cases) {
    it(name, () => {
      const c = ev.evaluate(attrs);
      assert.equal(c.level, level);
      if (omit) assert.deepEqual(c.omitStages, omit);
      if (omf !== undefined) assert.equal(c.omitManagedFields, omf);
    });
  }

  it('no matching rule: None, with the policy-wide stages', () => {
    const p = new PolicyEvaluator(parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [Panic]\nomitManagedFields: true\nrules:\n- level: Metadata\n  users: [bob]\n'));
    assert.deepEqual(p.evaluate(url('/x')), { level: 'None', omitStages: ['Panic'], omitManagedFields: true });
  });
});
