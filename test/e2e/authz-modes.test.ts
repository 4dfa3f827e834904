// --authorization-mode end to end (issue 19): the modes other than the
// default Node,RBAC — AlwaysDeny, ABAC with a policy file, Webhook against a
// real HTTPS SubjectAccessReview server — in order with RBAC, system:masters
// always first; a webhook that fails is a 500 as kube answers; bad flag
// combinations stop the server with kube's messages.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestServer, writeTokenFile, type TestServer } from './harness.js';
import { runSvc } from './svcprocess.js';
import { tempDir } from '../../src/testing/tempdir.js';
import { startTestWebhook, type TestWebhook } from '../../src/testing/webhookserver.js';

const USERS = 'token-alice,alice,uid-alice,"devs"\ntoken-erin,erin,uid-erin\ntoken-mallory,mallory,uid-mallory\ntoken-bob,bob,uid-bob\n';

describe('--authorization-mode=AlwaysDeny', () => {
  let t: TestServer;
  before(async () => (t = await startTestServer({ tokenAuthFile: writeTokenFile(tempDir('svc-deny-'), USERS), authorization: { modes: ['AlwaysDeny'] } })));
  after(async () => t?.stop());

  it('refuses everyone but system:masters, with its reason (the server\'s controllers too: they ask as their service accounts)', async () => {
    assert.equal((await t.req('GET', '/api/v1/namespaces')).status, 200);
    const r = await t.req('GET', '/api/v1/namespaces/default/pods', undefined, { token: 'token-alice' });
    assert.equal(r.status, 403);
    assert.equal(r.body.message, 'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default": Everything is forbidden.');
    const rules = await t.req('POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { spec: { namespace: 'default' } });
    assert.deepEqual(rules.body.status, { resourceRules: [], nonResourceRules: [], incomplete: false });
  });
});

describe('--authorization-mode=ABAC,RBAC', () => {
  let t: TestServer;
  before(async () => {
    const dir = tempDir('svc-abac-');
    const policy = join(dir, 'policy.jsonl');
    writeFileSync(policy, [
      '# alice reads pods in team; the devs group reads every namespace\'s configmaps; everyone authenticated may discover',
      '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"alice","namespace":"team","resource":"pods","readonly":true}}',
      '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"group":"devs","namespace":"*","resource":"configmaps","apiGroup":"*","readonly":true}}',
      '',
      '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"group":"system:authenticated","readonly":true,"nonResourcePath":"/version"}}',
    ].join('\n'));
    t = await startTestServer({ tokenAuthFile: writeTokenFile(dir, USERS), authorization: { modes: ['ABAC', 'RBAC'], policyFile: policy } });
  });
  after(async () => t?.stop());

  it('allows what a policy line allows (readonly: get, list, watch), by user or group, and RBAC after it', async () => {
    const alice = { token: 'token-alice' };
    assert.equal((await t.req('GET', '/api/v1/namespaces/team/pods', undefined, alice)).status, 200);
    assert.equal((await t.req('GET', '/api/v1/namespaces/other/configmaps', undefined, alice)).status, 200);
    assert.equal((await t.req('GET', '/version', undefined, alice)).status, 200);
    const write = await t.req('POST', '/api/v1/namespaces/team/pods', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x' }] } }, alice);
    assert.equal(write.status, 403);
    assert.equal(write.body.message, 'pods is forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "team": No policy matched.');
    assert.equal((await t.req('GET', '/api/v1/namespaces/other/pods', undefined, alice)).status, 403);
    // RBAC (the next mode) still grants: bob gets pods in team through a RoleBinding
    const bob = { token: 'token-bob' };
    assert.equal((await t.req('GET', '/api/v1/namespaces/team/pods', undefined, bob)).status, 403);
    await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'team' } });
    await t.req('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/team/rolebindings', {
      metadata: { name: 'bob-view' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }],
    });
    await eventually(async () => (await t.req('GET', '/api/v1/namespaces/team/pods', undefined, bob)).status === 200);
  });

  it('SelfSubjectRulesReview lists ABAC\'s and RBAC\'s rules together', async () => {
    const r = await t.req('POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { spec: { namespace: 'team' } }, { token: 'token-alice' });
    assert.equal(r.status, 201);
    assert.ok(r.body.status.resourceRules.some((x: { resources: string[]; verbs: string[] }) => x.resources.includes('pods') && x.verbs.includes('list')), JSON.stringify(r.body.status));
    assert.ok(r.body.status.resourceRules.some((x: { resources: string[] }) => x.resources.includes('selfsubjectaccessreviews')), 'system:basic-user through RBAC');
    assert.equal(r.body.status.incomplete, false);
  });
});

