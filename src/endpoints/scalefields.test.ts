// Field ownership through /scale, as Kubernetes v1.27 records it: the two
// halves of its ScaleHandler (toSubresource, toParent) row by row, then whole
// scale writes (the Scale's field manager between the two) on a Deployment's
// entries. Rows name the Kubernetes behaviour they pin; the first toParent
// rows are those of Kubernetes' own scalehandler_test.go.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../registry/object.js';
import { decodeManaged, encodeManaged, type Managed } from '../smd/index.js';
import { FieldSet, field, fromFieldsV1, type Path } from '../smd/fieldpath.js';
import { managerId, type ManagedEntry } from '../smd/managed.js';
import { replicasPathsOf, scaleOwnership, scaleWrites, toParent, toSubresource, type ReplicasPaths } from './scalefields.js';
import { getScale } from './scale.js';
import { decodeApply, trackWrite } from './fieldmanager.js';
import { schemaFor } from '../api/schemas.js';

/** An entry as a test writes it: manager/operation/apiVersion[/subresource], its fields as FieldsV1, and a time. */
interface E {
  m: string;
  op: 'Apply' | 'Update';
  v: string;
  sub?: string;
  f: Record<string, unknown>;
  t?: string;
}

const entry = (e: E): ManagedEntry => ({ manager: e.m, operation: e.op, apiVersion: e.v, fields: fromFieldsV1(e.f), ...(e.sub ? { subresource: e.sub } : {}), ...(e.t ? { time: e.t } : {}) });
/** Entries keyed as Kubernetes decodes a list (BuildManagerIdentifier), the last of one key winning. */
const managed = (...es: E[]): Managed => decodeManaged(encodeManaged(new Map(es.map((e, i) => [String(i), entry(e)]))) ?? []);
/** The encoded list (Kubernetes' order), written back as test entries. */
const listed = (m: Managed): E[] =>
  (encodeManaged(m) ?? []).map((e) => ({ m: e.manager ?? '', op: e.operation, v: e.apiVersion, ...(e.subresource ? { sub: e.subresource } : {}), f: JSON.parse(JSON.stringify(e.fieldsV1)) as Record<string, unknown>, ...(e.time ? { t: e.time } : {}) }));

const REPLICAS = { 'f:spec': { 'f:replicas': {} } };
const REPLICAS_SELECTOR = { 'f:spec': { 'f:replicas': {}, 'f:selector': {} } };
const SELECTOR = { 'f:spec': { 'f:selector': {} } };
const T1 = '2013-02-03T00:00:00Z';
const T2 = '2024-05-06T07:08:09Z';
const APPS_V1: ReplicasPaths = new Map<string, Path>([['apps/v1', [field('spec'), field('replicas')]]]);

