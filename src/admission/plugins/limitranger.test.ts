// LimitRanger: defaults on pods, the min/max/ratio checks with kube's texts, pod totals, claims.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { LIMIT_RANGER_ANNOTATION, limitRanger } from './limitranger.js';
import { attrs, outcome, type AttrsInit } from './testutil.js';

type RL = Record<string, string>;
interface Item { type: string; min?: RL; max?: RL; default?: RL; defaultRequest?: RL; maxLimitRequestRatio?: RL }
const range = (name: string, ...limits: Item[]): ApiObject => ({ metadata: { name, namespace: 'ns' }, spec: { limits } });

interface Res { requests?: RL; limits?: RL }
const container = (name: string, r: Res = {}) => ({ name, image: 'x', resources: { ...r } });
const pod = (cs: Res[], inits: Res[] = []): ApiObject => ({
  metadata: { name: 'p' },
  spec: { containers: cs.map((r, i) => container(`c${i}`, r)), ...(inits.length ? { initContainers: inits.map((r, i) => container(`i${i}`, r)) } : {}) },
});
const claim = (storage?: string): ApiObject => ({ metadata: { name: 'c' }, spec: { resources: { requests: storage ? { storage } : {} } } });

/** The golden scenario's LimitRange, after API defaulting. */
const DEFAULTS = range('defaults', {
  type: 'Container',
  default: { cpu: '500m', memory: '256Mi' },
  defaultRequest: { cpu: '100m', memory: '128Mi' },
  min: { cpu: '50m' },
  max: { cpu: '1', memory: '1Gi' },
  maxLimitRequestRatio: { cpu: '10' },
});

/** Runs both steps as the chain does; the object after them, or the Status message. */
async function run(ranges: ApiObject[], init: AttrsInit): Promise<{ object?: ApiObject; message?: string; listed: number }> {
  let listed = 0;
  const plugin = limitRanger({ limitRanges: async () => (listed++, ranges) });
  const fresh = () => attrs({ ...init, ...(init.object ? { object: structuredClone(init.object) } : {}) });
  const a = fresh();
  const status = await outcome(async () => {
    await plugin.admit(a);
    await plugin.validate(a);
  });
  // the same steps with the ranges known at once (a current watch cache): the same answer, and no promise
  const now = limitRanger({ limitRanges: async () => assert.fail('read although known at once'), limitRangesNow: () => ranges });
  const b = fresh();
  let answered: unknown;
  let refused: string | undefined;
  try {
    answered = now.admit(b) ?? now.validate(b);
  } catch (err) {
    refused = (err as { message?: string }).message;
  }
  assert.equal(answered, undefined, 'no promise');
  assert.equal(refused, status?.message);
  if (!status) assert.deepEqual(b.object, a.object);
  return status ? { message: status.message, listed } : { object: a.object, listed };
}

const resourcesOf = (o: ApiObject | undefined, list = 'containers') =>
  ((o!.spec as { [k: string]: { resources: Res }[] })[list] ?? []).map((c) => c.resources);

describe('LimitRanger defaults', () => {
  const rows: [string, ApiObject, Res[], string | undefined, Res[]?][] = [
    ['none set: all four', pod([{}]), [{ requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } }],
      'LimitRanger plugin set: cpu, memory request for container c0; cpu, memory limit for container c0'],
    ['a limit (request defaulted from it by the API) keeps both', pod([{ limits: { cpu: '300m' }, requests: { cpu: '300m' } }]),
      [{ limits: { cpu: '300m', memory: '256Mi' }, requests: { cpu: '300m', memory: '128Mi' } }],
      'LimitRanger plugin set: memory request for container c0; memory limit for container c0'],
    ['a request only', pod([{ requests: { memory: '64Mi' } }]), [{ requests: { memory: '64Mi', cpu: '100m' }, limits: { cpu: '500m', memory: '256Mi' } }],
      'LimitRanger plugin set: cpu request for container c0; cpu, memory limit for container c0'],
    ['fully specified: untouched, no annotation', pod([{ requests: { cpu: '200m', memory: '100Mi' }, limits: { cpu: '400m', memory: '200Mi' } }]),
      [{ requests: { cpu: '200m', memory: '100Mi' }, limits: { cpu: '400m', memory: '200Mi' } }], undefined],
    ['init containers too, after the containers', pod([{}], [{}]), [{ requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } }],
      'LimitRanger plugin set: cpu, memory request for container c0; cpu, memory limit for container c0; cpu, memory request for init container i0; cpu, memory limit for init container i0',
      [{ requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } }]],
  ];
  for (const [what, object, want, annotation, wantInit] of rows) {
    it(what, async () => {
      const r = await run([DEFAULTS], { object });
      assert.equal(r.message, undefined);
      assert.deepEqual(resourcesOf(r.object), want);
      assert.equal(r.object!.metadata.annotations?.[LIMIT_RANGER_ANNOTATION], annotation);
      if (wantInit) assert.deepEqual(resourcesOf(r.object, 'initContainers'), wantInit);
    });
  }
  it('values are written canonically', async () => {
    const r = await run([range('x', { type: 'Container', default: { memory: '1024Mi' }, defaultRequest: { cpu: '0.5' } })], { object: pod([{}]) });
    assert.deepEqual(resourcesOf(r.object), [{ limits: { memory: '1Gi' }, requests: { cpu: '500m' } }]);
  });
  it('a LimitRange without defaults adds no empty maps', async () => {
    const r = await run([range('x', { type: 'Pod', max: { cpu: '2' } })], { object: pod([{ limits: { cpu: '1' } }]) });
    assert.deepEqual(resourcesOf(r.object), [{ limits: { cpu: '1' } }]);
    assert.equal(r.object!.metadata.annotations, undefined);
  });
  it('several LimitRanges: each defaults in turn, the last that set something writes the annotation', async () => {
    const r = await run([range('a', { type: 'Container', default: { cpu: '1' } }), range('b', { type: 'Container', default: { memory: '1Gi', cpu: '2' } })], { object: pod([{}]) });
    assert.deepEqual(resourcesOf(r.object), [{ limits: { cpu: '1', memory: '1Gi' } }]);
    assert.equal(r.object!.metadata.annotations?.[LIMIT_RANGER_ANNOTATION], 'LimitRanger plugin set: memory limit for container c0');
  });
  it('other annotations are kept', async () => {
    const object = pod([{}]);
    object.metadata.annotations = { a: 'b' };
    const r = await run([DEFAULTS], { object });
    assert.equal(r.object!.metadata.annotations?.a, 'b');
  });
});

