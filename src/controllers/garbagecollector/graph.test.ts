// The dependency graph, scenario by scenario (as kube's TestConflictingData):
// informer and virtual events in, then the nodes, the queues and the events
// the sink got.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OwnerReference } from '../../registry/object.js';
import { DependencyGraph, referencesDiff, type GraphEvent, type GraphNode, type GraphSink } from './graph.js';
import { AbsentOwnerCache, coordinatesMatch, formatIdentity, type ObjectIdentity } from './identity.js';

class Recorder implements GraphSink {
  deletes: string[] = [];
  orphans: string[] = [];
  events: string[] = [];
  attemptToDelete(n: GraphNode): void {
    this.deletes.push(n.identity.name);
  }
  attemptToOrphan(n: GraphNode): void {
    this.orphans.push(n.identity.name);
  }
  invalidNamespace(dep: ObjectIdentity, message: string): void {
    this.events.push(`${dep.kind}/${dep.name}: ${message}`);
  }
}

interface Obj { apiVersion: string; kind: string; name: string; uid: string; namespace?: string; owners?: OwnerReference[]; deleting?: string[] }

const cm = (name: string, namespace = 'ns1', owners?: OwnerReference[]): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', name, uid: `uid-${name}`, namespace, ...(owners ? { owners } : {}) });
const node = (name: string, owners?: OwnerReference[]): Obj => ({ apiVersion: 'v1', kind: 'Node', name, uid: `uid-${name}`, ...(owners ? { owners } : {}) });
const ref = (o: Obj, extra: Partial<OwnerReference> = {}): OwnerReference => ({ apiVersion: o.apiVersion, kind: o.kind, name: o.name, uid: o.uid, ...extra });

const meta = (o: Obj) => ({
  name: o.name, uid: o.uid, ...(o.namespace ? { namespace: o.namespace } : {}), ...(o.owners ? { ownerReferences: o.owners } : {}),
  ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: o.deleting } : {}),
});
const add = (o: Obj): GraphEvent => ({ type: 'add', apiVersion: o.apiVersion, kind: o.kind, meta: meta(o) });
const update = (old: Obj, o: Obj): GraphEvent => ({ type: 'update', apiVersion: o.apiVersion, kind: o.kind, meta: meta(o), oldMeta: meta(old) });
const del = (o: Obj): GraphEvent => ({ type: 'delete', apiVersion: o.apiVersion, kind: o.kind, meta: meta(o) });
const virtualDel = (o: Obj): GraphEvent => ({ ...del(o), virtual: true });

interface Expect {
  /** name → { virtual, dependents (names, sorted) } for every node in the graph */
  readonly nodes: Record<string, { virtual?: boolean; dependents?: string[]; deletingDependents?: boolean; namespace?: string }>;
  readonly deletes?: string[];
  readonly orphans?: string[];
  readonly events?: string[];
  readonly absent?: Obj[];
}

const owner = cm('owner');
const child = cm('child', 'ns1', [ref(owner)]);
const otherNsOwner = cm('owner', 'ns2');

