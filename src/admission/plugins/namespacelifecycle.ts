// NamespaceLifecycle: a namespaced object may only be written (created,
// updated, connected to) in a namespace that exists — deletes and access
// reviews are always allowed — and only created in one that is not
// terminating; the system namespaces cannot be deleted.
import { newForbidden, newNotFound, isStatusError } from '../../api/meta/index.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../registry/admission.js';
import type { GenericStore } from '../../registry/store.js';
import type { ApiObject } from '../../registry/object.js';
import { andThen } from './common.js';

export const SYSTEM_NAMESPACES = ['default', 'svc-system', 'svc-public'] as const;

/** A local access review answers about a namespace without its existing (kube: telling would leak it). */
const isAccessReview = (a: AdmissionAttributes) => a.resource.group === 'authorization.svc.io' && a.resource.resource === 'localsubjectaccessreviews';

export function namespaceLifecycle(namespaces: () => GenericStore): AdmissionPlugin {
  return {
    name: 'NamespaceLifecycle',
    admit(a: AdmissionAttributes) {
      if (a.resource.group === '' && a.resource.resource === 'namespaces') {
        if (a.operation === 'DELETE' && (SYSTEM_NAMESPACES as readonly string[]).includes(a.name)) {
          throw newForbidden({ group: '', resource: 'namespaces' }, a.name, 'this namespace may not be deleted');
        }
        return;
      }
      if (!a.namespaced || a.operation === 'DELETE' || isAccessReview(a)) return;
      const store = namespaces();
      return andThen(store.getSharedNow('', a.namespace) ?? read(store, a.namespace), (ns) => {
        if (a.operation !== 'CREATE' || !ns.metadata.deletionTimestamp) return;
        const err = newForbidden({ group: a.resource.group, resource: a.resource.resource }, a.name, `unable to create new content in namespace ${a.namespace} because it is being terminated`);
        // As kube's lifecycle plugin: a cause clients test for (v1.NamespaceTerminatingCause) on the namespace field.
        err.status.details!.causes = [{ reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' }];
        throw err;
      });
    },
  };
}

/** The namespace from the store (a consistent read), NotFound as the namespace's. */
async function read(store: GenericStore, name: string): Promise<ApiObject> {
  try {
    return await store.getShared('', name);
  } catch (err) {
    if (isStatusError(err) && err.status.code === 404) throw newNotFound({ group: '', resource: 'namespaces' }, name);
    throw err;
  }
}
