// The `request` variable: kube's AdmissionRequest as unstructured JSON.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { admissionRequestOf } from './request.js';
import type { AdmissionAttributes } from '../../registry/admission.js';

const base: AdmissionAttributes = {
  operation: 'CREATE', object: undefined, oldObject: undefined, namespace: 'ns', name: 'n', namespaced: true, dryRun: false,
  resource: { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' }, user: { name: 'alice', groups: ['devs', 'system:authenticated'] },
};
const id = { resource: { group: '', version: 'v1', resource: 'configmaps' }, kind: { group: '', version: 'v1', kind: 'ConfigMap' }, subresource: '' };

describe('request variable', () => {
  it('omits what Go omits when empty; both kinds and resources are the request\'s', () => {
    assert.deepEqual(admissionRequestOf(base, id), {
      uid: '', kind: { group: '', version: 'v1', kind: 'ConfigMap' }, resource: { group: '', version: 'v1', resource: 'configmaps' },
      requestKind: { group: '', version: 'v1', kind: 'ConfigMap' }, requestResource: { group: '', version: 'v1', resource: 'configmaps' },
      name: 'n', namespace: 'ns', operation: 'CREATE', userInfo: { username: 'alice', groups: ['devs', 'system:authenticated'] }, dryRun: false,
    });
  });
  it('a cluster-scoped subresource write with options, groups in the k8s.io spelling, the user\'s uid and extra', () => {
    const r = admissionRequestOf({ ...base, namespace: '', name: 'p', dryRun: true, user: { name: 'u', uid: 'id', groups: [], extra: { scopes: ['a'] } }, options: { kind: 'UpdateOptions' } },
      { resource: { group: 'admissionregistration.svc.io', version: 'v1alpha1', resource: 'validatingadmissionpolicies' }, kind: { group: 'admissionregistration.svc.io', version: 'v1alpha1', kind: 'ValidatingAdmissionPolicy' }, subresource: 'status' });
    assert.deepEqual(r, {
      uid: '', kind: { group: 'admissionregistration.k8s.io', version: 'v1alpha1', kind: 'ValidatingAdmissionPolicy' },
      resource: { group: 'admissionregistration.k8s.io', version: 'v1alpha1', resource: 'validatingadmissionpolicies' }, subResource: 'status',
      requestKind: { group: 'admissionregistration.k8s.io', version: 'v1alpha1', kind: 'ValidatingAdmissionPolicy' },
      requestResource: { group: 'admissionregistration.k8s.io', version: 'v1alpha1', resource: 'validatingadmissionpolicies' }, requestSubResource: 'status',
      name: 'p', operation: 'CREATE', userInfo: { username: 'u', uid: 'id', extra: { scopes: ['a'] } }, dryRun: true, options: { kind: 'UpdateOptions' },
    });
  });
});
