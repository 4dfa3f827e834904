// The lifecycle rules and the catalogue's lifecycles pinned against kube v1.27's
// generated zz_generated.prerelease-lifecycle.go files (and core/v1's lifecycle.go).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allResources } from '../api/catalog/index.js';
import { VERSION_INFO } from '../endpoints/discovery.js';
import { atOrBefore, completeLifecycle, CURRENT_RELEASE, isDeprecated, warningMessage, type APILifecycle } from './lifecycle.js';

describe('lifecycle rules (prerelease-lifecycle-gen, IsDeprecated)', () => {
  it('computes deprecated = introduced + 3 and removed = deprecated + 3 for alpha and beta', () => {
    assert.deepEqual(completeLifecycle('beta', { introduced: '1.26' }), { introduced: '1.26', deprecated: '1.29', removed: '1.32' });
    assert.deepEqual(completeLifecycle('alpha', { introduced: '1.25' }), { introduced: '1.25', deprecated: '1.28', removed: '1.31' });
    assert.deepEqual(completeLifecycle('beta', { introduced: '1.23', deprecated: '1.26' }), { introduced: '1.23', deprecated: '1.26', removed: '1.29' });
    assert.deepEqual(completeLifecycle('beta', { introduced: '1.8', deprecated: '1.9', removed: '1.40' }), { introduced: '1.8', deprecated: '1.9', removed: '1.40' });
  });
  it('takes a GA kind as given and needs introduced for prerelease kinds', () => {
    assert.deepEqual(completeLifecycle('ga', { introduced: '1.0', deprecated: '1.19' }), { introduced: '1.0', deprecated: '1.19' });
    assert.throws(() => completeLifecycle('beta', {}), /introduced/);
  });
  it('compares releases numerically', () => {
    assert.equal(atOrBefore('1.9', '1.27'), true);
    assert.equal(atOrBefore('1.27', '1.27'), true);
    assert.equal(atOrBefore('1.28', '1.27'), false);
    assert.equal(atOrBefore('2.0', '1.99'), false);
    assert.equal(isDeprecated({ deprecated: '1.27' }, '1.27'), true);
    assert.equal(isDeprecated({ deprecated: '1.28' }, '1.27'), false);
    assert.equal(isDeprecated({}, '1.27'), false);
    assert.equal(isDeprecated(undefined, '1.27'), false);
  });
  it('is the release /version reports', () => assert.equal(CURRENT_RELEASE, `${VERSION_INFO.major}.${VERSION_INFO.minor}`));
});

describe('warning texts (kube WarningMessage)', () => {
  const cases: [string, Parameters<typeof warningMessage>, string][] = [
    ['removal and replacement', [{ group: 'flowcontrol.apiserver.k8s.io', version: 'v1beta2', kind: 'FlowSchema' }, { deprecated: '1.26', removed: '1.29', replacement: { group: 'flowcontrol.apiserver.k8s.io', version: 'v1beta3', kind: 'FlowSchema' } }],
      'flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema is deprecated in v1.26+, unavailable in v1.29+; use flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema'],
    ['removal only', [{ group: 'networking.k8s.io', version: 'v1alpha1', kind: 'ClusterCIDR' }, { deprecated: '1.28', removed: '1.31' }],
      'networking.k8s.io/v1alpha1 ClusterCIDR is deprecated in v1.28+, unavailable in v1.31+'],
    ['core group, deprecation only', [{ group: '', version: 'v1', kind: 'ComponentStatus' }, { deprecated: '1.19' }], 'v1 ComponentStatus is deprecated in v1.19+'],
    ['replacement without removal', [{ group: 'x.svc.io', version: 'v1beta1', kind: 'A' }, { deprecated: '1.20', replacement: { group: '', version: 'v1', kind: 'B' } }],
      'x.svc.io/v1beta1 A is deprecated in v1.20+; use v1 B'],
  ];
  for (const [name, args, text] of cases) it(name, () => assert.equal(warningMessage(...args), text));
});

/**
 * Every served kind that has a lifecycle in kube v1.27, as its generated methods return it
 * (introduced, deprecated, removed, replacement). Prerelease kinds absent here have none in v1.27
 * (internal.apiserver v1alpha1, resource v1alpha2: their packages do not generate it).
 */