describe('scalefields: toSubresource (ScaleHandler.ToSubresource)', () => {
  const rows: { name: string; parent: E[]; paths?: ReplicasPaths; want: E[] }[] = [
    {
      name: 'filters the entries owning the replicas path into autoscaling/v1 entries owning spec.replicas, with their time',
      parent: [{ m: 'manager-1', op: 'Apply', v: 'apps/v1', f: { 'f:spec': { 'f:another-field': {} } } }, { m: 'manager-2', op: 'Apply', v: 'apps/v1', f: REPLICAS, t: T1 }],
      want: [{ m: 'manager-2', op: 'Apply', v: 'autoscaling/v1', f: REPLICAS, t: T1 }],
    },
    {
      name: 'transforms every entry with replicas, a subresource entry keeping its subresource',
      parent: [
        { m: 'manager-1', op: 'Apply', v: 'apps/v1', f: REPLICAS },
        { m: 'manager-2', op: 'Apply', v: 'apps/v1', f: REPLICAS },
        { m: 'manager-3', op: 'Apply', v: 'apps/v1', sub: 'scale', f: REPLICAS },
      ],
      want: [
        { m: 'manager-1', op: 'Apply', v: 'autoscaling/v1', f: REPLICAS },
        { m: 'manager-2', op: 'Apply', v: 'autoscaling/v1', f: REPLICAS },
        { m: 'manager-3', op: 'Apply', v: 'autoscaling/v1', sub: 'scale', f: REPLICAS },
      ],
    },
    { name: 'drops entries whose apiVersion the resource never had', parent: [{ m: 'manager-1', op: 'Apply', v: 'apps/v10', f: REPLICAS }], want: [] },
    {
      name: 'an Update entry owning more than replicas becomes an entry owning spec.replicas only',
      parent: [{ m: 'creator', op: 'Update', v: 'apps/v1', f: REPLICAS_SELECTOR, t: T2 }],
      want: [{ m: 'creator', op: 'Update', v: 'autoscaling/v1', f: REPLICAS, t: T2 }],
    },
    {
      name: 'ReplicaSets map apps/v1beta2 and apps/v1 only: an apps/v1beta1 entry is not carried',
      parent: [{ m: 'old', op: 'Update', v: 'apps/v1beta1', f: REPLICAS }, { m: 'new', op: 'Update', v: 'apps/v1beta2', f: REPLICAS }],
      paths: replicasPathsOf('apps', 'replicasets'),
      want: [{ m: 'new', op: 'Update', v: 'autoscaling/v1', f: REPLICAS }],
    },
    {
      name: 'ReplicationControllers map core v1',
      parent: [{ m: 'rc', op: 'Update', v: 'v1', f: REPLICAS_SELECTOR, t: T1 }],
      paths: replicasPathsOf('', 'replicationcontrollers'),
      want: [{ m: 'rc', op: 'Update', v: 'autoscaling/v1', f: REPLICAS, t: T1 }],
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const out = toSubresource(managed(...r.parent), r.paths ?? APPS_V1);
      assert.deepEqual(listed(out), r.want);
    });
  }
  it('keys the Scale entries by the parent entries (an Update key still names apps/v1 until the list is decoded again)', () => {
    const parent = managed({ m: 'creator', op: 'Update', v: 'apps/v1', f: REPLICAS });
    const out = toSubresource(parent, APPS_V1);
    assert.deepEqual([...out.keys()], ['{"manager":"creator","operation":"Update","apiVersion":"apps/v1"}']);
    assert.deepEqual([...decodeManaged(encodeManaged(out)).keys()], ['{"manager":"creator","operation":"Update","apiVersion":"autoscaling/v1"}']);
  });
  it('every kind with /scale has its mappings, with the versions Kubernetes lists', () => {
    const versions = (g: string, r: string) => [...(replicasPathsOf(g, r)?.keys() ?? [])].sort();
    assert.deepEqual(versions('apps', 'deployments'), ['apps/v1', 'apps/v1beta1', 'apps/v1beta2']);
    assert.deepEqual(versions('apps', 'statefulsets'), ['apps/v1', 'apps/v1beta1', 'apps/v1beta2']);
    assert.deepEqual(versions('apps', 'replicasets'), ['apps/v1', 'apps/v1beta2']);
    assert.deepEqual(versions('', 'replicationcontrollers'), ['v1']);
    assert.equal(replicasPathsOf('apps', 'daemonsets'), undefined);
  });
});

