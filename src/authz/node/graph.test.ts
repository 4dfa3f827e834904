// The node graph as the watches feed it: which node reaches which object after
// a sequence of pod, PV and VolumeAttachment events.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { Graph, type VertexType } from './graph.js';
import { GraphPopulator, MIRROR_POD_ANNOTATION } from './populator.js';

type Spec = Record<string, unknown>;
const pod = (name: string, nodeName: string, spec: Spec = {}, o: { ns?: string; uid?: string; annotations?: Record<string, string> } = {}): ApiObject => ({
  metadata: { name, namespace: o.ns ?? 'ns', uid: o.uid ?? `uid-${name}`, ...(o.annotations ? { annotations: o.annotations } : {}) },
  spec: { containers: [{ name: 'c', image: 'i' }], ...(nodeName ? { nodeName } : {}), ...spec },
});
const secretVolume = (secretName: string): Spec => ({ volumes: [{ name: 's', secret: { secretName } }] });
const pv = (name: string, claim: { namespace: string; name: string } | undefined, source: Spec = {}): ApiObject =>
  ({ metadata: { name }, spec: { ...(claim ? { claimRef: claim } : {}), ...source } });
const va = (name: string, nodeName: string): ApiObject => ({ metadata: { name }, spec: { attacher: 'a', nodeName, source: {} } });

type Event =
  | ['pod' | 'pod-delete' | 'pv' | 'pv-delete' | 'va' | 'va-delete', ApiObject];
/** [node, vertex type, namespace, name, reachable] */
type Check = [string, VertexType, string, string, boolean];

function run(events: Event[]): Graph {
  const graph = new Graph();
  const p = new GraphPopulator(graph);
  for (const [kind, o] of events) {
    if (kind === 'pod') p.onPod(o);
    else if (kind === 'pod-delete') p.onPodDelete(o);
    else if (kind === 'pv') p.onPV(o);
    else if (kind === 'pv-delete') p.onPVDelete(o);
    else if (kind === 'va') p.onVolumeAttachment(o);
    else p.onVolumeAttachmentDelete(o);
  }
  return graph;
}

