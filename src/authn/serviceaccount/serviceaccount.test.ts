// Service-account token authentication, table-driven: every bad token is
// refused (null from the authenticator is "not mine", which the token union
// turns into 401 "invalid bearer token"), never a wrong identity.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHmac, createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { CompactSign } from 'jose';
import { newNotFound } from '../../api/meta/index.js';
import type { ApiObject } from '../../registry/object.js';
import { AuthenticationError, type AuthResult } from '../authenticator.js';
import { TokenUnionAuthenticator } from '../tokenunion.js';
import {
  boundClaims, legacyClaims, publicKeysFromPem, ServiceAccountTokens, signingKeyFromPem, sortedJson, TokenGenerator,
  type Claims, type ServiceAccountTokenGetter, type SigningKey,
} from './index.js';

const pem = (k: KeyObject) => k.export({ type: 'pkcs8', format: 'pem' }) as string;
const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const main = rsa();
const other = rsa();
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const signing = signingKeyFromPem(pem(main.privateKey), 'main');
const wrongKey = signingKeyFromPem(pem(other.privateKey), 'other');
const ecKey = signingKeyFromPem(pem(ec.privateKey), 'ec');

const ISSUER = 'https://svc.default.svc.cluster.local';
const NOW = 1_800_000_000_000; // ms
const now = NOW / 1000;
const b64 = (s: string) => Buffer.from(s).toString('base64url');

const meta = (name: string, uid: string, extra: Record<string, unknown> = {}) => ({ name, namespace: 'ns', uid, ...extra });

interface World {
  sa?: ApiObject;
  pod?: ApiObject;
  secret?: ApiObject;
}
function getterFor(w: World): ServiceAccountTokenGetter {
  const find = (o: ApiObject | undefined, resource: string, name: string) => {
    if (!o || o.metadata.name !== name) return Promise.reject(newNotFound({ group: '', resource }, name));
    return Promise.resolve(o);
  };
  return { serviceAccount: (_n, name) => find(w.sa, 'serviceaccounts', name), pod: (_n, name) => find(w.pod, 'pods', name), secret: (_n, name) => find(w.secret, 'secrets', name) };
}

const SA: ApiObject = { metadata: meta('robot', 'sa-uid') };
const POD: ApiObject = { metadata: meta('web', 'pod-uid'), spec: { serviceAccountName: 'robot' } };
const SECRET: ApiObject = { metadata: meta('robot-token', 'secret-uid') };
const world = (w: World = {}): World => ({ sa: SA, pod: POD, secret: SECRET, ...w });

function tokens(opts: { lookup?: boolean; keys?: SigningKey[] } = {}) {
  return new ServiceAccountTokens({
    issuers: [ISSUER, 'https://old.example'], signingKey: signing, publicKeys: opts.keys ?? [signing, ecKey],
    apiAudiences: [ISSUER], maxExpirationSeconds: 0, extendExpiration: true, lookup: opts.lookup ?? true,
  });
}

const bound = (over: Partial<Parameters<typeof boundClaims>[0]> = {}, key: SigningKey = signing, issuer = ISSUER) =>
  new TokenGenerator(issuer, key).generate(boundClaims({ serviceAccount: SA, expirationSeconds: 3600, warnAfterSeconds: 0, audiences: [ISSUER], now, ...over }));
const withClaims = (edit: (c: Claims) => void) => {
  const c = boundClaims({ serviceAccount: SA, expirationSeconds: 3600, warnAfterSeconds: 0, audiences: [ISSUER], now });
  edit(c);
  return new TokenGenerator(ISSUER, signing).generate(c);
};
const legacy = (key: SigningKey = signing) => new TokenGenerator('kubernetes/serviceaccount', key).generate(legacyClaims(SA, SECRET));
const legacySecret = async (token: string, extra: Record<string, unknown> = {}): Promise<ApiObject> => ({ metadata: meta('robot-token', 'secret-uid', extra), data: { token: Buffer.from(token).toString('base64') } });

