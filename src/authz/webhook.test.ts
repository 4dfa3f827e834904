// The authorization webhook against a real HTTPS server in this process that
// requires a client certificate (named in a connection-credentials file): what
// is sent in v1beta1 and v1, how answers decide, the two-TTL cache, and a
// webhook that is down, failing or answering nonsense (no opinion + error).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { UnionAuthorizer, alwaysAllow, type Attributes, type Authorizer } from './authorizer.js';
import { WebhookAuthorizer, parseSubjectAccessReviewVersion, WEBHOOK_RULES_ERROR, type WebhookAuthorizerOptions } from './webhook.js';
import { startTestWebhook, type TestWebhook, type WebhookHandler } from '../testing/webhookserver.js';

type Handler = WebhookHandler;

const reply = (apiVersion: string, status: Record<string, unknown>): Handler => (_r, res) => res.end(JSON.stringify({ apiVersion, kind: 'SubjectAccessReview', status }));
const allow = reply('authorization.k8s.io/v1beta1', { allowed: true, reason: 'ok by hook' });

const jane = { name: 'jane', uid: 'u-7', groups: ['dev', 'system:authenticated'], extra: { 'scopes.example.com': ['read'] } };
const getPod: Attributes = {
  user: jane, verb: 'get', isResourceRequest: true, path: '/api/v1/namespaces/ns1/pods/p/log',
  apiGroup: '', apiVersion: 'v1', namespace: 'ns1', resource: 'pods', subresource: 'log', name: 'p',
};
const getHealthz: Attributes = { user: { name: 'bob', groups: [] }, verb: 'get', isResourceRequest: false, path: '/healthz' };

