// Registry routing: which store serves a group/resource in either spelling,
// shared storage, and custom resources coming and going (remembered routes
// must follow).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore } from '../storage/open.js';
import { Admission } from './admission.js';
import { Registry, type CustomKind, type ServedResource } from './registry.js';
import { servedResources } from '../server/served.js';
import { strategyFor } from './strategies/index.js';

const widget = (storageVersion: string): ServedResource => ({
  group: 'example.com', version: storageVersion, resource: 'widgets', kind: 'Widget', namespaced: true,
  verbs: ['get', 'list', 'create'], subresources: [], storageVersion, custom: {} as CustomKind,
});
const strategy = strategyFor({ group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget' }, true);

test('store(): either group spelling, shared storage, custom resources served and withdrawn', async () => {
  const storage = await openStore({ backend: 'sqlite', sqlitePath: ':memory:' });
  const registry = new Registry(servedResources(), storage, new Admission(), { watchCache: false });
  try {
    const roles = registry.store('rbac.authorization.svc.io', 'roles');
    assert.equal(registry.store('rbac.authorization.k8s.io', 'roles'), roles);
    assert.equal(registry.store('rbac.authorization.svc.io', 'roles'), roles, 'asked again: the same store');
    // events.svc.io events are core events
    assert.equal(registry.store('events.k8s.io', 'events'), registry.store('', 'events'));
    assert.equal(registry.has('', 'pods'), true);
    for (const [g, r] of [['', 'nothings'], ['made.up', 'pods'], ['example.com', 'widgets']]) {
      assert.equal(registry.has(g!, r!), false, `${g}/${r}`);
      assert.throws(() => registry.store(g!, r!), new RegExp(`no store for ${g}/${r}`));
    }

    await registry.serveCustom([widget('v1')], strategy);
    const v1 = registry.store('example.com', 'widgets');
    assert.equal(v1.identity.version, 'v1');
    assert.equal(registry.has('example.com', 'widgets'), true);
    // a new storage version is a new store: the route asked before follows
    await registry.serveCustom([widget('v2')], strategy);
    const v2 = registry.store('example.com', 'widgets');
    assert.notEqual(v2, v1);
    assert.equal(v2.identity.version, 'v2');
    registry.unserveCustom('example.com', 'widgets');
    assert.equal(registry.has('example.com', 'widgets'), false);
    assert.throws(() => registry.store('example.com', 'widgets'), /no store for example.com\/widgets/);
  } finally {
    await storage.close();
  }
});