const cases: { name: string; events: Event[]; checks: Check[]; size?: number }[] = [
  {
    name: 'a secret volume on node A: A reaches it, B does not',
    events: [['pod', pod('p', 'a', secretVolume('s'))], ['pod', pod('q', 'b')]],
    checks: [['a', 'secret', 'ns', 's', true], ['b', 'secret', 'ns', 's', false], ['a', 'secret', 'other', 's', false], ['a', 'pod', 'ns', 'p', true]],
  },
  {
    name: 'an unbound pod adds nothing; binding it does',
    events: [['pod', pod('p', '', secretVolume('s'))]],
    checks: [['a', 'secret', 'ns', 's', false]],
    size: 0,
  },
  {
    name: 'binding a pod that was pending',
    events: [['pod', pod('p', '', secretVolume('s'))], ['pod', pod('p', 'a', secretVolume('s'))]],
    checks: [['a', 'secret', 'ns', 's', true]],
  },
  {
    name: 'pod deleted: its edges, and the vertices only it used, are gone',
    events: [['pod', pod('p', 'a', { ...secretVolume('s'), serviceAccountName: 'sa' })], ['pod-delete', pod('p', 'a', secretVolume('s'))]],
    checks: [['a', 'secret', 'ns', 's', false], ['a', 'serviceAccount', 'ns', 'sa', false]],
    size: 0,
  },
  {
    name: 'a pod recreated under the same name on another node (new uid)',
    events: [['pod', pod('p', 'a', secretVolume('s'), { uid: '1' })], ['pod', pod('p', 'b', secretVolume('t'), { uid: '2' })]],
    checks: [['a', 'secret', 'ns', 's', false], ['a', 'secret', 'ns', 't', false], ['b', 'secret', 'ns', 't', true], ['b', 'secret', 'ns', 's', false]],
  },
  {
    name: 'same uid and node: the spec is immutable, the update is ignored (as kube does)',
    events: [['pod', pod('p', 'a', secretVolume('s'))], ['pod', pod('p', 'a', secretVolume('t'))]],
    checks: [['a', 'secret', 'ns', 's', true], ['a', 'secret', 'ns', 't', false]],
  },
  {
    name: 'a secret shared by pods on two nodes stays reachable from the other when one goes',
    events: [['pod', pod('p', 'a', secretVolume('s'))], ['pod', pod('q', 'b', secretVolume('s'))], ['pod-delete', pod('p', 'a')]],
    checks: [['a', 'secret', 'ns', 's', false], ['b', 'secret', 'ns', 's', true]],
  },
  {
    name: 'two pods on one node share a secret: deleting one keeps it',
    events: [['pod', pod('p', 'a', secretVolume('s'))], ['pod', pod('q', 'a', secretVolume('s'))], ['pod-delete', pod('p', 'a')]],
    checks: [['a', 'secret', 'ns', 's', true]],
  },
  {
    name: 'every reference kind of a pod',
    events: [['pod', pod('p', 'a', {
      serviceAccountName: 'runner',
      imagePullSecrets: [{ name: 'pull' }],
      ephemeralContainers: [{ name: 'dbg', image: 'i', envFrom: [{ configMapRef: { name: 'dbg-cm' } }] }],
      volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }, { name: 'tmp', ephemeral: { volumeClaimTemplate: { spec: {} } } }, { name: 'cm', configMap: { name: 'cfg' } }],
      resourceClaims: [{ name: 'gpu', source: { resourceClaimTemplateName: 't' } }, { name: 'x', source: { resourceClaimName: 'shared' } }],
    })]],
    checks: [
      ['a', 'serviceAccount', 'ns', 'runner', true], ['a', 'secret', 'ns', 'pull', true], ['a', 'configmap', 'ns', 'dbg-cm', true],
      ['a', 'pvc', 'ns', 'data', true], ['a', 'pvc', 'ns', 'p-tmp', true], ['a', 'configmap', 'ns', 'cfg', true],
      ['a', 'resourceclaim', 'ns', 'p-gpu', true], ['a', 'resourceclaim', 'ns', 'shared', true], ['b', 'pvc', 'ns', 'data', false],
    ],
  },
  {
    name: 'a mirror pod grants nothing but itself',
    events: [['pod', pod('m', 'a', { ...secretVolume('s'), serviceAccountName: 'sa' }, { annotations: { [MIRROR_POD_ANNOTATION]: 'x' } })]],
    checks: [['a', 'pod', 'ns', 'm', true], ['a', 'secret', 'ns', 's', false], ['a', 'serviceAccount', 'ns', 'sa', false]],
  },
  {
    name: 'PVC → PV → the PV\'s secret, either order of events',
    events: [
      ['pv', pv('vol', { namespace: 'ns', name: 'data' }, { csi: { driver: 'd', volumeHandle: 'h', nodePublishSecretRef: { name: 'pub', namespace: 'sec' }, controllerPublishSecretRef: { name: 'ctl', namespace: 'sec' } } })],
      ['pod', pod('p', 'a', { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] })],
    ],
    checks: [['a', 'pv', '', 'vol', true], ['a', 'secret', 'sec', 'pub', true], ['a', 'secret', 'sec', 'ctl', false], ['b', 'pv', '', 'vol', false], ['b', 'secret', 'sec', 'pub', false]],
  },
  {
    name: 'a PV rebound to another claim, or deleted',
    events: [
      ['pod', pod('p', 'a', { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] })],
      ['pv', pv('vol', { namespace: 'ns', name: 'data' }, { rbd: { monitors: ['m'], image: 'i', secretRef: { name: 'ceph' } } })],
      ['pv', pv('vol', { namespace: 'ns', name: 'other' }, { rbd: { monitors: ['m'], image: 'i', secretRef: { name: 'ceph' } } })],
      ['pv', pv('vol2', { namespace: 'ns', name: 'data' })],
      ['pv-delete', pv('vol2', undefined)],
    ],
    checks: [['a', 'pv', '', 'vol', false], ['a', 'secret', 'ns', 'ceph', false], ['a', 'pv', '', 'vol2', false], ['a', 'pvc', 'ns', 'data', true]],
  },
  {
    name: 'a PV without a claim has no edges',
    events: [['pod', pod('p', 'a', { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] })], ['pv', pv('vol', undefined)]],
    checks: [['a', 'pv', '', 'vol', false]],
  },
  {
    name: 'VolumeAttachments follow spec.nodeName',
    events: [['va', va('att', 'a')], ['va', va('att2', 'a')], ['va', va('att2', 'b')], ['va', va('att3', 'a')], ['va-delete', va('att3', 'a')]],
    checks: [['a', 'volumeattachment', '', 'att', true], ['a', 'volumeattachment', '', 'att2', false], ['b', 'volumeattachment', '', 'att2', true], ['a', 'volumeattachment', '', 'att3', false]],
  },
  {
    name: 'an unknown node or object reaches nothing',
    events: [['pod', pod('p', 'a', secretVolume('s'))]],
    checks: [['zz', 'secret', 'ns', 's', false], ['a', 'secret', 'ns', 'nope', false], ['a', 'configmap', 'ns', 's', false]],
  },
];

