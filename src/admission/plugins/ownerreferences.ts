// OwnerReferencesPermissionEnforcement (kube v1.27 plugin/pkg/admission/gc):
// on create and update, whoever changes an object's metadata.ownerReferences
// must be allowed to delete the object; whoever newly sets
// blockOwnerDeletion on a reference must be allowed to update the owner's
// `finalizers` subresource (the owner's resource found from the reference's
// apiVersion and kind). pods/status is exempt (its strategy keeps the
// references).
import { lookupKind } from '../../api/catalog/index.js';
import type { Attributes, Authorizer, Decision } from '../../authz/authorizer.js';
import type { UserInfo } from '../../authn/user.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../registry/admission.js';
import { deepEqual, isObject, type ApiObject } from '../../registry/object.js';
import { admissionForbidden } from './common.js';

/**
 * The resources serving a kind in a group-version (kube's RESTMapper); empty
 * when none does. The default knows the built-in catalogue; the chain passes
 * one that also knows custom resources.
 */
export type KindResolver = (group: string, version: string, kind: string) => readonly string[];

export const catalogKindResolver: KindResolver = (group, version, kind) => {
  const r = lookupKind(group, version, kind);
  return r ? [r.resource] : [];
};

export interface OwnerReferencesOptions {
  readonly authorizer: Authorizer;
  readonly resolveKind?: KindResolver;
}

type Ref = Record<string, unknown>;
const refsOf = (o: ApiObject | undefined): Ref[] =>
  Array.isArray(o?.metadata.ownerReferences) ? (o!.metadata.ownerReferences as unknown[]).map((r) => (isObject(r) ? r : {})) : [];
const str = (v: unknown) => (typeof v === 'string' ? v : '');

function changesOwnerReferences(obj: ApiObject | undefined, old: ApiObject | undefined): boolean {
  const now = refsOf(obj);
  if (old === undefined) return now.length > 0;
  const before = refsOf(old);
  return now.length !== before.length || now.some((r, i) => !deepEqual(r, before[i]));
}

/** References that block their owner's deletion now and did not before (new, or turned from unset/false to true). */
function newBlockingRefs(obj: ApiObject | undefined, old: ApiObject | undefined): Ref[] {
  const blocking = refsOf(obj).filter((r) => r.blockOwnerDeletion === true);
  if (old === undefined) return blocking;
  const before = new Map(refsOf(old).map((r) => [str(r.uid), r]));
  return blocking.filter((r) => before.get(str(r.uid))?.blockOwnerDeletion !== true);
}

/** kube's schema.ParseGroupVersion. */
function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  throw new Error(`unexpected GroupVersion string: ${apiVersion}`);
}

/** The reason and error as kube prints them (`%v, %v`: an absent error is `<nil>`). */
const why = (d: Decision) => `${d.reason}, ${d.error ?? '<nil>'}`;

function request(user: UserInfo, verb: string, fields: { apiGroup: string; apiVersion: string; namespace: string; resource: string; subresource: string; name: string }): Attributes {
  return { user, verb, isResourceRequest: true, path: '', ...fields };
}

export function ownerReferencesPermissionEnforcement(opts: OwnerReferencesOptions): AdmissionPlugin {
  const resolveKind = opts.resolveKind ?? catalogKindResolver;
  return {
    name: 'OwnerReferencesPermissionEnforcement',
    phase: 'validating',
    async admit(a) {
      if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
      if (a.resource.group === '' && a.resource.resource === 'pods' && a.subresource === 'status') return;
      if (!changesOwnerReferences(a.object, a.oldObject)) return;
      const user = a.user ?? { name: '', groups: [] };
      const forbid = (message: string) => admissionForbidden(a, message);

      const del = await opts.authorizer.authorize(request(user, 'delete', {
        apiGroup: a.resource.group, apiVersion: a.resource.version, namespace: a.namespace,
        resource: a.resource.resource, subresource: a.subresource ?? '', name: a.name,
      }));
      if (del.decision !== 'allow') throw forbid(`cannot set an ownerRef on a resource you can't delete: ${why(del)}`);

      const blocking = newBlockingRefs(a.object, a.oldObject);
      if (blocking.length === 0) return;
      // one question first: may the user finalize anything at all?
      const anything = await opts.authorizer.authorize(request(user, 'update', {
        apiGroup: '*', apiVersion: '*', namespace: '', resource: '*', subresource: 'finalizers', name: '*',
      }));
      if (anything.decision === 'allow') return;
      for (const ref of blocking) {
        for (const record of ownerRecords(ref, a, user, resolveKind, forbid)) {
          const d = await opts.authorizer.authorize(record);
          if (d.decision !== 'allow') throw forbid(`cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: ${why(d)}`);
        }
      }
    },
  };
}

/** An update of the owner's finalizers for every resource its kind maps to (owners live in the dependent's namespace). */
function ownerRecords(ref: Ref, a: AdmissionAttributes, user: UserInfo, resolveKind: KindResolver, forbid: (m: string) => Error): Attributes[] {
  const apiVersion = str(ref.apiVersion);
  const kind = str(ref.kind);
  let gv: { group: string; version: string };
  let resources: readonly string[];
  try {
    gv = parseGroupVersion(apiVersion);
    resources = resolveKind(gv.group, gv.version, kind);
    if (resources.length === 0) throw new Error(`no matches for kind ${JSON.stringify(kind)} in version ${JSON.stringify(apiVersion)}`);
  } catch (err) {
    throw forbid(`cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion ${apiVersion} Kind ${kind}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return resources.map((resource) => request(user, 'update', {
    apiGroup: gv.group, apiVersion: gv.version, namespace: a.namespace, resource, subresource: 'finalizers', name: str(ref.name),
  }));
}
