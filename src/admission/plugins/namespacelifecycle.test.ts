// NamespaceLifecycle: which writes need an existing (and, for creates, not terminating) namespace.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newNotFound } from '../../api/meta/index.js';
import type { AdmissionOperation } from '../../registry/admission.js';
import type { ApiObject } from '../../registry/object.js';
import type { GenericStore } from '../../registry/store.js';
import { namespaceLifecycle } from './namespacelifecycle.js';
import { attrs, outcome } from './testutil.js';

const NAMESPACES: Record<string, ApiObject> = {
  live: { metadata: { name: 'live' } },
  doomed: { metadata: { name: 'doomed', deletionTimestamp: '2026-01-01T00:00:00Z' } },
};
/** The namespaces as a store reads them: answered at once (a current watch cache) or only asynchronously. */
const storeOf = (atOnce: boolean) => (() => ({
  getShared: async (_ns: string, name: string) => {
    if (!NAMESPACES[name]) throw newNotFound({ group: '', resource: 'namespaces' }, name);
    return NAMESPACES[name];
  },
  getSharedNow: (_ns: string, name: string) => (atOnce ? NAMESPACES[name] : undefined),
})) as unknown as () => GenericStore;
const cm: ApiObject = { metadata: { name: 'cm' } };

for (const atOnce of [false, true]) describe(`NamespaceLifecycle (namespaces read ${atOnce ? 'at once' : 'asynchronously'})`, () => {
  const plugin = namespaceLifecycle(storeOf(atOnce));
  const TERMINATING = 'configmaps "cm" is forbidden: unable to create new content in namespace doomed because it is being terminated';
  const rows: [string, AdmissionOperation, string, string, string, number | undefined, string?][] = [
    // what, operation, namespace, group, resource, code, message
    ['create in a live namespace', 'CREATE', 'live', '', 'configmaps', undefined],
    ['create in a missing namespace', 'CREATE', 'nowhere', '', 'configmaps', 404, 'namespaces "nowhere" not found'],
    ['update in a missing namespace (kube refuses every write but delete)', 'UPDATE', 'nowhere', '', 'configmaps', 404, 'namespaces "nowhere" not found'],
    ['connect in a missing namespace', 'CONNECT', 'nowhere', '', 'pods', 404, 'namespaces "nowhere" not found'],
    ['delete in a missing namespace', 'DELETE', 'nowhere', '', 'configmaps', undefined],
    ['an access review in a missing namespace', 'CREATE', 'nowhere', 'authorization.svc.io', 'localsubjectaccessreviews', undefined],
    ['create in a terminating namespace', 'CREATE', 'doomed', '', 'configmaps', 403, TERMINATING],
    ['update in a terminating namespace', 'UPDATE', 'doomed', '', 'configmaps', undefined],
  ];
  for (const [what, operation, namespace, group, resource, code, message] of rows) {
    it(what, async () => {
      const a = attrs({ operation, namespace, group, resource, object: cm, oldObject: operation === 'UPDATE' ? cm : undefined });
      const s = await outcome(() => plugin.admit(a));
      assert.equal(s?.code, code);
      if (message) assert.equal(s?.message, message);
      // a namespace read at once decides without a promise (the chain then awaits nothing)
      if (atOnce && namespace !== 'nowhere') {
        let answer: unknown;
        try {
          answer = plugin.admit(a);
        } catch {
          answer = undefined;
        }
        assert.equal(answer, undefined);
      }
    });
  }
  it('system namespaces may not be deleted', async () => {
    const s = await outcome(() => plugin.admit(attrs({ operation: 'DELETE', namespace: '', resource: 'namespaces', name: 'svc-system' })));
    assert.equal(s?.message, 'namespaces "svc-system" is forbidden: this namespace may not be deleted');
  });
});