describe('scalefields: toParent (ScaleHandler.ToParent)', () => {
  const rows: { name: string; parent: E[]; scale: E[]; want: E[]; groupVersion?: string; paths?: ReplicasPaths }[] = [
    {
      name: 'different managers, apply → update: the applier loses replicas, the scaler owns them in apps/v1',
      parent: [{ m: 'test', op: 'Apply', v: 'apps/v1', f: REPLICAS_SELECTOR }],
      scale: [{ m: 'scale', op: 'Update', v: 'autoscaling/v1', sub: 'scale', f: REPLICAS }],
      want: [{ m: 'test', op: 'Apply', v: 'apps/v1', f: SELECTOR }, { m: 'scale', op: 'Update', v: 'apps/v1', sub: 'scale', f: REPLICAS }],
    },
    {
      name: 'different managers, apply → apply (Apply entries sort first, then by manager)',
      parent: [{ m: 'test', op: 'Apply', v: 'apps/v1', f: REPLICAS_SELECTOR }],
      scale: [{ m: 'scale', op: 'Apply', v: 'autoscaling/v1', sub: 'scale', f: REPLICAS }],
      want: [{ m: 'scale', op: 'Apply', v: 'apps/v1', sub: 'scale', f: REPLICAS }, { m: 'test', op: 'Apply', v: 'apps/v1', f: SELECTOR }],
    },
    {
      name: 'different managers, update → update',
      parent: [{ m: 'test', op: 'Update', v: 'apps/v1', f: REPLICAS_SELECTOR }],
      scale: [{ m: 'scale', op: 'Update', v: 'autoscaling/v1', sub: 'scale', f: REPLICAS }],
      want: [{ m: 'scale', op: 'Update', v: 'apps/v1', sub: 'scale', f: REPLICAS }, { m: 'test', op: 'Update', v: 'apps/v1', f: SELECTOR }],
    },
    {
      name: 'different managers, update → apply',
      parent: [{ m: 'test', op: 'Update', v: 'apps/v1', f: REPLICAS_SELECTOR }],
      scale: [{ m: 'scale', op: 'Apply', v: 'autoscaling/v1', sub: 'scale', f: REPLICAS }],
      want: [{ m: 'scale', op: 'Apply', v: 'apps/v1', sub: 'scale', f: REPLICAS }, { m: 'test', op: 'Update', v: 'apps/v1', f: SELECTOR }],
    },
    {
      name: 'same manager, apply → apply: two entries, the subresource one after (subresource "" < "scale")',
      parent: [{ m: 'test', op: 'Apply', v: 'apps/v1', f: REPLICAS_SELECTOR }],
      scale: [{ m: 'test', op: 'Apply', v: 'autoscaling/v1', sub: 'scale', f: REPLICAS }],
      want: [{ m: 'test', op: 'Apply', v: 'apps/v1', f: SELECTOR }, { m: 'test', op: 'Apply', v: 'apps/v1', sub: 'scale', f: REPLICAS }],
    },
    {
      name: 'same manager, update → update',
      parent: [{ m: 'test', op: 'Update', v: 'apps/v1', f: REPLICAS_SELECTOR }],
      scale: [{ m: 'test', op: 'Update', v: 'autoscaling/v1', sub: 'scale', f: REPLICAS }],
      want: [{ m: 'test', op: 'Update', v: 'apps/v1', f: SELECTOR }, { m: 'test', op: 'Update', v: 'apps/v1', sub: 'scale', f: REPLICAS }],
    },
    {
      name: 'same manager, update → apply',
      parent: [{ m: 'test', op: 'Update', v: 'apps/v1', f: REPLICAS_SELECTOR }],
      scale: [{ m: 'test', op: 'Apply', v: 'autoscaling/v1', sub: 'scale', f: REPLICAS }],
      want: [{ m: 'test', op: 'Apply', v: 'apps/v1', sub: 'scale', f: REPLICAS }, { m: 'test', op: 'Update', v: 'apps/v1', f: SELECTOR }],
    },
    {
      name: 'same manager, apply → update',
      parent: [{ m: 'test', op: 'Apply', v: 'apps/v1', f: REPLICAS_SELECTOR }],
      scale: [{ m: 'test', op: 'Update', v: 'autoscaling/v1', sub: 'scale', f: REPLICAS }],
      want: [{ m: 'test', op: 'Apply', v: 'apps/v1', f: SELECTOR }, { m: 'test', op: 'Update', v: 'apps/v1', sub: 'scale', f: REPLICAS }],
    },
    {
      name: 'a scale entry without spec.replicas adds nothing; a parent entry without replicas is kept',
      parent: [{ m: 'test', op: 'Apply', v: 'apps/v1', f: SELECTOR }],
      scale: [{ m: 'scale', op: 'Update', v: 'autoscaling/v1', sub: 'scale', f: { 'f:status': { 'f:replicas': {} } } }],
      want: [{ m: 'test', op: 'Apply', v: 'apps/v1', f: SELECTOR }],
    },
    {
      name: 'a parent entry owning only replicas is dropped when they are stolen',
      parent: [{ m: 'test', op: 'Apply', v: 'apps/v1', f: REPLICAS }],
      scale: [{ m: 'scale', op: 'Update', v: 'autoscaling/v1', sub: 'scale', f: REPLICAS }],
      want: [{ m: 'scale', op: 'Update', v: 'apps/v1', sub: 'scale', f: REPLICAS }],
    },
    {
      name: 'an applier whose key is among the scale entries keeps its entry whole (Apply keys leave apiVersion out)',
      parent: [{ m: 'test', op: 'Apply', v: 'apps/v1', f: REPLICAS_SELECTOR }],
      scale: [{ m: 'test', op: 'Apply', v: 'autoscaling/v1', f: REPLICAS }, { m: 'test', op: 'Apply', v: 'autoscaling/v1', sub: 'scale', f: REPLICAS }],
      want: [{ m: 'test', op: 'Apply', v: 'apps/v1', f: REPLICAS_SELECTOR }, { m: 'test', op: 'Apply', v: 'apps/v1', sub: 'scale', f: REPLICAS }],
    },
    {
      name: 'drops parent entries of an apiVersion the resource never had',
      parent: [{ m: 'test', op: 'Apply', v: 'apps/v1', f: REPLICAS }, { m: 'another-manager', op: 'Apply', v: 'apps/v10', f: SELECTOR }],
      scale: [{ m: 'scale', op: 'Update', v: 'autoscaling/v1', f: REPLICAS }],
      want: [{ m: 'scale', op: 'Update', v: 'apps/v1', f: REPLICAS }],
    },
    {
      name: 'multi-version: each parent entry loses its own version\'s path; the scaler gets the request version\'s',
      groupVersion: 'apps/v1',
      paths: new Map<string, Path>([['apps/v1', [field('spec'), field('the-replicas')]], ['apps/v2', [field('spec'), field('not-the-replicas')]]]),
      parent: [
        { m: 'test', op: 'Apply', v: 'apps/v1', f: { 'f:spec': { 'f:the-replicas': {}, 'f:selector': {} } } },
        { m: 'test-other', op: 'Apply', v: 'apps/v2', f: { 'f:spec': { 'f:not-the-replicas': {}, 'f:selector': {} } } },
      ],
      scale: [{ m: 'scale', op: 'Update', v: 'autoscaling/v1', sub: 'scale', f: REPLICAS }],
      want: [
        { m: 'test', op: 'Apply', v: 'apps/v1', f: SELECTOR },
        { m: 'test-other', op: 'Apply', v: 'apps/v2', f: SELECTOR },
        { m: 'scale', op: 'Update', v: 'apps/v1', sub: 'scale', f: { 'f:spec': { 'f:the-replicas': {} } } },
      ],
    },
    // Times: the new entry's time is the parent's under the scale entry's key.
    {
      name: 'a scale-made Update entry has no time even though the Scale entry had one (its key names autoscaling/v1)',
      parent: [{ m: 'creator', op: 'Update', v: 'apps/v1', f: REPLICAS_SELECTOR, t: T1 }],
      scale: [{ m: 'kubectl', op: 'Update', v: 'autoscaling/v1', sub: 'scale', f: REPLICAS, t: T2 }],
      want: [{ m: 'kubectl', op: 'Update', v: 'apps/v1', sub: 'scale', f: REPLICAS }, { m: 'creator', op: 'Update', v: 'apps/v1', f: SELECTOR, t: T1 }],
    },
    {
      name: 'a scale-made Apply entry takes the time of the parent entry of its key (Apply keys match across versions)',
      parent: [{ m: 'hpa', op: 'Apply', v: 'apps/v1', sub: 'scale', f: REPLICAS, t: T1 }, { m: 'other', op: 'Update', v: 'apps/v1', f: SELECTOR, t: T2 }],
      scale: [{ m: 'hpa', op: 'Apply', v: 'autoscaling/v1', sub: 'scale', f: REPLICAS, t: T2 }],
      want: [{ m: 'hpa', op: 'Apply', v: 'apps/v1', sub: 'scale', f: REPLICAS, t: T1 }, { m: 'other', op: 'Update', v: 'apps/v1', f: SELECTOR, t: T2 }],
    },
    {
      name: 'an Update owner of replicas still owning them in the Scale is split: its rest keeps the time, its replicas come back without one, under the same identity',
      parent: [{ m: 'creator', op: 'Update', v: 'apps/v1', f: REPLICAS_SELECTOR, t: T1 }],
      scale: [{ m: 'creator', op: 'Update', v: 'autoscaling/v1', f: REPLICAS, t: T1 }],
      want: [{ m: 'creator', op: 'Update', v: 'apps/v1', f: REPLICAS }, { m: 'creator', op: 'Update', v: 'apps/v1', f: SELECTOR, t: T1 }],
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const out = toParent(managed(...r.parent), managed(...r.scale), r.groupVersion ?? 'apps/v1', r.paths ?? APPS_V1);
      assert.deepEqual(listed(out), r.want);
    });
  }
  it('two entries of one identity decode as Kubernetes decodes them: the later in the list wins', () => {
    const parent = managed({ m: 'creator', op: 'Update', v: 'apps/v1', f: REPLICAS_SELECTOR, t: T1 });
    const out = encodeManaged(toParent(parent, managed({ m: 'creator', op: 'Update', v: 'autoscaling/v1', f: REPLICAS }), 'apps/v1', APPS_V1));
    const back = decodeManaged(out);
    assert.equal(back.size, 1);
    assert.deepEqual([...back.values()].map((e) => [e.time, JSON.stringify(e.fields.paths())]), [[T1, JSON.stringify(FieldSet.of([field('spec'), field('selector')]).paths())]]);
  });
});