describe('node graph', () => {
  for (const c of cases) {
    it(c.name, () => {
      const g = run(c.events);
      for (const [node, type, ns, name, want] of c.checks) {
        assert.equal(g.hasPathFrom(node, type, ns, name), want, `${node} → ${type} ${ns}/${name}`);
      }
      if (c.size !== undefined) assert.equal(g.size, c.size);
    });
  }

  it('a secret shared by many pods answers from its counts, and loses them one by one', () => {
    const g = new Graph();
    const p = new GraphPopulator(g);
    for (let i = 0; i < 200; i++) p.onPod(pod(`p${i}`, `n${i % 10}`, secretVolume('shared')));
    assert.equal(g.hasPathFrom('n3', 'secret', 'ns', 'shared'), true);
    for (let i = 0; i < 200; i++) if (i % 10 === 3) p.onPodDelete(pod(`p${i}`, 'n3'));
    assert.equal(g.hasPathFrom('n3', 'secret', 'ns', 'shared'), false);
    assert.equal(g.hasPathFrom('n4', 'secret', 'ns', 'shared'), true);
    for (let i = 0; i < 200; i++) if (i % 10 !== 3) p.onPodDelete(pod(`p${i}`, `n${i % 10}`));
    assert.equal(g.size, 0);
  });

  it('a relist drops pods, PVs and attachments deleted while the watch was down', () => {
    const g = new Graph();
    const p = new GraphPopulator(g);
    const kept = pod('kept', 'a', secretVolume('k'));
    p.onPod(pod('gone', 'a', secretVolume('s')));
    p.onPod(kept);
    p.onPV(pv('vol', { namespace: 'ns', name: 'data' }));
    p.onVolumeAttachment(va('att', 'a'));
    p.onPodList([kept]);
    p.onPVList([]);
    p.onVolumeAttachmentList([]);
    assert.equal(g.hasPathFrom('a', 'secret', 'ns', 's'), false);
    assert.equal(g.hasPathFrom('a', 'secret', 'ns', 'k'), true);
    assert.equal(g.has('pv', '', 'vol'), false);
    assert.equal(g.hasPathFrom('a', 'volumeattachment', '', 'att'), false);
    // the relisted pod is not added twice: same uid and node
    p.onPod(kept);
    assert.equal(g.hasPathFrom('a', 'secret', 'ns', 'k'), true);
  });

  it('PV and pod removal leave no vertices behind', () => {
    const g = run([
      ['pod', pod('p', 'a', { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] })],
      ['pv', pv('vol', { namespace: 'ns', name: 'data' }, { cephfs: { monitors: ['m'], secretRef: { name: 'ceph' } } })],
      ['va', va('att', 'a')],
      ['pv-delete', pv('vol', undefined)],
      ['pod-delete', pod('p', 'a')],
      ['va-delete', va('att', 'a')],
    ]);
    assert.equal(g.size, 0);
  });
});
