// Service accounts end to end on the real server: the controllers (`default`
// accounts, token Secrets, the root CA ConfigMap), the TokenRequest
// subresource and its errors, tokens used as bearer tokens (bound to pods and
// Secrets, other audiences, lookups after deletion on each backend), legacy
// Secret tokens, the issuer discovery documents a relying party verifies
// with, kubectl 1.27 (`create token`, `--token`) and the Python client
// (TokenRequest, a bearer token, and its in-cluster loader reading `token` and `ca.crt`).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { findTool } from '../../src/testing/tools.js';
import { BACKENDS } from './backends.js';
import { eventually, sleep, startTestServer, type TestServer } from './harness.js';
import { KUBECTL, kubectlMissing } from './kubectlcli.js';

const NS = 'sa-e2e';
const ISSUER = 'https://svc.default.svc.cluster.local';
const TTL = 1500;

async function setup(t: TestServer): Promise<void> {
  assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
  assert.equal((await t.req('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { metadata: { name: 'robot' } })).status, 201);
  // the namespace's service accounts may read what the tests read with their tokens (RBAC)
  assert.equal((await t.req('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/roles`, {
    metadata: { name: 'readers' }, rules: [{ apiGroups: [''], resources: ['configmaps', 'serviceaccounts'], verbs: ['get', 'list'] }],
  })).status, 201);
  assert.equal((await t.req('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings`, {
    metadata: { name: 'readers' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'readers' },
    subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: `system:serviceaccounts:${NS}` }],
  })).status, 201);
  await eventually(async () => (await t.req('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
    spec: { user: `system:serviceaccount:${NS}:robot`, groups: [`system:serviceaccounts:${NS}`], resourceAttributes: { namespace: NS, verb: 'list', resource: 'configmaps' } },
  })).body.status?.allowed === true);
}

