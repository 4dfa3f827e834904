// CustomResourceDefinitions (kube's apiextensions registry strategy): the
// status starts with the storage version stored, an update that changes the
// storage version adds it to status.storedVersions, and a delete first marks
// the definition Terminating with the cleanup finalizer, so the controller
// (src/apiextensions/serve/controller.ts) removes every custom resource before
// the definition goes. Kube's delete leaves the generation as it is.
import { baseStrategy, type Strategy } from '../strategy.js';
import { crdNameErrors } from '../../apiextensions/validation/index.js';
import { validateDefinition, validateDefinitionUpdate } from '../../apiextensions/definition.js';
import { isObject, type ApiObject } from '../object.js';
import { CLEANUP_FINALIZER, type CustomResourceDefinition, type CustomResourceDefinitionCondition } from '../../apiextensions/types.js';
import { setCondition } from '../../apiextensions/conditions.js';

function storageVersion(obj: ApiObject): string | undefined {
  const spec = obj.spec as CustomResourceDefinition['spec'] | undefined;
  const versions = Array.isArray(spec?.versions) ? spec.versions : [];
  return versions.find((v) => isObject(v) && v.storage === true)?.name;
}

export const customResourceDefinitions: Strategy = baseStrategy({
  namespaced: false,
  validateName: (name, prefix, obj) => crdNameErrors(name, prefix, obj?.spec as CustomResourceDefinition['spec'] | undefined),
  validate: validateDefinition,
  validateUpdate: validateDefinitionUpdate,
  tracksGeneration: true,
  hasStatus: true,
  returnDeletedObject: true,
  deletionFinalizers: [CLEANUP_FINALIZER],
  marksDeletionOnly: true,
  prepareForCreate(obj) {
    const v = storageVersion(obj);
    obj.status = { storedVersions: v ? [v] : null };
  },
  prepareForUpdate(obj, _old, subresource) {
    if (subresource === 'status') return;
    const v = storageVersion(obj);
    // The status is the live one (shared, never modified): replaced, not changed.
    const status = isObject(obj.status) ? obj.status : {};
    const stored = Array.isArray(status.storedVersions) ? (status.storedVersions as string[]) : [];
    if (v && !stored.includes(v)) obj.status = { ...status, storedVersions: [...stored, v] };
  },
  onDeletionStarted(obj) {
    const status = (isObject(obj.status) ? obj.status : {}) as { conditions?: CustomResourceDefinitionCondition[] | null };
    obj.status = { ...status, conditions: setCondition(status.conditions ?? [], {
      type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    }) };
  },
});
