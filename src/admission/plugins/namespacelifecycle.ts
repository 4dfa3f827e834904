// NamespaceLifecycle: a namespaced object may only be written (created,
// updated, connected to) in a namespace that exists — deletes and access
// reviews are always allowed — and only created in one that is not
// terminating; the system namespaces cannot be deleted.
import { newForbidden, newNotFound, isStatusError } from '../../api/meta/index.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../registry/admission.js';
import type { GenericStore } from '../../registry/store.js';

export const SYSTEM_NAMESPACES = ['default', 'svc-system', 'svc-public'] as const;

/** A local access review answers about a namespace without its existing (kube: telling would leak it). */
const isAccessReview = (a: AdmissionAttributes) => a.resource.group === 'authorization.svc.io' && a.resource.resource === 'localsubjectaccessreviews';

export function namespaceLifecycle(namespaces: () => GenericStore): AdmissionPlugin {
  return {
    name: 'NamespaceLifecycle',
    async admit(a: AdmissionAttributes) {
      if (a.resource.group === '' && a.resource.resource === 'namespaces') {
        if (a.operation === 'DELETE' && (SYSTEM_NAMESPACES as readonly string[]).includes(a.name)) {
          throw newForbidden({ group: '', resource: 'namespaces' }, a.name, 'this namespace may not be deleted');
        }
        return;
      }
      if (!a.namespaced || a.operation === 'DELETE' || isAccessReview(a)) return;
      let ns;
      try {
        ns = await namespaces().getShared('', a.namespace);
      } catch (err) {
        if (isStatusError(err) && err.status.code === 404) throw newNotFound({ group: '', resource: 'namespaces' }, a.namespace);
        throw err;
      }
      if (a.operation === 'CREATE' && ns.metadata.deletionTimestamp) {
        const err = newForbidden({ group: a.resource.group, resource: a.resource.resource }, a.name, `unable to create new content in namespace ${a.namespace} because it is being terminated`);
        // As kube's lifecycle plugin: a cause clients test for (v1.NamespaceTerminatingCause) on the namespace field.
        err.status.details!.causes = [{ reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' }];
        throw err;
      }
    },
  };
}
