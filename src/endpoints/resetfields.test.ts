// Reset fields per resource and subresource, as the v1.27 strategies'
// GetResetFields list them (the field manager ignores them).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pathToString } from '../smd/fieldpath.js';
import { resetFields } from './resetfields.js';

describe('resetfields: what a write cannot change, by resource and subresource', () => {
  const rows: [why: string, group: string, resource: string, hasStatus: boolean, subresource: string | undefined, want: string[] | undefined][] = [
    ['the main resource of a kind with /status resets status (every strategy\'s GetResetFields)', 'apps', 'deployments', true, undefined, ['.status']],
    ['a kind without /status resets nothing', '', 'configmaps', false, undefined, undefined],
    ['/status resets spec (rsStatusStrategy and most others)', 'apps', 'replicasets', true, 'status', ['.spec']],
    ['deploymentStatusStrategy also resets metadata.labels', 'apps', 'deployments', true, 'status', ['.metadata.labels', '.spec']],
    ['podStatusStrategy also resets metadata.deletionTimestamp and ownerReferences', '', 'pods', true, 'status', ['.metadata.deletionTimestamp', '.metadata.ownerReferences', '.spec']],
    ['csrStatusStrategy resets spec and status.conditions', 'certificates.svc.io', 'certificatesigningrequests', true, 'status', ['.spec', '.status.conditions']],
    ['csrApprovalStrategy resets spec and status.certificate', 'certificates.svc.io', 'certificatesigningrequests', true, 'approval', ['.spec', '.status.certificate']],
    ['the CRD status strategy resets metadata and spec', 'apiextensions.svc.io', 'customresourcedefinitions', true, 'status', ['.metadata', '.spec']],
    ['apiServerStatusStrategy resets spec and metadata', 'apiregistration.svc.io', 'apiservices', true, 'status', ['.metadata', '.spec']],
    ['volumeAttachmentStatusStrategy resets metadata and spec', 'storage.svc.io', 'volumeattachments', true, 'status', ['.metadata', '.spec']],
    ['the ValidatingAdmissionPolicy status strategy resets spec and metadata', 'admissionregistration.svc.io', 'validatingadmissionpolicies', true, 'status', ['.metadata', '.spec']],
    ['storageVersionStatusStrategy resets metadata and spec', 'internal.apiserver.svc.io', 'storageversions', true, 'status', ['.metadata', '.spec']],
    ['the scale subresource has no reset fields (ScaleREST is no ResetFieldsStrategy)', 'apps', 'deployments', true, 'scale', undefined],
  ];
  for (const [why, group, resource, hasStatus, sub, want] of rows) {
    it(why, () => assert.deepEqual(resetFields(group, resource, hasStatus, sub)?.paths().map(pathToString), want));
  }
});
