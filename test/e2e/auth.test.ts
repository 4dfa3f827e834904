// Authentication and the filters: client certificates, static tokens,
// anonymous, 401 for a bad token, impersonation, health and discovery.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, writeTokenFile, type TestServer } from './harness.js';
import { tempDir } from '../../src/testing/tempdir.js';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER } from '../../src/authn/serviceaccount/index.js';

describe('authentication, health, discovery', () => {
  let t: TestServer;
  before(async () => {
    const dir = tempDir('svc-tokens-');
    t = await startTestServer({ tokenAuthFile: writeTokenFile(dir, 'secret-token,alice,u-1,"dev,ops"\n') });
  });
  after(async () => t?.stop());

  it('serves the admin certificate, a static token and anonymous users (as far as RBAC lets them); rejects a bad token', async () => {
    assert.equal((await t.req('GET', '/api/v1/namespaces')).status, 200);
    // alice is authenticated: discovery is hers (system:discovery), namespaces are not
    assert.equal((await t.req('GET', '/api', undefined, { token: 'secret-token' })).status, 200);
    const alice = await t.req('GET', '/api/v1/namespaces', undefined, { token: 'secret-token' });
    assert.equal(alice.status, 403);
    assert.equal(alice.body.message, 'namespaces is forbidden: User "alice" cannot list resource "namespaces" in API group "" at the cluster scope');
    // anonymous: health and version only (system:public-info-viewer)
    assert.equal((await t.req('GET', '/healthz', undefined, { anonymous: true })).status, 200);
    assert.equal((await t.req('GET', '/version', undefined, { anonymous: true })).status, 200);
    const anon = await t.req('GET', '/api', undefined, { anonymous: true });
    assert.equal(anon.status, 403);
    assert.deepEqual(anon.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'forbidden: User "system:anonymous" cannot get path "/api"', reason: 'Forbidden', details: {}, code: 403 });
    const bad = await t.req('GET', '/api/v1/namespaces', undefined, { token: 'wrong' });
    assert.equal(bad.status, 401);
    assert.deepEqual(bad.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  });

  it('impersonation acts as the impersonated user (system:masters may impersonate); groups without a user are 400', async () => {
    // bob may not list namespaces: the refusal names him
    const r = await t.req('GET', '/api/v1/namespaces', undefined, { headers: { 'impersonate-user': 'bob' } });
    assert.equal(r.status, 403);
    assert.equal(r.body.message, 'namespaces is forbidden: User "bob" cannot list resource "namespaces" in API group "" at the cluster scope');
    const bad = await t.req('GET', '/api/v1/namespaces', undefined, { headers: { 'impersonate-group': 'devs' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.message, 'requested [{Group  devs    }] without impersonating a user');
  });

  it('health endpoints', async () => {
    assert.equal((await t.req('GET', '/livez')).text, 'ok');
    const v = await t.req('GET', '/readyz?verbose=');
    assert.equal(v.status, 200);
    assert.match(v.text, /\[\+\]etcd ok\n/);
    assert.match(v.text, /\[\+\]shutdown ok\nreadyz check passed\n$/);
    assert.match((await t.req('GET', '/healthz?verbose')).text, /healthz check passed\n$/);
    assert.equal((await t.req('GET', '/readyz/etcd')).text, 'ok');
    assert.equal((await t.req('GET', '/livez/nonexistent')).status, 404);
    assert.match((await t.req('GET', '/readyz?verbose&exclude=etcd')).text, /\[\+\]etcd excluded: ok/);
  });

  it('discovery lists core, groups in both spellings, and resources with short names and categories', async () => {
    const api = await t.req('GET', '/api');
    assert.deepEqual(api.body.versions, ['v1']);
    const v1 = await t.req('GET', '/api/v1');
    const pods = v1.body.resources.find((r: { name: string }) => r.name === 'pods');
    assert.deepEqual(pods.shortNames, ['po']);
    assert.deepEqual(pods.categories, ['all']);
    assert.ok(v1.body.resources.some((r: { name: string }) => r.name === 'pods/status'));
    const groups = (await t.req('GET', '/apis')).body.groups.map((g: { name: string }) => g.name);
    assert.ok(groups.includes('apps'));
    assert.ok(groups.includes('rbac.authorization.svc.io'));
    assert.ok(groups.includes('rbac.authorization.k8s.io'));
    // stock clients take the first group listing a resource: the k8s.io spelling, whose describers kubectl has
    assert.ok(groups.indexOf('rbac.authorization.k8s.io') < groups.indexOf('rbac.authorization.svc.io'));
    const rbac = await t.req('GET', '/apis/rbac.authorization.k8s.io/v1');
    assert.equal(rbac.body.groupVersion, 'rbac.authorization.k8s.io/v1');
    // errors name the group as the request spelled it
    const missing = await t.req('GET', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/nope');
    assert.deepEqual([missing.status, missing.body.message, missing.body.details.group], [404, 'roles.rbac.authorization.k8s.io "nope" not found', 'rbac.authorization.k8s.io']);
    const ours = await t.req('GET', '/apis/rbac.authorization.svc.io/v1/namespaces/default/roles/nope');
    assert.deepEqual([ours.body.message, ours.body.details.group], ['roles.rbac.authorization.svc.io "nope" not found', 'rbac.authorization.svc.io']);
    assert.ok(rbac.body.resources.some((r: { name: string }) => r.name === 'clusterroles'));
    const version = await t.req('GET', '/version');
    assert.equal(version.body.major, '1');
    assert.equal(version.body.minor, '27');
  });

  it('answers the review kinds without storing them', async () => {
    const ssar = await t.req('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', spec: { resourceAttributes: { namespace: 'default', verb: 'list', resource: 'pods' } },
    });
    assert.equal(ssar.status, 201);
    assert.equal(ssar.body.apiVersion, 'authorization.k8s.io/v1');
    assert.equal(ssar.body.status.allowed, true);
    const bad = await t.req('POST', '/apis/authorization.svc.io/v1/subjectaccessreviews', { spec: { resourceAttributes: { verb: 'get' } } });
    assert.equal(bad.status, 422);
    const tr = await t.req('POST', '/apis/authentication.svc.io/v1/tokenreviews', { spec: { token: 'secret-token' } });
    assert.equal(tr.status, 201);
    // Without spec.audiences a TokenReview checks for the API audiences (--api-audiences, by default the
    // service-account issuer) and answers them, as kube's TokenReview does.
    assert.deepEqual(tr.body.status, { authenticated: true, user: { username: 'alice', uid: 'u-1', groups: ['dev', 'ops', 'system:authenticated'] }, audiences: [DEFAULT_SERVICE_ACCOUNT_ISSUER] });
    const trBad = await t.req('POST', '/apis/authentication.svc.io/v1/tokenreviews', { spec: { token: 'nope' } });
    assert.equal(trBad.body.status.authenticated, undefined);
    assert.match(trBad.body.status.error, /invalid bearer token/);
    // the admin's rules: cluster-admin (bound to system:masters) and what every authenticated user holds
    const rules = await t.req('POST', '/apis/authorization.svc.io/v1/selfsubjectrulesreviews', { spec: { namespace: 'default' } });
    assert.deepEqual(rules.body.status.resourceRules[0], { verbs: ['*'], apiGroups: ['*'], resources: ['*'] });
    assert.ok(rules.body.status.resourceRules.some((r: { resources: string[] }) => r.resources.includes('selfsubjectaccessreviews')));
    assert.equal(rules.body.status.incomplete, false);
    const get = await t.req('GET', '/apis/authorization.svc.io/v1/selfsubjectaccessreviews');
    assert.equal(get.status, 405, 'reviews are create-only');
  });

  it('serves HTTP/2', async () => {
    const http2 = await import('node:http2');
    const { readFileSync } = await import('node:fs');
    const { parse } = await import('yaml');
    const cfg = parse(readFileSync(t.kubeconfig, 'utf8'));
    const ca = Buffer.from(cfg.clusters[0].cluster['certificate-authority-data'], 'base64');
    const session = http2.connect(t.url, { ca, cert: Buffer.from(cfg.users[0].user['client-certificate-data'], 'base64'), key: Buffer.from(cfg.users[0].user['client-key-data'], 'base64') });
    const body = await new Promise<string>((resolve, reject) => {
      const s = session.request({ ':path': '/api/v1/namespaces/default' });
      let data = '';
      s.on('data', (d: Buffer) => (data += d.toString()));
      s.on('end', () => resolve(data));
      s.on('error', reject);
    });
    session.close();
    assert.equal(JSON.parse(body).metadata.name, 'default');
  });
});