const cases: { name: string; events: GraphEvent[]; expect: Expect }[] = [
  {
    name: 'a dependent first: a virtual owner, queued to verify',
    events: [add(child)],
    expect: { nodes: { child: {}, owner: { virtual: true, dependents: ['child'] } }, deletes: ['owner'] },
  },
  {
    name: 'the owner first: nothing to verify',
    events: [add(owner), add(child)],
    expect: { nodes: { owner: { dependents: ['child'] }, child: {} } },
  },
  {
    name: 'a virtual owner observed later becomes a real node',
    events: [add(child), add(owner)],
    expect: { nodes: { child: {}, owner: { dependents: ['child'] } }, deletes: ['owner'] },
  },
  {
    name: 'an owner deleted: its dependents are queued and it is recorded absent',
    events: [add(owner), add(child), del(owner)],
    expect: { nodes: { child: {} }, deletes: ['child'], absent: [owner] },
  },
  {
    name: 'a dependent deleted: gone from its owner’s dependents',
    events: [add(owner), add(child), del(child)],
    expect: { nodes: { owner: {} } },
  },
  {
    name: 'foreground deletion starts: dependents, then the owner, queued; owner marked deleting dependents',
    events: [add(owner), add(child), update(owner, { ...owner, deleting: ['foregroundDeletion'] })],
    expect: { nodes: { owner: { dependents: ['child'], deletingDependents: true }, child: {} }, deletes: ['child', 'owner'] },
  },
  {
    name: 'foreground deletion seen on the first add (informer combined the events)',
    events: [add(child), add({ ...owner, deleting: ['foregroundDeletion'] })],
    expect: { nodes: { owner: { dependents: ['child'], deletingDependents: true }, child: {} }, deletes: ['owner', 'child', 'owner'] },
  },
  {
    name: 'orphan deletion starts: the owner goes to the orphan queue',
    events: [add(owner), add(child), update(owner, { ...owner, deleting: ['orphan'] })],
    expect: { nodes: { owner: { dependents: ['child'] }, child: {} }, orphans: ['owner'] },
  },
  {
    name: 'a deletion already under way is not a new transition',
    events: [add(owner), update(owner, { ...owner, deleting: ['orphan'] }), update({ ...owner, deleting: ['orphan'] }, { ...owner, deleting: ['orphan'] })],
    expect: { nodes: { owner: {} }, orphans: ['owner'] },
  },
  {
    name: 'a blocking reference removed: its owner (maybe waiting in foreground) is queued',
    events: [add(owner), add(cm('child', 'ns1', [ref(owner, { blockOwnerDeletion: true })])), update(cm('child', 'ns1', [ref(owner, { blockOwnerDeletion: true })]), cm('child', 'ns1', []))],
    expect: { nodes: { owner: {}, child: {} }, deletes: ['owner'] },
  },
  {
    name: 'a blocking reference made non-blocking: its owner is queued',
    events: [add(owner), add(cm('child', 'ns1', [ref(owner, { blockOwnerDeletion: true })])), update(cm('child', 'ns1', [ref(owner, { blockOwnerDeletion: true })]), cm('child', 'ns1', [ref(owner, { blockOwnerDeletion: false })]))],
    expect: { nodes: { owner: { dependents: ['child'] }, child: {} }, deletes: ['owner'] },
  },
  {
    name: 'a namespaced dependent naming an owner observed in another namespace: the event, and it is queued',
    events: [add(otherNsOwner), add(cm('child', 'ns1', [ref(otherNsOwner)]))],
    expect: {
      nodes: { owner: { dependents: ['child'], namespace: 'ns2' }, child: {} }, deletes: ['child'],
      events: ['ConfigMap/child: ownerRef [v1/ConfigMap, namespace: ns1, name: owner, uid: uid-owner] does not exist in namespace "ns1"'],
    },
  },
  {
    name: 'the same, dependent first: the event when the owner is observed',
    events: [add(cm('child', 'ns1', [ref(otherNsOwner)])), add(otherNsOwner)],
    expect: {
      nodes: { owner: { dependents: ['child'], namespace: 'ns2' }, child: {} }, deletes: ['owner', 'child'],
      events: ['ConfigMap/child: ownerRef [v1/ConfigMap, namespace: ns1, name: owner, uid: uid-owner] does not exist in namespace "ns1"'],
    },
  },
  {
    name: 'a cluster-scoped dependent naming an observed namespaced owner: the event in namespace ""',
    events: [add(owner), add(node('n1', [ref(owner)]))],
    expect: {
      nodes: { owner: { dependents: ['n1'] }, n1: {} }, deletes: ['n1'],
      events: ['Node/n1: ownerRef [v1/ConfigMap, namespace: , name: owner, uid: uid-owner] does not exist in namespace ""'],
    },
  },
  {
    name: 'a cluster-scoped dependent first: a virtual owner without namespace, corrected when observed',
    events: [add(node('n1', [ref(owner)])), add(owner)],
    expect: {
      nodes: { owner: { dependents: ['n1'], namespace: 'ns1' }, n1: {} }, deletes: ['owner', 'n1'],
      events: ['Node/n1: ownerRef [v1/ConfigMap, namespace: , name: owner, uid: uid-owner] does not exist in namespace ""'],
    },
  },
  {
    name: 'a cluster-scoped owner of namespaced dependents is fine',
    events: [add(node('n1')), add(cm('child', 'ns1', [ref(node('n1'))])), add(cm('child2', 'ns2', [ref(node('n1'))]))],
    expect: { nodes: { n1: { dependents: ['child', 'child2'] }, child: {}, child2: {} } },
  },
  {
    name: 'a virtual delete of a virtual owner: removed, dependents queued, recorded absent',
    events: [add(child), virtualDel(owner)],
    expect: { nodes: { child: {} }, deletes: ['owner', 'child'], absent: [owner] },
  },
  {
    name: 'a virtual delete of a virtual owner its dependents name otherwise: kept under the other identity',
    events: [
      add(cm('child', 'ns1', [ref(owner)])),
      add(cm('child2', 'ns1', [{ ...ref(owner), kind: 'Secret' }])),
      virtualDel(owner),
    ],
    expect: {
      nodes: { child: {}, child2: {}, owner: { virtual: true, dependents: ['child', 'child2'] } },
      deletes: ['owner', 'child2', 'child', 'owner'], absent: [owner],
    },
  },
  {
    name: 'a virtual delete naming other coordinates than an observed node: the node stays',
    events: [add(owner), add(cm('child', 'ns1', [{ ...ref(owner), name: 'other' }])), virtualDel({ ...owner, name: 'other' })],
    expect: { nodes: { owner: { dependents: ['child'] }, child: {} }, deletes: ['child', 'child'], absent: [{ ...owner, name: 'other' }] },
  },
  {
    name: 'a delete of an unknown uid changes nothing',
    events: [del(owner)],
    expect: { nodes: {} },
  },
];

