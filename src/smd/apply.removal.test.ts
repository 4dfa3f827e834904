// Removal (spec item 7): what an applier applied before and omits now is
// removed unless another manager owns it — fields, map entries, keyed items,
// set values; controllers (item 10) and the ownership handover (item 12).
import { describe, it } from 'node:test';
import { Thing } from './fixtures.js';
import { apply, forceApply, runScenario, update } from './scenario.js';

const head = 'apiVersion: v1\nkind: Thing\nmetadata: {name: t}\n';

describe('apply: removal of omitted fields', () => {
  it('item 7: an omitted field, map entry, keyed item and set value owned by nobody else are removed', () =>
    runScenario(Thing, {
      ops: [
        apply('a', 'apiVersion: v1\nkind: Thing\nmetadata: {name: t, labels: {l: "1"}}\nspec: {replicas: 1, config: {x: "1", y: "2"}, containers: [{name: web}, {name: side}], hosts: [h1, h2]}'),
        apply('a', head + 'spec: {config: {x: "1"}, containers: [{name: web}], hosts: [h1]}'),
      ],
      object: head + 'spec: {config: {x: "1"}, containers: [{name: web}], hosts: [h1]}',
      managed: { 'a/Apply': { 'f:spec': { 'f:config': { 'f:x': {} }, 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:name': {} } }, 'f:hosts': { 'v:"h1"': {} } } } },
    }));

  it('item 7: omitted fields co-owned by another applier stay (that applier keeps them)', () =>
    runScenario(Thing, {
      ops: [apply('a', head + 'spec: {replicas: 1, hosts: [h1]}'), apply('b', head + 'spec: {replicas: 1, hosts: [h1]}'), apply('a', head + 'spec: {paused: true}')],
      object: head + 'spec: {replicas: 1, hosts: [h1], paused: true}',
      managed: { 'b/Apply': { 'f:spec': { 'f:hosts': { 'v:"h1"': {} }, 'f:replicas': {} } }, 'a/Apply': { 'f:spec': { 'f:paused': {} } } },
    }));

  it('item 7: a field an updater took over is not removed when the applier omits it', () =>
    runScenario(Thing, {
      ops: [apply('a', head + 'spec: {replicas: 1, paused: true}'), update('u', head + 'spec: {replicas: 5, paused: true}'), apply('a', head + 'spec: {paused: true}')],
      object: head + 'spec: {replicas: 5, paused: true}',
      managed: { 'a/Apply': { 'f:spec': { 'f:paused': {} } }, 'u/Update': { 'f:spec': { 'f:replicas': {} } } },
    }));

  it('fields an applier never applied are never removed by it (item 10)', () =>
    runScenario(Thing, {
      live: head + 'spec: {replicas: 1, paused: false}',
      ops: [forceApply('controller', head + 'spec: {paused: true}'), forceApply('controller', head)],
      object: head + 'spec: {replicas: 1}',
      managed: { 'before-first-apply/Update': { 'f:spec': { '.': {}, 'f:replicas': {} } } },
    }));

  it('item 10: a controller applying with force takes fields without reading the object', () =>
    runScenario(Thing, {
      ops: [apply('user', head + 'spec: {replicas: 1, paused: false}'), forceApply('controller', head + 'spec: {replicas: 3}')],
      object: head + 'spec: {replicas: 3, paused: false}',
      managed: { 'user/Apply': { 'f:spec': { 'f:paused': {} } }, 'controller/Apply': { 'f:spec': { 'f:replicas': {} } } },
    }));

  it('item 12: handover — a temporary manager shares the field, the old one drops it, the new owner takes it', () =>
    runScenario(Thing, {
      ops: [
        apply('kubectl', head + 'spec: {replicas: 3, paused: true}'),
        apply('handover-to-hpa', head + 'spec: {replicas: 3}'),
        apply('kubectl', head + 'spec: {paused: true}'),
        update('hpa', head + 'spec: {replicas: 7, paused: true}'),
      ],
      object: head + 'spec: {replicas: 7, paused: true}',
      managed: { 'kubectl/Apply': { 'f:spec': { 'f:paused': {} } }, 'hpa/Update': { 'f:spec': { 'f:replicas': {} } } },
    }));

  it('item 12: dropping the field from the configuration before the new owner writes it removes it', () =>
    runScenario(Thing, {
      ops: [apply('kubectl', head + 'spec: {replicas: 3}'), apply('kubectl', head)],
      object: head,
      managed: {},
    }));
});
