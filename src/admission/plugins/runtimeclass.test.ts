// RuntimeClass: overhead and scheduling from the class, and the validating step.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newNotFound } from '../../api/meta/index.js';
import type { ApiObject } from '../../registry/object.js';
import type { Getter } from './common.js';
import { runtimeClassPlugin } from './runtimeclass.js';
import { attrs, outcome } from './testutil.js';

const classes: Record<string, ApiObject> = {
  plain: { metadata: { name: 'plain' }, handler: 'runc' },
  kata: { metadata: { name: 'kata' }, handler: 'kata', overhead: { podFixed: { cpu: '250m', memory: '120Mi' } } },
  sched: {
    metadata: { name: 'sched' }, handler: 'gvisor',
    scheduling: { nodeSelector: { sandbox: 'gvisor' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }] },
  },
};
const getter: Getter = () => ({ get: async (_ns, name) => {
  const c = classes[name];
  if (!c) throw newNotFound({ group: 'node.svc.io', resource: 'runtimeclasses' }, name);
  return c;
} });
const pod = (spec: Record<string, unknown>): ApiObject => ({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x' }], ...spec } });
const spec = (o: ApiObject) => o.spec as Record<string, unknown>;

describe('RuntimeClass mutation', () => {
  const plugin = runtimeClassPlugin(getter);
  it('no class: nothing', async () => {
    const a = attrs({ object: pod({}) });
    await plugin.admit(a);
    assert.deepEqual(Object.keys(spec(a.object!)), ['containers']);
  });
  it('sets the overhead', async () => {
    const a = attrs({ object: pod({ runtimeClassName: 'kata' }) });
    await plugin.admit(a);
    assert.deepEqual(spec(a.object!).overhead, { cpu: '250m', memory: '120Mi' });
  });
  it('accepts the same overhead in other units', async () => {
    const a = attrs({ object: pod({ runtimeClassName: 'kata', overhead: { cpu: '0.25', memory: '120Mi' } }) });
    assert.equal(await outcome(() => plugin.admit(a)), undefined);
  });
  it('refuses another overhead', async () => {
    const st = await outcome(() => plugin.admit(attrs({ object: pod({ runtimeClassName: 'kata', overhead: { cpu: '1' } }) })));
    assert.deepEqual([st?.code, st?.message], [403, `pods "p" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead`]);
  });
  it('a missing class is 403', async () => {
    const st = await outcome(() => plugin.admit(attrs({ object: pod({ runtimeClassName: 'nope' }) })));
    assert.deepEqual([st?.code, st?.message], [403, 'pods "p" is forbidden: pod rejected: RuntimeClass "nope" not found']);
  });
  it('merges the scheduling', async () => {
    const a = attrs({ object: pod({ runtimeClassName: 'sched', nodeSelector: { disk: 'ssd' }, tolerations: [{ key: 'a', operator: 'Equal', value: 'b' }] }) });
    await plugin.admit(a);
    assert.deepEqual(spec(a.object!).nodeSelector, { disk: 'ssd', sandbox: 'gvisor' });
    assert.deepEqual(spec(a.object!).tolerations, [{ key: 'a', operator: 'Equal', value: 'b' }, { key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }]);
  });
  it('takes the class selector when the pod has none', async () => {
    const a = attrs({ object: pod({ runtimeClassName: 'sched' }) });
    await plugin.admit(a);
    assert.deepEqual(spec(a.object!).nodeSelector, { sandbox: 'gvisor' });
  });
  it('refuses a conflicting selector', async () => {
    const st = await outcome(() => plugin.admit(attrs({ object: pod({ runtimeClassName: 'sched', nodeSelector: { sandbox: 'runc' } }) })));
    assert.equal(st?.message, 'pods "p" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = gvisor; pod.spec.nodeSelector[sandbox] = runc');
  });
  it('only on create', async () => {
    const a = attrs({ operation: 'UPDATE', object: pod({ runtimeClassName: 'kata' }) });
    await plugin.admit(a);
    assert.equal(spec(a.object!).overhead, undefined);
  });
});

describe('RuntimeClass validation', () => {
  const plugin = runtimeClassPlugin(getter);
  const rows: [string, Record<string, unknown>, string | undefined][] = [
    ['no class, no overhead', {}, undefined],
    ['matching overhead', { runtimeClassName: 'kata', overhead: { cpu: '250m', memory: '120Mi' } }, undefined],
    ['overhead missing for a class with one', { runtimeClassName: 'kata' }, `pods "p" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead`],
    ['overhead without a class', { overhead: { cpu: '1' } }, 'pods "p" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead'],
    ['overhead with a class that defines none', { runtimeClassName: 'plain', overhead: { cpu: '1' } }, 'pods "p" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead'],
    ['missing class', { runtimeClassName: 'nope' }, 'pods "p" is forbidden: pod rejected: RuntimeClass "nope" not found'],
  ];
  for (const [what, s, want] of rows) {
    it(what, async () => assert.equal((await outcome(() => plugin.validate(attrs({ object: pod(s) }))))?.message, want));
  }
});
