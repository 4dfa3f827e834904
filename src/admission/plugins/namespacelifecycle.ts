// NamespaceLifecycle: objects may only be created in a namespace that exists
// and is not terminating; the system namespaces cannot be deleted.
import { newForbidden, newNotFound, isStatusError } from '../../api/meta/index.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../registry/admission.js';
import type { GenericStore } from '../../registry/store.js';

export const SYSTEM_NAMESPACES = ['default', 'svc-system', 'svc-public'] as const;

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
      if (a.operation !== 'CREATE' || !a.namespaced) return;
      let ns;
      try {
        ns = await namespaces().getShared('', a.namespace);
      } catch (err) {
        if (isStatusError(err) && err.status.code === 404) throw newNotFound({ group: '', resource: 'namespaces' }, a.namespace);
        throw err;
      }
      if (ns.metadata.deletionTimestamp) {
        const err = newForbidden({ group: a.resource.group, resource: a.resource.resource }, a.name, `unable to create new content in namespace ${a.namespace} because it is being terminated`);
        // As kube's lifecycle plugin: a cause clients test for (v1.NamespaceTerminatingCause) on the namespace field.
        err.status.details!.causes = [{ reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' }];
        throw err;
      }
    },
  };
}
