// When a claim or volume counts as in use for the storage-protection controller.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../registry/object.js';
import { podUsesClaim, volumeInUse } from './storageprotection.js';

const claim = (name: string, ownerUid?: string): ApiObject => ({
  metadata: { name, namespace: 'n', ...(ownerUid ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: ownerUid, controller: true }] } : {}) },
});
const pod = (volumes: unknown[], extra: { nodeName?: string; phase?: string } = { nodeName: 'node-1' }): ApiObject => ({
  metadata: { name: 'p', namespace: 'n', uid: 'pod-uid' },
  spec: { ...(extra.nodeName ? { nodeName: extra.nodeName } : {}), volumes },
  ...(extra.phase ? { status: { phase: extra.phase } } : {}),
});
const pvcVolume = { name: 'data', persistentVolumeClaim: { claimName: 'data' } };
const ephemeralVolume = { name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } };

describe('podUsesClaim', () => {
  const rows: [string, ApiObject, ApiObject, boolean][] = [
    ['a scheduled pod naming the claim', pod([pvcVolume]), claim('data'), true],
    ['an unscheduled pod (the node agent never saw it)', pod([pvcVolume], {}), claim('data'), false],
    ['a finished pod naming the claim still holds it', pod([pvcVolume], { nodeName: 'node-1', phase: 'Succeeded' }), claim('data'), true],
    ['another claim', pod([pvcVolume]), claim('other'), false],
    ['an ephemeral volume\'s claim owned by the pod', pod([ephemeralVolume]), claim('p-scratch', 'pod-uid'), true],
    ['an ephemeral volume\'s claim once the pod finished', pod([ephemeralVolume], { nodeName: 'node-1', phase: 'Failed' }), claim('p-scratch', 'pod-uid'), false],
    ['a same-named claim the pod does not own', pod([ephemeralVolume]), claim('p-scratch', 'someone-else'), false],
  ];
  for (const [what, p, c, want] of rows) it(what, () => assert.equal(podUsesClaim(p, c), want));
});

describe('volumeInUse', () => {
  for (const [phase, want] of [['Bound', true], ['Available', false], ['Released', false], [undefined, false]] as const) {
    it(String(phase), () => assert.equal(volumeInUse({ metadata: {}, ...(phase ? { status: { phase } } : {}) }), want));
  }
});
