// metaFromOpenAPI: kinds, $ref/allOf resolution, the patch markers, recursion, and
// the strategy marker rules (extractRetainKeysPatchStrategy).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PatchError } from './errors.js';
import { type OpenAPISchema, metaFromOpenAPI, parsePatchStrategy } from './meta.js';
import { metaFor } from './testkit.js';

describe('metaFromOpenAPI', () => {
  it('follows properties, $ref, allOf, items and additionalProperties', () => {
    const pod = metaFor('Pod');
    assert.equal(pod.kind, 'object');
    const containers = pod.field('spec')?.field('containers');
    assert.deepEqual([containers?.kind, containers?.mergeKey, containers?.strategy.merge], ['list', 'name', true]);
    const ports = containers?.items()?.field('ports');
    assert.deepEqual([ports?.mergeKey, ports?.items()?.kind], ['containerPort', 'object']);
    const labels = pod.field('metadata')?.field('labels');
    assert.deepEqual([labels?.kind, labels?.field('anything')?.kind], ['map', 'primitive']);
    assert.equal(pod.field('nope'), undefined);
    const finalizers = pod.field('metadata')?.field('finalizers');
    assert.deepEqual([finalizers?.strategy.merge, finalizers?.mergeKey], [true, undefined]);
  });

  it('markers next to a $ref win over the referenced schema', () => {
    const strategy = metaFor('Deployment').field('spec')?.field('strategy');
    assert.deepEqual(strategy?.strategy, { merge: false, replace: false, retainKeys: true });
    assert.equal(strategy?.field('rollingUpdate')?.field('maxSurge')?.kind, 'primitive');
    const volumes = metaFor('Pod').field('spec')?.field('volumes');
    assert.deepEqual(volumes?.strategy, { merge: true, replace: false, retainKeys: true });
  });

  it('recursive schemas are built lazily', () => {
    let depth = metaFor('MergeItem');
    for (let i = 0; i < 50; i++) depth = depth.field('mergingList')!.items()!;
    assert.equal(depth.field('mergingList')?.mergeKey, 'name');
  });

  it('list-type map is read as merge only when asked', () => {
    const s: OpenAPISchema = { type: 'object', properties: { l: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' } } }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'] } } };
    assert.equal(metaFromOpenAPI(s).field('l')?.strategy.merge, false);
    const opted = metaFromOpenAPI(s, { listMapAsMerge: true }).field('l');
    assert.deepEqual([opted?.strategy.merge, opted?.mergeKey], [true, 'k']);
  });

  it('kinds of leaf and open schemas', () => {
    const kinds = (s: OpenAPISchema): string => metaFromOpenAPI(s).kind;
    assert.equal(kinds({ type: 'string' }), 'primitive');
    assert.equal(kinds({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }), 'unknown');
    assert.equal(kinds({}), 'unknown');
    assert.equal(kinds({ type: 'object', additionalProperties: { type: 'integer' } }), 'map');
  });
});

describe('patch strategy markers', () => {
  const ok: [string | undefined, { merge: boolean; replace: boolean; retainKeys: boolean }][] = [
    [undefined, { merge: false, replace: false, retainKeys: false }],
    ['merge', { merge: true, replace: false, retainKeys: false }],
    ['replace', { merge: false, replace: true, retainKeys: false }],
    ['retainKeys', { merge: false, replace: false, retainKeys: true }],
    ['merge,retainKeys', { merge: true, replace: false, retainKeys: true }],
    ['retainKeys,merge', { merge: true, replace: false, retainKeys: true }],
    ['retainKeys,retainKeys', { merge: false, replace: false, retainKeys: true }],
  ];
  for (const [marker, want] of ok) it(String(marker), () => assert.deepEqual(parsePatchStrategy(marker), want));
  for (const marker of ['merge,replace', 'merge,retainKeys,replace']) {
    it(`refuses ${marker}`, () =>
      assert.throws(() => parsePatchStrategy(marker), (e: unknown) => e instanceof PatchError && e.kind === 'internal' && e.message === `unexpected patch strategy: [${marker.split(',').join(' ')}]`));
  }
});
