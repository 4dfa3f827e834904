// The RBAC write rules (kube v1.27 policybased storage) on a registry of
// fixed objects: who passes, which check answers, and with which error.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newNotFound, isStatusError } from '../../api/meta/index.js';
import type { Attributes, Authorizer } from '../authorizer.js';
import type { HookContext, WriteHooks } from '../../registry/hooks.js';
import type { ApiObject } from '../../registry/object.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceRequestInfo } from '../../endpoints/requestinfo.js';
import { installEscalationChecks, onlyGCFieldsChange } from './policybased.js';

const G = 'rbac.authorization.svc.io';

/** A registry of fixed RBAC objects: get/list read them; useHooks keeps each store's hooks. */
function fakeRegistry(objects: Record<string, ApiObject[]>) {
  const hooks: Record<string, WriteHooks> = {};
  const registry = {
    store(group: string, resource: string) {
      assert.equal(group, G);
      const all = objects[resource] ?? [];
      return {
        useHooks: (h: WriteHooks) => void (hooks[resource] = h),
        async get(ns: string, name: string) {
          const o = all.find((x) => x.metadata.name === name && (x.metadata.namespace ?? '') === ns);
          if (!o) throw newNotFound({ group: G, resource }, name);
          return o;
        },
        list: async (ns: string) => ({ items: all.filter((x) => ns === '' || x.metadata.namespace === ns), resourceVersion: '1' }),
      };
    },
  } as unknown as Registry;
  return { registry, hooks };
}

const obj = (name: string, ns: string | undefined, body: Record<string, unknown>): ApiObject => ({ metadata: { name, ...(ns ? { namespace: ns } : {}) }, ...body }) as ApiObject;
const binding = (name: string, ns: string | undefined, ref: { kind: string; name: string }, subject: { kind: string; name: string }) =>
  obj(name, ns, { roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...ref }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', ...subject }] });

const objects = {
  roles: [obj('pods', 'ns', { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] })],
  clusterroles: [obj('admin', undefined, { rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceURLs: ['*'], verbs: ['*'] }] })],
  rolebindings: [binding('alice-pods', 'ns', { kind: 'Role', name: 'pods' }, { kind: 'User', name: 'alice' })],
  clusterrolebindings: [binding('root', undefined, { kind: 'ClusterRole', name: 'admin' }, { kind: 'User', name: 'root' })],
};

/** An authorizer that records what it was asked and allows the listed `verb resource name` triples. */
function recording(allowed: string[] = []) {
  const asked: Attributes[] = [];
  const authorizer: Authorizer = {
    name: 'test',
    authorize(a) {
      asked.push(a);
      const key = a.isResourceRequest ? `${a.verb} ${a.resource} ${a.name}` : '';
      return { decision: allowed.includes(key) ? 'allow' : 'noOpinion', reason: '' };
    },
  };
  return { authorizer, asked };
}

const alice = { name: 'alice', groups: ['system:authenticated'] };
const info = (resource: string, name: string, ns = 'ns', group = 'rbac.authorization.k8s.io'): ResourceRequestInfo => ({
  isResourceRequest: true, path: '/x', verb: name ? 'update' : 'create', apiPrefix: 'apis', apiGroup: group, apiVersion: 'v1',
  namespace: ns, resource, subresource: '', name, parts: [],
});
const ctx = (user = alice, requestInfo?: ResourceRequestInfo): HookContext => ({ dryRun: false, user, ...(requestInfo ? { requestInfo } : {}) });

async function refusal(p: Promise<unknown> | undefined): Promise<{ code: number; message: string } | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    assert.ok(isStatusError(err), String(err));
    return { code: err.status.code!, message: err.status.message! };
  }
}

const HEAD = 'user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n';
const deletePods = { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['delete'] }] };

