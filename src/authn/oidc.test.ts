// OIDC ID tokens: the security table (every way a token can be wrong gets an
// AuthenticationError or is left to other authenticators — never a user),
// claims and prefixes, start-up while the provider is down, and key rotation.
// Tokens for the table are signed here with jose and checked against keys an
// HTTPS issuer in this process publishes (discovery + JWKS); the real provider
// (oidc-provider, src/testing/oidcprovider.ts) issues the tokens of the last tests.
import assert from 'node:assert/strict';
import https from 'node:https';
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SignJWT, exportJWK, exportSPKI, generateKeyPair, base64url, type CryptoKey, type JWK } from 'jose';
import { AuthenticationError, UnionAuthenticator } from './authenticator.js';
import { OidcAuthenticator, untrustedIssuer, usernamePrefix, validateOidcOptions, type OidcOptions } from './oidc.js';
import { ensurePki } from '../server/pki.js';
import { tempDir } from '../testing/tempdir.js';
import { startOidcProvider, type OidcProviderFixture } from '../testing/oidcprovider.js';

const CLIENT = 'svc-cluster';

interface Issuer {
  url: string;
  ca: string;
  serving: { cert: string; key: string };
  jwks: JWK[];
  requests: string[];
  close(): Promise<void>;
}

/** An HTTPS issuer publishing discovery and a JWKS; `again` restarts a closed one on its port with its certificate. */
async function startIssuer(jwks: JWK[], again?: Issuer): Promise<Issuer> {
  const pki = again ? { ca: { cert: again.ca }, serving: again.serving } : await ensurePki({ dataDir: tempDir('svc-oidc-test-') });
  const issuer: Issuer = { url: again?.url ?? '', ca: pki.ca.cert, serving: pki.serving, jwks, requests: [], close: async () => undefined };
  const server = https.createServer({ cert: pki.serving.cert, key: pki.serving.key }, (req, res) => {
    issuer.requests.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') res.end(JSON.stringify({ issuer: issuer.url, jwks_uri: `${issuer.url}/keys` }));
    else if (req.url === '/keys') res.end(JSON.stringify({ keys: issuer.jwks }));
    else (res.statusCode = 404), res.end('{}');
  });
  await new Promise<void>((r) => server.listen(again ? Number(new URL(again.url).port) : 0, '127.0.0.1', r));
  issuer.url = `https://localhost:${(server.address() as AddressInfo).port}`;
  issuer.close = () => new Promise((r) => server.close(() => r()));
  return issuer;
}