const tokenFor = async (t: TestServer, sa: string, spec: Record<string, unknown> = {}) => {
  const r = await t.req('POST', `/api/v1/namespaces/${NS}/serviceaccounts/${sa}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec });
  assert.equal(r.status, 201, r.text);
  return r.body.status.token as string;
};
const listAs = async (t: TestServer, token: string) => (await t.req('GET', `/api/v1/namespaces/${NS}/configmaps`, undefined, { token })).status;

describe('service accounts (sqlite)', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ serviceAccountControllers: true, tokenCacheTtlMs: TTL, serviceAccounts: { maxExpirationSeconds: 7200 } });
    await setup(t);
  });
  after(async () => t?.stop());

  it('the controllers: a default account and the root CA ConfigMap in every namespace, put back when deleted', async () => {
    for (const ns of ['default', NS]) {
      await eventually(async () => (await t.req('GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`)).status === 200);
      await eventually(async () => (await t.req('GET', `/api/v1/namespaces/${ns}/configmaps/svc-root-ca.crt`)).status === 200);
    }
    const cm = await t.req('GET', `/api/v1/namespaces/${NS}/configmaps/svc-root-ca.crt`);
    assert.match(cm.body.data['ca.crt'], /^-----BEGIN CERTIFICATE-----/);
    assert.deepEqual(Object.keys(cm.body.data), ['ca.crt']);
    assert.ok(cm.body.metadata.annotations['svc.io/description']);
    const uid = (await t.req('GET', `/api/v1/namespaces/${NS}/serviceaccounts/default`)).body.metadata.uid;
    assert.equal((await t.req('DELETE', `/api/v1/namespaces/${NS}/serviceaccounts/default`)).status, 200);
    await eventually(async () => {
      const r = await t.req('GET', `/api/v1/namespaces/${NS}/serviceaccounts/default`);
      return r.status === 200 && r.body.metadata.uid !== uid;
    });
    assert.equal((await t.req('PUT', `/api/v1/namespaces/${NS}/configmaps/svc-root-ca.crt`, { ...cm.body, data: { 'ca.crt': 'tampered' } })).status, 200);
    await eventually(async () => (await t.req('GET', `/api/v1/namespaces/${NS}/configmaps/svc-root-ca.crt`)).body.data?.['ca.crt'] === cm.body.data['ca.crt']);
    assert.equal((await t.req('DELETE', `/api/v1/namespaces/${NS}/configmaps/svc-root-ca.crt`)).status, 200);
    await eventually(async () => (await t.req('GET', `/api/v1/namespaces/${NS}/configmaps/svc-root-ca.crt`)).status === 200);
  });

  it('TokenRequest answers as kube-apiserver: defaults, managedFields of the token subresource, boundObjectRef null', async () => {
    const r = await t.req('POST', `/api/v1/namespaces/${NS}/serviceaccounts/robot/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }, { headers: { 'user-agent': 'scenario-tool/1.0' } });
    assert.equal(r.status, 201, r.text);
    const b = r.body;
    assert.equal(b.kind, 'TokenRequest');
    assert.equal(b.apiVersion, 'authentication.k8s.io/v1');
    assert.deepEqual(Object.keys(b.metadata), ['name', 'namespace', 'creationTimestamp', 'managedFields']);
    assert.equal(b.metadata.name, 'robot');
    assert.deepEqual(b.metadata.managedFields.map((m: Record<string, unknown>) => ({ ...m, time: '<time>' })), [
      { manager: 'scenario-tool', operation: 'Update', apiVersion: 'authentication.k8s.io/v1', time: '<time>', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:expirationSeconds': {} } }, subresource: 'token' },
    ]);
    assert.deepEqual(b.spec, { audiences: [ISSUER], expirationSeconds: 3600, boundObjectRef: null });
    const exp = Date.parse(b.status.expirationTimestamp) - Date.parse(b.metadata.creationTimestamp);
    assert.equal(exp, 3600_000);
    const claims = JSON.parse(Buffer.from(b.status.token.split('.')[1], 'base64url').toString());
    assert.equal(claims.iss, ISSUER);
    assert.equal(claims.sub, `system:serviceaccount:${NS}:robot`);
    assert.equal(claims.exp - claims.iat, 3600);
    const svc = await t.req('POST', `/api/v1/namespaces/${NS}/serviceaccounts/robot/token`, { apiVersion: 'authentication.svc.io/v1', kind: 'TokenRequest', spec: {} });
    assert.equal(svc.body.apiVersion, 'authentication.svc.io/v1');
  });

  it('TokenRequest errors: 422, 404, 400, 409 with kube\'s messages; the max expiration shortens with a warning', async () => {
    const secret = (await t.req('POST', `/api/v1/namespaces/${NS}/secrets`, { metadata: { name: 'bound' } })).body;
    await t.req('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { metadata: { name: 'other' } });
    const pod = (await t.req('POST', `/api/v1/namespaces/${NS}/pods`, { metadata: { name: 'runs-other' }, spec: { serviceAccountName: 'other', containers: [{ name: 'c', image: 'x' }] } })).body;
    const cases: [string, string, Record<string, unknown>, number, string][] = [
      ['too short', 'robot', { expirationSeconds: 60 }, 422, 'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes'],
      ['too long', 'robot', { expirationSeconds: 2 ** 32 + 1 }, 422, 'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds'],
      ['missing account', 'ghost', {}, 404, 'serviceaccounts "ghost" not found'],
      ['another name in the body', 'robot', { $metadata: { name: 'other' } }, 422, 'TokenRequest.authentication.k8s.io "robot" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified'],
      ['bound to a ConfigMap', 'robot', { boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'x' } }, 400, 'cannot bind token to object of type /v1, Kind=ConfigMap'],
      ['bound to a missing pod', 'robot', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'nope' } }, 404, 'pods "nope" not found'],
      ['bound to a pod of another account', 'robot', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'runs-other', uid: pod.metadata.uid } }, 400, 'cannot bind token for serviceaccount "robot" to pod running with different serviceaccount name.'],
      ['bound with a stale uid', 'robot', { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'bound', uid: 'stale' } }, 409, 'Operation cannot be fulfilled on Secret "bound": the UID in the bound object reference (stale) does not match the UID in record. The object might have been deleted and then recreated'],
    ];
    for (const [name, sa, spec, code, message] of cases) {
      const { $metadata, ...rest } = spec;
      const r = await t.req('POST', `/api/v1/namespaces/${NS}/serviceaccounts/${sa}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', ...($metadata ? { metadata: $metadata } : {}), spec: rest });
      assert.equal(r.status, code, `${name}: ${r.text}`);
      assert.equal(r.body.message, message, name);
    }
    const ok = await t.req('POST', `/api/v1/namespaces/${NS}/serviceaccounts/robot/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 10000, boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'bound', uid: secret.metadata.uid } } });
    assert.equal(ok.status, 201);
    assert.equal(ok.body.spec.expirationSeconds, 7200);
    assert.deepEqual(ok.body.spec.boundObjectRef, { kind: 'Secret', apiVersion: 'v1', name: 'bound', uid: secret.metadata.uid });
    assert.match(String(ok.headers.warning), /requested expiration of 10000 seconds shortened to 7200 seconds/);
  });

  it('a token authenticates as its account; another audience does not; TokenReview sees it', async () => {
    const token = await tokenFor(t, 'robot');
    assert.equal(await listAs(t, token), 200);
    const review = await t.req('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { spec: { token } });
    assert.equal(review.body.status.user.username, `system:serviceaccount:${NS}:robot`);
    assert.deepEqual(review.body.status.user.groups, ['system:serviceaccounts', `system:serviceaccounts:${NS}`, 'system:authenticated']);
    const vault = await tokenFor(t, 'robot', { audiences: ['https://vault.example'] });
    assert.equal(await listAs(t, vault), 401);
    // kube's TokenReview error for it, word for word (golden transcript authn-04, in our issuer)
    const other = await t.req('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { spec: { token: vault } });
    assert.equal(other.body.status.error, `[invalid bearer token, token audiences ["https://vault.example"] is invalid for the target audiences ["${ISSUER}"]]`);
    assert.equal(await listAs(t, `${token.slice(0, -4)}AAAA`), 401);
  });

  it('pod-bound and Secret-bound tokens stop working when the object goes or is replaced', async () => {
    const pod = (await t.req('POST', `/api/v1/namespaces/${NS}/pods`, { metadata: { name: 'web' }, spec: { serviceAccountName: 'robot', containers: [{ name: 'c', image: 'x' }] } })).body;
    const podToken = await tokenFor(t, 'robot', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web', uid: pod.metadata.uid } });
    const claims = JSON.parse(Buffer.from(podToken.split('.')[1]!, 'base64url').toString());
    assert.deepEqual(claims['kubernetes.io'].pod, { name: 'web', uid: pod.metadata.uid });
    // the expiration extension: a pod-bound token asking for 3607 s for the API audiences lives a year, warning after 3607 s
    const decode = (tok: string) => JSON.parse(Buffer.from(tok.split('.')[1]!, 'base64url').toString());
    const ext = await t.req('POST', `/api/v1/namespaces/${NS}/serviceaccounts/robot/token`, { spec: { expirationSeconds: 3607, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' } } });
    const ec = decode(ext.body.status.token);
    assert.equal(ec.exp - ec.iat, 365 * 86400);
    assert.equal(ec['kubernetes.io'].warnafter, ec.iat + 3607);
    assert.equal(ext.body.spec.expirationSeconds, 3607);
    assert.equal(Date.parse(ext.body.status.expirationTimestamp) - Date.parse(ext.body.metadata.creationTimestamp), 3607_000);
    for (const spec of [{ expirationSeconds: 3607, audiences: ['https://vault.example'], boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' } }, { expirationSeconds: 3607 }]) {
      const plain = decode(await tokenFor(t, 'robot', spec));
      assert.equal(plain.exp - plain.iat, 3607, JSON.stringify(spec));
      assert.equal(plain['kubernetes.io'].warnafter, undefined);
    }
    const sec = (await t.req('POST', `/api/v1/namespaces/${NS}/secrets`, { metadata: { name: 'holder' } })).body;
    const secretToken = await tokenFor(t, 'robot', { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'holder' } });
    assert.equal(await listAs(t, podToken), 200);
    assert.equal(await listAs(t, secretToken), 200);
    assert.equal((await t.req('DELETE', `/api/v1/namespaces/${NS}/pods/web?gracePeriodSeconds=0`)).status, 200);
    assert.equal((await t.req('DELETE', `/api/v1/namespaces/${NS}/secrets/holder`)).status, 200);
    assert.equal((await t.req('POST', `/api/v1/namespaces/${NS}/secrets`, { metadata: { name: 'holder' } })).status, 201); // same name, new uid
    assert.notEqual(sec.metadata.uid, undefined);
    await sleep(TTL + 200);
    assert.equal(await listAs(t, podToken), 401);
    assert.equal(await listAs(t, secretToken), 401);
  });

  it('legacy tokens: the token controller fills a service-account-token Secret (either spelling); deleting it revokes the token', async () => {
    for (const [type, domain] of [['kubernetes.io/service-account-token', 'kubernetes.io'], ['svc.io/service-account-token', 'svc.io']] as const) {
      const name = `legacy-${domain.replace('.', '-')}`;
      const created = await t.req('POST', `/api/v1/namespaces/${NS}/secrets`, { metadata: { name, annotations: { [`${domain}/service-account.name`]: 'robot' } }, type });
      assert.equal(created.status, 201, created.text);
      let secret: { data?: Record<string, string>; metadata: { annotations: Record<string, string> } } | undefined;
      await eventually(async () => {
        secret = (await t.req('GET', `/api/v1/namespaces/${NS}/secrets/${name}`)).body;
        return !!secret?.data?.token;
      });
      const data = secret!.data!;
      assert.deepEqual(Object.keys(data).sort(), ['ca.crt', 'namespace', 'token']);
      assert.equal(Buffer.from(data.namespace!, 'base64').toString(), NS);
      assert.ok(secret!.metadata.annotations[`${domain}/service-account.uid`]);
      const token = Buffer.from(data.token!, 'base64').toString();
      assert.equal(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).iss, 'kubernetes/serviceaccount');
      assert.equal(await listAs(t, token), 200);
      // legacy token tracking (kube 1.27's LegacyServiceAccountTokenTracking): the day of use, as a label
      await eventually(async () => (await t.req('GET', `/api/v1/namespaces/${NS}/secrets/${name}`)).body.metadata.labels?.['svc.io/legacy-token-last-used'] === new Date().toISOString().slice(0, 10));
      assert.equal((await t.req('DELETE', `/api/v1/namespaces/${NS}/secrets/${name}`)).status, 200);
      await sleep(TTL + 200);
      assert.equal(await listAs(t, token), 401);
    }
  });

  it('issuer discovery: the documents verify a token as a relying party would', async () => {
    // system:service-account-issuer-discovery is bound to service accounts only (kube's default), not to anonymous users
    assert.equal((await t.req('GET', '/.well-known/openid-configuration', undefined, { anonymous: true })).status, 403);
    const reader = { token: await tokenFor(t, 'robot') };
    const conf = await t.req('GET', '/.well-known/openid-configuration', undefined, reader);
    assert.equal(conf.status, 200);
    assert.equal(conf.headers['content-type'], 'application/json');
    assert.equal(conf.headers['cache-control'], 'public, max-age=3600');
    assert.deepEqual(Object.keys(conf.body), ['issuer', 'jwks_uri', 'response_types_supported', 'subject_types_supported', 'id_token_signing_alg_values_supported']);
    assert.equal(conf.body.issuer, ISSUER);
    assert.equal(conf.body.jwks_uri, `${t.url}/openid/v1/jwks`);
    assert.deepEqual(conf.body.response_types_supported, ['id_token']);
    const jwks = await t.req('GET', '/openid/v1/jwks', undefined, reader);
    assert.equal(jwks.headers['content-type'], 'application/jwk-set+json');
    assert.ok(jwks.body.keys.every((k: { use: string; kid: string; alg: string }) => k.use === 'sig' && k.kid && k.alg));
    const token = await tokenFor(t, 'robot', { audiences: ['https://vault.example'] });
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks.body), { issuer: ISSUER, audience: 'https://vault.example' });
    assert.equal(payload.sub, `system:serviceaccount:${NS}:robot`);
  });

  it('kubectl 1.27: create token, then --token', { skip: kubectlMissing }, async () => {
    const run = (kubeconfig: string, ...args: string[]) => new Promise<{ code: number; out: string; err: string }>((resolve) => {
      execFile(KUBECTL, ['--kubeconfig', kubeconfig, '--cache-dir', join(t.dataDir, `kcache-${Math.random()}`), ...args], { timeout: 60_000 }, (e, out, err) => resolve({ code: e ? 1 : 0, out, err }));
    });
    const created = await run(t.kubeconfig, 'create', 'token', 'robot', '-n', NS, '--duration=20m', '--audience', ISSUER);
    assert.equal(created.code, 0, created.err);
    const token = created.out.trim();
    assert.equal(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).exp - JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).iat, 1200);
    // a kubeconfig with the cluster only: the token is the sole credential
    const ca = (await t.req('GET', `/api/v1/namespaces/${NS}/configmaps/svc-root-ca.crt`)).body.data['ca.crt'] as string;
    const bare = join(t.dataDir, 'bare.svcconfig');
    writeFileSync(bare, JSON.stringify({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'c',
      clusters: [{ name: 'c', cluster: { server: t.url, 'certificate-authority-data': Buffer.from(ca).toString('base64') } }],
      contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }], users: [{ name: 'u', user: {} }],
    }));
    const got = await run(bare, '--token', token, 'get', 'serviceaccounts', '-n', NS, '-o', 'name');
    assert.equal(got.code, 0, got.err);
    assert.match(got.out, /serviceaccount\/robot/);
    const bad = await run(bare, '--token', `${token}x`, 'get', 'serviceaccounts', '-n', NS);
    assert.notEqual(bad.code, 0);
    assert.match(bad.err, /You must be logged in to the server/);
  });

  const python = findTool('/usr/bin/python3', "Debian's python3-kubernetes (apt-get install python3-kubernetes)", ['-c', 'import kubernetes']);
  it('the Python client: TokenRequest, the token as a bearer token, and its in-cluster loader', { skip: python.skip }, async () => {
    const script = `
import sys, os, tempfile
from kubernetes import client, config
from kubernetes.config.incluster_config import InClusterConfigLoader
kubeconfig, ns, port = sys.argv[1], sys.argv[2], sys.argv[3]
admin = config.new_client_from_config(config_file=kubeconfig)
core = client.CoreV1Api(admin)
tr = core.create_namespaced_service_account_token('robot', ns, client.AuthenticationV1TokenRequest(spec=client.V1TokenRequestSpec(audiences=[], expiration_seconds=900)))
token = tr.status.token
assert tr.spec.expiration_seconds == 900, tr.spec
ca = core.read_namespaced_config_map('svc-root-ca.crt', ns).data['ca.crt']
d = tempfile.mkdtemp()
open(os.path.join(d, 'token'), 'w').write(token)
open(os.path.join(d, 'ca.crt'), 'w').write(ca)
cfg = client.Configuration()
InClusterConfigLoader(token_filename=os.path.join(d, 'token'), cert_filename=os.path.join(d, 'ca.crt'),
    environ={'KUBERNETES_SERVICE_HOST': '127.0.0.1', 'KUBERNETES_SERVICE_PORT': port}).load_and_set(cfg)
pod_view = client.CoreV1Api(client.ApiClient(cfg))
names = [s.metadata.name for s in pod_view.list_namespaced_service_account(ns).items]
assert 'robot' in names, names
open(os.path.join(d, 'token'), 'w').write(token + 'x')  # the loader reads the token file again once a minute
cfg = client.Configuration()
InClusterConfigLoader(token_filename=os.path.join(d, 'token'), cert_filename=os.path.join(d, 'ca.crt'),
    environ={'KUBERNETES_SERVICE_HOST': '127.0.0.1', 'KUBERNETES_SERVICE_PORT': port}).load_and_set(cfg)
try:
    client.CoreV1Api(client.ApiClient(cfg)).list_namespaced_service_account(ns)
    print('accepted a bad token'); sys.exit(1)
except client.exceptions.ApiException as e:
    assert e.status == 401, e.status
print('ok')
`;
    const r = await new Promise<{ code: number; out: string; err: string }>((resolve) => {
      execFile('/usr/bin/python3', ['-c', script, t.kubeconfig, NS, String(t.server.port)], { timeout: 120_000 }, (e, out, err) => resolve({ code: e ? 1 : 0, out, err }));
    });
    assert.equal(r.code, 0, r.err + r.out);
    assert.equal(r.out.trim(), 'ok');
  });

  it('a namespace still goes away: the controllers do not recreate what its deletion removes', async () => {
    assert.equal((await t.req('DELETE', `/api/v1/namespaces/${NS}`)).status, 200);
    await eventually(async () => (await t.req('GET', `/api/v1/namespaces/${NS}`)).status === 404, 20_000);
  });
});

for (const backend of BACKENDS) {
  describe(`service-account lookup (${backend.name})`, { skip: backend.skip }, () => {
    for (const lookup of [true, false]) {
      it(`a deleted account's tokens are refused (bound always; legacy only with --service-account-lookup=${lookup})`, async () => {
        const t = await backend.start({ serviceAccountControllers: true, tokenCacheTtlMs: 0, serviceAccounts: { lookup } });
        try {
          await setup(t);
          const bound = await tokenFor(t, 'robot');
          await t.req('POST', `/api/v1/namespaces/${NS}/secrets`, { metadata: { name: 'robot-token', annotations: { 'kubernetes.io/service-account.name': 'robot' } }, type: 'kubernetes.io/service-account-token' });
          let legacy = '';
          await eventually(async () => {
            const d = (await t.req('GET', `/api/v1/namespaces/${NS}/secrets/robot-token`)).body.data;
            legacy = d?.token ? Buffer.from(d.token, 'base64').toString() : '';
            return legacy !== '';
          });
          assert.equal(await listAs(t, bound), 200);
          assert.equal(await listAs(t, legacy), 200);
          // replaced by an account of the same name: another uid
          assert.equal((await t.req('DELETE', `/api/v1/namespaces/${NS}/serviceaccounts/robot`)).status, 200);
          assert.equal((await t.req('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { metadata: { name: 'robot' } })).status, 201);
          assert.equal(await listAs(t, bound), 401);
          const review = await t.req('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { spec: { token: bound } });
          assert.match(review.body.status.error, /^\[invalid bearer token, service account UID \(.*\) does not match claim \(.*\)\]$/);
          // without lookup a legacy token outlives its account (and the Secret the token controller then deletes)
          assert.equal(await listAs(t, legacy), lookup ? 401 : 200);
        } finally {
          await t.stop();
        }
      });
    }
  });
}