async function authenticate(token: string, w: World, opts: { lookup?: boolean; audiences?: string[]; keys?: SigningKey[] } = {}): Promise<AuthResult | Error> {
  const union = new TokenUnionAuthenticator(tokens(opts).authenticators(getterFor(w), () => NOW));
  try {
    const r = await union.authenticate({ headers: { authorization: `Bearer ${token}` }, ...(opts.audiences ? { audiences: opts.audiences } : {}) });
    return r ?? new Error('null');
  } catch (err) {
    if (err instanceof AuthenticationError) return err;
    throw err;
  }
}

type Want = { user: string; audiences?: string[]; extra?: Record<string, string[]>; uid?: string } | RegExp;
interface Case {
  readonly name: string;
  readonly token: () => Promise<string>;
  readonly world?: World | ((token: string) => Promise<World>);
  readonly lookup?: boolean;
  readonly audiences?: string[];
  readonly want: Want;
}

const USER = 'system:serviceaccount:ns:robot';
const deleting = (o: ApiObject, agoMs: number): ApiObject => ({ ...o, metadata: { ...o.metadata, deletionTimestamp: new Date(NOW - agoMs).toISOString() } });
const replaced = (o: ApiObject): ApiObject => ({ ...o, metadata: { ...o.metadata, uid: 'new-uid' } });

