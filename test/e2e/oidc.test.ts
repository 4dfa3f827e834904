// OpenID Connect and the token authentication webhook end to end: the real
// server with --oidc-* flags trusting a real OpenID provider process
// (oidc-provider over TLS, src/testing/oidcprovider.ts) and a token webhook
// over HTTPS that requires the server's client certificate; tokens presented
// over HTTP, by kubectl 1.27 (--token) and by the Python client. Bad tokens
// are 401 Unauthorized, never 500 and never another identity.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER } from '../../src/authn/serviceaccount/index.js';
import { base64url } from 'jose';
import { FeatureGates } from '../../src/features/gates.js';
import { startTestWebhook, type TestWebhook } from '../../src/testing/webhookserver.js';
import { startTestServer, eventually, type TestServer } from './harness.js';
import { kubectlFor, kubectlMissing } from './kubectlcli.js';
import { startOidcProvider, DEFAULT_CLIENT, type OidcProviderFixture } from '../../src/testing/oidcprovider.js';
import { tempDir } from '../../src/testing/tempdir.js';
import { findTool } from '../../src/testing/tools.js';

const OTHER_CLIENT = { id: 'another-app', secret: 'another-secret' };
const PYTHON = '/usr/bin/python3';
const pythonMissing = (() => {
  const t = findTool(PYTHON, 'python3-kubernetes (apt-get install python3-kubernetes)', ['-c', 'import kubernetes']);
  return t.skip;
})();

