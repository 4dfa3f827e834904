// NamespaceExists (validating) and NamespaceAutoProvision (mutating), both off
// by default: the older alternatives to NamespaceLifecycle. NamespaceExists
// refuses a namespaced write (create, update, delete) in a namespace that does
// not exist with the namespace's 404; NamespaceAutoProvision creates the
// missing namespace of a namespaced create instead (not on a dry run).
import { isStatusError, newInternalError } from '../../api/meta/index.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../registry/admission.js';
import type { Getter } from './common.js';
import { admissionForbiddenOf } from './common.js';

const isNotFound = (err: unknown) => isStatusError(err) && err.status.code === 404;
const isAlreadyExists = (err: unknown) => isStatusError(err) && err.status.code === 409 && err.status.reason === 'AlreadyExists';
const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));

/** Requests these plugins look at: in a namespace, not about a Namespace. */
const inNamespace = (a: AdmissionAttributes) => a.namespace !== '' && !(a.resource.group === '' && a.resource.resource === 'namespaces');

export function namespaceExists(namespaces: Getter): AdmissionPlugin {
  return {
    name: 'NamespaceExists',
    phase: 'validating',
    async admit(a) {
      if (!['CREATE', 'UPDATE', 'DELETE'].includes(a.operation) || !inNamespace(a)) return;
      try {
        await namespaces().get('', a.namespace);
      } catch (err) {
        if (isNotFound(err)) throw err;
        throw newInternalError(asError(err));
      }
    },
  };
}

/** `createNamespace` creates an empty Namespace of that name (as the API server's own client). */
export function namespaceAutoProvision(namespaces: Getter, createNamespace: (name: string) => Promise<unknown>): AdmissionPlugin {
  return {
    name: 'NamespaceAutoProvision',
    phase: 'mutating',
    sideEffects: 'NoneOnDryRun',
    async admit(a) {
      if (a.operation !== 'CREATE' || a.dryRun || !inNamespace(a)) return;
      try {
        await namespaces().get('', a.namespace);
        return;
      } catch (err) {
        if (!isNotFound(err)) throw admissionForbiddenOf(a, err);
      }
      try {
        await createNamespace(a.namespace);
      } catch (err) {
        if (!isAlreadyExists(err)) throw admissionForbiddenOf(a, err);
      }
    },
  };
}
