// Conflicts (spec items 4, 5, 6): an apply changing a field another manager
// owns conflicts unless forced; the three resolutions; updates never conflict
// and take ownership; the 409 message and causes exactly as Kubernetes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { field, key } from './fieldpath.js';
import { conflict, conflictCauses, conflictMessage } from './managed.js';
import { Thing } from './fixtures.js';
import { apply, forceApply, runScenario, update } from './scenario.js';

const head = 'apiVersion: v1\nkind: Thing\nmetadata: {name: t}\n';

describe('apply: conflicts', () => {
  it('item 4: a different value for a field another applier owns conflicts (keyed item field path)', () =>
    runScenario(Thing, {
      ops: [apply('a', head + 'spec: {containers: [{name: nginx, image: n:1}]}'), apply('b', head + 'spec: {containers: [{name: nginx, image: n:2}], replicas: 2}', { conflicts: ['a: .spec.containers[name="nginx"].image'] })],
      object: head + 'spec: {containers: [{name: nginx, image: n:1}]}',
      managed: { 'a/Apply': { 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } } },
    }));

  it('item 5a: force overwrites and makes the applier sole owner', () =>
    runScenario(Thing, {
      ops: [apply('a', head + 'spec: {replicas: 1, paused: true}'), forceApply('b', head + 'spec: {replicas: 2}')],
      object: head + 'spec: {replicas: 2, paused: true}',
      managed: { 'a/Apply': { 'f:spec': { 'f:paused': {} } }, 'b/Apply': { 'f:spec': { 'f:replicas': {} } } },
    }));

  it('item 5b: omitting the field leaves the value and the applier does not own it', () =>
    runScenario(Thing, {
      ops: [apply('a', head + 'spec: {replicas: 1}'), apply('b', head + 'spec: {replicas: 2, paused: true}', { conflicts: ['a: .spec.replicas'] }), apply('b', head + 'spec: {paused: true}')],
      object: head + 'spec: {replicas: 1, paused: true}',
      managed: { 'a/Apply': { 'f:spec': { 'f:replicas': {} } }, 'b/Apply': { 'f:spec': { 'f:paused': {} } } },
    }));

  it('item 5c: applying the current value shares ownership', () =>
    runScenario(Thing, {
      ops: [update('u', head + 'spec: {replicas: 4}'), apply('b', head + 'spec: {replicas: 4}')],
      object: head + 'spec: {replicas: 4}',
      // u created the object, so it also owns spec itself ("."), as Kubernetes records creates.
      managed: { 'b/Apply': { 'f:spec': { 'f:replicas': {} } }, 'u/Update': { 'f:spec': { '.': {}, 'f:replicas': {} } } },
    }));

  it('item 4: updates never conflict and take ownership from appliers', () =>
    runScenario(Thing, {
      ops: [apply('a', head + 'spec: {replicas: 1, paused: true}'), update('u', head + 'spec: {replicas: 9, paused: true}'), apply('a', head + 'spec: {replicas: 1, paused: true}', { conflicts: ['u: .spec.replicas'] })],
      object: head + 'spec: {replicas: 9, paused: true}',
      managed: { 'a/Apply': { 'f:spec': { 'f:paused': {} } }, 'u/Update': { 'f:spec': { 'f:replicas': {} } } },
    }));

  it('several conflicts list every manager and path', () =>
    runScenario(Thing, {
      ops: [apply('a', head + 'spec: {replicas: 1, paused: true}'), update('u', head + 'spec: {replicas: 1, paused: true, config: {k: v}}'), apply('b', head + 'spec: {replicas: 2, paused: false, config: {k: w}}', { conflicts: ['a: .spec.paused', 'a: .spec.replicas', 'u: .spec.config.k'] })],
      object: head + 'spec: {replicas: 1, paused: true, config: {k: v}}',
      managed: { 'a/Apply': { 'f:spec': { 'f:paused': {}, 'f:replicas': {} } }, 'u/Update': { 'f:spec': { 'f:config': { '.': {}, 'f:k': {} } } } },
    }));

  it('builds the 409 message and causes as Kubernetes', () => {
    const upd = { manager: 'mgr', operation: 'Update' as const, apiVersion: 'v1' };
    const app = { manager: 'alice', operation: 'Apply' as const, apiVersion: 'v1' };
    const one = [conflict(upd, [field('spec'), field('replicas')])];
    assert.equal(conflictMessage(one), 'Apply failed with 1 conflict: conflict with "mgr" using v1: .spec.replicas');
    assert.deepEqual(conflictCauses(one), [{ reason: 'FieldManagerConflict', message: 'conflict with "mgr" using v1', field: '.spec.replicas' }]);
    const two = [conflict(upd, [field('spec'), field('replicas')]), conflict(app, [field('spec'), field('containers'), key({ name: 'nginx' }), field('image')]), conflict(upd, [field('spec'), field('paused')])];
    assert.equal(
      conflictMessage(two),
      'Apply failed with 3 conflicts: conflicts with "alice":\n- .spec.containers[name="nginx"].image\nconflicts with "mgr" using v1:\n- .spec.replicas\n- .spec.paused',
    );
    assert.deepEqual(
      conflictCauses(two).map((c) => c.field),
      ['.spec.replicas', '.spec.containers[name="nginx"].image', '.spec.paused'],
    );
  });
});
