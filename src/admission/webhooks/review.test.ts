import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidReviewError, reviewText, reviewVersionFor, userInfo, UnsupportedPatchTypeError, verifyAnswer, type ReviewInput } from './review.js';
import { kubernetesGroup } from '../../endpoints/requestinfo.js';

/**
 * The review built as an object, members in kube's order (JSON.stringify keeps
 * insertion order), the optional ones only when set: what reviewText's text
 * must equal.
 */
function buildReview(r: ReviewInput, uid: string): { uid: string; review: Record<string, unknown> } {
  const gvk = (k: ReviewInput['kind']) => ({ group: kubernetesGroup(k.group), version: k.version, kind: k.kind });
  const gvr = (x: ReviewInput['resource']) => ({ group: kubernetesGroup(x.group), version: x.version, resource: x.resource });
  const request: Record<string, unknown> = { uid, kind: gvk(r.kind), resource: gvr(r.resource) };
  if (r.subresource) request.subResource = r.subresource;
  request.requestKind = gvk(r.requestKind);
  request.requestResource = gvr(r.requestResource);
  if (r.requestSubresource) request.requestSubResource = r.requestSubresource;
  if (r.name) request.name = r.name;
  if (r.namespace) request.namespace = r.namespace;
  request.operation = r.operation;
  request.userInfo = userInfo(r.user);
  request.object = r.object ?? null;
  request.oldObject = r.oldObject ?? null;
  request.dryRun = r.dryRun;
  request.options = r.options ?? null;
  return { uid, review: { kind: 'AdmissionReview', apiVersion: `admission.k8s.io/${r.version}`, request } };
}

/** What reviewText writes, read back. */
const sent = (r: ReviewInput, uid: string) => {
  const { version, ...rest } = r;
  return JSON.parse(reviewText(rest, version, uid)) as Record<string, unknown>;
};

