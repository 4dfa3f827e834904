// The DaemonSet strategy through the real generic store on SQLite: the
// template-generation annotation, metadata.generation and status handling.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteStore } from '../../storage/sqlite/store.js';
import { GenericStore } from '../store.js';
import { Admission } from '../admission.js';
import { strategyFor } from './index.js';
import { normaliseTemplateGeneration, parseTemplateGeneration, TEMPLATE_GENERATION } from '../../api/apps/v1/templategeneration.js';
import { defaultDaemonSet } from '../../api/apps/v1/defaults.js';
import { isStatusError } from '../../api/meta/index.js';
import type { ApiObject } from '../object.js';
import { tempDir } from '../../testing/tempdir.js';

const NS = 'default';
const W = { dryRun: false };

function ds(name: string, image = 'app:1', annotations?: Record<string, string>): ApiObject {
  const obj: ApiObject = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, ...(annotations ? { annotations } : {}) },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image }] } },
    },
  };
  defaultDaemonSet(obj as Record<string, unknown>);
  return obj;
}

const gen = (o: ApiObject) => o.metadata.annotations?.[TEMPLATE_GENERATION];
const spec = (o: ApiObject) => o.spec as Record<string, Record<string, unknown>>;

describe('parseTemplateGeneration (strconv.ParseInt base 10, 64 bits)', () => {
  const rows: [string, bigint | string][] = [
    ['1', 1n],
    ['+7', 7n],
    ['-3', -3n],
    ['007', 7n],
    ['9223372036854775807', 9223372036854775807n],
    ['9223372036854775808', 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
    ['', 'strconv.ParseInt: parsing "": invalid syntax'],
    ['1_000', 'strconv.ParseInt: parsing "1_000": invalid syntax'],
    [' 1', 'strconv.ParseInt: parsing " 1": invalid syntax'],
    ['abc', 'strconv.ParseInt: parsing "abc": invalid syntax'],
  ];
  for (const [input, want] of rows) it(JSON.stringify(input), () => assert.equal(parseTemplateGeneration(input), want));
});

describe('normaliseTemplateGeneration (decoding)', () => {
  const rows: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['absent: "0", other annotations kept', { metadata: { annotations: { a: 'b' } } }, { metadata: { annotations: { a: 'b', [TEMPLATE_GENERATION]: '0' } } }],
    ['no metadata at all', {}, { metadata: { annotations: { [TEMPLATE_GENERATION]: '0' } } }],
    ['canonical form', { metadata: { annotations: { [TEMPLATE_GENERATION]: '+03' } } }, { metadata: { annotations: { [TEMPLATE_GENERATION]: '3' } } }],
    ['malformed: left for the strategy', { metadata: { annotations: { [TEMPLATE_GENERATION]: 'x' } } }, { metadata: { annotations: { [TEMPLATE_GENERATION]: 'x' } } }],
  ];
  for (const [what, input, want] of rows) {
    it(what, () => {
      const obj = structuredClone(input);
      normaliseTemplateGeneration(obj);
      assert.deepEqual(obj, want);
    });
  }
});

