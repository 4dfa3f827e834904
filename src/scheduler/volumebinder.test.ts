// The scheduler's volume binder: per-node plans for WaitForFirstConsumer
// claims, the assume cache, the binding check, and VolumeBinding's
// Reserve → PreBind (writes, then the wait for the binder) → Unreserve.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../registry/object.js';
import { testClaim, testClass, testNodeObject, testVolume } from '../controllers/volume/testing.js';
import { withAnnotation } from '../controllers/volume/annotations.js';
import { AssumeCache, checkBindings, findPodVolumes, topologyMatches, waitForBindings, type ListerSet, type PodVolumes } from './volumebinder.js';
import { CycleState } from './framework.js';
import { snapshotOf, testPod } from './testing.js';
import { volumeBinding } from './plugins/volumebinding.js';

const late = testClass('late', { mode: 'WaitForFirstConsumer' });
const local = testClass('local', { mode: 'WaitForFirstConsumer', provisioner: 'kubernetes.io/no-provisioner' });
const zoned = testClass('zoned', { mode: 'WaitForFirstConsumer', topologies: [{ matchLabelExpressions: [{ key: 'zone', values: ['z1'] }] }] });

function listers(claims: ApiObject[], volumes: ApiObject[]): ListerSet & { claims: ApiObject[]; pvs: ApiObject[] } {
  const classes = [late, local, zoned];
  const set = {
    claims, pvs: volumes,
    claim: (ns: string, n: string) => set.claims.find((c) => c.metadata.name === n && c.metadata.namespace === ns),
    volume: (n: string) => set.pvs.find((v) => v.metadata.name === n),
    storageClass: (n: string) => classes.find((c) => c.metadata.name === n),
    volumes: () => set.pvs,
  };
  return set;
}

const summary = (r: ReturnType<typeof findPodVolumes>) => (r.ok ? {
  bindings: r.volumes.bindings.map((b) => `${b.claim.metadata.name}->${b.volume.metadata.name}`),
  provisions: r.volumes.provisions.map((c) => `${c.metadata.name}@${c.metadata.annotations?.['volume.kubernetes.io/selected-node']}`),
} : 'no');

describe('findPodVolumes', () => {
  const a = testNodeObject('a', { zone: 'z1' });
  const rows: { name: string; claims: ApiObject[]; volumes: ApiObject[]; want: unknown }[] = [
    { name: 'a local volume on the node is chosen for the claim', claims: [testClaim('c', { cls: 'local' })], volumes: [testVolume('on-a', { cls: 'local', host: 'a' })], want: { bindings: ['c->on-a'], provisions: [] } },
    { name: 'a local volume on another node: no provisioner, no fit', claims: [testClaim('c', { cls: 'local' })], volumes: [testVolume('on-b', { cls: 'local', host: 'b' })], want: 'no' },
    { name: 'nothing to bind, a provisioner: provision on this node', claims: [testClaim('c', { cls: 'late' })], volumes: [], want: { bindings: [], provisions: ['c@a'] } },
    { name: 'two claims do not take the same volume; the smaller claim chooses first', claims: [testClaim('big', { cls: 'local', size: '2Gi' }), testClaim('small', { cls: 'local', size: '1Gi' })], volumes: [testVolume('v2', { cls: 'local', size: '2Gi', host: 'a' }), testVolume('v1', { cls: 'local', size: '1Gi', host: 'a' })], want: { bindings: ['small->v1', 'big->v2'], provisions: [] } },
    { name: 'a claim selected for another node fits only there', claims: [testClaim('c', { cls: 'late', annotations: { 'volume.kubernetes.io/selected-node': 'b' } })], volumes: [], want: 'no' },
    { name: 'a claim selected for this node is provisioned here', claims: [testClaim('c', { cls: 'late', annotations: { 'volume.kubernetes.io/selected-node': 'a' } })], volumes: [], want: { bindings: [], provisions: ['c@a'] } },
    { name: 'allowedTopologies matching the node', claims: [testClaim('c', { cls: 'zoned' })], volumes: [], want: { bindings: [], provisions: ['c@a'] } },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(summary(findPodVolumes(r.claims, a, listers(r.claims, r.volumes))), r.want));
  it('allowedTopologies not matching the node', () => {
    assert.equal(findPodVolumes([testClaim('c', { cls: 'zoned' })], testNodeObject('b', { zone: 'z2' }), listers([], [])).ok, false);
  });
  it('the chosen volume is written with the claimRef and bound-by-controller', () => {
    const r = findPodVolumes([testClaim('c', { cls: 'local' })], a, listers([], [testVolume('on-a', { cls: 'local', host: 'a' })]));
    assert.ok(r.ok);
    const v = r.volumes.bindings[0]!.volume as ApiObject & { spec: { claimRef: Record<string, string> } };
    assert.equal(v.metadata.annotations?.['pv.kubernetes.io/bound-by-controller'], 'yes');
    assert.deepEqual([v.spec.claimRef.name, v.spec.claimRef.uid], ['c', 'uid-c']);
  });
});