describe('roles and clusterroles', () => {
  it('a role within the user\'s rules passes; one beyond is 403 in the request spelling', async () => {
    const { registry, hooks } = fakeRegistry(objects);
    installEscalationChecks(registry, { authorizer: recording().authorizer });
    assert.equal(await refusal(hooks.roles!.beforeCreate!(obj('r', 'ns', { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }), ctx(alice, info('roles', '')))), undefined);
    assert.deepEqual(await refusal(hooks.roles!.beforeCreate!(obj('r', 'ns', deletePods), ctx(alice, info('roles', '', 'ns', G)))), {
      code: 403, message: `roles.${G} "r" is forbidden: ${HEAD}{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}`,
    });
  });

  it('system:masters and writes without a user pass without asking anyone', async () => {
    const { registry, hooks } = fakeRegistry(objects);
    const rec = recording();
    installEscalationChecks(registry, { authorizer: rec.authorizer });
    assert.equal(await refusal(hooks.roles!.beforeCreate!(obj('r', 'ns', deletePods), ctx({ name: 'x', groups: ['system:masters'] }))), undefined);
    assert.equal(await refusal(hooks.roles!.beforeCreate!(obj('r', 'ns', deletePods), { dryRun: false })), undefined);
    assert.equal(rec.asked.length, 0);
  });

  it('escalate is asked on the request\'s role: a POST names none, a PUT names it', async () => {
    const { registry, hooks } = fakeRegistry(objects);
    const rec = recording(['escalate roles r']);
    installEscalationChecks(registry, { authorizer: rec.authorizer });
    assert.equal((await refusal(hooks.roles!.beforeCreate!(obj('r', 'ns', deletePods), ctx(alice, info('roles', '')))))?.code, 403);
    assert.equal(await refusal(hooks.roles!.beforeCreate!(obj('r', 'ns', deletePods), ctx(alice, info('roles', 'r')))), undefined);
    const a = rec.asked[1]!;
    assert.ok(a.isResourceRequest);
    assert.deepEqual([a.verb, a.apiGroup, a.apiVersion, a.resource, a.name, a.namespace], ['escalate', 'rbac.authorization.k8s.io', '*', 'roles', 'r', 'ns']);
  });

  it('an aggregationRule takes full authority, on create and when an update drops it', async () => {
    const { registry, hooks } = fakeRegistry({ ...objects, clusterrolebindings: [...objects.clusterrolebindings, binding('a', undefined, { kind: 'ClusterRole', name: 'pods-only' }, { kind: 'User', name: 'alice' })], clusterroles: [...objects.clusterroles, obj('pods-only', undefined, { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['*'] }] })] });
    installEscalationChecks(registry, { authorizer: recording().authorizer });
    const aggregated = obj('agg', undefined, { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] }, rules: [] });
    const msg = `clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule`;
    assert.deepEqual(await refusal(hooks.clusterroles!.beforeCreate!(aggregated, ctx(alice, info('clusterroles', '', '')))), { code: 403, message: msg });
    const plain = obj('agg', undefined, { rules: [], metadata: { name: 'agg', labels: { x: 'y' } } });
    assert.deepEqual(await refusal(hooks.clusterroles!.beforeUpdate!(plain, aggregated, ctx(alice, info('clusterroles', 'agg', '')))), { code: 403, message: msg });
    assert.equal(await refusal(hooks.clusterroles!.beforeCreate!(obj('p', undefined, { rules: [] }), ctx(alice, info('clusterroles', '', '')))), undefined);
    // root holds everything.
    assert.equal(await refusal(hooks.clusterroles!.beforeCreate!(aggregated, ctx({ name: 'root', groups: [] }, info('clusterroles', '', '')))), undefined);
  });

  it('an update that changes only ownerReferences and finalizers is not checked', async () => {
    const { registry, hooks } = fakeRegistry(objects);
    installEscalationChecks(registry, { authorizer: recording().authorizer });
    const old = obj('r', 'ns', { ...deletePods, metadata: { name: 'r', namespace: 'ns', resourceVersion: '5', finalizers: ['f'] } });
    const gc = obj('r', 'ns', { ...deletePods, metadata: { name: 'r', namespace: 'ns', ownerReferences: [{ uid: 'u' }] } });
    assert.equal(await refusal(hooks.roles!.beforeUpdate!(gc, old, ctx(alice, info('roles', 'r')))), undefined);
    const labelled = obj('r', 'ns', { ...deletePods, metadata: { name: 'r', namespace: 'ns', resourceVersion: '5', finalizers: ['f'], labels: { a: 'b' } } });
    assert.equal((await refusal(hooks.roles!.beforeUpdate!(labelled, old, ctx(alice, info('roles', 'r')))))?.code, 403);
  });
});

