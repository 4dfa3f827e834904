// ImagePolicyWebhook's decisions with the backend replaced by a function and
// an injected clock: which writes are reviewed, allow / deny with kube's texts,
// audit annotations, defaultAllow on failures, the TTLs of the cache.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../../registry/object.js';
import { attrs, outcome, type AttrsInit } from '../testutil.js';
import type { Json } from '../common.js';
import { AUDIT_KEY_PREFIX, FAILED_OPEN_AUDIT_KEY, FAILED_OPEN_POD_ANNOTATION, imagePolicyWebhook, imagePolicyWebhookFromConfig } from './index.js';
import type { ImagePolicyConfig } from './config.js';

const CONFIG: ImagePolicyConfig = { kubeConfigFile: '/unused', allowTtlMs: 300_000, denyTtlMs: 30_000, retryBackoffMs: 1, defaultAllow: false };

const pod = (image: string, annotations?: Record<string, string>): ApiObject => ({
  metadata: { name: 'p', namespace: 'ns', ...(annotations ? { annotations } : {}) },
  spec: { containers: [{ name: 'c', image }], ephemeralContainers: [{ name: 'e', image: 'debug:1' }] },
});

/** A backend: allows images not starting with "bad", with a reason and an audit annotation when it denies. */
function backend(o: { fail?: unknown; answer?: (spec: Json) => unknown } = {}) {
  const sent: Json[] = [];
  const send = async (review: Json) => {
    sent.push(review);
    if (o.fail) throw o.fail;
    const spec = review.spec as { containers?: { image?: string }[] };
    if (o.answer) return o.answer(spec as Json);
    const bad = (spec.containers ?? []).filter((c) => c.image?.startsWith('bad'));
    return { apiVersion: 'imagepolicy.k8s.io/v1alpha1', kind: 'ImageReview', status: bad.length ? { allowed: false, reason: `${bad[0]!.image} is not signed`, auditAnnotations: { checked: 'denied' } } : { allowed: true, auditAnnotations: { checked: 'ok' } } };
  };
  return { sent, send };
}

function plugin(config: Partial<ImagePolicyConfig> = {}, b = backend()) {
  let now = 1_000_000;
  const p = imagePolicyWebhook({ config: { ...CONFIG, ...config }, send: b.send, now: () => now });
  return { p, b, advance: (ms: number) => (now += ms) };
}

/** Attributes that record their audit annotations. */
function request(init: AttrsInit) {
  const audit: Record<string, string> = {};
  return { a: { ...attrs(init), annotate: (k: string, v: string) => void (audit[k] = v) }, audit };
}

describe('ImagePolicyWebhook: what is reviewed', () => {
  const rows: [string, AttrsInit, unknown][] = [
    ['a pod create: its containers, the namespace', { object: pod('app:1') }, { containers: [{ image: 'app:1' }], namespace: 'ns' }],
    ['a pod update', { operation: 'UPDATE', object: pod('app:2'), oldObject: pod('app:1') }, { containers: [{ image: 'app:2' }], namespace: 'ns' }],
    ['ephemeral containers: only theirs', { operation: 'UPDATE', subresource: 'ephemeralcontainers', object: pod('app:1'), oldObject: pod('app:1') }, { containers: [{ image: 'debug:1' }], namespace: 'ns' }],
    ['pod annotations of the image policy domains go along', { object: pod('app:1', { 'x.image-policy.k8s.io/ticket': 'T-1', other: 'no' }) }, { containers: [{ image: 'app:1' }], annotations: { 'x.image-policy.k8s.io/ticket': 'T-1' }, namespace: 'ns' }],
    ['the status subresource is not', { operation: 'UPDATE', subresource: 'status', object: pod('bad:1'), oldObject: pod('bad:1') }, undefined],
    ['a delete is not', { operation: 'DELETE', object: undefined, oldObject: pod('bad:1') }, undefined],
    ['a connect is not', { operation: 'CONNECT', subresource: 'exec', object: pod('bad:1') }, undefined],
    ['other resources are not', { resource: 'podtemplates', object: pod('bad:1') }, undefined],
    ['pods of another group are not', { group: 'example.com', object: pod('bad:1') }, undefined],
  ];
  for (const [what, init, spec] of rows) {
    it(what, async () => {
      const { p, b } = plugin();
      await p.admit(request(init).a);
      assert.deepEqual(b.sent.map((r) => r.spec), spec === undefined ? [] : [spec]);
    });
  }
});