describe('topologyMatches', () => {
  const n = testNodeObject('a', { zone: 'z1' });
  const rows: [string, unknown, boolean][] = [
    ['no terms', undefined, true],
    ['a matching term', [{ matchLabelExpressions: [{ key: 'zone', values: ['z0', 'z1'] }] }], true],
    ['a term with a missing label', [{ matchLabelExpressions: [{ key: 'rack', values: ['r1'] }] }], false],
    ['any term may match', [{ matchLabelExpressions: [{ key: 'zone', values: ['z9'] }] }, { matchLabelExpressions: [{ key: 'zone', values: ['z1'] }] }], true],
  ];
  for (const [name, terms, want] of rows) it(name, () => assert.equal(topologyMatches(terms, n), want));
});

describe('AssumeCache', () => {
  it('an assumed volume is seen until the informer has a newer copy', () => {
    const l = listers([], [testVolume('v')]);
    const cache = new AssumeCache(l);
    cache.assumeVolume(withAnnotation(testVolume('v'), 'x', 'assumed'));
    assert.equal(cache.volume('v')?.metadata.annotations?.x, 'assumed');
    assert.equal(cache.volumes()[0]!.metadata.annotations?.x, 'assumed');
    l.pvs = [{ ...testVolume('v'), metadata: { ...testVolume('v').metadata, resourceVersion: '6' } }];
    assert.equal(cache.volume('v')?.metadata.annotations?.x, undefined);
  });
  it('restore drops an assumed claim', () => {
    const cache = new AssumeCache(listers([testClaim('c')], []));
    cache.assumeClaim(withAnnotation(testClaim('c'), 'x', 'y'));
    assert.equal(cache.claim('ns', 'c')?.metadata.annotations?.x, 'y');
    cache.restoreClaim('ns/c');
    assert.equal(cache.claim('ns', 'c')?.metadata.annotations?.x, undefined);
  });
});

describe('checkBindings', () => {
  const node = testNodeObject('a');
  const done = { 'pv.kubernetes.io/bind-completed': 'yes' };
  const selectedA = { 'volume.kubernetes.io/selected-node': 'a' };
  const provision = (c: ApiObject): PodVolumes => ({ bindings: [], provisions: [c] });
  const rows: { name: string; plan: PodVolumes; claims: ApiObject[]; volumes: ApiObject[]; want: boolean | string }[] = [
    { name: 'provisioning: claim not bound yet', plan: provision(testClaim('c', { annotations: selectedA })), claims: [testClaim('c', { annotations: selectedA })], volumes: [], want: false },
    { name: 'provisioning: bound to a volume on the node', plan: provision(testClaim('c', { annotations: selectedA })), claims: [testClaim('c', { annotations: { ...selectedA, ...done }, volumeName: 'v' })], volumes: [testVolume('v', { host: 'a' })], want: true },
    { name: 'provisioning: the provisioner gave up (selected-node removed)', plan: provision(testClaim('c', { annotations: selectedA })), claims: [testClaim('c')], volumes: [], want: 'selectedNode annotation reset for PVC "c"' },
    { name: 'provisioning: selected for another node', plan: provision(testClaim('c', { annotations: selectedA })), claims: [testClaim('c', { annotations: { 'volume.kubernetes.io/selected-node': 'b' } })], volumes: [], want: 'provisioning failed for PVC "c"' },
    { name: 'provisioning: the claim is gone', plan: provision(testClaim('c', { annotations: selectedA })), claims: [], volumes: [], want: 'failed to check provisioning pvc: PersistentVolumeClaim "ns/c" not found' },
    { name: 'static: bound by the binder', plan: { bindings: [{ claim: testClaim('c'), volume: testVolume('v', { claim: { name: 'c', uid: 'uid-c' } }) }], provisions: [] }, claims: [testClaim('c', { annotations: done, volumeName: 'v' })], volumes: [testVolume('v', { claim: { name: 'c', uid: 'uid-c' } })], want: true },
    { name: 'static: the binder dropped the claimRef', plan: { bindings: [{ claim: testClaim('c'), volume: testVolume('v', { claim: { name: 'c', uid: 'uid-c' } }) }], provisions: [] }, claims: [testClaim('c')], volumes: [testVolume('v')], want: 'ClaimRef got reset for pv "v"' },
  ];
  for (const r of rows) it(r.name, () => assert.equal(checkBindings(r.plan, node, listers(r.claims, r.volumes)), r.want));
});