describe('--authorization-mode=Webhook,RBAC', () => {
  let t: TestServer;
  let hook: TestWebhook | undefined;
  let reviews: { apiVersion: string; spec: Record<string, unknown> }[] = [];
  let failing = false;
  const dir = tempDir('svc-authz-hook-');

  before(async () => {
    // The webhook: erin may read configmaps; mallory is denied outright; anyone else gets no opinion.
    hook = await startTestWebhook({
      path: '/authorize',
      handle: (review, res) => {
        if (failing) {
          res.statusCode = 500;
          return res.end('down for maintenance');
        }
        reviews.push(review as { apiVersion: string; spec: Record<string, unknown> });
        const ra = review.spec.resourceAttributes as { resource: string; verb: string } | undefined;
        const status = review.spec.user === 'erin' && ra?.resource === 'configmaps' && ra.verb === 'list' ? { allowed: true, reason: 'erin reads configmaps' }
          : review.spec.user === 'mallory' ? { allowed: false, denied: true, reason: 'mallory is banned' }
          : { allowed: false };
        res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'SubjectAccessReview', status }));
      },
    });
    const config = hook.connectionFile();
    t = await startTestServer({
      tokenAuthFile: writeTokenFile(dir, USERS),
      authorization: { modes: ['Webhook', 'RBAC'], webhook: { configFile: config, version: 'v1', authorizedTtlMs: 60_000, unauthorizedTtlMs: 0 } },
    });
  });
  after(async () => {
    await t?.stop();
    await hook?.close();
  });

  it('sends a SubjectAccessReview of the configured version; allows, denies (before RBAC) or leaves it to RBAC', async () => {
    // (the server's controllers ask too, as their service accounts: only erin's reviews count here)
    const erin = () => reviews.filter((r) => r.spec.user === 'erin');
    reviews = [];
    assert.equal((await t.req('GET', '/api/v1/namespaces/default/configmaps', undefined, { token: 'token-erin' })).status, 200);
    assert.equal(erin().length, 1);
    assert.equal(erin()[0]!.apiVersion, 'authorization.k8s.io/v1');
    assert.deepEqual(erin()[0]!.spec, {
      resourceAttributes: { namespace: 'default', verb: 'list', version: 'v1', resource: 'configmaps' },
      user: 'erin', uid: 'uid-erin', groups: ['system:authenticated'],
    });
    // allowed answers are cached (authorized TTL)
    assert.equal((await t.req('GET', '/api/v1/namespaces/default/configmaps', undefined, { token: 'token-erin' })).status, 200);
    assert.equal(erin().length, 1);
    // a denial ends the chain even where RBAC would allow (mallory is bound to view)
    await t.req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      metadata: { name: 'mallory-view' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'mallory' }],
    });
    const denied = await t.req('GET', '/api/v1/namespaces/default/configmaps', undefined, { token: 'token-mallory' });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.message, 'configmaps is forbidden: User "mallory" cannot list resource "configmaps" in API group "" in the namespace "default": mallory is banned');
    // no opinion: RBAC decides (bob has nothing)
    const bob = await t.req('GET', '/api/v1/namespaces/default/secrets', undefined, { token: 'token-bob' });
    assert.equal(bob.status, 403);
  });

  it('a webhook that fails is a 500 for a request nobody else allows, as kube answers; the admin is unaffected', async () => {
    failing = true;
    try {
      const r = await t.req('GET', '/api/v1/namespaces/default/secrets', undefined, { token: 'token-bob' });
      assert.equal(r.status, 500);
      assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
      assert.match(r.text, /^Internal Server Error: "\/api\/v1\/namespaces\/default\/secrets": .+\n$/);
      assert.equal((await t.req('GET', '/api/v1/namespaces/default/secrets')).status, 200);
    } finally {
      failing = false;
    }
  });
});

describe('--authorization-* flag errors', () => {
  const rows: [string[], RegExp][] = [
    [['--authorization-mode=RBAC,Magic'], /authorization-mode "Magic" is not a valid mode/],
    [['--authorization-mode=RBAC,RBAC'], /authorization-mode "RBAC" has mode specified more than once/],
    [['--authorization-mode=ABAC'], /authorization-mode ABAC's authorization policy file not passed/],
    [['--authorization-mode=RBAC', '--authorization-policy-file=x'], /cannot specify --authorization-policy-file without mode ABAC/],
    [['--authorization-mode=Webhook'], /authorization-mode Webhook's authorization config file not passed/],
    [['--authorization-webhook-version=v2'], /unsupported webhook authorizer version "v2"/],
    [['--authorization-mode=ABAC', '--authorization-policy-file=/nonexistent/policy'], /\/nonexistent\/policy/],
  ];
  for (const [flags, message] of rows) {
    it(`${flags.join(' ')} exits 1 with a clear message`, async () => {
      const p = runSvc(['apiserver', ...flags, `--data-dir=${tempDir('svc-authz-flags-')}`, '--secure-port=0', '--bind-address=127.0.0.1']);
      assert.equal(await p.exit, 1);
      assert.match(p.out(), message);
    });
  }
});