describe('ImagePolicyWebhook: decisions', () => {
  it('allowed: admitted, the answer\'s audit annotations recorded under the plugin\'s prefix', async () => {
    const { p } = plugin();
    const { a, audit } = request({ object: pod('app:1') });
    assert.equal(await outcome(() => p.admit(a)), undefined);
    assert.deepEqual(audit, { [`${AUDIT_KEY_PREFIX}checked`]: 'ok' });
    assert.equal(a.object!.metadata.annotations, undefined, 'the pod is left alone');
  });
  it('denied with a reason: 403 with kube\'s text', async () => {
    const { p } = plugin();
    const { a, audit } = request({ object: pod('bad:1') });
    const st = await outcome(() => p.admit(a));
    assert.equal(st?.code, 403);
    assert.equal(st?.reason, 'Forbidden');
    assert.equal(st?.message, 'pods "p" is forbidden: image policy webhook backend denied one or more images: bad:1 is not signed');
    assert.deepEqual(audit, { [`${AUDIT_KEY_PREFIX}checked`]: 'denied' });
  });
  it('denied without a reason', async () => {
    const { p } = plugin({}, backend({ answer: () => ({ apiVersion: 'imagepolicy.svc.io/v1alpha1', kind: 'ImageReview', status: { allowed: false } }) }));
    assert.equal((await outcome(() => p.admit(request({ object: pod('x') }).a)))?.message, 'pods "p" is forbidden: one or more images rejected by webhook backend');
  });
  const failures: [string, ReturnType<typeof backend>][] = [
    ['unreachable', backend({ fail: new Error('https://hook:1: connect ECONNREFUSED') })],
    ['not an ImageReview', backend({ answer: () => ({ kind: 'Status' }) })],
  ];
  for (const [what, b] of failures) {
    it(`backend ${what}, defaultAllow false: refused with the error`, async () => {
      const { p } = plugin({ defaultAllow: false }, b);
      const { a, audit } = request({ object: pod('app:1') });
      const st = await outcome(() => p.admit(a));
      assert.equal(st?.code, 403);
      assert.match(st?.message ?? '', /^pods "p" is forbidden: (https:\/\/hook:1: connect ECONNREFUSED|the image policy backend answered an invalid ImageReview: kind "Status")$/);
      assert.deepEqual(audit, {});
    });
    it(`backend ${what}, defaultAllow true: admitted and marked failed open; not cached`, async () => {
      const { p } = plugin({ defaultAllow: true }, b);
      const { a, audit } = request({ object: pod('app:1', { keep: 'me' }) });
      assert.equal(await outcome(() => p.admit(a)), undefined);
      assert.deepEqual(a.object!.metadata.annotations, { keep: 'me', [FAILED_OPEN_POD_ANNOTATION]: 'true' });
      assert.deepEqual(audit, { [FAILED_OPEN_AUDIT_KEY]: 'true' });
      await p.admit(request({ object: pod('app:1') }).a);
      assert.equal(p.calls, 2);
    });
  }
});

describe('ImagePolicyWebhook: the decision cache', () => {
  it('an approval is kept for allowTTL, a rejection for denyTTL', async () => {
    const { p, advance } = plugin({ allowTtlMs: 60_000, denyTtlMs: 5_000 });
    const admit = (image: string) => outcome(() => p.admit(request({ object: pod(image) }).a));
    await admit('app:1');
    assert.equal((await admit('bad:1'))?.code, 403);
    assert.equal(p.calls, 2);
    advance(4_999);
    await admit('app:1');
    assert.equal((await admit('bad:1'))?.code, 403, 'a cached rejection still refuses');
    assert.equal(p.calls, 2, 'both cached');
    advance(1);
    assert.equal((await admit('bad:1'))?.code, 403);
    assert.equal(p.calls, 3, 'the rejection expired');
    advance(55_000);
    await admit('app:1');
    assert.equal(p.calls, 4, 'the approval expired');
  });
  it('the key is the whole spec: namespace and forwarded annotations count, other annotations and names do not', async () => {
    const { p } = plugin();
    const admit = (init: AttrsInit) => p.admit(request(init).a);
    await admit({ object: pod('app:1') });
    await admit({ object: { ...pod('app:1', { unrelated: 'x' }), metadata: { name: 'other', namespace: 'ns', annotations: { unrelated: 'x' } } } });
    assert.equal(p.calls, 1);
    await admit({ object: pod('app:1'), namespace: 'ns2' });
    await admit({ object: pod('app:1', { 'a.image-policy.svc.io/why': 'x' }) });
    assert.equal(p.calls, 3);
  });
  it('a cached answer records its audit annotations again', async () => {
    const { p } = plugin();
    await p.admit(request({ object: pod('app:1') }).a);
    const { a, audit } = request({ object: pod('app:1') });
    await p.admit(a);
    assert.equal(p.calls, 1);
    assert.deepEqual(audit, { [`${AUDIT_KEY_PREFIX}checked`]: 'ok' });
  });
  it('a TTL turned off (-1 → 0) caches nothing', async () => {
    const { p } = plugin({ allowTtlMs: 0 });
    await p.admit(request({ object: pod('app:1') }).a);
    await p.admit(request({ object: pod('app:1') }).a);
    assert.equal(p.calls, 2);
  });
});

describe('ImagePolicyWebhook from its configuration', () => {
  const rows: [string, unknown, RegExp][] = [
    ['none', undefined, /^couldn't init admission plugin "ImagePolicyWebhook": no config specified$/],
    ['a bad TTL', { imagePolicy: { kubeConfigFile: '/x', denyTTL: 9999 } }, /^couldn't init admission plugin "ImagePolicyWebhook": imagePolicy\.denyTTL: valid value is between 1s and 30m0s, got 2h46m39s$/],
    ['a missing connection file', { imagePolicy: { kubeConfigFile: '/nonexistent/hook.yaml' } }, /^couldn't init admission plugin "ImagePolicyWebhook": imagePolicy\.kubeConfigFile: cannot read \/nonexistent\/hook\.yaml/],
  ];
  for (const [what, raw, want] of rows) it(`refuses: ${what}`, () => assert.throws(() => imagePolicyWebhookFromConfig(raw), (e: unknown) => e instanceof Error && want.test(e.message)));
});