describe('OIDC and token webhook end to end', () => {
  let provider: OidcProviderFixture;
  let t: TestServer;
  let hook: TestWebhook | undefined;
  let hookCalls = 0;
  let tokenOnlyConfig: string;
  const dir = tempDir('svc-e2e-oidc-');

  before(async () => {
    provider = await startOidcProvider({ clients: [DEFAULT_CLIENT, OTHER_CLIENT] });
    // The webhook: HTTPS with its own CA, requiring a client certificate of that CA.
    hook = await startTestWebhook({
      path: '/authenticate',
      handle: (review, res) => {
        hookCalls++;
        const ok = review.spec.token === 'hook-token-for-erin';
        res.end(JSON.stringify({
          apiVersion: review.apiVersion, kind: 'TokenReview',
          status: ok ? { authenticated: true, user: { username: 'erin', uid: 'e-1', groups: ['hook-users'] } } : { authenticated: false, ...(review.spec.token === 'hook-revoked' ? { error: 'token revoked' } : {}) },
        }));
      },
    });
    const hookConfig = hook.connectionFile();
    t = await startTestServer({
      oidc: {
        issuerURL: provider.issuer, clientID: DEFAULT_CLIENT.id, caFile: provider.caFile,
        usernameClaim: 'email', groupsClaim: 'groups', groupsPrefix: 'oidc:', requiredClaims: { tenant: 'acme' },
        refreshCooldownMs: 0, initRetryMs: 200,
      },
      tokenWebhook: { configFile: hookConfig, cacheTtlMs: 120_000, version: 'v1beta1' },
      runtimeConfig: { 'authentication.k8s.io/v1beta1': true },
      featureGates: FeatureGates.parse('APISelfSubjectReview=true'),
    });
    // A kubeconfig with the cluster only: the identity comes from --token.
    const admin = (await import('yaml')).parse((await import('node:fs')).readFileSync(t.kubeconfig, 'utf8'));
    tokenOnlyConfig = join(dir, 'token-only.svcconfig');
    writeFileSync(tokenOnlyConfig, stringify({
      apiVersion: 'v1', kind: 'Config', clusters: admin.clusters,
      users: [{ name: 'nobody', user: {} }], contexts: [{ name: 'c', context: { cluster: admin.clusters[0].name, user: 'nobody' } }], 'current-context': 'c',
    }));
    // The users these tests authenticate may list namespaces and review tokens (RBAC: every authenticated user here).
    assert.equal((await t.req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      metadata: { name: 'namespace-reader' }, rules: [
        { apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list'] },
        { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
      ],
    })).status, 201);
    assert.equal((await t.req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      metadata: { name: 'namespace-reader' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'namespace-reader' },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:authenticated' }],
    })).status, 201);
    // The authenticator starts asynchronously: wait until the provider's keys are in (and the binding is).
    const probe = await aliceToken();
    await eventually(async () => (await t.req('GET', '/api/v1/namespaces', undefined, { token: probe })).status === 200);
  });
  after(async () => {
    await t?.stop();
    await provider?.stop();
    await hook?.close();
  });

  const aliceToken = (claims: Record<string, unknown> = {}, o: Parameters<OidcProviderFixture['token']>[2] = {}) =>
    provider.token('alice-sub', { email: 'alice@example.com', email_verified: true, groups: ['dev'], tenant: 'acme', ...claims }, o);

  const whoami = async (token: string) => {
    const r = await t.req('POST', '/apis/authentication.svc.io/v1/tokenreviews', { spec: { token } });
    assert.equal(r.status, 201);
    return r.body.status;
  };

  it('an ID token from the provider is the user its claims name', async () => {
    const token = await aliceToken();
    const r = await t.req('GET', '/api/v1/namespaces', undefined, { token });
    assert.equal(r.status, 200);
    // The review is for the API audiences (by default the service-account issuer), which it answers.
    assert.deepEqual(await whoami(token), { authenticated: true, user: { username: 'alice@example.com', groups: ['oidc:dev', 'system:authenticated'] }, audiences: [DEFAULT_SERVICE_ACCOUNT_ISSUER] });
  });

  it('a webhook token is the user the webhook answers; a denial is 401', async () => {
    assert.equal((await t.req('GET', '/api/v1/namespaces', undefined, { token: 'hook-token-for-erin' })).status, 200);
    assert.deepEqual(await whoami('hook-token-for-erin'), { authenticated: true, user: { username: 'erin', uid: 'e-1', groups: ['hook-users', 'system:authenticated'] }, audiences: [DEFAULT_SERVICE_ACCOUNT_ISSUER] });
    const calls = hookCalls;
    assert.equal((await t.req('GET', '/api/v1/namespaces', undefined, { token: 'hook-token-for-erin' })).status, 200);
    assert.equal(hookCalls, calls, 'cached for the TTL');
    const denied = await t.req('GET', '/api/v1/namespaces', undefined, { token: 'hook-nobody' });
    assert.equal(denied.status, 401);
    assert.equal(denied.body.reason, 'Unauthorized');
    assert.match((await whoami('hook-revoked')).error, /token revoked/);
  });

  // Every bad token: 401 with kube's Status, never 500, never a user.
  const forged = (mutate: (parts: string[]) => string) => async () => mutate((await aliceToken()).split('.'));
  const enc = (o: unknown) => base64url.encode(JSON.stringify(o));
  const bad: [string, () => Promise<string>][] = [
    ['another client\'s token', () => aliceToken({}, { client: OTHER_CLIENT })],
    ['required claim mismatch', () => aliceToken({ tenant: 'evil' })],
    ['email not verified', () => aliceToken({ email_verified: false })],
    ['groups ill-typed', () => aliceToken({ groups: { admin: true } })],
    ['payload changed after signing', forged(([h, p, s]) => `${h}.${enc({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), email: 'admin@example.com' })}.${s}`)],
    ['alg none', forged(([, p]) => `${enc({ alg: 'none' })}.${p}.`)],
    ['truncated', forged((parts) => parts.join('.').slice(0, -5))],
    ['not a JWT', async () => 'garbage'],
  ];
  for (const [name, token] of bad) {
    it(`refuses: ${name}`, async () => {
      const r = await t.req('GET', '/api/v1/namespaces', undefined, { token: await token() });
      assert.equal(r.status, 401, r.text);
      assert.deepEqual(r.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    });
  }

  it('an expired ID token is 401', async () => {
    const token = await aliceToken({}, { expiresIn: 1 });
    await new Promise((r) => setTimeout(r, 2100));
    assert.equal((await t.req('GET', '/api/v1/namespaces', undefined, { token })).status, 401);
  });

  it('follows the provider\'s key rotation', async () => {
    await provider.rotate();
    const token = await aliceToken();
    assert.equal((await t.req('GET', '/api/v1/namespaces', undefined, { token })).status, 200);
  });

  describe('kubectl 1.27 --token', { skip: kubectlMissing }, () => {
    const kubectl = kubectlFor(() => ({ kubeconfig: tokenOnlyConfig }) as TestServer);
    after(() => kubectl.cleanup());

    it('presents an ID token: get, auth whoami', async () => {
      const token = await aliceToken();
      const get = await kubectl('get', 'ns', 'default', '--token', token, '-o', 'name');
      assert.equal(get.code, 0, get.err);
      assert.equal(get.out.trim(), 'namespace/default');
      const who = await kubectl('auth', 'whoami', '--token', token, '-o', 'json');
      assert.equal(who.code, 0, who.err);
      assert.deepEqual(JSON.parse(who.out).status.userInfo, { username: 'alice@example.com', groups: ['oidc:dev', 'system:authenticated'] });
    });

    it('presents a webhook token', async () => {
      const who = await kubectl('auth', 'whoami', '--token', 'hook-token-for-erin', '-o', 'json');
      assert.equal(who.code, 0, who.err);
      assert.equal(JSON.parse(who.out).status.userInfo.username, 'erin');
    });

    it('uses the oidc auth-provider of a kubeconfig (the id-token it holds)', async () => {
      const admin = (await import('yaml')).parse((await import('node:fs')).readFileSync(t.kubeconfig, 'utf8'));
      const cfg = join(dir, 'auth-provider.svcconfig');
      writeFileSync(cfg, stringify({
        apiVersion: 'v1', kind: 'Config', clusters: admin.clusters,
        users: [{ name: 'alice', user: { 'auth-provider': { name: 'oidc', config: {
          'idp-issuer-url': provider.issuer, 'client-id': DEFAULT_CLIENT.id, 'client-secret': DEFAULT_CLIENT.secret,
          'idp-certificate-authority': provider.caFile, 'id-token': await aliceToken(),
        } } } }],
        contexts: [{ name: 'c', context: { cluster: admin.clusters[0].name, user: 'alice' } }], 'current-context': 'c',
      }));
      const who = await kubectl('auth', 'whoami', '--kubeconfig', cfg, '-o', 'json');
      assert.equal(who.code, 0, who.err);
      assert.equal(JSON.parse(who.out).status.userInfo.username, 'alice@example.com');
    });

    it('is refused with a bad token', async () => {
      const r = await kubectl('get', 'ns', '--token', (await aliceToken()).slice(0, -4));
      assert.equal(r.code, 1);
      assert.match(r.err, /You must be logged in to the server/);
    });
  });

  describe('Python client (python3-kubernetes) with a bearer token', { skip: pythonMissing }, () => {
    const script = [fileURLToPath(new URL('../../../test/e2e/python/token_auth.py', import.meta.url)), join(process.cwd(), 'test/e2e/python/token_auth.py')].find((p) => existsSync(p))!;
    const run = (token: string, expect: string) => new Promise<{ code: number; out: string; err: string }>((resolve) => {
      execFile(PYTHON, [script, tokenOnlyConfig, token, expect], { timeout: 60_000 }, (error, stdout, stderr) => resolve({ code: error ? 1 : 0, out: stdout, err: stderr }));
    });

    it('presents an ID token', async () => {
      const r = await run(await aliceToken(), 'alice@example.com');
      assert.equal(r.code, 0, r.err + r.out);
      assert.equal(r.out.trim(), 'ok');
    });

    it('presents a webhook token, and a bad one is 401', async () => {
      const ok = await run('hook-token-for-erin', 'erin');
      assert.equal(ok.code, 0, ok.err + ok.out);
      const refused = await run(await aliceToken({}, { client: OTHER_CLIENT }), '401');
      assert.equal(refused.code, 0, refused.err + refused.out);
    });
  });
});