describe('authorization webhook', () => {
  let hook: TestWebhook;
  let handler: Handler = allow;
  const seen: TestWebhook['seen'] = [];
  const made: WebhookAuthorizer[] = [];

  const connFile = (o: { withCert?: boolean; server?: string } = {}) => hook.connectionFile(o);
  const make = (o: Partial<Omit<WebhookAuthorizerOptions, 'connection'>> & { withCert?: boolean; server?: string } = {}) => {
    const w = WebhookAuthorizer.fromConfigFile(connFile(o), { backoff: { initialMs: 10, factor: 1.5, jitter: 0.2, steps: 5 }, ...o });
    made.push(w);
    return w;
  };

  before(async () => {
    hook = await startTestWebhook({ path: '/authorize', handle: (body, res) => handler(body, res), seen });
  });
  after(async () => {
    for (const w of made) w.close();
    await hook.close();
  });

  it('parses --authorization-webhook-version with kube\'s error text', () => {
    assert.equal(parseSubjectAccessReviewVersion('v1'), 'v1');
    assert.equal(parseSubjectAccessReviewVersion('v1beta1'), 'v1beta1');
    assert.throws(() => parseSubjectAccessReviewVersion('v2'), { message: 'unsupported webhook authorizer version "v2", supported versions are "v1", "v1beta1"' });
  });

  it('sends a v1beta1 review (groups spelled `group`, empty fields left out) with the client certificate', async () => {
    handler = allow;
    seen.length = 0;
    const w = make();
    assert.deepEqual(await w.authorize(getPod), { decision: 'allow', reason: 'ok by hook' });
    assert.deepEqual(seen[0]!.body, {
      kind: 'SubjectAccessReview', apiVersion: 'authorization.k8s.io/v1beta1', metadata: { creationTimestamp: null },
      spec: {
        resourceAttributes: { namespace: 'ns1', verb: 'get', version: 'v1', resource: 'pods', subresource: 'log', name: 'p' },
        user: 'jane', group: ['dev', 'system:authenticated'], extra: { 'scopes.example.com': ['read'] }, uid: 'u-7',
      },
      status: { allowed: false },
    });
    assert.equal(seen[0]!.clientCN, 'admin');
  });

  it('sends v1 when configured (`groups`), non-resource attributes, and accepts the svc.io spelling back', async () => {
    handler = reply('authorization.svc.io/v1', { allowed: true });
    seen.length = 0;
    const w = make({ version: 'v1' });
    assert.deepEqual(await w.authorize({ ...getPod, user: { name: 'joe', groups: ['g'] } }), { decision: 'allow', reason: '' });
    assert.equal(seen[0]!.body.apiVersion, 'authorization.k8s.io/v1');
    assert.deepEqual(seen[0]!.body.spec.groups, ['g']);
    assert.equal(seen[0]!.body.spec.group, undefined);
    await w.authorize(getHealthz);
    assert.deepEqual(seen[1]!.body.spec, { nonResourceAttributes: { path: '/healthz', verb: 'get' }, user: 'bob' });
  });

  // How the answer's status decides.
  const decisions: [string, Record<string, unknown>, Awaited<ReturnType<Authorizer['authorize']>>][] = [
    ['allowed', { allowed: true, reason: 'r' }, { decision: 'allow', reason: 'r' }],
    ['denied', { allowed: false, denied: true, reason: 'no way' }, { decision: 'deny', reason: 'no way' }],
    ['neither', { allowed: false, reason: 'not mine' }, { decision: 'noOpinion', reason: 'not mine' }],
    ['an empty status', {}, { decision: 'noOpinion', reason: '' }],
    ['both', { allowed: true, denied: true, reason: 'confused' }, { decision: 'deny', reason: 'confused', error: 'webhook subject access review returned both allow and deny response' }],
  ];
  for (const [name, status, want] of decisions) {
    it(`decides on ${name}`, async () => {
      handler = reply('authorization.k8s.io/v1beta1', status);
      assert.deepEqual(await make().authorize(getPod), want);
    });
  }

  // A bad answer or a failed call: no opinion, with the error.
  const failures: [string, Handler, RegExp][] = [
    ['another version', reply('authorization.k8s.io/v1', { allowed: true }), /invalid SubjectAccessReview: apiVersion "authorization.k8s.io\/v1", sent authorization.k8s.io\/v1beta1/],
    ['another kind', (_r, res) => res.end(JSON.stringify({ apiVersion: 'authorization.k8s.io/v1beta1', kind: 'Status', status: { allowed: true } })), /kind "Status"/],
    ['not JSON', (_r, res) => res.end('<html>'), /calling the authorization webhook failed/],
    ['allowed as a string', reply('authorization.k8s.io/v1beta1', { allowed: 'true' }), /status.allowed is not a boolean/],
    ['403 from the webhook', (_r, res) => ((res.statusCode = 403), res.end('{}')), /answered 403/],
  ];
  for (const [name, h, want] of failures) {
    it(`has no opinion, with the error, on ${name}`, async () => {
      handler = h;
      const d = await make().authorize(getPod);
      assert.equal(d.decision, 'noOpinion');
      assert.match(d.error ?? '', want);
    });
  }

  it('a failing webhook lets the chain go on; with nothing after it, the union carries the error', async () => {
    handler = (_r, res) => ((res.statusCode = 403), res.end('{}'));
    const w = make();
    assert.deepEqual(await new UnionAuthorizer([w, alwaysAllow]).authorize(getPod), { decision: 'allow', reason: '' });
    const alone = await new UnionAuthorizer([w]).authorize(getPod);
    assert.equal(alone.decision, 'noOpinion');
    assert.match(alone.error ?? '', /answered 403/);
  });

  it('caches allowed answers for the authorized TTL and others for the unauthorized TTL, keyed by every attribute; errors are not cached', async () => {
    let clock = 1_000_000;
    let answer: Record<string, unknown> = { allowed: true };
    handler = (r, res) => reply('authorization.k8s.io/v1beta1', answer)(r, res);
    const w = make({ authorizedTtlMs: 300_000, unauthorizedTtlMs: 30_000, now: () => clock });
    await w.authorize(getPod);
    await w.authorize(getPod);
    assert.equal(w.calls, 1);
    await w.authorize({ ...getPod, name: 'q' });
    await w.authorize({ ...getPod, user: { ...jane, groups: ['dev'] } });
    await w.authorize({ ...getPod, user: { ...jane, extra: {} } });
    assert.equal(w.calls, 4, 'another name, groups or extra: another entry');
    answer = { allowed: false, reason: 'later' };
    await w.authorize(getHealthz);
    assert.equal(w.calls, 5);
    clock += 30_001;
    assert.deepEqual(await w.authorize(getPod), { decision: 'allow', reason: '' }, 'the allowed answer is still cached');
    assert.equal(w.calls, 5);
    assert.equal((await w.authorize(getHealthz)).reason, 'later');
    assert.equal(w.calls, 6, 'the unauthorized answer expired');
    clock += 270_000;
    assert.equal((await w.authorize(getPod)).decision, 'noOpinion');
    assert.equal(w.calls, 7, 'the allowed answer expired');
    handler = (_r, res) => ((res.statusCode = 403), res.end('{}'));
    await w.authorize({ ...getPod, name: 'err' });
    await w.authorize({ ...getPod, name: 'err' });
    assert.equal(w.calls, 9);
    handler = allow;
    const huge = { ...getPod, name: 'x'.repeat(10_000) };
    await w.authorize(huge);
    await w.authorize(huge);
    assert.equal(w.calls, 11, 'attributes over 10000 bytes are not cached');
  });

  it('retries 500s with backoff, five attempts; a refused connection fails at once', async () => {
    let n = 0;
    handler = (_r, res) => {
      n++;
      res.statusCode = 500;
      res.end('{}');
    };
    const w = make();
    assert.match((await w.authorize(getPod)).error ?? '', /answered 500/);
    assert.equal(n, 5);
    handler = (r, res) => {
      n++;
      if (n < 8) return void ((res.statusCode = 429), res.end('{}'));
      allow(r, res);
    };
    assert.equal((await w.authorize({ ...getPod, name: 'r2' })).decision, 'allow');
    const down = make({ server: 'https://localhost:1/authorize' });
    assert.match((await down.authorize(getPod)).error ?? '', /ECONNREFUSED|connect/);
  });

  it('cannot connect without the client certificate the webhook requires', async () => {
    handler = allow;
    const d = await make({ withCert: false }).authorize(getPod);
    assert.equal(d.decision, 'noOpinion');
    assert.ok(d.error);
  });

  it('cannot list rules: incomplete, with kube\'s error', () => {
    assert.deepEqual(make().rulesFor(jane, 'ns1'), { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: WEBHOOK_RULES_ERROR });
    assert.equal(WEBHOOK_RULES_ERROR, 'webhook authorizer does not support user rule resolution');
  });
});