// Whole writes on /scale: the Scale's field manager (scaleWrites) between toSubresource and toParent.
const NOW = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const DEPLOYMENT_PATHS = replicasPathsOf('apps', 'deployments')!;

function deployment(replicas: number, entries: E[]): ApiObject {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', uid: 'u1', resourceVersion: '5', creationTimestamp: T1, managedFields: encodeManaged(new Map(entries.map((e, i) => [String(i), entry(e)]))) as never },
    spec: { replicas, selector: { matchLabels: { app: 'w' } } },
    status: { replicas },
  };
}

/** One write on /scale (what writeScale does, without the store): `make` builds the new Scale from the current one. */
function scaleWrite(parent: ApiObject, make: (current: Record<string, unknown>) => Record<string, unknown>): ApiObject {
  const owned = scaleOwnership(parent, 'apps/v1', DEPLOYMENT_PATHS);
  const next = make(getScale(parent, owned.scaleEntries));
  const spec = next.spec as { replicas?: number };
  const entries = owned.parentEntries((next.metadata as { managedFields?: unknown }).managedFields);
  return { ...parent, spec: { ...(parent.spec as object), replicas: spec.replicas ?? 0 }, metadata: { ...parent.metadata, ...(entries ? { managedFields: entries as never } : {}) } };
}
const patchTo = (manager: string, replicas: number) => (p: ApiObject) => scaleWrite(p, scaleWrites(manager).patch((s) => ({ ...s, spec: { replicas } })));
const putStatus = (manager: string, statusReplicas: number) => (p: ApiObject) => scaleWrite(p, scaleWrites(manager).update({ ...getScale(p), status: { replicas: statusReplicas } }));
const applyScale = (manager: string, replicas: number, force = false) => (p: ApiObject) =>
  scaleWrite(p, scaleWrites(manager).apply(decodeApply(JSON.stringify({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web' }, spec: { replicas } }), new URLSearchParams(force ? 'force=true' : ''), 'Strict')));

/** The parent's entries as (manager, operation, apiVersion, subresource, fields, has time). */
const shape = (p: ApiObject) =>
  ((p.metadata.managedFields ?? []) as unknown as { manager: string; operation: string; apiVersion: string; subresource?: string; fieldsV1: unknown; time?: string }[]).map((e) => {
    if (e.time !== undefined) assert.match(e.time, NOW);
    return `${e.manager}/${e.operation}/${e.apiVersion}${e.subresource ? `/${e.subresource}` : ''} ${JSON.stringify(e.fieldsV1)}${e.time ? ' @time' : ''}`;
  });

describe('scalefields: writes on /scale (field manager on the Scale, then the parent)', () => {
  const creator: E = { m: 'A', op: 'Update', v: 'apps/v1', f: REPLICAS_SELECTOR, t: T1 };
  const rows: { name: string; start: E[]; replicas?: number; steps: ((p: ApiObject) => ApiObject)[]; want: string[] }[] = [
    {
      name: 'a scale by B: B owns replicas in an apps/v1 entry with subresource scale and no time, sorted before A',
      start: [creator], steps: [patchTo('B', 3)],
      want: ['B/Update/apps/v1/scale {"f:spec":{"f:replicas":{}}}', 'A/Update/apps/v1 {"f:spec":{"f:selector":{}}} @time'],
    },
    {
      name: 'B again: still one B entry, still no time',
      start: [creator], steps: [patchTo('B', 3), patchTo('B', 4)],
      want: ['B/Update/apps/v1/scale {"f:spec":{"f:replicas":{}}}', 'A/Update/apps/v1 {"f:spec":{"f:selector":{}}} @time'],
    },
    {
      name: 'then C: C takes replicas, B owned nothing else and is gone',
      start: [creator], steps: [patchTo('B', 3), patchTo('B', 4), patchTo('C', 5)],
      want: ['C/Update/apps/v1/scale {"f:spec":{"f:replicas":{}}}', 'A/Update/apps/v1 {"f:spec":{"f:selector":{}}} @time'],
    },
    {
      name: 'B scales to the value replicas already have: B records nothing; C\'s entry is rebuilt as it was (no time)',
      start: [creator], steps: [patchTo('C', 5), patchTo('B', 5)],
      want: ['C/Update/apps/v1/scale {"f:spec":{"f:replicas":{}}}', 'A/Update/apps/v1 {"f:spec":{"f:selector":{}}} @time'],
    },
    {
      name: 'a scale that changes nothing splits the Update owner of replicas into two entries of one identity (Kubernetes writes both)',
      start: [creator], replicas: 2, steps: [patchTo('B', 2)],
      want: ['A/Update/apps/v1 {"f:spec":{"f:replicas":{}}}', 'A/Update/apps/v1 {"f:spec":{"f:selector":{}}} @time'],
    },
    {
      name: 'an applier owning replicas: a scale by B steals them (an Update never conflicts); the applier keeps its other fields and time',
      start: [{ m: 'D', op: 'Apply', v: 'apps/v1', f: REPLICAS_SELECTOR, t: T2 }], steps: [patchTo('B', 7)],
      want: ['D/Apply/apps/v1 {"f:spec":{"f:selector":{}}} @time', 'B/Update/apps/v1/scale {"f:spec":{"f:replicas":{}}}'],
    },
    {
      name: 'an applier owning replicas, scaled to the same value: the applier keeps its entry whole, B records nothing',
      start: [{ m: 'D', op: 'Apply', v: 'apps/v1', f: REPLICAS_SELECTOR, t: T2 }], replicas: 7, steps: [patchTo('B', 7)],
      want: ['D/Apply/apps/v1 {"f:spec":{"f:replicas":{},"f:selector":{}}} @time'],
    },
    {
      name: 'scale to 0: the Scale leaves spec.replicas out (omitempty), so nobody owns replicas afterwards',
      start: [creator], steps: [patchTo('B', 3), patchTo('C', 0)],
      want: ['A/Update/apps/v1 {"f:spec":{"f:selector":{}}} @time'],
    },
    {
      name: 'a write changing only the Scale\'s status leaves replicas with their owner (Kubernetes\' TestScaleUpdateOnlyStatus)',
      start: [{ m: 'D', op: 'Apply', v: 'apps/v1', f: REPLICAS_SELECTOR, t: T2 }], steps: [putStatus('B', 42)],
      want: ['D/Apply/apps/v1 {"f:spec":{"f:replicas":{},"f:selector":{}}} @time'],
    },
    {
      name: 'nobody owns replicas: the Scale has no managedFields, its field manager tracks nothing, the scaler records nothing',
      start: [{ m: 'A', op: 'Update', v: 'apps/v1', f: SELECTOR, t: T1 }], steps: [patchTo('B', 3)],
      want: ['A/Update/apps/v1 {"f:spec":{"f:selector":{}}} @time'],
    },
    {
      name: 'entries of a version the Deployment never had are dropped by any scale',
      start: [creator, { m: 'x', op: 'Update', v: 'extensions/v1beta1', f: SELECTOR, t: T1 }], steps: [patchTo('B', 3)],
      want: ['B/Update/apps/v1/scale {"f:spec":{"f:replicas":{}}}', 'A/Update/apps/v1 {"f:spec":{"f:selector":{}}} @time'],
    },
    {
      name: 'apply on /scale by S (forced over D): S owns replicas with subresource scale; its time is the parent\'s under its key, none yet',
      start: [{ m: 'D', op: 'Apply', v: 'apps/v1', f: REPLICAS_SELECTOR, t: T2 }], steps: [applyScale('S', 17, true)],
      want: ['S/Apply/apps/v1/scale {"f:spec":{"f:replicas":{}}}', 'D/Apply/apps/v1 {"f:spec":{"f:selector":{}}} @time'],
    },
    {
      name: 'apply on /scale of the value replicas have, by a second applier: both own replicas (shared ownership)',
      start: [{ m: 'D', op: 'Apply', v: 'apps/v1', f: REPLICAS_SELECTOR, t: T2 }], replicas: 7, steps: [applyScale('S', 7)],
      want: ['S/Apply/apps/v1/scale {"f:spec":{"f:replicas":{}}}', 'D/Apply/apps/v1 {"f:spec":{"f:replicas":{},"f:selector":{}}} @time'],
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      let p = deployment(r.replicas ?? 2, r.start);
      for (const step of r.steps) p = step(p);
      assert.deepEqual(shape(p), r.want);
    });
  }
  it('apply on /scale of another value conflicts with the applier owning replicas (as the main resource would)', () => {
    const p = deployment(2, [{ m: 'D', op: 'Apply', v: 'apps/v1', f: REPLICAS_SELECTOR, t: T2 }]);
    assert.throws(() => applyScale('S', 17)(p), (e: unknown) => (e as { status?: { code: number; message: string } }).status?.code === 409 && (e as { status: { message: string } }).status.message === 'Apply failed with 1 conflict: conflict with "D": .spec.replicas');
  });
  it('apply on /scale conflicts name a scaler as Kubernetes prints it: with its subresource and version', () => {
    const p = patchTo('B', 3)(deployment(2, [creator]));
    assert.throws(() => applyScale('S', 17)(p), (e: unknown) => (e as { status?: { message: string } }).status?.message === 'Apply failed with 1 conflict: conflict with "B" with subresource "scale" using autoscaling/v1: .spec.replicas');
  });
  it('the Scale the field manager sees carries the parent\'s entries as autoscaling/v1, with the parent entries\' times', () => {
    const p = deployment(2, [creator, { m: 'D', op: 'Apply', v: 'apps/v1', f: { 'f:metadata': { 'f:labels': {} } }, t: T2 }]);
    const owned = scaleOwnership(p, 'apps/v1', DEPLOYMENT_PATHS);
    assert.deepEqual(owned.scaleEntries, [{ manager: 'A', operation: 'Update', apiVersion: 'autoscaling/v1', time: T1, fieldsType: 'FieldsV1', fieldsV1: REPLICAS }]);
  });
  it('the Scale field manager is Kubernetes\' for autoscaling/v1 Scale (typed, subresource "scale")', () => {
    assert.ok(schemaFor('autoscaling', 'v1', 'Scale'));
    const current = getScale(deployment(2, [creator]), [{ manager: 'A', operation: 'Update', apiVersion: 'autoscaling/v1', time: T1, fieldsType: 'FieldsV1', fieldsV1: REPLICAS }]);
    const t = trackWrite({ manager: 'B', apiVersion: 'autoscaling/v1', kind: 'Scale', schema: schemaFor('autoscaling', 'v1', 'Scale'), subresource: 'scale' }, current as never, { ...current, spec: { replicas: 3 } } as never);
    const mf = t.metadata.managedFields as unknown as { manager: string; subresource?: string; apiVersion: string }[];
    assert.deepEqual(mf.map((e) => [e.manager, e.apiVersion, e.subresource]), [['B', 'autoscaling/v1', 'scale']]);
    assert.equal(managerId({ manager: 'B', operation: 'Update', apiVersion: 'autoscaling/v1', subresource: 'scale' }), '{"manager":"B","operation":"Update","apiVersion":"autoscaling/v1","subresource":"scale"}');
  });
});
