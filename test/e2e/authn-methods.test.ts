// Authentication methods through the real server, table-driven, each case able
// to fail: bootstrap tokens (and the token cleaner), the authenticating proxy
// (--requestheader-*), impersonation headers, anonymous requests and
// TokenReview. The identity a request ends up with is read back through
// SelfSubjectReview (authentication.svc.io/v1beta1, enabled here).
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FeatureGates } from '../../src/features/gates.js';
import { eventually, startTestServer, writeTokenFile, type HttpResult, type TestServer } from './harness.js';
import { tempDir } from '../../src/testing/tempdir.js';
import { issueClientCertificate, newCertificateAuthority, type PemKeyPair } from '../../src/server/pki.js';

const API_AUDIENCE = 'https://svc.default.svc';
const WHOAMI = '/apis/authentication.svc.io/v1beta1/selfsubjectreviews';

describe('authentication methods (bootstrap tokens, authenticating proxy, impersonation, TokenReview)', () => {
  let t: TestServer;
  let ca: Buffer;
  let proxy: PemKeyPair;
  let rogueProxy: PemKeyPair;
  let proxyCAUser: PemKeyPair;
  let foreign: PemKeyPair;
  let admin: PemKeyPair;

  before(async () => {
    const dir = tempDir('svc-authn-');
    const proxyCA = await newCertificateAuthority();
    proxy = await issueClientCertificate(proxyCA, 'front-proxy');
    rogueProxy = await issueClientCertificate(proxyCA, 'rogue-proxy');
    proxyCAUser = await issueClientCertificate(proxyCA, 'jane', ['system:masters']);
    foreign = await issueClientCertificate(await newCertificateAuthority(), 'admin', ['system:masters']);
    const caFile = join(dir, 'front-proxy-ca.crt');
    writeFileSync(caFile, proxyCA.cert);
    t = await startTestServer({
      tokenAuthFile: writeTokenFile(dir, 'token-alice,alice,uid-alice\n'),
      enableBootstrapTokenAuth: true,
      apiAudiences: [API_AUDIENCE],
      requestHeader: {
        clientCAFile: caFile, usernameHeaders: ['X-Remote-User', 'X-Proxy-User'], groupHeaders: ['X-Remote-Group'],
        extraHeadersPrefix: ['X-Remote-Extra-'], allowedNames: ['front-proxy'],
      },
      runtimeConfig: new Map([['authentication.svc.io/v1beta1', true], ['authentication.svc.io/v1alpha1', true]]),
      // SelfSubjectReview (whoami) for every authenticated user: system:basic-user grants it with the gate on
      featureGates: FeatureGates.parse('APISelfSubjectReview=true'),
      // the token cleaner is off by default in kube-controller-manager (kubeadm turns it on, as here)
      controllerManager: { controllers: ['*', 'tokencleaner'] },
    });
    const cfg = (await import('yaml')).parse((await import('node:fs')).readFileSync(t.kubeconfig, 'utf8'));
    ca = Buffer.from(cfg.clusters[0].cluster['certificate-authority-data'], 'base64');
    admin = {
      cert: Buffer.from(cfg.users[0].user['client-certificate-data'], 'base64').toString(),
      key: Buffer.from(cfg.users[0].user['client-key-data'], 'base64').toString(),
    };
    // whoami for anonymous requests too (RBAC: authenticated users have it from system:basic-user)
    assert.equal((await send('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { cert: admin, body: {
      metadata: { name: 'anonymous-whoami' }, rules: [{ apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'], verbs: ['create'] }],
    } })).status, 201);
    assert.equal((await send('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', { cert: admin, body: {
      metadata: { name: 'anonymous-whoami' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'anonymous-whoami' },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:unauthenticated' }],
    } })).status, 201);
    await eventually(async () => (await whoami({})) !== 403);
  });
  after(async () => t?.stop());

  /** A raw request: optional client certificate, headers as [name, value] pairs (repeats kept). */
  function send(method: string, path: string, opts: { cert?: PemKeyPair; headers?: [string, string][]; body?: unknown } = {}): Promise<HttpResult> {
    return new Promise((resolve, reject) => {
      const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
      const headers: string[] = [];
      for (const [k, v] of opts.headers ?? []) headers.push(k, v);
      if (payload !== undefined) headers.push('Content-Type', 'application/json', 'Content-Length', String(Buffer.byteLength(payload)));
      const r = request(`${t.url}${path}`, { method, headers: headers as unknown as Record<string, string>, ca, agent: false, ...(opts.cert ? { cert: opts.cert.cert, key: opts.cert.key } : {}) }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let body: unknown = text;
          try { body = JSON.parse(text); } catch { /* text */ }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
      });
      r.on('error', reject);
      if (payload !== undefined) r.write(payload);
      r.end();
    });
  }

  /** Who the server thinks the request is: the SelfSubjectReview's userInfo, or the HTTP status when refused (with the message for 403). */
  async function whoami(opts: { cert?: PemKeyPair; headers?: [string, string][] }): Promise<unknown> {
    const r = await send('POST', WHOAMI, { ...opts, body: { apiVersion: 'authentication.svc.io/v1beta1', kind: 'SelfSubjectReview' } });
    if (r.status === 403 && opts.headers?.length) return { 403: r.body.message };
    return r.status === 201 ? r.body.status.userInfo : r.status;
  }

  const bearer = (token: string): [string, string] => ['Authorization', `Bearer ${token}`];

  async function bootstrapSecret(name: string, data: Record<string, string>, type = 'bootstrap.svc.io/token', extra: Record<string, unknown> = {}): Promise<void> {
    const r = await send('POST', '/api/v1/namespaces/svc-system/secrets', { cert: admin, body: { apiVersion: 'v1', kind: 'Secret', metadata: { name, ...extra }, type, stringData: data } });
    assert.equal(r.status, 201, r.text);
  }

  describe('bootstrap tokens', () => {
    const future = new Date(Date.now() + 3600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    before(async () => {
      const ok = { 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true' };
      await bootstrapSecret('bootstrap-token-a03b45', { ...ok, 'token-id': 'a03b45', 'auth-extra-groups': 'system:bootstrappers:workers,system:bootstrappers:workers', expiration: future });
      await bootstrapSecret('bootstrap-token-k8sabc', { ...ok, 'token-id': 'k8sabc' }, 'bootstrap.kubernetes.io/token');
      await bootstrapSecret('bootstrap-token-c03d45', { ...ok, 'token-id': 'c03d45', expiration: '2020-01-01T00:00:00Z' });
      await bootstrapSecret('bootstrap-token-badexp', { ...ok, 'token-id': 'badexp', expiration: 'tomorrow' });
      await bootstrapSecret('bootstrap-token-nouse1', { 'token-id': 'nouse1', 'token-secret': '0123456789abcdef' });
      await bootstrapSecret('bootstrap-token-nouse2', { 'token-id': 'nouse2', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'false' });
      await bootstrapSecret('bootstrap-token-e03f45', { ...ok, 'token-id': 'e03f45', 'auth-extra-groups': 'devs' });
      await bootstrapSecret('bootstrap-token-opaque', { ...ok, 'token-id': 'opaque' }, 'Opaque');
      await bootstrapSecret('bootstrap-token-mismat', { ...ok, 'token-id': 'other1' });
      await bootstrapSecret('bootstrap-token-going1', { ...ok, 'token-id': 'going1' }, 'bootstrap.svc.io/token', { finalizers: ['example.com/hold'] });
      assert.equal((await send('DELETE', '/api/v1/namespaces/svc-system/secrets/bootstrap-token-going1', { cert: admin })).status, 200);
      // the authenticator reads the watch cache: wait until it has the last write
      await eventually(async () => (await whoami({ headers: [bearer('a03b45.0123456789abcdef')] })) !== 401);
    });

    const BOOT = (id: string, extra: string[] = []) => ({ username: `system:bootstrap:${id}`, groups: ['system:bootstrappers', ...extra, 'system:authenticated'] });
    const cases: [string, string, unknown][] = [
      ['a valid token: its user, extra groups sorted without repeats', 'a03b45.0123456789abcdef', BOOT('a03b45', ['system:bootstrappers:workers'])],
      ['the bootstrap.kubernetes.io/token type spelling', 'k8sabc.0123456789abcdef', BOOT('k8sabc')],
      ['wrong secret', 'a03b45.ffffffffffffffff', 401],
      ['secret one character short (not the token format)', 'a03b45.0123456789abcde', 401],
      ['upper-case id (not the token format)', 'A03B45.0123456789abcdef', 401],
      ['id of 5 characters', 'a03b4.0123456789abcdef', 401],
      ['unknown id', 'zzzzzz.0123456789abcdef', 401],
      ['expired', 'c03d45.0123456789abcdef', 401],
      ['unparseable expiration counts as expired', 'badexp.0123456789abcdef', 401],
      ['usage-bootstrap-authentication missing', 'nouse1.0123456789abcdef', 401],
      ['usage-bootstrap-authentication false', 'nouse2.0123456789abcdef', 401],
      ['an extra group outside system:bootstrappers:', 'e03f45.0123456789abcdef', 401],
      ['a Secret of another type', 'opaque.0123456789abcdef', 401],
      ['token-id in the Secret differs from its name', 'mismat.0123456789abcdef', 401],
      ['a Secret being deleted', 'going1.0123456789abcdef', 401],
    ];
    for (const [name, token, want] of cases) {
      it(name, async () => assert.deepEqual(await whoami({ headers: [bearer(token)] }), want));
    }

    it('TokenReview: the token authenticators with the API audiences; other audiences and unknown tokens are errors; empty is 400', async () => {
      const review = (spec: Record<string, unknown>) => send('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { cert: admin, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec } });
      const ok = await review({ token: 'a03b45.0123456789abcdef' });
      assert.equal(ok.status, 201);
      assert.deepEqual(ok.body.status, { authenticated: true, user: BOOT('a03b45', ['system:bootstrappers:workers']), audiences: [API_AUDIENCE] });
      // as kube's create handler: the request's fields under the field manager, no name, creationTimestamp null
      const mf = ok.body.metadata.managedFields;
      assert.equal(ok.body.metadata.creationTimestamp, null);
      assert.deepEqual(mf.map((e: Record<string, unknown>) => [e.operation, e.apiVersion, e.fieldsType, e.fieldsV1]), [['Update', 'authentication.svc.io/v1', 'FieldsV1', { 'f:spec': { 'f:token': {} } }]]);
      const stat = await review({ token: 'token-alice', audiences: ['https://vault.example', API_AUDIENCE] });
      assert.deepEqual(stat.body.status, { authenticated: true, user: { username: 'alice', uid: 'uid-alice', groups: ['system:authenticated'] }, audiences: [API_AUDIENCE] });
      for (const spec of [{ token: 'a03b45.ffffffffffffffff' }, { token: 'token-alice', audiences: ['https://vault.example'] }, { token: 'nope' }]) {
        const r = await review(spec);
        assert.equal(r.status, 201);
        assert.deepEqual(r.body.status, { user: {}, error: 'invalid bearer token' }, JSON.stringify(spec));
      }
      const empty = await review({ token: '' });
      assert.equal(empty.status, 400);
      assert.equal(empty.body.message, 'token is required for TokenReview in authentication');
      assert.equal((await send('GET', '/apis/authentication.k8s.io/v1/tokenreviews', { cert: admin })).status, 405);
      assert.equal((await send('POST', '/apis/authentication.k8s.io/v1beta1/tokenreviews', { cert: admin, body: { spec: { token: 'x' } } })).status, 404);
    });

    it('the token cleaner deletes expired bootstrap-token Secrets, at once or when they expire', async () => {
      const soon = new Date(Date.now() + 2500).toISOString().replace(/\.\d+Z$/, 'Z');
      await bootstrapSecret('bootstrap-token-soon01', { 'token-id': 'soon01', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true', expiration: soon });
      await bootstrapSecret('bootstrap-token-past01', { 'token-id': 'past01', 'token-secret': '0123456789abcdef', expiration: '2020-01-01T00:00:00Z' }, 'bootstrap.kubernetes.io/token');
      await bootstrapSecret('not-a-token-past', { expiration: '2020-01-01T00:00:00Z' }, 'Opaque');
      const exists = async (name: string) => (await send('GET', `/api/v1/namespaces/svc-system/secrets/${name}`, { cert: admin })).status === 200;
      await eventually(async () => !(await exists('bootstrap-token-past01')));
      assert.ok(await exists('bootstrap-token-soon01'), 'not expired yet');
      await eventually(async () => !(await exists('bootstrap-token-soon01')), 15_000);
      assert.ok(await exists('not-a-token-past'), 'other Secrets are left alone');
      assert.ok(await exists('bootstrap-token-a03b45'), 'unexpired tokens stay');
    });
  });

  describe('authenticating proxy (--requestheader-*)', () => {
    const jane = { username: 'jane', groups: ['a', 'b, c', 'system:authenticated'], extra: { scopes: ['s1', 's2'], 'acme.com/team': ['t'] } };
    const janeHeaders: [string, string][] = [['X-Remote-User', 'jane'], ['X-Remote-Group', 'a'], ['x-remote-group', 'b, c'], ['X-Remote-Extra-Scopes', 's1'], ['X-Remote-Extra-scopes', 's2'], ['X-Remote-Extra-Acme.com%2fTeam', 't']];
    const ADMIN = { username: 'admin', groups: ['system:masters', 'system:authenticated'] };
    const ANON = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
    const cases: [string, () => { cert?: PemKeyPair; headers?: [string, string][] }, unknown][] = [
      ['the proxy: user, every group value, extras lower-cased and percent-decoded', () => ({ cert: proxy, headers: janeHeaders }), jane],
      ['the first username header with a value wins; a repeated one gives its first value', () => ({ cert: proxy, headers: [['X-Remote-User', ''], ['X-Proxy-User', 'kim'], ['X-Proxy-User', 'mallory']] }), { username: 'kim', groups: ['system:authenticated'] }],
      ['the proxy without a username header is no user (its certificate is not a client-CA one)', () => ({ cert: proxy, headers: [['X-Remote-Group', 'system:masters']] }), 401],
      ['a proxy certificate whose CN is not allowed', () => ({ cert: rogueProxy, headers: janeHeaders }), 401],
      ['a user certificate of the proxy CA is not a user certificate', () => ({ cert: proxyCAUser }), 401],
      ['headers from a client-CA certificate are ignored', () => ({ cert: admin, headers: janeHeaders }), ADMIN],
      ['headers without any certificate are ignored (anonymous)', () => ({ headers: janeHeaders }), ANON],
      ['headers with a bearer token are ignored', () => ({ headers: [bearer('token-alice'), ...janeHeaders] }), { username: 'alice', uid: 'uid-alice', groups: ['system:authenticated'] }],
      ['headers with a certificate of an unknown CA', () => ({ cert: foreign, headers: janeHeaders }), 401],
      ['the proxy may not smuggle impersonation past the chain: it is authorized like any request', () => ({ cert: proxy, headers: [['X-Remote-User', 'jane'], ['Impersonate-User', 'bob']] }),
        { 403: 'users "bob" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope' }],
    ];
    for (const [name, opts, want] of cases) {
      it(name, async () => assert.deepEqual(await whoami(opts()), want));
    }

    it('an oversized identity header is refused by the server (431), never a 500 or an identity', async () => {
      const r = await send('POST', WHOAMI, { cert: proxy, headers: [['X-Remote-User', 'x'.repeat(64 * 1024)]], body: { kind: 'SelfSubjectReview', apiVersion: 'authentication.svc.io/v1beta1' } }).catch((e: Error) => e);
      if (r instanceof Error) return; // the server may close the connection instead
      assert.equal(r.status, 431);
    });
  });

  describe('impersonation and anonymous requests', () => {
    const cases: [string, [string, string][], unknown][] = [
      ['user, repeated groups, uid and a percent-decoded extra', [['Impersonate-User', 'bob'], ['Impersonate-Group', 'g1'], ['Impersonate-Group', 'g2'], ['Impersonate-Uid', 'u-1'], ['Impersonate-Extra-Example.com%2fscope', 'x']],
        { username: 'bob', uid: 'u-1', groups: ['g1', 'g2', 'system:authenticated'], extra: { 'example.com/scope': ['x'] } }],
      ['a service account gets its groups', [['Impersonate-User', 'system:serviceaccount:ns1:robot']], { username: 'system:serviceaccount:ns1:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'] }],
      ['system:anonymous gets system:unauthenticated', [['Impersonate-User', 'system:anonymous']], { username: 'system:anonymous', groups: ['system:unauthenticated'] }],
      ['an empty Impersonate-User is ignored', [['Impersonate-User', '']], { username: 'admin', groups: ['system:masters', 'system:authenticated'] }],
      ['a group without a user is 400', [['Impersonate-Group', 'devs']], 400],
      ['an extra without a user is 400', [['Impersonate-Extra-a', 'b']], 400],
    ];
    for (const [name, headers, want] of cases) {
      it(name, async () => assert.deepEqual(await whoami({ cert: admin, headers }), want));
    }

    it('groups without a user: 400 Status with kube\'s message (kube ≤1.27: 500 text/plain)', async () => {
      const r = await send('GET', '/api/v1/namespaces/default/configmaps', { cert: admin, headers: [['Impersonate-Group', 'devs']] });
      assert.equal(r.status, 400);
      assert.equal(r.headers['content-type'], 'application/json');
      assert.deepEqual(r.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'requested [{Group  devs    }] without impersonating a user', reason: 'BadRequest', code: 400 });
    });

    it('SelfSubjectReview in v1alpha1 and the k8s.io spelling answer the same identity', async () => {
      for (const gv of ['authentication.svc.io/v1alpha1', 'authentication.k8s.io/v1alpha1', 'authentication.k8s.io/v1beta1']) {
        const r = await send('POST', `/apis/${gv}/selfsubjectreviews`, { cert: admin, body: { apiVersion: gv, kind: 'SelfSubjectReview' } });
        assert.equal(r.status, 201, gv);
        assert.equal(r.body.apiVersion, gv);
        assert.deepEqual(r.body.status.userInfo, { username: 'admin', groups: ['system:masters', 'system:authenticated'] });
        assert.deepEqual(Object.keys(r.body.metadata), ['creationTimestamp'], 'a fresh object: no managedFields');
        assert.match(r.body.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      }
    });

    it('a bad bearer token is 401 even for /healthz; Basic credentials are ignored (anonymous)', async () => {
      const bad = await send('GET', '/healthz', { headers: [bearer('not-a-known-token')] });
      assert.equal(bad.status, 401);
      assert.deepEqual(bad.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
      assert.deepEqual(await whoami({ headers: [['Authorization', 'Basic YWxpY2U6c2VjcmV0']] }), ANON_USER);
      assert.equal((await send('GET', '/healthz')).text, 'ok');
    });
  });
});

const ANON_USER = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
