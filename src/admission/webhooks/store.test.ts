// The seam with the write path: a ConfigMap store (SQLite) whose admission
// runs both webhook plugins, against a fake transport.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteStore } from '../../storage/sqlite/store.js';
import { GenericStore } from '../../registry/store.js';
import { Admission } from '../../registry/admission.js';
import { strategyFor } from '../../registry/strategies/index.js';
import { isStatusError } from '../../api/meta/index.js';
import { DEFAULT_GATES } from '../../features/gates.js';
import type { ApiObject } from '../../registry/object.js';
import type { ResourceRequestInfo } from '../../endpoints/requestinfo.js';
import { tempDir } from '../../testing/tempdir.js';
import type { CallbackCaller } from './caller.js';
import { EquivalentResources } from './equivalence.js';
import { WebhookSource } from './source.js';
import { mutatingWebhookPlugin } from './mutating.js';
import { validatingWebhookPlugin } from './validating.js';

type Obj = Record<string, unknown>;
const KEY = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' };
const info = (verb: ResourceRequestInfo['verb'], name = ''): ResourceRequestInfo =>
  ({ isResourceRequest: true, path: '', verb, apiPrefix: 'api', apiGroup: '', apiVersion: 'v1', namespace: 'ns', resource: 'configmaps', subresource: '', name, parts: [] });
const user = { name: 'admin', groups: ['system:masters'] };

const hook = (name: string, extra: Obj = {}): Obj => ({
  name, clientConfig: { url: `https://hook/${name}` }, sideEffects: 'None', admissionReviewVersions: ['v1'],
  rules: [{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }], ...extra,
});
const cfg = (kind: string, webhooks: Obj[]) => [{ apiVersion: 'admissionregistration.svc.io/v1', kind, metadata: { name: 'c' }, webhooks } as unknown as ApiObject];

describe('webhooks on the write path (GenericStore)', () => {
  let dir: string;
  let storage: SqliteStore;
  let store: GenericStore;
  const seen: { url: string; request: Obj }[] = [];
  let mutatingHooks = cfg('MutatingWebhookConfiguration', [hook('m')]);
  const caller: CallbackCaller = {
    async call(c) {
      const review = JSON.parse(c.body) as { apiVersion: string; request: Obj };
      seen.push({ url: c.config.url!, request: review.request });
      const response: Obj = { uid: review.request.uid, allowed: true };
      if (c.config.url === 'https://hook/m' && review.request.object) {
        const labels = ((review.request.object as Obj).metadata as Obj).labels as Obj | undefined;
        const ops = labels ? [{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }] : [{ op: 'add', path: '/metadata/labels', value: { mutated: 'yes' } }];
        Object.assign(response, { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') });
      }
      return { status: 200, body: Buffer.from(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response })) };
    },
  };
  before(() => {
    dir = tempDir('svc-webhooks-');
    storage = SqliteStore.open({ path: join(dir, 'state.db') });
    const deps = (kind: 'mutating' | 'validating', list: () => ApiObject[]) => ({
      source: new WebhookSource(async () => list(), kind), caller, gates: DEFAULT_GATES,
      equivalents: new EquivalentResources([]), namespaceLabels: async () => ({}),
    });
    const admission = new Admission([
      mutatingWebhookPlugin(deps('mutating', () => mutatingHooks)),
      validatingWebhookPlugin(deps('validating', () => cfg('ValidatingWebhookConfiguration', [hook('v')]))),
    ]);
    store = new GenericStore(KEY, strategyFor(KEY, true), storage, admission);
  });
  after(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('create: the mutation is stored, the validating webhook sees it, options and requestResource are sent', async () => {
    seen.length = 0;
    const out = await store.create('ns', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } } as ApiObject,
      { dryRun: false, user, requestInfo: info('create'), options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'me' } });
    assert.deepEqual(out.metadata.labels, { mutated: 'yes' });
    assert.equal(out.metadata.resourceVersion, (await store.get('ns', 'a')).metadata.resourceVersion);
    assert.deepEqual((await store.get('ns', 'a')).metadata.labels, { mutated: 'yes' });
    assert.deepEqual(seen.map((s) => s.url), ['https://hook/m', 'https://hook/v']);
    const v = seen[1]!.request;
    assert.deepEqual(((v.object as Obj).metadata as Obj).labels, { mutated: 'yes' });
    assert.deepEqual(v.options, { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'me' });
    assert.deepEqual(v.requestResource, { group: '', version: 'v1', resource: 'configmaps' });
  });

  it('update: oldObject is the stored object', async () => {
    seen.length = 0;
    const cur = await store.get('ns', 'a');
    await store.update('ns', 'a', { ...cur, data: { k: 'w' } }, { dryRun: false, user, requestInfo: info('update', 'a'), options: { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1' } });
    const v = seen.find((s) => s.url === 'https://hook/v')!.request;
    assert.equal(v.operation, 'UPDATE');
    assert.deepEqual((v.oldObject as Obj).data, { k: 'v' });
    assert.deepEqual((v.object as Obj).data, { k: 'w' });
  });

  it('dry run: a webhook without dry-run-safe sideEffects refuses the write with 400', async () => {
    mutatingHooks = cfg('MutatingWebhookConfiguration', [hook('m', { sideEffects: 'Some' })]);
    try {
      await assert.rejects(store.create('ns', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dry' } } as ApiObject, { dryRun: true, user, requestInfo: info('create') }),
        (e: unknown) => isStatusError(e) && e.status.code === 400 && e.status.message === 'admission webhook "m" does not support dry run');
    } finally {
      mutatingHooks = cfg('MutatingWebhookConfiguration', [hook('m')]);
    }
  });

  it('delete: object null, oldObject the stored object, DeleteOptions sent', async () => {
    seen.length = 0;
    await store.delete('ns', 'a', { dryRun: false, user, requestInfo: info('delete', 'a'), options: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', propagationPolicy: 'Background' } });
    const v = seen.find((s) => s.url === 'https://hook/v')!.request;
    assert.equal(v.object, null);
    assert.equal(((v.oldObject as Obj).metadata as Obj).name, 'a');
    assert.deepEqual(v.options, { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', propagationPolicy: 'Background' });
  });
});