describe('DependencyGraph', () => {
  for (const c of cases) {
    it(c.name, () => {
      const sink = new Recorder();
      const g = new DependencyGraph(sink, new AbsentOwnerCache());
      for (const e of c.events) g.process(e);
      const nodes: Expect['nodes'] = {};
      for (const n of g.nodes.values()) {
        const want = c.expect.nodes[n.identity.name] ?? {};
        nodes[n.identity.name] = {
          ...(want.virtual !== undefined || n.virtual ? { virtual: n.virtual } : {}),
          ...(want.dependents !== undefined || n.dependents.size ? { dependents: [...n.dependents].map((d) => d.identity.name).sort() } : {}),
          ...(want.deletingDependents !== undefined || n.deletingDependents ? { deletingDependents: n.deletingDependents } : {}),
          ...(want.namespace !== undefined ? { namespace: n.identity.namespace } : {}),
        };
      }
      assert.deepEqual(nodes, c.expect.nodes);
      assert.deepEqual(sink.deletes, c.expect.deletes ?? []);
      assert.deepEqual(sink.orphans, c.expect.orphans ?? []);
      assert.deepEqual(sink.events, c.expect.events ?? []);
      for (const a of c.expect.absent ?? []) assert.ok(g.absent.has({ ...a, namespace: a.namespace ?? '' }), `absent: ${a.name}`);
    });
  }

  it('blockingDependents: only references to this node with blockOwnerDeletion=true', () => {
    const g = new DependencyGraph(new Recorder());
    g.process(add(owner));
    g.process(add(cm('a', 'ns1', [ref(owner, { blockOwnerDeletion: true })])));
    g.process(add(cm('b', 'ns1', [ref(owner, { blockOwnerDeletion: false })])));
    g.process(add(cm('c', 'ns1', [ref(owner)])));
    g.process(add(cm('d', 'ns1', [ref(cm('x')), ref(owner, { blockOwnerDeletion: true })])));
    assert.deepEqual(g.get('uid-owner')!.blockingDependents().map((n) => n.identity.name).sort(), ['a', 'd']);
  });
});

describe('referencesDiff', () => {
  const a = ref(cm('a'));
  const b = ref(cm('b'));
  const rows: { name: string; old: OwnerReference[]; now: OwnerReference[]; added: string[]; removed: string[]; changed: string[] }[] = [
    { name: 'none', old: [a], now: [a], added: [], removed: [], changed: [] },
    { name: 'added', old: [a], now: [a, b], added: ['b'], removed: [], changed: [] },
    { name: 'removed', old: [a, b], now: [b], added: [], removed: ['a'], changed: [] },
    { name: 'changed (blockOwnerDeletion)', old: [a], now: [{ ...a, blockOwnerDeletion: true }], added: [], removed: [], changed: ['a'] },
    { name: 'all', old: [a], now: [b], added: ['b'], removed: ['a'], changed: [] },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const d = referencesDiff(r.old, r.now);
      assert.deepEqual({ added: d.added.map((x) => x.name), removed: d.removed.map((x) => x.name), changed: d.changed.map((x) => x.now.name) }, { added: r.added, removed: r.removed, changed: r.changed });
    });
  }
});

describe('identity', () => {
  it('coordinates match across group spellings and versions, not across kinds, names or uids', () => {
    const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', name: 'r', uid: 'u' };
    for (const [other, want] of [
      [{ ...role, apiVersion: 'rbac.authorization.svc.io/v1' }, true],
      [{ ...role, apiVersion: 'rbac.authorization.k8s.io/v1beta1' }, true],
      [{ ...role, apiVersion: 'v1' }, false],
      [{ ...role, kind: 'ClusterRole' }, false],
      [{ ...role, name: 'x' }, false],
      [{ ...role, uid: 'x' }, false],
    ] as const) assert.equal(coordinatesMatch(role, other), want, JSON.stringify(other));
  });

  it('formats as kube’s objectReference.String()', () => {
    assert.equal(formatIdentity({ apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace: 'ns', name: 'rs', uid: 'u1' }), '[apps/v1/ReplicaSet, namespace: ns, name: rs, uid: u1]');
  });

  it('the absent-owner cache forgets the least recently used past its capacity', () => {
    const c = new AbsentOwnerCache(2);
    const id = (name: string): ObjectIdentity => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ns', name, uid: name });
    c.add(id('a'));
    c.add(id('b'));
    assert.ok(c.has(id('a'))); // a is now the most recent
    c.add(id('c'));
    assert.deepEqual(['a', 'b', 'c'].map((n) => c.has(id(n))), [true, false, true]);
    assert.ok(!c.has({ ...id('a'), namespace: 'other' }), 'the namespace is part of the key');
  });
});
