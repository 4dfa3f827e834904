// The access and rules reviews as kube-apiserver v1.27 answers them: validation
// (texts from the golden transcripts reviews-01/03/04), the status from the
// authorizer chain (denied, reason, evaluationError), and SelfSubjectRulesReview
// over every authorizer that can list rules.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStatusError, type Status } from '../api/meta/index.js';
import type { UnionAuthenticator } from '../authn/authenticator.js';
import type { UserInfo } from '../authn/user.js';
import { UnionAuthorizer, alwaysAllow, alwaysDeny, type Attributes, type Authorizer, type Decision } from '../authz/authorizer.js';
import { AbacAuthorizer, parsePolicyFile } from '../authz/abac.js';
import { review, type ReviewDeps } from './reviews.js';

const G = 'authorization.k8s.io';
const bob: UserInfo = { name: 'bob', uid: 'uid-bob', groups: ['devs', 'system:authenticated'] };

/** An authorizer that records what it was asked and answers a fixed decision. */
function recorder(d: Decision): Authorizer & { asked: Attributes[] } {
  const asked: Attributes[] = [];
  return { name: 'rec', asked, authorize: (a) => (asked.push(a), d) };
}

const deps = (authorizer: Authorizer): ReviewDeps => ({ authenticator: {} as UnionAuthenticator, authorizer });
const ask = (authorizer: Authorizer, kind: string, body: Record<string, unknown>, namespace = '') =>
  review(deps(authorizer), { kind, group: G, namespace, user: bob, body });

async function statusOf(p: Promise<unknown>): Promise<Status> {
  try {
    await p;
  } catch (err) {
    if (isStatusError(err)) return err.status;
    throw err;
  }
  assert.fail('expected a Status error');
}

