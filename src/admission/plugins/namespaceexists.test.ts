// NamespaceExists and NamespaceAutoProvision against a map of namespaces.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newAlreadyExists, newNotFound } from '../../api/meta/index.js';
import type { ApiObject } from '../../registry/object.js';
import type { Getter } from './common.js';
import { namespaceAutoProvision, namespaceExists } from './namespaceexists.js';
import { attrs, outcome } from './testutil.js';

function fake(names: string[]): { get: Getter; create: (n: string) => Promise<unknown>; names: Set<string> } {
  const set = new Set(names);
  return {
    names: set,
    get: () => ({ get: async (_ns: string, name: string): Promise<ApiObject> => {
      if (!set.has(name)) throw newNotFound({ group: '', resource: 'namespaces' }, name);
      return { metadata: { name } };
    } }),
    create: async (n: string) => {
      if (set.has(n)) throw newAlreadyExists({ group: '', resource: 'namespaces' }, n);
      set.add(n);
    },
  };
}
const cm = { metadata: { name: 'c' } };

describe('NamespaceExists', () => {
  const rows: [string, Parameters<typeof attrs>[0], string | undefined][] = [
    ['create in an existing namespace', { resource: 'configmaps', namespace: 'a', object: cm }, undefined],
    ['create in a missing one', { resource: 'configmaps', namespace: 'b', object: cm }, 'namespaces "b" not found'],
    ['update in a missing one', { operation: 'UPDATE', resource: 'configmaps', namespace: 'b', object: cm }, 'namespaces "b" not found'],
    ['delete in a missing one', { operation: 'DELETE', resource: 'configmaps', namespace: 'b' }, 'namespaces "b" not found'],
    ['connect is not checked', { operation: 'CONNECT', resource: 'pods', namespace: 'b' }, undefined],
    ['cluster-scoped', { resource: 'nodes', namespace: '', object: cm }, undefined],
    ['a namespace itself', { resource: 'namespaces', namespace: 'b', object: cm }, undefined],
  ];
  for (const [what, init, want] of rows) {
    it(what, async () => {
      const st = await outcome(() => namespaceExists(fake(['a']).get).admit(attrs(init)));
      assert.equal(st?.message, want);
      if (want) assert.equal(st?.code, 404);
    });
  }
  it('another error is a 500', async () => {
    const broken: Getter = () => ({ get: () => Promise.reject(new Error('db down')) });
    const st = await outcome(() => namespaceExists(broken).admit(attrs({ resource: 'configmaps', namespace: 'b', object: cm })));
    assert.deepEqual([st?.code, st?.message], [500, 'Internal error occurred: db down']);
  });
});

describe('NamespaceAutoProvision', () => {
  const rows: [string, Parameters<typeof attrs>[0], string[]][] = [
    ['creates the missing namespace', { resource: 'configmaps', namespace: 'b', object: cm }, ['a', 'b']],
    ['leaves an existing one', { resource: 'configmaps', namespace: 'a', object: cm }, ['a']],
    ['not on a dry run', { resource: 'configmaps', namespace: 'b', object: cm, dryRun: true }, ['a']],
    ['not on update', { operation: 'UPDATE', resource: 'configmaps', namespace: 'b', object: cm }, ['a']],
    ['not for a namespace', { resource: 'namespaces', namespace: 'b', object: cm }, ['a']],
    ['not cluster-scoped', { resource: 'nodes', namespace: '', object: cm }, ['a']],
  ];
  for (const [what, init, want] of rows) {
    it(what, async () => {
      const f = fake(['a']);
      await namespaceAutoProvision(f.get, f.create).admit(attrs(init));
      assert.deepEqual([...f.names], want);
    });
  }
  it('a namespace created meanwhile is fine', async () => {
    const f = fake(['a']);
    const racing: Getter = () => ({ get: async (_ns, name) => { f.names.add(name); throw newNotFound({ group: '', resource: 'namespaces' }, name); } });
    assert.equal(await outcome(() => namespaceAutoProvision(racing, f.create).admit(attrs({ resource: 'configmaps', namespace: 'b', object: cm }))), undefined);
  });
  it('a failed create is the request\'s 403', async () => {
    const f = fake([]);
    const st = await outcome(() => namespaceAutoProvision(f.get, () => Promise.reject(new Error('no room'))).admit(attrs({ resource: 'configmaps', namespace: 'b', object: cm })));
    assert.deepEqual([st?.code, st?.message], [403, 'configmaps "c" is forbidden: no room']);
  });
  it('declares its side effects as skipped on dry run', () => assert.equal(namespaceAutoProvision(fake([]).get, fake([]).create).sideEffects, 'NoneOnDryRun'));
});