describe('waitForBindings', () => {
  it('waits until the claim is bound', async () => {
    const claim = testClaim('c', { annotations: { 'volume.kubernetes.io/selected-node': 'a' } });
    const l = listers([claim], [testVolume('v', { host: 'a' })]);
    let polls = 0;
    const wrapped: ListerSet = { ...l, claim: (ns, n) => {
      polls++;
      if (polls === 3) l.claims = [testClaim('c', { volumeName: 'v', annotations: { 'volume.kubernetes.io/selected-node': 'a', 'pv.kubernetes.io/bind-completed': 'yes' } })];
      return l.claim(ns, n);
    } };
    await waitForBindings({ bindings: [], provisions: [claim] }, () => testNodeObject('a'), wrapped, { timeoutMs: 60_000, pollMs: 1 });
    assert.ok(polls >= 3);
  });
  it('gives up with kube\'s timeout error', async () => {
    const claim = testClaim('c', { annotations: { 'volume.kubernetes.io/selected-node': 'a' } });
    await assert.rejects(waitForBindings({ bindings: [], provisions: [claim] }, () => testNodeObject('a'), listers([claim], []), { timeoutMs: 0, pollMs: 1 }), /timed out waiting for the condition/);
  });
});

describe('VolumeBinding with a writer: Reserve, PreBind, Unreserve', () => {
  const pod = testPod('p', { spec: { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'c' } }] } });
  pod.metadata.namespace = 'ns';
  const setup = () => {
    const l = listers([testClaim('c', { cls: 'late' })], []);
    const written: ApiObject[] = [];
    const plugin = volumeBinding({
      ...l,
      writer: {
        updateVolume: async (pv) => pv,
        updateClaim: async (c) => {
          written.push(c);
          const stored: ApiObject = { ...c, metadata: { ...c.metadata, resourceVersion: '11' } };
          // the binder and a provisioner answer at once
          l.claims = [{ ...stored, spec: { ...(stored.spec as object), volumeName: 'pv1' }, metadata: { ...stored.metadata, annotations: { ...stored.metadata.annotations, 'pv.kubernetes.io/bind-completed': 'yes' } } }];
          l.pvs = [testVolume('pv1', { host: 'a', claim: { name: 'c', uid: 'uid-c' } })];
          return stored;
        },
      },
    }, { pollMs: 1 });
    const snapshot = snapshotOf([testNodeObject('a'), testNodeObject('b')]);
    const state = new CycleState(snapshot);
    assert.equal(plugin.preFilter!(state, pod), undefined);
    for (const n of snapshot.nodes) assert.equal(plugin.filter!(state, pod, n), undefined);
    return { plugin, state, written, l };
  };
  it('Reserve assumes the selected node, PreBind writes it and waits for the binding', async () => {
    const { plugin, state, written } = setup();
    assert.equal(plugin.reserve!(state, pod, 'a'), undefined);
    assert.equal(await plugin.preBind!(state, pod, 'a'), undefined);
    assert.deepEqual(written.map((c) => c.metadata.annotations?.['volume.kubernetes.io/selected-node']), ['a']);
  });
  it('an assumed claim is seen by the next cycle; Unreserve forgets it', () => {
    const { plugin, state } = setup();
    plugin.reserve!(state, pod, 'a');
    const next = new CycleState(snapshotOf([testNodeObject('a'), testNodeObject('b')]));
    plugin.preFilter!(next, pod);
    const b = next.snapshot.get('b')!;
    assert.deepEqual(plugin.filter!(next, pod, b)?.reasons, ["node(s) didn't find available persistent volumes to bind"]);
    plugin.unreserve!(state, pod, 'a');
    const again = new CycleState(snapshotOf([testNodeObject('a'), testNodeObject('b')]));
    plugin.preFilter!(again, pod);
    assert.equal(plugin.filter!(again, pod, again.snapshot.get('b')!), undefined);
  });
});