describe('LimitRanger checks', () => {
  const C = 'Container';
  const rows: [string, ApiObject[], ApiObject, string | undefined][] = [
    ['below min request', [range('r', { type: C, min: { cpu: '100m' } })], pod([{ requests: { cpu: '50m' } }]),
      'pods "p" is forbidden: minimum cpu usage per Container is 100m, but request is 50m'],
    ['no request against a min', [range('r', { type: C, min: { memory: '1Mi' } })], pod([{}]),
      'pods "p" is forbidden: minimum memory usage per Container is 1Mi.  No request is specified'],
    ['limit below min', [range('r', { type: C, min: { cpu: '100m' } })], pod([{ requests: { cpu: '200m' }, limits: { cpu: '50m' } }]),
      'pods "p" is forbidden: minimum cpu usage per Container is 100m, but limit is 50m'],
    ['no limit against a max', [range('r', { type: C, max: { cpu: '1' } })], pod([{ requests: { cpu: '1' } }]),
      'pods "p" is forbidden: maximum cpu usage per Container is 1.  No limit is specified'],
    ['above max limit', [range('r', { type: C, max: { memory: '1Gi' } })], pod([{ limits: { memory: '2Gi' } }]),
      'pods "p" is forbidden: maximum memory usage per Container is 1Gi, but limit is 2Gi'],
    ['ratio exceeded', [range('r', { type: C, maxLimitRequestRatio: { cpu: '2' } })], pod([{ requests: { cpu: '100m' }, limits: { cpu: '300m' } }]),
      'pods "p" is forbidden: cpu max limit to request ratio per Container is 2, but provided ratio is 3.000000'],
    ['ratio at the bound passes', [range('r', { type: C, maxLimitRequestRatio: { cpu: '2' } })], pod([{ requests: { cpu: '100m' }, limits: { cpu: '200m' } }]), undefined],
    ['ratio without a request', [range('r', { type: C, maxLimitRequestRatio: { cpu: '2' } })], pod([{ limits: { cpu: '1' } }]),
      'pods "p" is forbidden: cpu max limit to request ratio per Container is 2, but no request is specified or request is 0'],
    ['ratio without a limit', [range('r', { type: C, maxLimitRequestRatio: { cpu: '2' } })], pod([{ requests: { cpu: '1' } }]),
      'pods "p" is forbidden: cpu max limit to request ratio per Container is 2, but no limit is specified or limit is 0'],
    ['several causes: one aggregate, in brackets', [range('r', { type: C, min: { cpu: '100m' }, max: { cpu: '1' } })], pod([{ requests: { cpu: '50m' }, limits: { cpu: '2' } }]),
      'pods "p" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m, maximum cpu usage per Container is 1, but limit is 2]'],
    ['init containers are checked', [range('r', { type: C, max: { cpu: '1' } })], pod([{ limits: { cpu: '1' } }], [{ limits: { cpu: '2' } }]),
      'pods "p" is forbidden: maximum cpu usage per Container is 1, but limit is 2'],
    ['defaults are checked after they are applied', [range('r', { type: C, default: { cpu: '2' }, max: { cpu: '1' } })], pod([{}]),
      'pods "p" is forbidden: maximum cpu usage per Container is 1, but limit is 2'],
    ['Pod: containers summed', [range('r', { type: 'Pod', max: { cpu: '1' } })], pod([{ limits: { cpu: '600m' } }, { limits: { cpu: '600m' } }]),
      'pods "p" is forbidden: maximum cpu usage per Pod is 1, but limit is 1200m'],
    ['Pod: a larger init container counts', [range('r', { type: 'Pod', max: { memory: '1Gi' } })], pod([{ limits: { memory: '512Mi' } }], [{ limits: { memory: '2Gi' } }]),
      'pods "p" is forbidden: maximum memory usage per Pod is 1Gi, but limit is 2Gi'],
    ['Pod: within bounds', [range('r', { type: 'Pod', min: { cpu: '100m' }, max: { cpu: '2' } })], pod([{ requests: { cpu: '100m' }, limits: { cpu: '1' } }, { requests: { cpu: '100m' }, limits: { cpu: '1' } }]), undefined],
    ['Pod: a resource missing in one container is no total', [range('r', { type: 'Pod', max: { cpu: '2' } })], pod([{ limits: { cpu: '1' } }, {}]), undefined],
    ['the first LimitRange broken answers', [range('a', { type: C, max: { cpu: '1' } }), range('b', { type: C, max: { cpu: '500m' } })], pod([{ limits: { cpu: '2' } }]),
      'pods "p" is forbidden: maximum cpu usage per Container is 1, but limit is 2'],
    ['PersistentVolumeClaim items do not touch pods', [range('r', { type: 'PersistentVolumeClaim', min: { storage: '1Gi' } })], pod([{}]), undefined],
  ];
  for (const [what, ranges, object, want] of rows) {
    it(what, async () => assert.equal((await run(ranges, { object })).message, want));
  }
});

