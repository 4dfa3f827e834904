// Test helpers for the plugin tests: attributes for a request, and the Status of a thrown error.
import { isStatusError } from '../../api/meta/index.js';
import type { Status } from '../../api/meta/index.js';
import type { AdmissionAttributes, AdmissionOperation } from '../../registry/admission.js';
import type { ApiObject } from '../../registry/object.js';

export interface AttrsInit {
  operation?: AdmissionOperation;
  group?: string;
  resource?: string;
  kind?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  object?: ApiObject;
  oldObject?: ApiObject;
  dryRun?: boolean;
}

export function attrs(init: AttrsInit): AdmissionAttributes {
  const object = init.object;
  return {
    operation: init.operation ?? 'CREATE',
    object,
    oldObject: init.oldObject,
    resource: { group: init.group ?? '', version: 'v1', resource: init.resource ?? 'pods', kind: init.kind ?? '' },
    namespace: init.namespace ?? 'ns',
    name: init.name ?? object?.metadata.name ?? '',
    namespaced: (init.namespace ?? 'ns') !== '',
    dryRun: init.dryRun ?? false,
    user: undefined,
    ...(init.subresource ? { subresource: init.subresource } : {}),
  } as AdmissionAttributes;
}

/** The Status a call rejected with, or undefined when it passed. */
export async function outcome(f: () => unknown): Promise<Status | undefined> {
  try {
    await f();
    return undefined;
  } catch (err) {
    if (isStatusError(err)) return err.status;
    throw err;
  }
}
