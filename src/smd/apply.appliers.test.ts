// Several appliers on one object: creation (spec item 1), ownership recorded per
// manager (3), shared ownership of equal values and its release (6).
import { describe, it } from 'node:test';
import { Thing } from './fixtures.js';
import { apply, runScenario } from './scenario.js';

const head = 'apiVersion: v1\nkind: Thing\nmetadata: {name: t}\n';

describe('apply: multiple appliers', () => {
  it('item 1: apply creates the object from a partial body', () =>
    runScenario(Thing, {
      ops: [apply('a', head + 'spec: {replicas: 1}')],
      object: head + 'spec: {replicas: 1}',
      managed: { 'a/Apply': { 'f:spec': { 'f:replicas': {} } } },
    }));

  it('items 3/6: disjoint fields get one owner each; equal values are shared', () =>
    runScenario(Thing, {
      ops: [apply('a', head + 'spec: {replicas: 1, paused: true}'), apply('b', head + 'spec: {replicas: 1, config: {x: "1"}}')],
      object: head + 'spec: {replicas: 1, paused: true, config: {x: "1"}}',
      managed: {
        'a/Apply': { 'f:spec': { 'f:paused': {}, 'f:replicas': {} } },
        'b/Apply': { 'f:spec': { 'f:config': { 'f:x': {} }, 'f:replicas': {} } },
      },
    }));

  it('item 6: a later change of a shared field by either co-owner conflicts with the other', () =>
    runScenario(Thing, {
      ops: [apply('a', head + 'spec: {replicas: 1}'), apply('b', head + 'spec: {replicas: 1}'), apply('b', head + 'spec: {replicas: 2}', { conflicts: ['a: .spec.replicas'] })],
      object: head + 'spec: {replicas: 1}',
      // b changed nothing, so its entry has no time and sorts first (as the reference server).
      managed: { 'b/Apply': { 'f:spec': { 'f:replicas': {} } }, 'a/Apply': { 'f:spec': { 'f:replicas': {} } } },
    }));

  it('item 6: a co-owner gives up ownership by omitting the field; the value stays', () =>
    runScenario(Thing, {
      ops: [apply('a', head + 'spec: {replicas: 1}'), apply('b', head + 'spec: {replicas: 1}'), apply('a', head), apply('b', head + 'spec: {replicas: 3}')],
      object: head + 'spec: {replicas: 3}',
      managed: { 'b/Apply': { 'f:spec': { 'f:replicas': {} } } },
    }));

  it('re-applying the same body changes nothing', () =>
    runScenario(Thing, {
      ops: [apply('a', head + 'spec: {replicas: 1}'), apply('a', head + 'spec: {replicas: 1}')],
      object: head + 'spec: {replicas: 1}',
      managed: { 'a/Apply': { 'f:spec': { 'f:replicas': {} } } },
    }));
});
