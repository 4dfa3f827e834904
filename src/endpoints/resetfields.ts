// Reset fields (Kubernetes' ResetFieldsStrategy.GetResetFields): what a write
// through the main resource or a subresource cannot change, because the
// strategy puts the live value back. The field manager ignores them: nobody
// gains or loses them through that write. The main resource of a kind with
// /status resets status, /status resets spec; the kinds below reset more
// (their v1.27 status and approval strategies).
import { FieldSet, field, type Path } from '../smd/fieldpath.js';

const p = (...names: string[]): Path => names.map(field);
const SPEC = p('spec');
const METADATA = p('metadata');

/** group/resource/subresource → reset paths, where they differ from the defaults. */
const RESETS: Readonly<Record<string, readonly Path[]>> = {
  'apps/deployments/status': [SPEC, p('metadata', 'labels')],
  '/pods/status': [SPEC, p('metadata', 'deletionTimestamp'), p('metadata', 'ownerReferences')],
  'certificates.svc.io/certificatesigningrequests/status': [SPEC, p('status', 'conditions')],
  'certificates.svc.io/certificatesigningrequests/approval': [SPEC, p('status', 'certificate')],
  'apiextensions.svc.io/customresourcedefinitions/status': [METADATA, SPEC],
  'apiregistration.svc.io/apiservices/status': [SPEC, METADATA],
  'storage.svc.io/volumeattachments/status': [METADATA, SPEC],
  'admissionregistration.svc.io/validatingadmissionpolicies/status': [SPEC, METADATA],
  'internal.apiserver.svc.io/storageversions/status': [METADATA, SPEC],
};

const STATUS_ONLY = FieldSet.of(p('status'));
const SPEC_ONLY = FieldSet.of(SPEC);
const sets = new Map(Object.entries(RESETS).map(([k, paths]) => [k, FieldSet.of(...paths)]));

/**
 * The fields a write through `subresource` of `group`/`resource` resets
 * (group as the catalogue spells it, '' for core): status on the main
 * resource of a kind with /status, spec (and per kind more) through /status,
 * nothing otherwise.
 */
export function resetFields(group: string, resource: string, hasStatus: boolean, subresource: string | undefined): FieldSet | undefined {
  if (!subresource) return hasStatus ? STATUS_ONLY : undefined;
  return sets.get(`${group}/${resource}/${subresource}`) ?? (subresource === 'status' ? SPEC_ONLY : undefined);
}