const cases: Case[] = [
  { name: 'a bound token', token: () => bound(), want: { user: USER, uid: 'sa-uid', audiences: [ISSUER] } },
  { name: 'a token of the second (accepted) issuer', token: () => bound({}, signing, 'https://old.example'), want: { user: USER } },
  { name: 'a token signed by the ECDSA key', token: () => bound({}, ecKey), want: { user: USER } },
  {
    name: 'a pod-bound token carries the pod in extra (kube and svc keys)', token: () => bound({ pod: POD }),
    want: { user: USER, extra: { 'authentication.kubernetes.io/pod-name': ['web'], 'authentication.svc.io/pod-name': ['web'], 'authentication.kubernetes.io/pod-uid': ['pod-uid'], 'authentication.svc.io/pod-uid': ['pod-uid'] } },
  },
  { name: 'expired', token: () => bound({ now: now - 3600 - 120 }), want: /^\[invalid bearer token, service account token has expired\]$/ },
  { name: 'expired less than the leeway ago', token: () => bound({ now: now - 3600 - 30 }), want: { user: USER } },
  { name: 'not yet valid', token: () => withClaims((c) => (c.nbf = now + 600)), want: /^\[invalid bearer token, service account token is not valid yet\]$/ },
  { name: 'issued in the future', token: () => withClaims((c) => (c.iat = now + 600)), want: /could not be validated/ },
  { name: 'exp of the wrong type', token: () => withClaims((c) => (c.exp = 'tomorrow')), want: /could not be validated/ },
  { name: 'another audience', token: () => bound({ audiences: ['https://vault.example'] }), want: /^\[invalid bearer token, token audiences \["https:\/\/vault.example"\] is invalid for the target audiences \["https:\/\/svc.default.svc.cluster.local"\]\]$/ },
  { name: 'another audience, asked for', token: () => bound({ audiences: ['https://vault.example', 'x'] }), audiences: ['https://vault.example'], want: { user: USER, audiences: ['https://vault.example'] } },
  { name: 'the API audience, when the request asks for others', token: () => bound(), audiences: ['https://vault.example'], want: /is invalid for the target audiences \["https:\/\/vault.example"\]/ },
  { name: 'an issuer we do not accept', token: () => bound({}, signing, 'https://evil.example'), want: /^invalid bearer token$/ },
  // every key is tried, as kube 1.27 does: the RSA key's signature check fails, the ECDSA key cannot verify RS256 (one flat aggregate)
  { name: 'signed by a key we do not know', token: () => bound({}, wrongKey), want: /^\[invalid bearer token, square\/go-jose: error in cryptographic primitive, square\/go-jose: unknown\/unsupported algorithm\]$/ },
  {
    name: 'alg none', want: /unsupported algorithm|invalid bearer token/,
    token: async () => `${b64('{"alg":"none"}')}.${b64(sortedJson({ ...boundClaims({ serviceAccount: SA, expirationSeconds: 3600, warnAfterSeconds: 0, audiences: [ISSUER], now }), iss: ISSUER }))}.`,
  },
  {
    name: 'HS256 signed with the public key as the secret', want: /unsupported algorithm|cryptographic primitive/,
    token: async () => {
      const head = b64(`{"alg":"HS256","kid":"${signing.kid}"}`);
      const body = b64(sortedJson({ ...boundClaims({ serviceAccount: SA, expirationSeconds: 3600, warnAfterSeconds: 0, audiences: [ISSUER], now }), iss: ISSUER }));
      const secret = signing.key.export({ type: 'spki', format: 'pem' });
      return `${head}.${body}.${createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url')}`;
    },
  },
  { name: 'truncated signature', token: async () => (await bound()).slice(0, -10), want: /cryptographic primitive|invalid bearer token/ },
  { name: 'two parts only', token: async () => (await bound()).split('.').slice(0, 2).join('.'), want: /^invalid bearer token$/ },
  { name: 'not base64', token: async () => 'a$b.c%d.e&f', want: /^invalid bearer token$/ },
  { name: 'JSON instead of a JWS', token: async () => '{"iss":"https://svc.default.svc.cluster.local"}', want: /^invalid bearer token$/ },
  { name: 'payload that is not JSON', token: async () => new CompactSign(Buffer.from('nope')).setProtectedHeader({ alg: 'RS256' }).sign(signing.privateKey), want: /^invalid bearer token$/ },
  { name: 'the service account is gone', token: () => bound(), world: world({ sa: undefined }), want: /^\[invalid bearer token, serviceaccounts "robot" not found\]$/ },
  { name: 'the service account was replaced', token: () => bound(), world: world({ sa: replaced(SA) }), want: /^\[invalid bearer token, service account UID \(new-uid\) does not match claim \(sa-uid\)\]$/ },
  { name: 'the service account is being deleted', token: () => bound(), world: world({ sa: deleting(SA, 120_000) }), want: /^\[invalid bearer token, service account ns\/robot has been deleted\]$/ },
  { name: 'the service account started deleting within the leeway', token: () => bound(), world: world({ sa: deleting(SA, 10_000) }), want: { user: USER } },
  { name: 'bound tokens are looked up even with --service-account-lookup=false', token: () => bound(), world: world({ sa: undefined }), lookup: false, want: /not found/ },
  { name: 'the bound pod is gone', token: () => bound({ pod: POD }), world: world({ pod: undefined }), want: /^\[invalid bearer token, service account token has been invalidated\]$/ },
  { name: 'the bound pod is being deleted', token: () => bound({ pod: POD }), world: world({ pod: deleting(POD, 120_000) }), want: /^\[invalid bearer token, service account token has been invalidated\]$/ },
  { name: 'the bound pod was replaced', token: () => bound({ pod: POD }), world: world({ pod: replaced(POD) }), want: /^\[invalid bearer token, pod UID \(new-uid\) does not match service account pod ref claim \(pod-uid\)\]$/ },
  { name: 'the bound secret is gone', token: () => bound({ secret: SECRET }), world: world({ secret: undefined }), want: /^\[invalid bearer token, service account token has been invalidated\]$/ },
  { name: 'the bound secret was replaced', token: () => bound({ secret: SECRET }), world: world({ secret: replaced(SECRET) }), want: /^\[invalid bearer token, secret UID \(new-uid\) does not match service account secret ref claim \(secret-uid\)\]$/ },
  { name: 'a legacy token in its Secret', token: () => legacy(), world: async (t) => world({ secret: await legacySecret(t) }), want: { user: USER, uid: 'sa-uid', audiences: [ISSUER] } },
  { name: 'a legacy token whose Secret is gone', token: () => legacy(), world: world({ secret: undefined }), want: /^\[invalid bearer token, Token has been invalidated\]$/ },
  { name: 'a legacy token whose Secret is gone, without lookup', token: () => legacy(), world: world({ secret: undefined, sa: undefined }), lookup: false, want: { user: USER } },
  { name: 'a legacy token whose Secret holds another token', token: () => legacy(), world: async () => world({ secret: await legacySecret('other') }), want: /^\[invalid bearer token, Token does not match server's copy\]$/ },
  { name: 'a legacy token whose Secret is being deleted', token: () => legacy(), world: async (t) => world({ secret: await legacySecret(t, { deletionTimestamp: new Date(NOW).toISOString() }) }), want: /^\[invalid bearer token, Token has been invalidated\]$/ },
  { name: 'a legacy token whose account was replaced', token: () => legacy(), world: async (t) => world({ secret: await legacySecret(t), sa: replaced(SA) }), want: /^\[invalid bearer token, ServiceAccount UID \(new-uid\) does not match claim \(sa-uid\)\]$/ },
  { name: 'a legacy token whose account was replaced, without lookup', token: () => legacy(), world: world({ sa: replaced(SA) }), lookup: false, want: { user: USER } },
  { name: 'a legacy token signed by an unknown key', token: () => legacy(wrongKey), world: async (t) => world({ secret: await legacySecret(t) }), want: /cryptographic primitive/ },
];

describe('service-account token authentication', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const token = await c.token();
      const w = typeof c.world === 'function' ? await c.world(token) : (c.world ?? world());
      const got = await authenticate(token, w, { lookup: c.lookup, audiences: c.audiences });
      if (c.want instanceof RegExp) {
        assert.ok(got instanceof AuthenticationError, `expected a 401, got ${JSON.stringify(got)}`);
        assert.match(got.message, c.want);
        return;
      }
      assert.ok(!(got instanceof Error), `expected a user, got ${String(got)}`);
      assert.equal(got.user.name, c.want.user);
      assert.deepEqual(got.user.groups, ['system:serviceaccounts', 'system:serviceaccounts:ns']);
      if (c.want.uid) assert.equal(got.user.uid, c.want.uid);
      if (c.want.audiences) assert.deepEqual(got.audiences, c.want.audiences);
      assert.deepEqual(got.user.extra, c.want.extra);
    });
  }

  it('claims are kube\'s: sorted keys, aud as a list, the kubernetes.io private claim, warnafter', async () => {
    const t = await bound({ pod: POD, warnAfterSeconds: 3607, expirationSeconds: 365 * 86400 });
    const [h, p] = t.split('.');
    assert.deepEqual(JSON.parse(Buffer.from(h!, 'base64url').toString()), { alg: 'RS256', kid: signing.kid });
    const text = Buffer.from(p!, 'base64url').toString();
    assert.deepEqual(Object.keys(JSON.parse(text)), ['aud', 'exp', 'iat', 'iss', 'kubernetes.io', 'nbf', 'sub']);
    assert.deepEqual(JSON.parse(text)['kubernetes.io'], { namespace: 'ns', pod: { name: 'web', uid: 'pod-uid' }, serviceaccount: { name: 'robot', uid: 'sa-uid' }, warnafter: now + 3607 });
    const legacyText = Buffer.from((await legacy()).split('.')[1]!, 'base64url').toString();
    assert.deepEqual(JSON.parse(legacyText), {
      iss: 'kubernetes/serviceaccount', 'kubernetes.io/serviceaccount/namespace': 'ns', 'kubernetes.io/serviceaccount/secret.name': 'robot-token',
      'kubernetes.io/serviceaccount/service-account.name': 'robot', 'kubernetes.io/serviceaccount/service-account.uid': 'sa-uid', sub: USER,
    });
  });

  it('reads every key of a PEM bundle (private, public, certificate-less junk tolerated) with kube\'s key ids', () => {
    const bundle = [pem(main.privateKey), '-----BEGIN JUNK-----\nAAAA\n-----END JUNK-----', ec.publicKey.export({ type: 'spki', format: 'pem' }) as string, main.privateKey.export({ type: 'pkcs1', format: 'pem' }) as string].join('\n');
    const keys = publicKeysFromPem(bundle, 'bundle');
    assert.deepEqual(keys.map((k) => k.alg), ['RS256', 'ES256', 'RS256']);
    assert.equal(keys[0]!.kid, signing.kid);
    assert.equal(keys[0]!.kid, keys[2]!.kid);
    assert.throws(() => publicKeysFromPem('nothing here', 'f'), /does not contain any valid RSA or ECDSA public keys/);
    assert.equal(createPrivateKey(pem(main.privateKey)).asymmetricKeyType, 'rsa');
  });
});
