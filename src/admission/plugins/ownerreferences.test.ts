// OwnerReferencesPermissionEnforcement: which changes need which permission, with kube's texts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStatusError } from '../../api/meta/index.js';
import type { Attributes, Authorizer } from '../../authz/authorizer.js';
import type { AdmissionAttributes, AdmissionOperation } from '../../registry/admission.js';
import type { ApiObject } from '../../registry/object.js';
import { catalogKindResolver, ownerReferencesPermissionEnforcement } from './ownerreferences.js';

/** Allows the requests named `verb group/resource[/subresource] name` (`*` fields as sent); records every question. */
function authorizer(allowed: string[], asked: string[] = []): Authorizer {
  return {
    name: 'test',
    authorize(a: Attributes) {
      if (!a.isResourceRequest) return { decision: 'noOpinion', reason: '' };
      const key = `${a.verb} ${a.apiGroup}/${a.resource}${a.subresource ? `/${a.subresource}` : ''} ${a.name}`;
      asked.push(key);
      return allowed.includes(key) ? { decision: 'allow', reason: '' } : { decision: 'noOpinion', reason: '' };
    },
  };
}

const rsRef = (extra: Record<string, unknown> = {}) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1', ...extra });
const pod = (refs?: unknown[]): ApiObject => ({ metadata: { name: 'p', namespace: 'ns', ...(refs ? { ownerReferences: refs as never } : {}) } });

function attrs(operation: AdmissionOperation, object: ApiObject, oldObject?: ApiObject, subresource?: string): AdmissionAttributes {
  return {
    operation, object, oldObject, resource: { group: '', version: 'v1', resource: 'pods', kind: 'Pod' }, namespace: 'ns', name: 'p',
    namespaced: true, dryRun: false, user: { name: 'u', groups: [] }, ...(subresource ? { subresource } : {}),
  };
}

const DELETE_POD = 'delete /pods p';
const FINALIZE_RS = 'update apps/replicasets/finalizers rs';
const NO_DELETE = 'pods "p" is forbidden: cannot set an ownerRef on a resource you can\'t delete: , <nil>';
const NO_FINALIZE = 'pods "p" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can\'t set finalizers on: , <nil>';

const rows: [string, AdmissionAttributes, string[], string | null][] = [
  ['no references', attrs('CREATE', pod()), [], null],
  ['references unchanged', attrs('UPDATE', pod([rsRef()]), pod([rsRef()])), [], null],
  ['a reference without delete permission', attrs('CREATE', pod([rsRef()])), [], NO_DELETE],
  ['a reference with delete permission', attrs('CREATE', pod([rsRef()])), [DELETE_POD], null],
  ['removing a reference needs delete too', attrs('UPDATE', pod([]), pod([rsRef()])), [], NO_DELETE],
  ['changing a reference field', attrs('UPDATE', pod([rsRef({ controller: true })]), pod([rsRef()])), [], NO_DELETE],
  ['blockOwnerDeletion without finalizers permission', attrs('CREATE', pod([rsRef({ blockOwnerDeletion: true })])), [DELETE_POD], NO_FINALIZE],
  ['blockOwnerDeletion with the owner\'s finalizers', attrs('CREATE', pod([rsRef({ blockOwnerDeletion: true })])), [DELETE_POD, FINALIZE_RS], null],
  ['blockOwnerDeletion with finalizers of anything', attrs('CREATE', pod([rsRef({ blockOwnerDeletion: true })])), [DELETE_POD, 'update */*/finalizers *'], null],
  ['blockOwnerDeletion already set before', attrs('UPDATE', pod([rsRef({ blockOwnerDeletion: true }), rsRef({ uid: 'u2' })]), pod([rsRef({ blockOwnerDeletion: true })])), [DELETE_POD], null],
  ['blockOwnerDeletion turned on', attrs('UPDATE', pod([rsRef({ blockOwnerDeletion: true })]), pod([rsRef({ blockOwnerDeletion: false })])), [DELETE_POD], NO_FINALIZE],
  ['blockOwnerDeletion false', attrs('CREATE', pod([rsRef({ blockOwnerDeletion: false })])), [DELETE_POD], null],
  ['an unknown owner kind', attrs('CREATE', pod([{ apiVersion: 'example.com/v1', kind: 'Foo', name: 'f', uid: 'u', blockOwnerDeletion: true }])), [DELETE_POD],
    'pods "p" is forbidden: cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion example.com/v1 Kind Foo: no matches for kind "Foo" in version "example.com/v1"'],
  ['a malformed apiVersion', attrs('CREATE', pod([{ apiVersion: 'a/b/c', kind: 'Foo', name: 'f', uid: 'u', blockOwnerDeletion: true }])), [DELETE_POD],
    'pods "p" is forbidden: cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion a/b/c Kind Foo: unexpected GroupVersion string: a/b/c'],
  ['pods/status is exempt', attrs('UPDATE', pod([rsRef()]), pod(), 'status'), [], null],
  ['deletes are not checked', { ...attrs('DELETE', pod()), object: undefined, oldObject: pod([rsRef()]) }, [], null],
];

describe('OwnerReferencesPermissionEnforcement', () => {
  it('is a validating plugin', () => assert.equal(ownerReferencesPermissionEnforcement({ authorizer: authorizer([]) }).phase, 'validating'));
  for (const [what, a, allowed, want] of rows) {
    it(what, async () => {
      const plugin = ownerReferencesPermissionEnforcement({ authorizer: authorizer(allowed) });
      try {
        await plugin.admit(a);
        assert.equal(want, null, 'admitted, expected a refusal');
      } catch (err) {
        if (!isStatusError(err) || want === null) throw err;
        assert.equal(err.status.code, 403);
        assert.equal(err.status.message, want);
      }
    });
  }
  it('asks for the owner\'s finalizers in the dependent\'s namespace, with the reason and error the authorizer gave', async () => {
    const seen: Attributes[] = [];
    const plugin = ownerReferencesPermissionEnforcement({
      authorizer: {
        name: 't',
        authorize: (q) => {
          seen.push(q);
          return q.verb === 'delete' ? { decision: 'allow', reason: '' } : { decision: 'deny', reason: 'no way', error: 'webhook down' };
        },
      },
    });
    await assert.rejects(async () => plugin.admit(attrs('CREATE', pod([rsRef({ blockOwnerDeletion: true })]))), (err: unknown) =>
      isStatusError(err) && !!err.status.message?.endsWith("can't set finalizers on: no way, webhook down"));
    const last = seen.at(-1)!;
    assert.ok(last.isResourceRequest);
    assert.deepEqual({ ...last, user: undefined }, {
      user: undefined, verb: 'update', isResourceRequest: true, path: '', apiGroup: 'apps', apiVersion: 'v1', namespace: 'ns',
      resource: 'replicasets', subresource: 'finalizers', name: 'rs',
    });
  });
  it('maps kinds through the catalogue, either spelling', () => {
    assert.deepEqual(catalogKindResolver('apps', 'v1', 'Deployment'), ['deployments']);
    assert.deepEqual(catalogKindResolver('', 'v1', 'Node'), ['nodes']);
    assert.deepEqual(catalogKindResolver('rbac.authorization.k8s.io', 'v1', 'Role'), ['roles']);
    assert.deepEqual(catalogKindResolver('apps', 'v1', 'Nope'), []);
  });
});