describe('access review validation', () => {
  const nra = { path: '/healthz', verb: 'get' };
  const ra = { namespace: 'ns1', verb: 'get', resource: 'configmaps' };
  const rows: [string, string, Record<string, unknown>, string, number, string][] = [
    // [name, kind, body, URL namespace, code, message]
    ['both attributes', 'SelfSubjectAccessReview', { spec: { resourceAttributes: ra, nonResourceAttributes: nra } }, '', 422,
      '.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/healthz", Verb:"get"}: cannot be specified in combination with resourceAttributes'],
    ['no attributes', 'SelfSubjectAccessReview', { spec: {} }, '', 422,
      '.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified'],
    ['null attributes are absent', 'SelfSubjectAccessReview', { spec: { resourceAttributes: null } }, '', 422,
      '.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified'],
    ['SAR without user or groups, nor attributes', 'SubjectAccessReview', { spec: {} }, '', 422,
      '.authorization.k8s.io "" is invalid: [spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]'],
    ['SAR with a name', 'SubjectAccessReview', { metadata: { name: 'x' }, spec: { user: 'a', nonResourceAttributes: nra } }, '', 422,
      '.authorization.k8s.io "" is invalid: metadata: Invalid value: v1.ObjectMeta{Name:"x", GenerateName:"", Namespace:"", SelfLink:"", UID:"", ResourceVersion:"", Generation:0, CreationTimestamp:time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC), DeletionTimestamp:<nil>, DeletionGracePeriodSeconds:(*int64)(nil), Labels:map[string]string(nil), Annotations:map[string]string(nil), OwnerReferences:[]v1.OwnerReference(nil), Finalizers:[]string(nil), ManagedFields:[]v1.ManagedFieldsEntry(nil)}: must be empty'],
    ['LSAR without the namespace in the spec', 'LocalSubjectAccessReview', { metadata: { namespace: 'ns1' }, spec: { user: 'bob', resourceAttributes: { verb: 'list', resource: 'configmaps' } } }, 'ns1', 422,
      '.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "": must match metadata.namespace'],
    ['LSAR for another namespace', 'LocalSubjectAccessReview', { metadata: { namespace: 'ns1' }, spec: { user: 'bob', resourceAttributes: { ...ra, namespace: 'default' } } }, 'ns1', 422,
      '.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "default": must match metadata.namespace'],
    ['LSAR with non-resource attributes', 'LocalSubjectAccessReview', { metadata: { namespace: 'ns1' }, spec: { user: 'bob', nonResourceAttributes: nra } }, 'ns1', 422,
      '.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/healthz", Verb:"get"}: disallowed on this kind of request'],
    ['LSAR with labels', 'LocalSubjectAccessReview', { metadata: { namespace: 'ns1', labels: { a: 'b' } }, spec: { user: 'bob', resourceAttributes: ra } }, 'ns1', 422,
      '.authorization.k8s.io "" is invalid: metadata: Invalid value: v1.ObjectMeta{Name:"", GenerateName:"", Namespace:"ns1", SelfLink:"", UID:"", ResourceVersion:"", Generation:0, CreationTimestamp:time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC), DeletionTimestamp:<nil>, DeletionGracePeriodSeconds:(*int64)(nil), Labels:map[string]string{"a":"b"}, Annotations:map[string]string(nil), OwnerReferences:[]v1.OwnerReference(nil), Finalizers:[]string(nil), ManagedFields:[]v1.ManagedFieldsEntry(nil)}: must be empty except for namespace'],
    ['LSAR whose metadata names another namespace than the URL', 'LocalSubjectAccessReview', { metadata: { namespace: 'other' }, spec: { user: 'bob', resourceAttributes: ra } }, 'ns1', 400,
      'the namespace of the provided object does not match the namespace sent on the request'],
    ['SSRR without a namespace', 'SelfSubjectRulesReview', { spec: {} }, '', 400, 'no namespace on request'],
  ];
  for (const [name, kind, body, ns, code, message] of rows) {
    it(`${name}: ${code}`, async () => {
      const st = await statusOf(ask(alwaysAllow, kind, body, ns));
      assert.equal(st.code, code);
      assert.equal(st.message, message);
      if (code === 422) {
        assert.equal(st.reason, 'Invalid');
        assert.equal(st.details?.group, G);
        assert.equal(st.details?.kind, undefined, 'the internal object has no kind');
        assert.equal(st.details?.name, undefined);
        assert.ok(st.details?.causes?.every((c) => c.reason === 'FieldValueInvalid' && message.includes(`${c.field}: ${c.message}`)));
      }
    });
  }

  it('the golden cause of both attributes, exactly', async () => {
    const st = await statusOf(ask(alwaysAllow, 'SelfSubjectAccessReview', { spec: { resourceAttributes: ra, nonResourceAttributes: nra } }));
    assert.deepEqual(st.details, { group: G, causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: authorization.NonResourceAttributes{Path:"/healthz", Verb:"get"}: cannot be specified in combination with resourceAttributes', field: 'spec.nonResourceAttributes' }] });
  });

  it('empty metadata passes: creationTimestamp null, empty labels, managedFields; a cluster-scoped review drops a namespace', async () => {
    for (const metadata of [{ creationTimestamp: null }, { labels: {} }, { managedFields: [{ manager: 'x' }] }, { namespace: 'x' }]) {
      const out = await ask(alwaysAllow, 'SubjectAccessReview', { metadata, spec: { user: 'a', nonResourceAttributes: nra } });
      assert.deepEqual(out?.metadata, { creationTimestamp: null });
    }
  });
});

describe('access review answers', () => {
  it('SelfSubjectAccessReview asks for the caller with the spec\'s attributes (an empty version is every version)', async () => {
    const z = recorder({ decision: 'allow', reason: 'RBAC: allowed by x' });
    const out = await ask(z, 'SelfSubjectAccessReview', { spec: { resourceAttributes: { namespace: 'ns1', verb: 'get', resource: 'pods', subresource: 'log', name: 'p', extraField: 1 }, user: 'ignored' } });
    assert.deepEqual(out, {
      metadata: { creationTimestamp: null },
      spec: { resourceAttributes: { namespace: 'ns1', verb: 'get', resource: 'pods', subresource: 'log', name: 'p' } },
      status: { allowed: true, reason: 'RBAC: allowed by x' },
    });
    assert.deepEqual(z.asked[0], { user: bob, verb: 'get', isResourceRequest: true, path: '', apiGroup: '', apiVersion: '*', namespace: 'ns1', resource: 'pods', subresource: 'log', name: 'p' });
  });

  it('SubjectAccessReview asks for the spec\'s subject and echoes the spec in kube\'s form', async () => {
    const z = recorder({ decision: 'noOpinion', reason: '' });
    const out = await ask(z, 'SubjectAccessReview', { spec: { uid: 'u1', extra: { k: ['v'] }, groups: ['g'], user: 'alice', nonResourceAttributes: { verb: 'get', path: '/metrics' } } });
    assert.deepEqual(out, {
      metadata: { creationTimestamp: null },
      spec: { nonResourceAttributes: { path: '/metrics', verb: 'get' }, user: 'alice', groups: ['g'], extra: { k: ['v'] }, uid: 'u1' },
      status: { allowed: false },
    });
    assert.deepEqual(z.asked[0], { user: { name: 'alice', uid: 'u1', groups: ['g'], extra: { k: ['v'] } }, verb: 'get', isResourceRequest: false, path: '/metrics' });
  });

  it('LocalSubjectAccessReview takes the URL\'s namespace into metadata', async () => {
    const out = await ask(alwaysAllow, 'LocalSubjectAccessReview', { spec: { user: 'bob', groups: ['devs'], resourceAttributes: { namespace: 'ns1', verb: 'list', resource: 'configmaps' } } }, 'ns1');
    assert.deepEqual(out?.metadata, { namespace: 'ns1', creationTimestamp: null });
  });

  const statuses: [string, Authorizer, Record<string, unknown>][] = [
    ['a deny', recorder({ decision: 'deny', reason: 'banned' }), { allowed: false, denied: true, reason: 'banned' }],
    ['AlwaysDeny (no opinion with its reason, as kube)', alwaysDeny, { allowed: false, reason: 'Everything is forbidden.' }],
    ['no opinion with an error (a failing webhook) through the union', new UnionAuthorizer([recorder({ decision: 'noOpinion', reason: '', error: 'webhook down' }), recorder({ decision: 'noOpinion', reason: 'no rule' })]),
      { allowed: false, reason: 'no rule', evaluationError: 'webhook down' }],
    ['two errors aggregated', new UnionAuthorizer([recorder({ decision: 'noOpinion', reason: 'a', error: 'e1' }), recorder({ decision: 'noOpinion', reason: 'b', error: 'e2' })]),
      { allowed: false, reason: 'a\nb', evaluationError: '[e1, e2]' }],
    ['an allow after an error: the allowing authorizer\'s answer alone', new UnionAuthorizer([recorder({ decision: 'noOpinion', reason: '', error: 'e1' }), alwaysAllow]), { allowed: true }],
  ];
  for (const [name, z, status] of statuses) {
    it(`status on ${name}`, async () => {
      const out = await ask(z, 'SelfSubjectAccessReview', { spec: { nonResourceAttributes: { path: '/x', verb: 'get' } } });
      assert.deepEqual(out?.status, status);
    });
  }
});

describe('SelfSubjectRulesReview', () => {
  const abac = new AbacAuthorizer(parsePolicyFile([
    '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"group":"devs","namespace":"ns1","resource":"pods","apiGroup":"","readonly":true}}',
    '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"bob","namespace":"*","nonResourcePath":"/healthz"}}',
  ].join('\n'), 'p'));
  const webhookLike: Authorizer = {
    name: 'Webhook', authorize: () => ({ decision: 'noOpinion', reason: '' }),
    rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'webhook authorizer does not support user rule resolution' }),
  };

  it('concatenates every authorizer\'s rules in chain order, as a new object', async () => {
    const out = await ask(new UnionAuthorizer([abac, alwaysDeny, alwaysAllow]), 'SelfSubjectRulesReview', { metadata: { name: 'x' }, spec: { namespace: 'ns1' } });
    assert.deepEqual(out, {
      metadata: { creationTimestamp: null },
      spec: {},
      status: {
        resourceRules: [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] }, { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
        nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['/healthz'] }, { verbs: ['*'], nonResourceURLs: ['*'] }],
        incomplete: false,
      },
    });
  });

  it('is incomplete, with the evaluation errors, when an authorizer cannot list', async () => {
    const out = await ask(new UnionAuthorizer([webhookLike, abac]), 'SelfSubjectRulesReview', { spec: { namespace: 'other' } });
    assert.deepEqual(out?.status, {
      resourceRules: [],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['/healthz'] }],
      incomplete: true,
      evaluationError: 'webhook authorizer does not support user rule resolution',
    });
    const two = await ask(new UnionAuthorizer([webhookLike, { ...webhookLike, rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'node authorizer does not support user rule resolution' }) }]), 'SelfSubjectRulesReview', { spec: { namespace: 'x' } });
    assert.equal((two?.status as Record<string, unknown>).evaluationError, '[webhook authorizer does not support user rule resolution, node authorizer does not support user rule resolution]');
  });

  it('an authorizer that cannot list anything (AlwaysDeny) gives complete empty lists', async () => {
    const out = await ask(alwaysDeny, 'SelfSubjectRulesReview', { spec: { namespace: 'x' } });
    assert.deepEqual(out?.status, { resourceRules: [], nonResourceRules: [], incomplete: false });
  });
});