const V127: Record<string, APILifecycle> = {
  'v1/ComponentStatus': { introduced: '1.0', deprecated: '1.19' },
  'admissionregistration.svc.io/v1alpha1/ValidatingAdmissionPolicy': { introduced: '1.26', deprecated: '1.29', removed: '1.32' },
  'admissionregistration.svc.io/v1alpha1/ValidatingAdmissionPolicyBinding': { introduced: '1.26', deprecated: '1.29', removed: '1.32' },
  'authentication.svc.io/v1alpha1/SelfSubjectReview': { introduced: '1.26', deprecated: '1.29', removed: '1.32' },
  'authentication.svc.io/v1beta1/SelfSubjectReview': { introduced: '1.27', deprecated: '1.30', removed: '1.33' },
  'certificates.svc.io/v1alpha1/ClusterTrustBundle': { introduced: '1.26', deprecated: '1.29', removed: '1.32' },
  'networking.svc.io/v1alpha1/ClusterCIDR': { introduced: '1.25', deprecated: '1.28', removed: '1.31' },
  'networking.svc.io/v1alpha1/IPAddress': { introduced: '1.27', deprecated: '1.30', removed: '1.33' },
  'flowcontrol.apiserver.svc.io/v1beta3/FlowSchema': { introduced: '1.26', deprecated: '1.29', removed: '1.32' },
  'flowcontrol.apiserver.svc.io/v1beta3/PriorityLevelConfiguration': { introduced: '1.26', deprecated: '1.29', removed: '1.32' },
  'flowcontrol.apiserver.svc.io/v1beta2/FlowSchema': { introduced: '1.23', deprecated: '1.26', removed: '1.29', replacement: { group: 'flowcontrol.apiserver.svc.io', version: 'v1beta3', kind: 'FlowSchema' } },
  'flowcontrol.apiserver.svc.io/v1beta2/PriorityLevelConfiguration': { introduced: '1.23', deprecated: '1.26', removed: '1.29', replacement: { group: 'flowcontrol.apiserver.svc.io', version: 'v1beta3', kind: 'PriorityLevelConfiguration' } },
};
const NO_LIFECYCLE = new Set(['internal.apiserver.svc.io/v1alpha1/StorageVersion', 'resource.svc.io/v1alpha2/PodSchedulingContext', 'resource.svc.io/v1alpha2/ResourceClaim', 'resource.svc.io/v1alpha2/ResourceClaimTemplate', 'resource.svc.io/v1alpha2/ResourceClass']);

describe('the catalogue against kube v1.27', () => {
  const key = (r: { group: string; version: string; kind: string }) => `${r.group === '' ? '' : `${r.group}/`}${r.version}/${r.kind}`;
  it('every served kind has exactly v1.27\'s lifecycle', () => {
    const got: Record<string, APILifecycle> = {};
    for (const r of allResources()) if (r.lifecycle) got[key(r)] = r.lifecycle;
    assert.deepEqual(got, V127);
  });
  it('every alpha and beta kind has a lifecycle unless v1.27 generates none', () => {
    for (const r of allResources()) if (r.stability !== 'ga') assert.equal(r.lifecycle === undefined, NO_LIFECYCLE.has(key(r)), key(r));
  });
  it('exactly ComponentStatus and flowcontrol v1beta2 are deprecated in 1.27', () => {
    const deprecated = allResources().filter((r) => r.deprecated).map((r) => [key(r), r.deprecated]);
    assert.deepEqual(deprecated, [
      ['v1/ComponentStatus', { since: '1.19' }],
      ['flowcontrol.apiserver.svc.io/v1beta2/FlowSchema', { since: '1.26', removedIn: '1.29', replacement: { group: 'flowcontrol.apiserver.svc.io', version: 'v1beta3', kind: 'FlowSchema' } }],
      ['flowcontrol.apiserver.svc.io/v1beta2/PriorityLevelConfiguration', { since: '1.26', removedIn: '1.29', replacement: { group: 'flowcontrol.apiserver.svc.io', version: 'v1beta3', kind: 'PriorityLevelConfiguration' } }],
    ]);
  });
  it('no served kind is past its removal release (kube would not serve it)', () => {
    for (const r of allResources()) if (r.lifecycle?.removed) assert.equal(atOrBefore(r.lifecycle.removed, CURRENT_RELEASE), false, key(r));
  });
});
