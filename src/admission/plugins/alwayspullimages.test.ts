// AlwaysPullImages: which writes get Always, and the validating step's refusal.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { alwaysPullImages } from './alwayspullimages.js';
import { attrs, outcome } from './testutil.js';

function pod(images: { init?: string[]; main?: string[]; eph?: string[] }, policy?: string): ApiObject {
  const cs = (xs: string[] | undefined, prefix: string) => xs?.map((image, i) => ({ name: `${prefix}${i}`, image, ...(policy ? { imagePullPolicy: policy } : {}) }));
  const spec: Record<string, unknown> = { containers: cs(images.main, 'c') ?? [] };
  if (images.init) spec.initContainers = cs(images.init, 'i');
  if (images.eph) spec.ephemeralContainers = cs(images.eph, 'e');
  return { metadata: { name: 'p' }, spec };
}

const policies = (o: ApiObject) => {
  const s = o.spec as Record<string, { imagePullPolicy?: string }[] | undefined>;
  return [...(s.initContainers ?? []), ...(s.containers ?? []), ...(s.ephemeralContainers ?? [])].map((c) => c.imagePullPolicy);
};

describe('AlwaysPullImages mutation', () => {
  const plugin = alwaysPullImages();
  const rows: [string, Parameters<typeof attrs>[0], (string | undefined)[]][] = [
    ['create: every kind of container', { object: pod({ init: ['a'], main: ['b'], eph: ['c'] }, 'Never') }, ['Always', 'Always', 'Always']],
    ['create: no policy given', { object: pod({ main: ['b'] }) }, ['Always']],
    ['update with a new image', { operation: 'UPDATE', object: pod({ main: ['b:2'] }, 'IfNotPresent'), oldObject: pod({ main: ['b:1'] }, 'Always') }, ['Always']],
    ['update with the same images is left alone', { operation: 'UPDATE', object: pod({ main: ['b'] }, 'IfNotPresent'), oldObject: pod({ main: ['b'] }, 'IfNotPresent') }, ['IfNotPresent']],
    ['update adding an ephemeral container with a known image is left alone', { operation: 'UPDATE', object: pod({ main: ['b'], eph: ['b'] }, 'Never'), oldObject: pod({ main: ['b'] }, 'Never') }, ['Never', 'Never']],
    ['a subresource is left alone', { subresource: 'status', object: pod({ main: ['b'] }, 'Never') }, ['Never']],
    ['another resource is left alone', { resource: 'podtemplates', object: pod({ main: ['b'] }, 'Never') }, ['Never']],
  ];
  for (const [what, init, want] of rows) {
    it(what, async () => {
      const a = attrs(init);
      await plugin.admit(a);
      assert.deepEqual(policies(a.object!), want);
    });
  }
});

describe('AlwaysPullImages validation', () => {
  const plugin = alwaysPullImages();
  it('accepts Always everywhere', async () => {
    assert.equal(await outcome(() => plugin.validate(attrs({ object: pod({ init: ['a'], main: ['b'] }, 'Always') }))), undefined);
  });
  it('refuses one container with kube text (an aggregate: 500, no reason)', async () => {
    const st = await outcome(() => plugin.validate(attrs({ object: pod({ main: ['b'] }, 'Never') })));
    assert.equal(st?.code, 500);
    assert.equal(st?.reason, undefined);
    assert.equal(st?.message, 'pods "p" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "Never": supported values: "Always"');
  });
  it('lists several', async () => {
    const st = await outcome(() => plugin.validate(attrs({ object: pod({ init: ['a'], main: ['b'] }, 'IfNotPresent') })));
    assert.equal(st?.message, '[pods "p" is forbidden: spec.initContainers[0].imagePullPolicy: Unsupported value: "IfNotPresent": supported values: "Always", pods "p" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "IfNotPresent": supported values: "Always"]');
  });
  it('does not check an update without new images', async () => {
    assert.equal(await outcome(() => plugin.validate(attrs({ operation: 'UPDATE', object: pod({ main: ['b'] }, 'Never'), oldObject: pod({ main: ['b'] }, 'Never') }))), undefined);
  });
  it('is mutating with a validating step', () => assert.equal(plugin.phase, 'mutating'));
});