describe('rolebindings and clusterrolebindings', () => {
  it('binding a held role passes; bind on the referenced role passes; otherwise 403', async () => {
    const { registry, hooks } = fakeRegistry(objects);
    const rec = recording(['bind clusterroles admin']);
    installEscalationChecks(registry, { authorizer: rec.authorizer });
    assert.equal(await refusal(hooks.rolebindings!.beforeCreate!(binding('b', 'ns', { kind: 'Role', name: 'pods' }, { kind: 'User', name: 'bob' }), ctx(alice, info('rolebindings', '')))), undefined);
    assert.equal(await refusal(hooks.rolebindings!.beforeCreate!(binding('b', 'ns', { kind: 'ClusterRole', name: 'admin' }, { kind: 'User', name: 'bob' }), ctx(alice, info('rolebindings', '')))), undefined);
    const bind = rec.asked.at(-1)!;
    assert.ok(bind.isResourceRequest);
    assert.deepEqual([bind.verb, bind.apiGroup, bind.resource, bind.name, bind.namespace], ['bind', 'rbac.authorization.k8s.io', 'clusterroles', 'admin', 'ns']);
    const { registry: r2, hooks: h2 } = fakeRegistry(objects);
    installEscalationChecks(r2, { authorizer: recording().authorizer });
    assert.deepEqual(await refusal(h2.clusterrolebindings!.beforeCreate!(binding('c', undefined, { kind: 'ClusterRole', name: 'admin' }, { kind: 'User', name: 'bob' }), ctx(alice, info('clusterrolebindings', '', '')))), {
      code: 403,
      message: `clusterrolebindings.rbac.authorization.k8s.io "c" is forbidden: ${HEAD}{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}`,
    });
  });

  it('the referenced role: missing is 404, a Role from a ClusterRoleBinding 400, an unknown kind 500', async () => {
    const { registry, hooks } = fakeRegistry(objects);
    installEscalationChecks(registry, { authorizer: recording().authorizer });
    assert.deepEqual(await refusal(hooks.rolebindings!.beforeCreate!(binding('b', 'ns', { kind: 'Role', name: 'ghost' }, { kind: 'User', name: 'bob' }), ctx(alice, info('rolebindings', '')))), {
      code: 404, message: 'roles.rbac.authorization.k8s.io "ghost" not found',
    });
    assert.deepEqual(await refusal(hooks.clusterrolebindings!.beforeCreate!(binding('c', undefined, { kind: 'Role', name: 'pods' }, { kind: 'User', name: 'bob' }), ctx(alice, info('clusterrolebindings', '', '')))), {
      code: 400, message: 'Namespace parameter required.',
    });
    assert.deepEqual(await refusal(hooks.rolebindings!.beforeCreate!(binding('b', 'ns', { kind: 'Deployment', name: 'x' }, { kind: 'User', name: 'bob' }), ctx(alice, info('rolebindings', '')))), {
      code: 500, message: 'Internal error occurred: unsupported role reference kind: "Deployment"',
    });
  });

  it('the user\'s own bindings to missing roles are resolution errors in the message', async () => {
    const { registry, hooks } = fakeRegistry({ ...objects, rolebindings: [...objects.rolebindings, binding('broken', 'ns', { kind: 'Role', name: 'gone' }, { kind: 'User', name: 'alice' })] });
    installEscalationChecks(registry, { authorizer: recording().authorizer });
    const r = await refusal(hooks.roles!.beforeCreate!(obj('r', 'ns', deletePods), ctx(alice, info('roles', ''))));
    assert.equal(r?.message, `roles.rbac.authorization.k8s.io "r" is forbidden: ${HEAD}{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}; resolution errors: [roles.${G} "gone" not found]`);
  });
});

describe('onlyGCFieldsChange', () => {
  const base = { metadata: { name: 'r', resourceVersion: '3' }, rules: [] } as unknown as ApiObject;
  const rows: [string, ApiObject, boolean][] = [
    ['nothing changed (rules [] and absent are equal)', { metadata: { name: 'r' } } as ApiObject, true],
    ['finalizers added', { metadata: { name: 'r', finalizers: ['x'] }, rules: [] } as unknown as ApiObject, true],
    ['ownerReferences added', { metadata: { name: 'r', ownerReferences: [{ uid: 'u' }] }, rules: [] } as unknown as ApiObject, true],
    ['a label added', { metadata: { name: 'r', labels: { a: 'b' } }, rules: [] } as unknown as ApiObject, false],
    ['a rule added', { metadata: { name: 'r' }, rules: [{ verbs: ['get'] }] } as unknown as ApiObject, false],
  ];
  for (const [name, next, want] of rows) it(name, () => assert.equal(onlyGCFieldsChange(next, base), want));
});
