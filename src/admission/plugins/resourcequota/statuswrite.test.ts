// The ResourceQuota plugin's status write through a real store (SQLite): the
// request it sends (forWrite: no managedFields) stores the same bytes as the
// full quota would, and the managedFields written (the fast path,
// src/smd/fastupdate.ts) are those the general engine computes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { GenericStore } from '../../../registry/store.js';
import { strategyFor } from '../../../registry/strategies/index.js';
import { Admission } from '../../../registry/admission.js';
import type { ApiObject } from '../../../registry/object.js';
import { SqliteStore } from '../../../storage/sqlite/store.js';
import { tempDir } from '../../../testing/tempdir.js';
import { trackWrite } from '../../../endpoints/fieldmanager.js';
import { schemaFor } from '../../../api/schemas.js';
import { generalUpdate, type JsonObject } from '../../../smd/merge.js';
import { checkRequest, forWrite } from './check.js';
import { podEvaluator } from '../../../quota/evaluators/pods.js';
import type { AdmissionAttributes } from '../../../registry/admission.js';

const ID = { group: '', version: 'v1', resource: 'resourcequotas', kind: 'ResourceQuota' };
const SCHEMA = schemaFor('', 'v1', 'ResourceQuota');
const tracking = (manager: string, subresource?: string) => ({ manager, apiVersion: 'v1', kind: 'ResourceQuota', schema: SCHEMA, ...(subresource ? { subresource } : {}) });
const statusWrite = { dryRun: false, subresource: 'status', track: (live: ApiObject | undefined, next: ApiObject) => trackWrite(tracking('svc-apiserver', 'status'), live, next) };
const HARD = { pods: '10', 'requests.cpu': '2', 'limits.memory': '1Gi' };

const pod = (name: string): AdmissionAttributes => ({
  operation: 'CREATE', resource: { group: '', version: 'v1', resource: 'pods', kind: 'Pod' }, namespace: 'ns', name, namespaced: true, dryRun: false, user: undefined, oldObject: undefined,
  object: { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' }, spec: { containers: [{ name: 'a', resources: { requests: { cpu: '100m' }, limits: { memory: '64Mi' } } }] } },
});
/** Times are the second a write happened, and each store makes its own uid: compared apart from them. */
const timeless = (bytes: string) => bytes.replace(/"(time|creationTimestamp|uid)":"[^"]*"/g, '"$1":"T"');

describe('ResourceQuota status write through the store', () => {
  const stores: { storage: SqliteStore; store: GenericStore }[] = [];
  before(() => {
    for (const name of ['sent-without', 'sent-with']) {
      const storage = SqliteStore.open({ path: join(tempDir(`svc-quota-${name}-`), 'state.db') });
      stores.push({ storage, store: new GenericStore(ID, strategyFor(ID, true, true), storage, new Admission()) });
    }
  });
  after(() => { for (const s of stores) s.storage.close(); });

  it('stores the same bytes without the managedFields sent, and the managedFields the general engine computes', async () => {
    const quotas: ApiObject[] = [];
    for (const { store } of stores) {
      const created = await store.create('ns', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'ns' }, spec: { hard: HARD } }, {
        dryRun: false, track: (live, next) => trackWrite(tracking('kubectl-create'), live, next),
      });
      // the controller's first status (another manager of status.hard and status.used)
      quotas.push((await store.update('ns', 'q', { ...created, status: { hard: HARD, used: { pods: '0', 'requests.cpu': '0', 'limits.memory': '0' } } }, {
        dryRun: false, subresource: 'status', track: (live, next) => trackWrite(tracking('svc-controller-manager', 'status'), live, next),
      })).object);
    }
    for (let i = 0; i < 4; i++) {
      // one admitted batch of two pods, written as the plugin writes it, to each store: without the managedFields (as forWrite sends it), and with them
      const [without, withFields] = quotas.map((q) => checkRequest(checkRequest([q], pod(`a${i}`), podEvaluator(), []), pod(`b${i}`), podEvaluator(), [])[0]!);
      const sent = forWrite(without);
      assert.equal(sent.metadata.managedFields, undefined, 'forWrite sends no managedFields');
      assert.ok(without.metadata.managedFields, 'the quota it was made from has them');
      const other = forWrite(withFields);
      const full = { ...other, metadata: { ...other.metadata, managedFields: withFields.metadata.managedFields } };
      const live = quotas[0]!;
      quotas[0] = (await stores[0]!.store.update('ns', 'q', sent, statusWrite)).object;
      quotas[1] = (await stores[1]!.store.update('ns', 'q', full, statusWrite)).object;
      const bytes = await Promise.all(stores.map(async ({ storage, store }) => Buffer.from((await storage.get(store.key('ns', 'q')))!.value).toString()));
      assert.equal(timeless(bytes[0]!), timeless(bytes[1]!), `write ${i}: the same bytes stored`);
      // the engine at the second the store's write recorded
      const at = (quotas[0]!.metadata.managedFields as { manager: string; time: string }[]).find((e) => e.manager === 'svc-apiserver')!.time;
      const slow = generalUpdate({
        live: live as unknown as JsonObject, updated: { ...sent, metadata: { ...sent.metadata, managedFields: live.metadata.managedFields } } as unknown as JsonObject, manager: 'svc-apiserver', apiVersion: 'v1', subresource: 'status', schema: SCHEMA, now: () => at,
      });
      assert.equal(JSON.stringify(quotas[0]!.metadata.managedFields), JSON.stringify((slow.object.metadata as JsonObject).managedFields), `write ${i}: managedFields as the general engine writes them`);
      assert.deepEqual((quotas[0]!.status as { used: unknown }).used, { 'limits.memory': String(2 * 64 * 1024 * 1024 * (i + 1)), pods: String(2 * (i + 1)), 'requests.cpu': `${200 * (i + 1)}m` });
    }
  });
});
