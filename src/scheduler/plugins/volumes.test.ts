// The volume plugins over fake listers: VolumeBinding's PreFilter and
// Filter, VolumeZone, VolumeRestrictions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { CycleState, type Plugin } from '../framework.js';
import { snapshotOf, testNode, testPod } from '../testing.js';
import { ERR_BIND_CONFLICT, ERR_NODE_CONFLICT, ERR_PV_NOT_EXIST, ERR_UNBOUND_IMMEDIATE, volumeBinding } from './volumebinding.js';
import { ERR_VOLUME_ZONE, volumeZone } from './volumezone.js';
import { ERR_DISK_CONFLICT, ERR_RWOP_CONFLICT, volumeRestrictions } from './volumerestrictions.js';
import { ERR_MAX_VOLUME_COUNT, nodeVolumeLimits } from './nodevolumelimits.js';

const zoneKey = 'topology.kubernetes.io/zone';
const claim = (name: string, o: { volumeName?: string; cls?: string; modes?: string[]; deleting?: boolean; size?: string } = {}): ApiObject => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim',
  metadata: { name, namespace: 'default', ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
  spec: { accessModes: o.modes ?? ['ReadWriteOnce'], resources: { requests: { storage: o.size ?? '1Gi' } }, ...(o.cls !== undefined ? { storageClassName: o.cls } : {}), ...(o.volumeName ? { volumeName: o.volumeName } : {}) },
});
const pv = (name: string, o: { zone?: string; host?: string; cls?: string; available?: boolean; size?: string } = {}): ApiObject => ({
  apiVersion: 'v1', kind: 'PersistentVolume',
  metadata: { name, labels: o.zone ? { [zoneKey]: o.zone } : {} },
  spec: {
    capacity: { storage: o.size ?? '5Gi' }, accessModes: ['ReadWriteOnce'], ...(o.cls ? { storageClassName: o.cls } : {}),
    ...(o.host ? { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [o.host] }] }] } } } : {}),
  },
  status: { phase: o.available ? 'Available' : 'Bound' },
});
const cls = (name: string, mode: string, provisioner = 'example.com/csi'): ApiObject => ({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name }, provisioner, volumeBindingMode: mode });

function listers(claims: ApiObject[], pvs: ApiObject[], classes: ApiObject[]) {
  return {
    claim: (_ns: string, n: string) => claims.find((c) => c.metadata.name === n),
    volume: (n: string) => pvs.find((p) => p.metadata.name === n),
    storageClass: (n: string) => classes.find((c) => c.metadata.name === n),
    volumes: () => pvs,
  };
}

const withClaims = (...names: string[]) => testPod('p', { spec: { volumes: names.map((n, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName: n } })) } });
const nodes = [testNode('a', { labels: { [zoneKey]: 'z1' } }), testNode('b', { labels: { [zoneKey]: 'z2' } })];

function run(plugin: Plugin, pod: ApiObject, existing: ApiObject[] = []): string | Record<string, string | undefined> {
  const snapshot = snapshotOf(nodes, existing);
  const state = new CycleState(snapshot);
  const pre = plugin.preFilter?.(state, pod);
  if (pre) return `prefilter: ${pre.reasons.join(', ')}`;
  return Object.fromEntries(snapshot.nodes.map((n) => [n.name, plugin.filter!(state, pod, n)?.reasons.join(', ')]));
}

describe('VolumeBinding', () => {
  const classes = [cls('fast', 'Immediate'), cls('late', 'WaitForFirstConsumer'), cls('local', 'WaitForFirstConsumer', 'kubernetes.io/no-provisioner')];
  const rows: [string, ApiObject[], ApiObject[], ApiObject, string | Record<string, string | undefined>][] = [
    ['no claims: nothing to check', [], [], testPod('p'), { a: undefined, b: undefined }],
    ['a missing claim', [], [], withClaims('gone'), 'prefilter: persistentvolumeclaim "gone" not found'],
    ['a claim being deleted', [claim('c', { deleting: true })], [], withClaims('c'), 'prefilter: persistentvolumeclaim "c" is being deleted'],
    ['an unbound Immediate claim', [claim('c', { cls: 'fast' })], [], withClaims('c'), `prefilter: ${ERR_UNBOUND_IMMEDIATE}`],
    ['an unbound claim without a class', [claim('c')], [], withClaims('c'), `prefilter: ${ERR_UNBOUND_IMMEDIATE}`],
    ['a bound claim whose volume is pinned to a node', [claim('c', { volumeName: 'pv1' })], [pv('pv1', { host: 'b' })], withClaims('c'), { a: ERR_NODE_CONFLICT, b: undefined }],
    ['a bound claim whose volume is gone', [claim('c', { volumeName: 'pv1' })], [], withClaims('c'), { a: ERR_PV_NOT_EXIST, b: ERR_PV_NOT_EXIST }],
    ['WaitForFirstConsumer with a provisioner: anywhere', [claim('c', { cls: 'late' })], [], withClaims('c'), { a: undefined, b: undefined }],
    [
      'WaitForFirstConsumer without a provisioner: where an available volume fits', [claim('c', { cls: 'local' })],
      [pv('small', { cls: 'local', available: true, host: 'a', size: '512Mi' }), pv('fits', { cls: 'local', available: true, host: 'b' })], withClaims('c'), { a: ERR_BIND_CONFLICT, b: undefined },
    ],
  ];
  for (const [name, claims, pvs, pod, want] of rows) it(name, () => assert.deepEqual(run(volumeBinding(listers(claims, pvs, classes)), pod), want));
});

