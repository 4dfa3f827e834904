// The token authentication webhook against a real HTTPS server in this
// process that requires a client certificate (the API server's, named in a
// connection-credentials file): what is sent, what is accepted back, audiences,
// the TTL cache, and a webhook that is down, slow, failing or answering nonsense.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AuthenticationError, UnionAuthenticator } from './authenticator.js';
import { TokenWebhookAuthenticator, parseTokenReviewVersion, type TokenWebhookOptions } from './tokenwebhook.js';
import { loadConnectionFile } from '../webhook/connfile.js';
import { startTestWebhook, type TestWebhook, type WebhookHandler } from '../testing/webhookserver.js';

type Handler = WebhookHandler;

const user = { username: 'jane', uid: 'u-7', groups: ['dev'], extra: { 'scopes.example.com': ['read'] } };
const reply = (apiVersion: string, status: Record<string, unknown>): Handler => (_r, res) => res.end(JSON.stringify({ apiVersion, kind: 'TokenReview', status }));

describe('token authentication webhook', () => {
  let hook: TestWebhook;
  let handler: Handler = reply('authentication.k8s.io/v1beta1', { authenticated: true, user });
  const seen: TestWebhook['seen'] = [];
  const made: TokenWebhookAuthenticator[] = [];

  const connFile = (o: { withCert?: boolean; server?: string } = {}) => hook.connectionFile(o);
  const make = (o: Partial<TokenWebhookOptions> & { withCert?: boolean; server?: string } = {}) => {
    const w = new TokenWebhookAuthenticator({ connection: loadConnectionFile(connFile(o)), backoff: { initialMs: 10, factor: 1.5, jitter: 0.2, steps: 5 }, ...o });
    made.push(w);
    return w;
  };

  before(async () => {
    hook = await startTestWebhook({ path: '/authenticate', handle: (body, res) => handler(body, res), seen });
  });
  after(async () => {
    for (const w of made) w.close();
    await hook.close();
  });

  it('parses --authentication-token-webhook-version', () => {
    assert.equal(parseTokenReviewVersion('v1'), 'v1');
    assert.equal(parseTokenReviewVersion('authentication.k8s.io/v1beta1'), 'v1beta1');
    assert.equal(parseTokenReviewVersion('authentication.svc.io/v1'), 'v1');
    assert.throws(() => parseTokenReviewVersion('v2'), /unsupported/);
  });

  it('sends a v1beta1 TokenReview in kube\'s spelling with the client certificate, and takes the user it answers', async () => {
    handler = reply('authentication.k8s.io/v1beta1', { authenticated: true, user });
    seen.length = 0;
    const w = make();
    assert.deepEqual(await w.authenticateToken('tok-1'), { user: { name: 'jane', uid: 'u-7', groups: ['dev'], extra: { 'scopes.example.com': ['read'] } } });
    assert.deepEqual(seen[0]!.body, { kind: 'TokenReview', apiVersion: 'authentication.k8s.io/v1beta1', metadata: { creationTimestamp: null }, spec: { token: 'tok-1' }, status: { user: {} } });
    assert.equal(seen[0]!.clientCN, 'admin');
  });

  it('sends v1 when configured, and accepts the svc.io spelling back', async () => {
    handler = reply('authentication.svc.io/v1', { authenticated: true, user: { username: 'joe' } });
    seen.length = 0;
    const w = make({ version: 'v1' });
    assert.deepEqual(await w.authenticateToken('tok-v1'), { user: { name: 'joe', groups: [] } });
    assert.equal(seen[0]!.body.apiVersion, 'authentication.k8s.io/v1');
  });

  // A bad answer is a failure of that token, never a user.
  const invalid: [string, Handler, RegExp][] = [
    ['another version', reply('authentication.k8s.io/v1', { authenticated: true, user }), /apiVersion "authentication.k8s.io\/v1"/],
    ['another kind', (_r, res) => res.end(JSON.stringify({ apiVersion: 'authentication.k8s.io/v1beta1', kind: 'Status', status: { authenticated: true, user } })), /kind "Status"/],
    ['not JSON', (_r, res) => res.end('<html>'), /failed/],
    ['groups ill-typed', reply('authentication.k8s.io/v1beta1', { authenticated: true, user: { username: 'x', groups: 'dev' } }), /groups is not a list of strings/],
    ['extra ill-typed', reply('authentication.k8s.io/v1beta1', { authenticated: true, user: { username: 'x', extra: { a: 'b' } } }), /extra\["a"\]/],
    ['authenticated without a username', reply('authentication.k8s.io/v1beta1', { authenticated: true, user: {} }), /username is empty/],
    ['authenticated as a string', reply('authentication.k8s.io/v1beta1', { authenticated: 'true', user }), /authenticated is not a boolean/],
    ['401 from the webhook', (_r, res) => ((res.statusCode = 401), res.end('{}')), /answered 401/],
    ['a denial with an error', reply('authentication.k8s.io/v1beta1', { authenticated: false, error: 'token revoked' }), /^token revoked$/],
  ];
  for (const [name, h, want] of invalid) {
    it(`fails the token on ${name}`, async () => {
      handler = h;
      const w = make();
      await assert.rejects(w.authenticateToken(`tok-${name}`), (e: unknown) => e instanceof AuthenticationError && want.test(e.message));
      const union = new UnionAuthenticator([w], { anonymous: true });
      await assert.rejects(union.authenticate({ headers: { authorization: `Bearer tok2-${name.replace(/\W/g, '-')}` } }), AuthenticationError);
    });
  }

  it('a denial without an error is kube\'s generic "invalid bearer token", and is cached', async () => {
    handler = reply('authentication.k8s.io/v1beta1', { authenticated: false });
    const w = make();
    assert.equal(await w.authenticateToken('denied'), null);
    const union = new UnionAuthenticator([w], { anonymous: true });
    await assert.rejects(union.authenticate({ headers: { authorization: 'Bearer denied' } }), /^AuthenticationError: invalid bearer token$|invalid bearer token/);
    assert.equal(w.calls, 1, 'the second check came from the cache');
  });

  it('caches decisions for the TTL, keyed by token and audiences; errors are not cached', async () => {
    let clock = 1_000_000;
    handler = reply('authentication.k8s.io/v1beta1', { authenticated: true, user });
    const w = make({ cacheTtlMs: 120_000, now: () => clock });
    await w.authenticateToken('c1');
    await w.authenticateToken('c1');
    await Promise.all([w.authenticateToken('c2'), w.authenticateToken('c2')]);
    assert.equal(w.calls, 2);
    await w.authenticateToken('c1', ['api']);
    assert.equal(w.calls, 3, 'other audiences, another entry');
    clock += 120_001;
    await w.authenticateToken('c1');
    assert.equal(w.calls, 4, 'expired');
    handler = reply('authentication.k8s.io/v1beta1', { authenticated: false, error: 'nope' });
    await assert.rejects(w.authenticateToken('e1'));
    await assert.rejects(w.authenticateToken('e1'));
    assert.equal(w.calls, 6);
    const none = make({ cacheTtlMs: 0 });
    handler = reply('authentication.k8s.io/v1beta1', { authenticated: true, user });
    await none.authenticateToken('z');
    await none.authenticateToken('z');
    assert.equal(none.calls, 2);
  });

  it('asks for the request\'s audiences and answers with the intersection', async () => {
    seen.length = 0;
    handler = reply('authentication.k8s.io/v1beta1', { authenticated: true, user, audiences: ['a', 'b'] });
    const w = make({ apiAudiences: ['api'] });
    assert.deepEqual((await w.authenticateToken('aud1', ['b', 'c']))?.audiences, ['b']);
    assert.deepEqual(seen[0]!.body.spec.audiences, ['b', 'c']);
    assert.equal(await w.authenticateToken('aud2', ['c']), null, 'no audience in common');
    handler = reply('authentication.k8s.io/v1beta1', { authenticated: true, user });
    assert.deepEqual((await w.authenticateToken('aud3', ['api', 'x']))?.audiences, ['api'], 'none answered: the API server\'s');
    assert.equal(await w.authenticateToken('aud4', ['x']), null);
    assert.equal((await w.authenticateToken('aud5'))?.audiences, undefined);
  });

  it('retries 500s with backoff, then fails; a refused connection fails at once', async () => {
    let n = 0;
    handler = (_r, res) => {
      n++;
      res.statusCode = 500;
      res.end('{}');
    };
    const w = make();
    await assert.rejects(w.authenticateToken('r1'), /answered 500/);
    assert.equal(n, 5, 'kube\'s five attempts');
    handler = (_r, res) => {
      n++;
      if (n < 8) return void ((res.statusCode = 429), res.end('{}'));
      reply('authentication.k8s.io/v1beta1', { authenticated: true, user })(_r, res);
    };
    assert.equal((await w.authenticateToken('r2'))?.user.name, 'jane');
    const down = make({ server: 'https://localhost:1/authenticate' });
    await assert.rejects(down.authenticateToken('r3'), /ECONNREFUSED|connect/);
  });

  it('fails a slow webhook at the deadline', async () => {
    handler = (_r, res) => setTimeout(() => reply('authentication.k8s.io/v1beta1', { authenticated: true, user })(_r, res), 1000);
    const w = make({ timeoutMs: 200 });
    const t0 = Date.now();
    await assert.rejects(w.authenticateToken('slow'), /no answer within 200 ms/);
    assert.ok(Date.now() - t0 < 900);
  });

  it('cannot connect without the client certificate the webhook requires', async () => {
    handler = reply('authentication.k8s.io/v1beta1', { authenticated: true, user });
    const w = make({ withCert: false });
    await assert.rejects(w.authenticateToken('nocert'), AuthenticationError);
  });
});