const input: ReviewInput = {
  version: 'v1',
  resource: { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' },
  kind: { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' },
  subresource: '',
  requestResource: { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' },
  requestKind: { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' },
  requestSubresource: '',
  name: 'eq', namespace: 'ns', operation: 'CREATE',
  user: { name: 'admin', uid: 'u1', groups: ['system:masters', 'system:authenticated'] },
  object: { kind: 'HorizontalPodAutoscaler', apiVersion: 'autoscaling/v1' }, oldObject: undefined, dryRun: false,
  options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
};

describe('AdmissionReview out', () => {
  it('fills the request as kube does (golden webhook-04 shape, key order included)', () => {
    const { version, ...rest } = input;
    assert.equal(reviewText(rest, version, 'uid-1'), JSON.stringify({
      kind: 'AdmissionReview', apiVersion: 'admission.k8s.io/v1',
      request: {
        uid: 'uid-1',
        kind: { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' },
        resource: { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' },
        requestKind: { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' },
        requestResource: { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' },
        name: 'eq', namespace: 'ns', operation: 'CREATE',
        userInfo: { username: 'admin', uid: 'u1', groups: ['system:masters', 'system:authenticated'] },
        object: { kind: 'HorizontalPodAutoscaler', apiVersion: 'autoscaling/v1' }, oldObject: null, dryRun: false,
        options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
      },
    }));
  });
  it('writes groups in the k8s.io spelling, subresources, v1beta1, and nulls on connect', () => {
    const review = sent({
      ...input, version: 'v1beta1', resource: { group: 'networking.svc.io', version: 'v1', resource: 'ingresses' }, subresource: 'status', requestSubresource: 'status',
      namespace: '', options: null, dryRun: true,
    }, 'u');
    const r = review.request as Record<string, unknown>;
    assert.equal(review.apiVersion, 'admission.k8s.io/v1beta1');
    assert.deepEqual(r.resource, { group: 'networking.k8s.io', version: 'v1', resource: 'ingresses' });
    assert.equal(r.subResource, 'status');
    assert.equal(r.requestSubResource, 'status');
    assert.equal('namespace' in r, false);
    assert.equal(r.options, null);
    assert.equal(r.dryRun, true);
  });
  const variants: [string, Partial<ReviewInput>][] = [
    ['the plain create', {}],
    ['v1beta1, subresources, no namespace, dry run, null options', { version: 'v1beta1', resource: { group: 'networking.svc.io', version: 'v1', resource: 'ingresses' }, subresource: 'status', requestSubresource: 'status', namespace: '', options: null, dryRun: true }],
    ['no name, no user, an old object and no new one', { name: '', user: undefined, object: undefined, oldObject: { kind: 'HorizontalPodAutoscaler', metadata: { name: 'x' } }, operation: 'DELETE' }],
    ['text that needs escaping', { name: 'a"b\\c\u2028\n', namespace: 'ns\u0000', object: { data: { k: 'line\nwith "quotes" and é' } } }],
    ['a user with extra and no groups, the core group', { user: { name: 'u', uid: '', groups: [], extra: { scopes: ['a', 'b'] } }, kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' }, requestKind: { group: '', version: 'v1', kind: 'Pod' }, requestResource: { group: '', version: 'v1', resource: 'pods' } }],
    ['CONNECT without options', { operation: 'CONNECT', options: null, object: { kind: 'PodExecOptions', apiVersion: 'v1', command: ['sh'] } }],
  ];
  for (const [what, change] of variants) {
    it(`writes the review text as JSON.stringify writes the review: ${what}`, () => {
      const r: ReviewInput = { ...input, ...change };
      const { version, ...rest } = r;
      assert.equal(reviewText(rest, version, 'uid-7'), JSON.stringify(buildReview(r, 'uid-7').review));
      // the cached kind, resource and user texts give the same answer the second time
      assert.equal(reviewText(rest, version, 'uid-8'), JSON.stringify(buildReview(r, 'uid-8').review));
    });
  }
  it('chooses the first known admissionReviewVersion', () => {
    assert.equal(reviewVersionFor(['v2', 'v1beta1', 'v1']), 'v1beta1');
    assert.equal(reviewVersionFor(['v1', 'v1beta1']), 'v1');
    assert.equal(reviewVersionFor(['v2']), undefined);
  });
});

describe('AdmissionReview back', () => {
  const ok = (response: unknown, apiVersion: unknown = 'admission.k8s.io/v1', kind: unknown = 'AdmissionReview') => ({ apiVersion, kind, response });
  const patch = Buffer.from('[{"op":"add","path":"/x","value":1}]').toString('base64');
  const errors: [string, 'v1' | 'v1beta1', boolean, unknown, string][] = [
    ['no response', 'v1', false, { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }, 'webhook response was absent'],
    ['uid mismatch', 'v1', false, ok({ uid: 'other', allowed: true }), 'expected response.uid="U", got "other"'],
    ['v1 without type meta (golden webhook-06)', 'v1', false, { response: { uid: 'U', allowed: true } }, 'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind='],
    ['other version', 'v1', false, ok({ uid: 'U', allowed: true }, 'admission.k8s.io/v1beta1'), 'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1beta1, Kind=AdmissionReview'],
    ['patch without type', 'v1', true, ok({ uid: 'U', allowed: true, patch }), 'webhook returned response.patch but not response.patchType'],
    ['type without patch', 'v1', true, ok({ uid: 'U', allowed: true, patchType: 'JSONPatch' }), 'webhook returned response.patchType but not response.patch'],
    ['validating with patch', 'v1', false, ok({ uid: 'U', allowed: true, patch }), 'validating webhook may not return response.patch'],
    ['validating with patchType', 'v1', false, ok({ uid: 'U', allowed: true, patchType: 'JSONPatch' }), 'validating webhook may not return response.patchType'],
  ];
  for (const [name, version, mutating, answer, message] of errors) {
    it(`refuses: ${name}`, () => assert.throws(() => verifyAnswer(version, 'U', mutating, answer), (e: unknown) => e instanceof InvalidReviewError && e.message === message));
  }
  it('refuses a patchType other than JSONPatch as unsupported', () => {
    assert.throws(() => verifyAnswer('v1', 'U', true, ok({ uid: 'U', allowed: true, patch, patchType: 'MergePatch' })), (e: unknown) => e instanceof UnsupportedPatchTypeError && e.message === 'unsupported patch type "MergePatch"');
  });
  it('accepts the svc.io spelling back', () => {
    assert.equal(verifyAnswer('v1', 'U', false, ok({ uid: 'U', allowed: true }, 'admission.svc.io/v1')).allowed, true);
  });
  it('v1beta1: no type meta, no uid check, a patch is a JSON patch', () => {
    const a = verifyAnswer('v1beta1', 'U', true, { response: { allowed: true, patch, warnings: ['w'], auditAnnotations: { k: 'v' } } });
    assert.equal(a.patch?.toString(), '[{"op":"add","path":"/x","value":1}]');
    assert.deepEqual(a.warnings, ['w']);
    assert.deepEqual(a.auditAnnotations, { k: 'v' });
  });
});
