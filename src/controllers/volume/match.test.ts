// Which volume a claim gets (FindMatchingVolume and the access-mode index),
// and why a named volume cannot take a claim (checkVolumeSatisfyClaim).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { findMatchingVolume, volumeSatisfyClaimError, type MatchOptions } from './match.js';
import { testClaim, testNodeObject, testVolume } from './testing.js';

describe('findMatchingVolume', () => {
  const nodeA = testNodeObject('a');
  const rows: { name: string; claim: ApiObject; volumes: ApiObject[]; opts?: Partial<MatchOptions>; want: string | undefined }[] = [
    { name: 'the smallest volume that fits', claim: testClaim('c', { size: '2Gi' }), volumes: [testVolume('big', { size: '10Gi' }), testVolume('fit', { size: '2Gi' }), testVolume('small', { size: '1Gi' })], want: 'fit' },
    { name: 'sizes compare as quantities (2048Mi fits 2Gi)', claim: testClaim('c', { size: '2Gi' }), volumes: [testVolume('mi', { size: '2048Mi' })], want: 'mi' },
    { name: 'nothing fits', claim: testClaim('c', { size: '5Gi' }), volumes: [testVolume('small', { size: '1Gi' })], want: undefined },
    { name: 'the class must be equal ("" matches only "")', claim: testClaim('c', { cls: 'gold' }), volumes: [testVolume('none'), testVolume('silver', { cls: 'silver' }), testVolume('gold', { cls: 'gold', size: '5Gi' })], want: 'gold' },
    { name: 'volumes not Available are skipped', claim: testClaim('c'), volumes: [testVolume('rel', { phase: 'Released' }), testVolume('ok', { size: '3Gi' })], want: 'ok' },
    { name: 'volumes bound to another claim are skipped', claim: testClaim('c'), volumes: [testVolume('taken', { claim: { name: 'other', uid: 'u2' } })], want: undefined },
    { name: 'a volume being deleted is skipped', claim: testClaim('c'), volumes: [testVolume('gone', { deleting: true })], want: undefined },
    { name: 'a volume pre-bound to the claim wins over a smaller one', claim: testClaim('c', { size: '1Gi' }), volumes: [testVolume('any', { size: '1Gi' }), testVolume('mine', { size: '9Gi', phase: 'Available', claim: { name: 'c' } })], want: 'mine' },
    { name: 'the selector must match the labels', claim: testClaim('c', { selector: { matchLabels: { tier: 'db' } } }), volumes: [testVolume('web', { labels: { tier: 'web' } }), testVolume('db', { labels: { tier: 'db' }, size: '4Gi' })], want: 'db' },
    { name: 'volume modes must agree (unset is Filesystem)', claim: testClaim('c', { volumeMode: 'Block' }), volumes: [testVolume('fs'), testVolume('blk', { volumeMode: 'Block', size: '8Gi' })], want: 'blk' },
    { name: 'access modes: the fewest modes covering the claim\'s first', claim: testClaim('c', { modes: ['ReadWriteOnce'] }), volumes: [testVolume('many', { modes: ['ReadWriteOnce', 'ReadOnlyMany'], size: '1Gi' }), testVolume('one', { modes: ['ReadWriteOnce'], size: '5Gi' })], want: 'one' },
    { name: 'access modes not covering the claim\'s never match', claim: testClaim('c', { modes: ['ReadWriteMany'] }), volumes: [testVolume('rwo')], want: undefined },
    { name: 'delayed binding without a node: only a pre-bound volume', claim: testClaim('c'), volumes: [testVolume('any')], opts: { delayBinding: true }, want: undefined },
    { name: 'delayed binding with a node: node affinity decides', claim: testClaim('c'), volumes: [testVolume('on-b', { host: 'b' }), testVolume('on-a', { host: 'a', size: '3Gi' })], opts: { delayBinding: true, node: nodeA }, want: 'on-a' },
    { name: 'a pre-bound volume on another node: no match at all', claim: testClaim('c'), volumes: [testVolume('mine', { host: 'b', claim: { name: 'c' } }), testVolume('other', { host: 'a' })], opts: { delayBinding: true, node: nodeA }, want: undefined },
    { name: 'excluded volumes (chosen for the pod\'s other claims)', claim: testClaim('c'), volumes: [testVolume('x'), testVolume('y', { size: '2Gi' })], opts: { delayBinding: false, exclude: new Set(['x']) }, want: 'y' },
  ];
  for (const r of rows) {
    it(r.name, () => assert.equal(findMatchingVolume(r.claim, r.volumes, { delayBinding: false, ...r.opts })?.metadata.name, r.want));
  }
});

describe('volumeSatisfyClaimError', () => {
  const rows: [string, ApiObject, ApiObject, string | undefined][] = [
    ['fits', testVolume('v', { size: '2Gi' }), testClaim('c'), undefined],
    ['too small', testVolume('v', { size: '1Mi' }), testClaim('c'), 'requested PV is too small'],
    ['another class', testVolume('v', { cls: 'x' }), testClaim('c'), 'storageClassName does not match'],
    ['another volume mode', testVolume('v', { volumeMode: 'Block' }), testClaim('c'), 'incompatible volumeMode'],
    ['missing access mode', testVolume('v'), testClaim('c', { modes: ['ReadWriteMany'] }), 'incompatible accessMode'],
    ['being deleted', testVolume('v', { deleting: true }), testClaim('c'), 'the volume is marked for deletion "v"'],
  ];
  for (const [name, pv, claim, want] of rows) it(name, () => assert.equal(volumeSatisfyClaimError(pv, claim), want));
});