describe('LimitRanger on claims', () => {
  const PVC = [range('r', { type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } })];
  const at = (object: ApiObject, extra: AttrsInit = {}) => run(PVC, { resource: 'persistentvolumeclaims', object, ...extra });
  it('within bounds', async () => assert.equal((await at(claim('5Gi'))).message, undefined));
  it('below min', async () => assert.equal((await at(claim('500Mi'))).message, 'persistentvolumeclaims "c" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi'));
  it('above max', async () => assert.equal((await at(claim('20Gi'))).message, 'persistentvolumeclaims "c" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi'));
  it('no request', async () =>
    assert.equal((await at(claim())).message, 'persistentvolumeclaims "c" is forbidden: [minimum storage usage per PersistentVolumeClaim is 1Gi.  No request is specified, maximum storage usage per PersistentVolumeClaim is 10Gi.  No request is specified]'));
  it('checked on update (a resize)', async () => assert.match((await at(claim('20Gi'), { operation: 'UPDATE', oldObject: claim('5Gi') })).message!, /maximum storage/));
  it('not while being deleted', async () => {
    const old = claim('5Gi');
    old.metadata.deletionTimestamp = '2024-01-01T00:00:00Z';
    assert.equal((await at(claim('20Gi'), { operation: 'UPDATE', oldObject: old })).message, undefined);
  });
  it('not defaulted', async () => assert.deepEqual((await at(claim('5Gi'))).object!.spec, { resources: { requests: { storage: '5Gi' } } }));
});

describe('LimitRanger: which requests', () => {
  const tooBig = [range('r', { type: 'Container', max: { cpu: '1' }, default: { cpu: '5' } })];
  const rows: [string, AttrsInit, boolean][] = [
    ['pod create', {}, true],
    ['pod update: skipped (containers are immutable)', { operation: 'UPDATE', oldObject: pod([{}]) }, false],
    ['a subresource', { subresource: 'status' }, false],
    ['another resource', { resource: 'configmaps' }, false],
    ['another group', { group: 'example.com' }, false],
    ['delete', { operation: 'DELETE' }, false],
  ];
  for (const [what, init, acts] of rows) {
    it(what, async () => {
      const r = await run(tooBig, { object: pod([{}]), ...init });
      assert.equal(r.message !== undefined, acts);
      assert.equal(r.listed > 0, acts);
    });
  }
  it('a failing list answers 403', async () => {
    const plugin = limitRanger({ limitRanges: async () => { throw new Error('boom'); } });
    const s = await outcome(() => plugin.admit(attrs({ object: pod([{}]) })));
    assert.equal(s?.code, 403);
    assert.equal(s?.message, 'pods "p" is forbidden: boom');
  });
  it('dry run is mutated the same way', async () => {
    const r = await run([DEFAULTS], { object: pod([{}]), dryRun: true });
    assert.ok(r.object!.metadata.annotations?.[LIMIT_RANGER_ANNOTATION]);
  });
});