describe('DaemonSet strategy', () => {
  let dir: string;
  let storage: SqliteStore;
  let store: GenericStore;
  before(() => {
    dir = tempDir('svc-ds-');
    storage = SqliteStore.open({ path: join(dir, 'state.db') });
    store = new GenericStore({ group: 'apps', version: 'v1', resource: 'daemonsets', kind: 'DaemonSet' }, strategyFor({ group: 'apps', version: 'v1', resource: 'daemonsets', kind: 'DaemonSet' }, true, true), storage, new Admission());
  });
  after(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('create: generation 1, template generation 1, status reset to the Go zero value', async () => {
    const input = ds('a');
    input.status = { currentNumberScheduled: 5, numberReady: 3, observedGeneration: 9 };
    input.metadata.generation = 42;
    const out = await store.create(NS, input, W);
    assert.equal(out.metadata.generation, 1);
    assert.equal(gen(out), '1');
    assert.deepEqual(out.status, { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });
    assert.equal(gen(await store.get(NS, 'a')), '1');
  });

  const createRows: [string, string, string][] = [
    ['a sent generation ≥ 1 is kept', '4', '4'],
    ['zero becomes 1', '0', '1'],
    ['a negative one becomes 1', '-2', '1'],
    ['a signed one is written plainly', '+3', '3'],
  ];
  for (const [i, [what, sent, want]] of createRows.entries()) {
    it(`create: ${what}`, async () => {
      const out = await store.create(NS, ds(`c${i}`, 'app:1', { [TEMPLATE_GENERATION]: sent, keep: 'me' }), W);
      assert.equal(gen(out), want);
      assert.equal(out.metadata.annotations?.keep, 'me');
    });
  }

  it('create: a malformed annotation is a 400 decoding error', async () => {
    await assert.rejects(store.create(NS, ds('bad', 'app:1', { [TEMPLATE_GENERATION]: 'x' }), W), (err: unknown) => {
      assert.ok(isStatusError(err));
      assert.equal(err.status.code, 400);
      assert.equal(err.status.reason, 'BadRequest');
      assert.equal(err.status.message, 'DaemonSet in version "v1" cannot be handled as a DaemonSet: strconv.ParseInt: parsing "x": invalid syntax');
      return true;
    });
  });

  it('update: a template change bumps both generations; other spec changes only metadata.generation; status is ignored', async () => {
    const created = await store.create(NS, ds('u'), W);
    // Metadata only: nothing moves.
    const labelled = await store.update(NS, 'u', { ...created, metadata: { ...created.metadata, labels: { x: 'y' } } }, W);
    assert.equal(labelled.object.metadata.generation, 1);
    assert.equal(gen(labelled.object), '1');
    // Template change.
    const next = structuredClone(labelled.object);
    (spec(next).template!.spec as { containers: { image: string }[] }).containers[0]!.image = 'app:2';
    next.status = { currentNumberScheduled: 7, numberMisscheduled: 0, desiredNumberScheduled: 7, numberReady: 7 };
    const t = await store.update(NS, 'u', next, W);
    assert.equal(t.object.metadata.generation, 2);
    assert.equal(gen(t.object), '2');
    assert.equal((t.object.status as Record<string, number>).currentNumberScheduled, 0);
    // Other spec change.
    const limited = structuredClone(t.object);
    spec(limited).revisionHistoryLimit = 3 as never;
    const r = await store.update(NS, 'u', limited, W);
    assert.equal(r.object.metadata.generation, 3);
    assert.equal(gen(r.object), '2');
  });

  it('update: the client cannot set or drop the annotation, but a malformed one is still rejected', async () => {
    const created = await store.create(NS, ds('v'), W);
    const raised = await store.update(NS, 'v', { ...created, metadata: { ...created.metadata, annotations: { [TEMPLATE_GENERATION]: '9' } } }, W);
    assert.equal(gen(raised.object), '1');
    const dropped = await store.update(NS, 'v', { ...raised.object, metadata: { ...raised.object.metadata, annotations: {} } }, W);
    assert.equal(gen(dropped.object), '1');
    await assert.rejects(store.update(NS, 'v', { ...created, metadata: { ...created.metadata, resourceVersion: undefined, annotations: { [TEMPLATE_GENERATION]: '1.5' } } }, W), (err: unknown) => isStatusError(err) && err.status.code === 400);
  });

  it('/status: changes status only; the annotation keeps the stored value', async () => {
    const created = await store.create(NS, ds('s'), W);
    const next = structuredClone(created);
    (spec(next).template!.spec as { containers: { image: string }[] }).containers[0]!.image = 'app:9';
    next.metadata.annotations = { [TEMPLATE_GENERATION]: '5' };
    next.status = { currentNumberScheduled: 2, numberMisscheduled: 0, desiredNumberScheduled: 2, numberReady: 1 };
    const out = await store.update(NS, 's', next, { ...W, subresource: 'status' });
    assert.equal(out.object.metadata.generation, 1);
    assert.equal(gen(out.object), '1');
    assert.equal((spec(out.object).template!.spec as { containers: { image: string }[] }).containers[0]!.image, 'app:1');
    assert.equal((out.object.status as Record<string, number>).numberReady, 1);
  });
});
