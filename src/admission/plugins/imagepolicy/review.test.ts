// The ImageReview: which containers and annotations a pod write sends, the
// spec as Go writes it (the cache key), and the answers accepted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forwardedAnnotations, imageReview, reviewSpec, reviewStatus } from './review.js';

const pod = (annotations: Record<string, string> = {}) => ({
  metadata: { name: 'p', annotations },
  spec: {
    initContainers: [{ name: 'i', image: 'init:1' }],
    containers: [{ name: 'a', image: 'app:1' }, { name: 'b', image: '' }],
    ephemeralContainers: [{ name: 'e', image: 'debug:1' }],
  },
});

describe('ImageReview spec', () => {
  it('a pod: its containers then its init containers; an empty image is an empty entry', () => {
    assert.deepEqual(reviewSpec(pod(), 'ns', ''), { containers: [{ image: 'app:1' }, {}, { image: 'init:1' }], namespace: 'ns' });
  });
  it('the ephemeralcontainers subresource: the ephemeral containers only', () => {
    assert.deepEqual(reviewSpec(pod(), 'ns', 'ephemeralcontainers'), { containers: [{ image: 'debug:1' }], namespace: 'ns' });
  });
  it('empty fields are left out', () => {
    assert.deepEqual(reviewSpec({ metadata: {}, spec: {} }, '', ''), {});
  });
  const filter: [string, Record<string, string>, Record<string, string>][] = [
    ['kube\'s domain and ours are forwarded', { 'a.image-policy.k8s.io/x': '1', 'b.image-policy.svc.io/y': '2' }, { 'a.image-policy.k8s.io/x': '1', 'b.image-policy.svc.io/y': '2' }],
    ['other annotations are not', { 'image-policy.k8s.io/bare': '1', 'a.example.com/x': '2', team: 'z', 'a.image-policy.k8s.io': 'no slash' }, {}],
    ['a prefix before the domain is any text', { 'alpha.beta.image-policy.k8s.io/break-glass': 'true' }, { 'alpha.beta.image-policy.k8s.io/break-glass': 'true' }],
  ];
  for (const [what, given, want] of filter) it(`annotations: ${what}`, () => assert.deepEqual(forwardedAnnotations(given), want));
  it('annotation keys are sorted, so equal specs have equal text', () => {
    const a = JSON.stringify(reviewSpec(pod({ 'z.image-policy.k8s.io/1': 'a', 'a.image-policy.k8s.io/2': 'b' }), 'ns', ''));
    const b = JSON.stringify(reviewSpec(pod({ 'a.image-policy.k8s.io/2': 'b', 'z.image-policy.k8s.io/1': 'a' }), 'ns', ''));
    assert.equal(a, b);
    assert.ok(a.indexOf('a.image-policy') < a.indexOf('z.image-policy'));
  });
  it('the body sent: kube\'s group spelling, v1alpha1', () => {
    assert.deepEqual(imageReview({ namespace: 'ns' }), {
      kind: 'ImageReview', apiVersion: 'imagepolicy.k8s.io/v1alpha1', metadata: { creationTimestamp: null }, spec: { namespace: 'ns' }, status: { allowed: false },
    });
  });
});

describe('ImageReview answers', () => {
  const review = (status: unknown, apiVersion = 'imagepolicy.k8s.io/v1alpha1', kind = 'ImageReview') => ({ apiVersion, kind, status });
  it('allowed, reason and audit annotations; either group spelling', () => {
    assert.deepEqual(reviewStatus(review({ allowed: true, auditAnnotations: { a: 'b' } })), { allowed: true, reason: '', auditAnnotations: { a: 'b' } });
    assert.deepEqual(reviewStatus(review({ allowed: false, reason: 'no' }, 'imagepolicy.svc.io/v1alpha1')), { allowed: false, reason: 'no', auditAnnotations: {} });
    assert.deepEqual(reviewStatus(review(undefined)), { allowed: false, reason: '', auditAnnotations: {} }, 'no status: not allowed');
  });
  const bad: [string, unknown, RegExp][] = [
    ['not an object', 'yes', /not a JSON object/],
    ['another kind', review({ allowed: true }, 'imagepolicy.k8s.io/v1alpha1', 'TokenReview'), /kind "TokenReview"/],
    ['another version', review({ allowed: true }, 'imagepolicy.k8s.io/v1'), /apiVersion "imagepolicy.k8s.io\/v1"/],
    ['allowed not a boolean', review({ allowed: 'true' }), /status\.allowed is not a boolean/],
    ['reason not a string', review({ allowed: false, reason: 1 }), /status\.reason is not a string/],
    ['audit annotations not strings', review({ allowed: true, auditAnnotations: { a: 1 } }), /auditAnnotations is not a map of strings/],
  ];
  for (const [what, answer, want] of bad) {
    it(`refuses: ${what}`, () => assert.throws(() => reviewStatus(answer), (e: unknown) => e instanceof Error && /^the image policy backend answered an invalid ImageReview: /.test(e.message) && want.test(e.message)));
  }
});