describe('VolumeZone', () => {
  it('a zoned volume fits nodes of its zones only', () => {
    const l = listers([claim('c', { volumeName: 'pv1' })], [pv('pv1', { zone: 'z2__z3' })], []);
    assert.deepEqual(run(volumeZone(l), withClaims('c')), { a: ERR_VOLUME_ZONE, b: undefined });
  });
  it('unbound claims and unzoned volumes do not restrict', () => {
    const l = listers([claim('c', { volumeName: 'pv1' }), claim('u', { cls: 'late' })], [pv('pv1')], []);
    assert.deepEqual(run(volumeZone(l), withClaims('c', 'u')), { a: undefined, b: undefined });
  });
});

describe('VolumeRestrictions', () => {
  it('a ReadWriteOncePod claim in use by another pod', () => {
    const l = listers([claim('c', { modes: ['ReadWriteOncePod'] })], [], []);
    const user = testPod('user', { nodeName: 'a', spec: { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'c' } }] } });
    assert.equal(run(volumeRestrictions(l), withClaims('c'), [user]), `prefilter: ${ERR_RWOP_CONFLICT}`);
  });
  it('the same GCE PD twice on a node, unless both read-only', () => {
    const l = listers([], [], []);
    const pd = (readOnly: boolean) => ({ volumes: [{ name: 'd', gcePersistentDisk: { pdName: 'disk-1', readOnly } }] });
    const holder = testPod('holder', { nodeName: 'a', spec: pd(false) });
    assert.deepEqual(run(volumeRestrictions(l), testPod('p', { spec: pd(true) }), [holder]), { a: ERR_DISK_CONFLICT, b: undefined });
    const reader = testPod('reader', { nodeName: 'a', spec: pd(true) });
    assert.deepEqual(run(volumeRestrictions(l), testPod('p', { spec: pd(true) }), [reader]), { a: undefined, b: undefined });
  });
});

describe('NodeVolumeLimits', () => {
  const csiPV = (name: string, handle: string): ApiObject => ({ ...pv(name), spec: { ...(pv(name).spec as object), csi: { driver: 'disk.csi.example.com', volumeHandle: handle } } });
  const claims = [claim('c1', { volumeName: 'pv1' }), claim('c2', { volumeName: 'pv2' }), claim('c3', { volumeName: 'pv3' }), claim('new', { cls: 'late' })];
  const l = listers(claims, [csiPV('pv1', 'h1'), csiPV('pv2', 'h2'), csiPV('pv3', 'h1')], [cls('late', 'WaitForFirstConsumer', 'disk.csi.example.com')]);
  const csiNode = (name: string) => (name === 'a' ? { apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', metadata: { name }, spec: { drivers: [{ name: 'disk.csi.example.com', nodeID: 'a', allocatable: { count: 2 } }] } } : undefined);
  const holder = testPod('holder', { nodeName: 'a', spec: { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'c1' } }, { name: 'w', persistentVolumeClaim: { claimName: 'c2' } }] } });
  const rows: [string, ApiObject, Record<string, string | undefined>][] = [
    ['a third volume on a node allowing two', withClaims('new'), { a: ERR_MAX_VOLUME_COUNT, b: undefined }],
    ['a volume already attached there counts once', withClaims('c3'), { a: undefined, b: undefined }],
  ];
  for (const [name, pod, want] of rows) it(name, () => assert.deepEqual(run(nodeVolumeLimits(l, { csiNode }), pod, [holder]), want));
});
