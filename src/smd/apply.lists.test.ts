// Merge strategy markers (spec item 8): map lists by key (also from
// patch-strategy merge + merge key, with key defaults), sets (list-type set and
// keyless merge over scalars), atomic lists (recursive), granular and atomic
// maps, atomic structs, and unstructured content (no schema).
import { describe, it } from 'node:test';
import { Thing } from './fixtures.js';
import { apply, runScenario, update } from './scenario.js';

const head = 'apiVersion: v1\nkind: Thing\nmetadata: {name: t}\n';

describe('apply: lists and maps by topology', () => {
  it('map list: items merge by key, each applier owns its items; "." marks the item', () =>
    runScenario(Thing, {
      ops: [apply('a', head + 'spec: {containers: [{name: web, image: w:1}]}'), apply('b', head + 'spec: {containers: [{name: side, image: s:1}]}')],
      object: head + 'spec: {containers: [{name: web, image: w:1}, {name: side, image: s:1}]}',
      managed: {
        'a/Apply': { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
        'b/Apply': { 'f:spec': { 'f:containers': { 'k:{"name":"side"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
      },
    }));

  it('map list with two keys, one defaulted by the schema', () =>
    runScenario(Thing, {
      ops: [apply('a', head + 'spec: {containers: [{name: web, ports: [{containerPort: 80}, {containerPort: 53, protocol: UDP}]}]}')],
      object: head + 'spec: {containers: [{name: web, ports: [{containerPort: 80}, {containerPort: 53, protocol: UDP}]}]}',
      managed: {
        'a/Apply': {
          'f:spec': {
            'f:containers': {
              'k:{"name":"web"}': {
                '.': {},
                'f:name': {},
                'f:ports': {
                  'k:{"containerPort":53,"protocol":"UDP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} },
                  'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} },
                },
              },
            },
          },
        },
      },
    }));

  it('sets: list-type set and keyless merge lists own values (v:)', () =>
    runScenario(Thing, {
      ops: [apply('a', head + 'spec: {hosts: [x, y], tags: [t1]}'), apply('b', head + 'spec: {hosts: [z], tags: [t2]}')],
      object: head + 'spec: {hosts: [x, y, z], tags: [t1, t2]}',
      managed: {
        'a/Apply': { 'f:spec': { 'f:hosts': { 'v:"x"': {}, 'v:"y"': {} }, 'f:tags': { 'v:"t1"': {} } } },
        'b/Apply': { 'f:spec': { 'f:hosts': { 'v:"z"': {} }, 'f:tags': { 'v:"t2"': {} } } },
      },
    }));

  it('metadata.finalizers is a set', () =>
    runScenario(Thing, {
      ops: [apply('a', 'apiVersion: v1\nkind: Thing\nmetadata: {name: t, finalizers: [f/one]}')],
      object: 'apiVersion: v1\nkind: Thing\nmetadata: {name: t, finalizers: [f/one]}',
      managed: { 'a/Apply': { 'f:metadata': { 'f:finalizers': { 'v:"f/one"': {} } } } },
    }));

  it('atomic list: replaced whole, one owner; atomic is recursive (nested args are not tracked)', () =>
    runScenario(Thing, {
      ops: [apply('a', head + 'spec: {args: [a, b], containers: [{name: web, args: [x]}]}'), apply('b', head + 'spec: {args: [c]}', { conflicts: ['a: .spec.args'] })],
      object: head + 'spec: {args: [a, b], containers: [{name: web, args: [x]}]}',
      managed: { 'a/Apply': { 'f:spec': { 'f:args': {}, 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:args': {}, 'f:name': {} } } } } },
    }));

  it('granular map entries vs atomic map and atomic struct', () =>
    runScenario(Thing, {
      ops: [
        apply('a', head + 'spec: {config: {x: "1"}, frozen: {x: "1"}, selector: {matchLabels: {app: w}}}'),
        apply('b', head + 'spec: {config: {y: "2"}}'),
        apply('b', head + 'spec: {config: {y: "2"}, frozen: {y: "2"}}', { conflicts: ['a: .spec.frozen'] }),
      ],
      object: head + 'spec: {config: {x: "1", y: "2"}, frozen: {x: "1"}, selector: {matchLabels: {app: w}}}',
      managed: {
        'a/Apply': { 'f:spec': { 'f:config': { 'f:x': {} }, 'f:frozen': {}, 'f:selector': {} } },
        'b/Apply': { 'f:spec': { 'f:config': { 'f:y': {} } } },
      },
    }));

  it('no schema: maps granular with "." on every entry, lists atomic', () =>
    runScenario(undefined, {
      ops: [apply('a', 'apiVersion: v1\nkind: Any\nmetadata: {name: t}\nspec: {n: 1, list: [1, 2], m: {k: v}}'), apply('b', 'apiVersion: v1\nkind: Any\nmetadata: {name: t}\nspec: {o: 2}')],
      object: 'apiVersion: v1\nkind: Any\nmetadata: {name: t}\nspec: {n: 1, list: [1, 2], m: {k: v}, o: 2}',
      managed: {
        'a/Apply': { 'f:spec': { '.': {}, 'f:list': {}, 'f:m': { '.': {}, 'f:k': {} }, 'f:n': {} } },
        'b/Apply': { 'f:spec': { '.': {}, 'f:o': {} } },
      },
    }));

  it('update of a keyed item records the item ("." when added) and its changed fields', () =>
    runScenario(Thing, {
      ops: [apply('a', head + 'spec: {containers: [{name: web, image: w:1}]}'), update('u', head + 'spec: {containers: [{name: web, image: w:2}, {name: new, image: n:1}]}')],
      object: head + 'spec: {containers: [{name: web, image: w:2}, {name: new, image: n:1}]}',
      managed: {
        'a/Apply': { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:name': {} } } } },
        'u/Update': { 'f:spec': { 'f:containers': { 'k:{"name":"new"}': { '.': {}, 'f:image': {}, 'f:name': {} }, 'k:{"name":"web"}': { 'f:image': {} } } } },
      },
    }));
});