async function rsaKey(kid: string, alg = 'RS256'): Promise<{ priv: CryptoKey; pub: CryptoKey; jwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { priv: privateKey, pub: publicKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

const now = () => Math.floor(Date.now() / 1000);

describe('OIDC authenticator', () => {
  let issuer: Issuer;
  let k1: Awaited<ReturnType<typeof rsaKey>>;
  let other: Awaited<ReturnType<typeof rsaKey>>;
  let es: Awaited<ReturnType<typeof rsaKey>>;
  let rs384: Awaited<ReturnType<typeof rsaKey>>;
  const authenticators: OidcAuthenticator[] = [];
  const make = async (o: Partial<OidcOptions> = {}) => {
    const a = new OidcAuthenticator({ issuerURL: issuer.url, clientID: CLIENT, ca: issuer.ca, groupsClaim: 'groups', refreshCooldownMs: 60_000, ...o });
    authenticators.push(a);
    await a.ready();
    return a;
  };
  const sign = (claims: Record<string, unknown>, o: { key?: CryptoKey; kid?: string; alg?: string } = {}) =>
    new SignJWT({ iss: issuer.url, aud: CLIENT, sub: 'alice', exp: now() + 300, iat: now(), ...claims })
      .setProtectedHeader({ alg: o.alg ?? 'RS256', kid: o.kid ?? 'k1' })
      .sign(o.key ?? k1.priv);

  before(async () => {
    k1 = await rsaKey('k1');
    other = await rsaKey('k1'); // same kid, another key
    es = await rsaKey('es1', 'ES256');
    rs384 = await rsaKey('k384', 'RS384');
    issuer = await startIssuer([k1.jwk, es.jwk, rs384.jwk]);
  });
  after(async () => {
    for (const a of authenticators) a.close();
    await issuer.close();
  });

  it('checks its options as kube-apiserver does', () => {
    assert.deepEqual(validateOidcOptions({ issuerURL: 'https://x', clientID: 'c' }), []);
    assert.match(validateOidcOptions({ issuerURL: 'http://x', clientID: 'c' }).join(), /https scheme/);
    assert.match(validateOidcOptions({ issuerURL: 'https://x', clientID: '' }).join(), /client-id/);
    assert.match(validateOidcOptions({ issuerURL: 'https://x', clientID: 'c', signingAlgs: ['HS256'] }).join(), /unsupported signing alg: "HS256"/);
    assert.match(validateOidcOptions({ issuerURL: 'https://x', clientID: 'c', signingAlgs: ['none'] }).join(), /unsupported signing alg/);
  });

  it('derives the username prefix as kube does', () => {
    assert.equal(usernamePrefix('https://i', 'sub', undefined), 'https://i#');
    assert.equal(usernamePrefix('https://i', 'email', undefined), '');
    assert.equal(usernamePrefix('https://i', 'sub', '-'), '');
    assert.equal(usernamePrefix('https://i', 'email', 'oidc:'), 'oidc:');
  });

  it('reads the unverified issuer only from a compact JWT', () => {
    const p = (o: unknown) => base64url.encode(JSON.stringify(o));
    assert.equal(untrustedIssuer(`a.${p({ iss: 'https://i' })}.c`), 'https://i');
    assert.equal(untrustedIssuer(`a.${p({ iss: 'accounts.google.com' })}.c`), 'https://accounts.google.com');
    assert.equal(untrustedIssuer(`a.${p({ iss: 'https://i' })}`), undefined);
    assert.equal(untrustedIssuer(`{"iss":"https://i"}`), undefined);
    assert.equal(untrustedIssuer('a.!!!.c'), undefined);
    assert.equal(untrustedIssuer(`a.${p([1])}.c`), undefined);
    assert.equal(untrustedIssuer(`a.${p({ iss: 7 })}.c`), undefined);
  });

  // [name, token maker, options, expected: user name + groups | RegExp (AuthenticationError) | null (not ours)]
  type Want = { name: string; groups: string[] } | RegExp | null;
  const table: [string, () => Promise<string>, Partial<OidcOptions>, Want][] = [
    ['valid', () => sign({ groups: ['dev', 'ops'] }), {}, { name: `ISSUER#alice`, groups: ['dev', 'ops'] }],
    ['groups as one string', () => sign({ groups: 'dev' }), {}, { name: 'ISSUER#alice', groups: ['dev'] }],
    ['groups null', () => sign({ groups: null }), {}, { name: 'ISSUER#alice', groups: [] }],
    ['groups ill-typed', () => sign({ groups: [1, 2] }), {}, /parse groups claim "groups"/],
    ['groups prefixed', () => sign({ groups: ['dev'] }), { groupsPrefix: 'oidc:' }, { name: 'ISSUER#alice', groups: ['oidc:dev'] }],
    ['username prefix -', () => sign({}), { usernamePrefix: '-' }, { name: 'alice', groups: [] }],
    ['username prefix given', () => sign({}), { usernamePrefix: 'oidc:' }, { name: 'oidc:alice', groups: [] }],
    ['email claim: no prefix', () => sign({ email: 'a@x.io', email_verified: true }), { usernameClaim: 'email' }, { name: 'a@x.io', groups: [] }],
    ['email claim without email_verified', () => sign({ email: 'a@x.io' }), { usernameClaim: 'email' }, { name: 'a@x.io', groups: [] }],
    ['email not verified', () => sign({ email: 'a@x.io', email_verified: false }), { usernameClaim: 'email' }, /email not verified/],
    ['email_verified ill-typed', () => sign({ email: 'a@x.io', email_verified: 'true' }), { usernameClaim: 'email' }, /parse 'email_verified' claim/],
    ['username claim missing', () => sign({}), { usernameClaim: 'preferred_username' }, /parse username claims "preferred_username": claim not present/],
    ['username claim ill-typed', () => sign({ name: 42 }), { usernameClaim: 'name' }, /parse username claims "name": not a string/],
    ['sub ill-typed', () => sign({ sub: 7 }), {}, /failed to unmarshal claims/],
    ['expired', () => sign({ exp: now() - 1 }), {}, /token is expired/],
    ['no exp', () => sign({ exp: undefined }), {}, /token is expired/],
    ['exp ill-typed', () => sign({ exp: 'tomorrow' }), {}, /claim exp is not a number/],
    ['not yet valid (nbf beyond the minute of leeway)', () => sign({ nbf: now() + 120 }), {}, /before the nbf/],
    ['nbf within the leeway', () => sign({ nbf: now() + 30 }), {}, { name: 'ISSUER#alice', groups: [] }],
    ['wrong audience', () => sign({ aud: 'someone-else' }), {}, /expected audience "svc-cluster" got \["someone-else"\]/],
    ['several audiences, ours among them', () => sign({ aud: ['x', CLIENT] }), {}, { name: 'ISSUER#alice', groups: [] }],
    ['several audiences, azp another client', () => sign({ aud: ['x', CLIENT], azp: 'x' }), {}, /authorized party "x"/],
    ['several audiences, azp ours', () => sign({ aud: ['x', CLIENT], azp: CLIENT }), {}, { name: 'ISSUER#alice', groups: [] }],
    ['aud ill-typed', () => sign({ aud: 5 }), {}, /claim aud/],
    ['another issuer: not ours', () => sign({ iss: 'https://evil.example' }), {}, null],
    ['wrong key, same kid', () => sign({}, { key: other.priv }), {}, /failed to verify signature/],
    ['unknown kid', () => sign({}, { key: other.priv, kid: 'nope' }), {}, /failed to verify signature/],
    ['ES256 not allowed by default', () => sign({}, { key: es.priv, kid: 'es1', alg: 'ES256' }), {}, /failed to verify signature/],
    ['ES256 allowed', () => sign({}, { key: es.priv, kid: 'es1', alg: 'ES256' }), { signingAlgs: ['ES256'] }, { name: 'ISSUER#alice', groups: [] }],
    ['RS384 not in the list', () => sign({}, { key: rs384.priv, kid: 'k384', alg: 'RS384' }), {}, /failed to verify signature/],
    ['alg none', async () => `${base64url.encode(JSON.stringify({ alg: 'none', kid: 'k1' }))}.${base64url.encode(JSON.stringify({ iss: issuer.url, aud: CLIENT, sub: 'alice', exp: now() + 300 }))}.`, {}, /failed to verify signature/],
    ['HS256 signed with the public key', async () => {
      const head = base64url.encode(JSON.stringify({ alg: 'HS256', kid: 'k1' }));
      const body = base64url.encode(JSON.stringify({ iss: issuer.url, aud: CLIENT, sub: 'alice', exp: now() + 300 }));
      const secret = await exportSPKI(k1.pub);
      return `${head}.${body}.${createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url')}`;
    }, { signingAlgs: ['RS256', 'ES256'] }, /failed to verify signature/],
    ['truncated signature', async () => (await sign({})).slice(0, -10), {}, /failed to verify signature/],
    ['signature removed', async () => (await sign({})).replace(/\.[^.]+$/, '.'), {}, /failed to verify signature/],
    ['two parts: not ours', async () => (await sign({})).split('.').slice(0, 2).join('.'), {}, null],
    ['four parts: not ours', async () => `${await sign({})}.x`, {}, null],
    ['garbage header', async () => `!!!.${(await sign({})).split('.')[1]}.sig`, {}, /failed to verify signature/],
    ['header not JSON', async () => `${base64url.encode('nope')}.${(await sign({})).split('.')[1]}.sig`, {}, /failed to verify signature/],
    ['required claim present', () => sign({ hd: 'example.com' }), { requiredClaims: { hd: 'example.com' } }, { name: 'ISSUER#alice', groups: [] }],
    ['required claim missing', () => sign({}), { requiredClaims: { hd: 'example.com' } }, /required claim hd not present in ID token/],
    ['required claim mismatch', () => sign({ hd: 'evil.com' }), { requiredClaims: { hd: 'example.com' } }, /required claim hd value does not match/],
    ['required claim ill-typed', () => sign({ hd: ['example.com'] }), { requiredClaims: { hd: 'example.com' } }, /parse claim hd/],
  ];
  for (const [name, make_, o, want] of table) {
    it(name, async () => {
      const a = await make(o);
      const token = await make_();
      const union = new UnionAuthenticator([a], { anonymous: true });
      if (want === null) {
        assert.equal(await a.authenticateToken(token), null);
        await assert.rejects(union.authenticate({ headers: { authorization: `Bearer ${token}` } }), /invalid bearer token/, 'a token nobody takes is 401, not anonymous');
      } else if (want instanceof RegExp) {
        await assert.rejects(a.authenticateToken(token), (e: unknown) => e instanceof AuthenticationError && want.test(e.message));
        // The node:crypto path and jose's compactVerify agree on the signature.
        const settle = (p: Promise<unknown>) => p.then(() => 'ok', (e: Error) => e.constructor.name);
        assert.equal(await settle(a.keys.verify(token)), await settle(a.keys.verify(token, { joseOnly: true })));
        await assert.rejects(union.authenticate({ headers: { authorization: `Bearer ${token}` } }), AuthenticationError);
      } else {
        const r = await a.authenticateToken(token);
        assert.deepEqual(r, { user: { name: want.name.replace('ISSUER', issuer.url), groups: want.groups } });
      }
    });
  }

  it('verifies PS256, PS512, ES384 and ES512 signatures on node:crypto as jose does', async () => {
    const keys = await Promise.all([rsaKey('ps256', 'PS256'), rsaKey('ps512', 'PS512'), rsaKey('es384', 'ES384'), rsaKey('es512', 'ES512')]);
    issuer.jwks = [...issuer.jwks, ...keys.map((k) => k.jwk)];
    try {
      const a = await make({ signingAlgs: ['PS256', 'PS512', 'ES384', 'ES512'] });
      for (const k of keys) {
        const token = await sign({}, { key: k.priv, kid: k.jwk.kid!, alg: k.jwk.alg! });
        const synced = a.keys.syncVerified;
        assert.equal((await a.authenticateToken(token))?.user.name, `${issuer.url}#alice`, k.jwk.alg);
        assert.equal(a.keys.syncVerified, synced + 1, `${k.jwk.alg} on node:crypto`);
        assert.equal(Buffer.from(await a.keys.verify(token)).toString(), Buffer.from(await a.keys.verify(token, { joseOnly: true })).toString());
        const tampered = token.replace(/\.([^.]+)\.([^.]+)$/, (_m, p: string, sig: string) => `.${p}.${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BA' : 'AA'}`);
        await assert.rejects(a.authenticateToken(tampered), /failed to verify signature/, k.jwk.alg);
      }
    } finally {
      issuer.jwks = issuer.jwks.filter((k) => !keys.some((x) => x.jwk.kid === k.kid));
    }
  });

  it('answers requests that name audiences with the API server audiences they share', async () => {
    const a = await make({ apiAudiences: ['https://svc.example', 'api'] });
    const token = await sign({});
    assert.deepEqual((await a.authenticateToken(token, ['api', 'other']))?.audiences, ['api']);
    assert.equal((await a.authenticateToken(token))?.audiences, undefined);
    assert.equal(await a.authenticateToken(token, ['other']), null, 'not for those audiences: not authenticated, no error');
  });

  it('fetches the keys once, not per request', async () => {
    const a = await make();
    const before = issuer.requests.length;
    for (let i = 0; i < 20; i++) await a.authenticateToken(await sign({}));
    assert.equal(issuer.requests.length, before);
  });

  it('fetches the key set again for an unknown key, at most once per cooldown', async () => {
    const a = await make({ refreshCooldownMs: 0 });
    const k2 = await rsaKey('k2');
    const t2 = await sign({}, { key: k2.priv, kid: 'k2' });
    await assert.rejects(a.authenticateToken(t2), /failed to verify signature/);
    issuer.jwks = [k2.jwk, ...issuer.jwks];
    try {
      assert.equal((await a.authenticateToken(t2))?.user.name, `${issuer.url}#alice`);
      const limited = await make({ refreshCooldownMs: 60_000 });
      const k3 = await rsaKey('k3');
      issuer.jwks = [k3.jwk, ...issuer.jwks];
      const fetches = limited.keys.fetches;
      await assert.rejects(limited.authenticateToken(await sign({}, { key: k3.priv, kid: 'k3' })), /failed to verify signature/);
      assert.equal(limited.keys.fetches, fetches, 'within the cooldown: no refetch');
    } finally {
      issuer.jwks = issuer.jwks.filter((k) => k.kid !== 'k2' && k.kid !== 'k3');
    }
  });

  it('starts while the provider is down and serves tokens once it is up', async () => {
    const k = await rsaKey('late');
    const late = await startIssuer([k.jwk]);
    const url = late.url;
    await late.close();
    const a = new OidcAuthenticator({ issuerURL: url, clientID: CLIENT, ca: late.ca, initRetryMs: 100 });
    authenticators.push(a);
    const token = await new SignJWT({ iss: url, aud: CLIENT, sub: 'bob', exp: now() + 60 }).setProtectedHeader({ alg: 'RS256', kid: 'late' }).sign(k.priv);
    await assert.rejects(a.authenticateToken(token), /oidc: authenticator not initialized/);
    const back = await startIssuer([k.jwk], late); // the same port and certificate, now answering
    try {
      await a.ready();
      assert.equal((await a.authenticateToken(token))?.user.name, `${url}#bob`);
    } finally {
      await back.close();
    }
  });

  it('refuses a provider whose discovery document names another issuer', async () => {
    const k = await rsaKey('x');
    const liar = await startIssuer([k.jwk]);
    const a = new OidcAuthenticator({ issuerURL: `${liar.url}/`, clientID: CLIENT, ca: liar.ca, initRetryMs: 50 });
    authenticators.push(a);
    await new Promise((r) => setTimeout(r, 200));
    assert.match(a.lastInitError?.message ?? '', /issuer did not match the issuer returned by provider/);
    a.close();
    await liar.close();
  });

  it('refuses a provider whose certificate the CA did not sign', async () => {
    const k = await rsaKey('x');
    const stranger = await startIssuer([k.jwk]);
    const otherCa = (await ensurePki({ dataDir: tempDir('svc-oidc-ca-') })).ca.cert;
    const a = new OidcAuthenticator({ issuerURL: stranger.url, clientID: CLIENT, ca: otherCa, initRetryMs: 50 });
    authenticators.push(a);
    await new Promise((r) => setTimeout(r, 200));
    assert.match(a.lastInitError?.message ?? '', /self[- ]signed|unable to verify|certificate/i);
    a.close();
    await stranger.close();
  });
});

describe('OIDC with a real OpenID provider (oidc-provider over TLS)', () => {
  let provider: OidcProviderFixture;
  let a: OidcAuthenticator;
  before(async () => {
    provider = await startOidcProvider();
    a = new OidcAuthenticator({ issuerURL: provider.issuer, clientID: CLIENT, ca: provider.ca, groupsClaim: 'groups', usernameClaim: 'email', refreshCooldownMs: 0 });
    await a.ready();
  });
  after(async () => {
    a?.close();
    await provider?.stop();
  });

  it('accepts the ID tokens it issues', async () => {
    const token = await provider.token('alice', { email: 'alice@example.com', email_verified: true, groups: ['dev'] });
    assert.deepEqual(await a.authenticateToken(token), { user: { name: 'alice@example.com', groups: ['dev'] } });
  });

  it('rejects its expired tokens and tokens for another client', async () => {
    const short = await provider.token('alice', { email: 'alice@example.com' }, { expiresIn: 1 });
    await new Promise((r) => setTimeout(r, 2100));
    await assert.rejects(a.authenticateToken(short), /token is expired/);
    const other = new OidcAuthenticator({ issuerURL: provider.issuer, clientID: 'another-client', ca: provider.ca });
    try {
      await other.ready();
      await assert.rejects(other.authenticateToken(await provider.token('alice', { email: 'a@x' })), /expected audience "another-client"/);
    } finally {
      other.close();
    }
  });

  it('follows a key rotation: a token signed with the new key makes one refetch', async () => {
    const old = await provider.token('alice', { email: 'alice@example.com' });
    const fetches = a.keys.fetches;
    await provider.rotate();
    const fresh = await provider.token('bob', { email: 'bob@example.com' });
    assert.equal((await a.authenticateToken(fresh))?.user.name, 'bob@example.com');
    assert.equal(a.keys.fetches, fetches + 1);
    assert.equal((await a.authenticateToken(old))?.user.name, 'alice@example.com', 'the old key is still published');
    // A key the provider stops publishing still verifies until the set is fetched again (go-oidc
    // keeps its cached keys too); the next unknown key brings the new set, without it.
    await provider.rotate({ dropOld: true });
    assert.equal((await a.authenticateToken(old))?.user.name, 'alice@example.com');
    assert.equal((await a.authenticateToken(await provider.token('carol', { email: 'carol@example.com' })))?.user.name, 'carol@example.com');
    await assert.rejects(a.authenticateToken(old), /failed to verify signature/);
  });
});
