import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { schemaFor } from '../api/schemas.js';
import { fastUpdate } from './fastupdate.js';
import { FieldSet } from './fieldset.js';
import { generalUpdate, updateObject, type JsonObject } from './merge.js';
import { field } from './path.js';

// The fast path must give exactly what the engine gives, or step aside.
const schema = schemaFor('', 'v1', 'ResourceQuota');
let clock = 0;
const now = () => `2026-11-27T03:00:${String(clock).padStart(2, '0')}Z`;
const base: { manager: string; apiVersion: string; schema: typeof schema; now: () => string; subresource?: string } = { manager: 'svc-apiserver', apiVersion: 'v1', schema, now, subresource: 'status' };

/** A quota created by kubectl, then given status by the server (both through the engine). */
function quota(): JsonObject {
  clock = 1;
  const created = generalUpdate({
    ...base, manager: 'kubectl-create', subresource: undefined, live: undefined, isCreate: true,
    updated: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'ns', resourceVersion: '5' }, spec: { hard: { pods: '10', 'requests.cpu': '4' } } },
  }).object;
  clock = 2;
  return generalUpdate({ ...base, live: created, updated: { ...created, status: { hard: { pods: '10', 'requests.cpu': '4' }, used: { pods: '1', 'requests.cpu': '100m' } } } }).object;
}

const withStatus = (o: JsonObject, used: Record<string, string>, extra: Partial<JsonObject> = {}): JsonObject =>
  ({ ...o, ...extra, status: { ...(o.status as JsonObject), used } });

describe('fastUpdate', () => {
  const cases: [string, (q: JsonObject) => JsonObject, boolean, Partial<typeof base & { ignored: FieldSet }>?][] = [
    ['the owner changes values it owns', (q) => withStatus(q, { pods: '2', 'requests.cpu': '200m' }), true],
    ['the owner changes nothing', (q) => ({ ...q }), true],
    ['a new key in a map the owner writes', (q) => withStatus(q, { pods: '2', 'requests.cpu': '200m', 'requests.memory': '1Gi' }), false],
    ['a key removed', (q) => withStatus(q, { pods: '2' }), false],
    ['a field owned by another manager', (q) => ({ ...q, spec: { hard: { pods: '11', 'requests.cpu': '4' } } }), false],
    ['metadata changed', (q) => ({ ...withStatus(q, { pods: '2', 'requests.cpu': '100m' }), metadata: { ...(q.metadata as JsonObject), labels: { a: 'b' } } }), false],
    ['another manager writes the owner\'s fields', (q) => withStatus(q, { pods: '3', 'requests.cpu': '100m' }), false, { manager: 'someone-else' }],
    ['the same manager on the main resource', (q) => withStatus(q, { pods: '3', 'requests.cpu': '100m' }), false, { subresource: undefined }],
    ['an ignored field', (q) => withStatus(q, { pods: '3', 'requests.cpu': '100m' }), false, { ignored: FieldSet.of([field('status')]) }],
  ];
  for (const [name, change, fast, opts] of cases) {
    it(name, () => {
      const live = quota();
      const updated = change(live);
      clock = 30;
      const o = { ...base, ...opts, live, updated };
      const f = fastUpdate(o);
      assert.equal(f !== undefined, fast, 'fast path taken');
      assert.deepEqual(updateObject(o), generalUpdate(o));
    });
  }

  it('keeps entries in Kubernetes\' order when the writer\'s time moves past another\'s', () => {
    const live = quota();
    const meta = live.metadata as JsonObject;
    const entries = meta.managedFields as JsonObject[];
    assert.deepEqual(entries.map((e) => e.manager), ['kubectl-create', 'svc-apiserver']);
    // kubectl's entry is later than the server's: the server's write must move after it
    const reordered = { ...live, metadata: { ...meta, managedFields: [{ ...entries[1] }, { ...entries[0], time: '2026-11-27T03:00:20Z' }] } };
    const o = { ...base, live: reordered, updated: withStatus(reordered, { pods: '5', 'requests.cpu': '1' }) };
    clock = 40;
    const f = fastUpdate(o);
    assert.ok(f);
    assert.deepEqual(((f.object.metadata as JsonObject).managedFields as JsonObject[]).map((e) => e.manager), ['kubectl-create', 'svc-apiserver']);
    assert.deepEqual(f, generalUpdate(o));
  });

  it('sorts an entry written without a manager (a client sending no User-Agent) as the empty name', () => {
    const live = quota();
    const meta = live.metadata as JsonObject;
    const entries = meta.managedFields as JsonObject[];
    const { manager: _omitted, ...anonymous } = entries[0]!;
    // written in the same second as the write below: the order falls to the manager names
    const unnamed = { ...live, metadata: { ...meta, managedFields: [{ ...anonymous, time: '2026-11-27T03:00:50Z' }, { ...entries[1] }] } };
    const o = { ...base, live: unnamed, updated: withStatus(unnamed, { pods: '6', 'requests.cpu': '1' }) };
    clock = 50;
    const f = fastUpdate(o);
    assert.ok(f, 'fast path taken');
    assert.deepEqual(((f.object.metadata as JsonObject).managedFields as JsonObject[]).map((e) => e.manager), [undefined, 'svc-apiserver']);
    assert.deepEqual(f, generalUpdate(o));
  });
});
