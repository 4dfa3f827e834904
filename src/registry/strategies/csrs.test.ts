// The CertificateSigningRequest strategy through the real generic store on
// SQLite: the requester recorded on create, what the main resource, /status
// and /approval may change, and condition timestamps.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteStore } from '../../storage/sqlite/store.js';
import { GenericStore } from '../store.js';
import { Admission } from '../admission.js';
import { strategyFor } from './index.js';
import { isStatusError } from '../../api/meta/index.js';
import type { ApiObject } from '../object.js';
import { tempDir } from '../../testing/tempdir.js';
import { TEST_CA_PEM, TEST_CSR_SPEC } from '../../api/certificates/testing.js';

const KEY = { group: 'certificates.svc.io', version: 'v1', resource: 'certificatesigningrequests', kind: 'CertificateSigningRequest' };
const user = { name: 'alice', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a'] } };
const W = { dryRun: false, user };
const cert = Buffer.from(TEST_CA_PEM).toString('base64');

const csr = (name: string): ApiObject => ({ apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name }, spec: { ...TEST_CSR_SPEC, username: 'mallory', groups: ['system:masters'] } });
type Cond = Record<string, string>;
const conditions = (o: ApiObject) => ((o.status as { conditions?: Cond[] } | undefined)?.conditions ?? []);
const withStatus = (o: ApiObject, status: Record<string, unknown>): ApiObject => ({ ...structuredClone(o), status });

async function invalid(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    assert.ok(isStatusError(err));
    assert.equal(err.status.code, 422);
    return err.status.message ?? "";
  }
  assert.fail('expected the write to be refused');
}

describe('CertificateSigningRequest strategy', () => {
  let dir: string;
  let storage: SqliteStore;
  let store: GenericStore;
  before(() => {
    dir = tempDir('svc-csr-');
    storage = SqliteStore.open({ path: join(dir, 'state.db') });
    store = new GenericStore(KEY, strategyFor(KEY, false, true), storage, new Admission());
  });
  after(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('create: the requester is who wrote it, the status starts empty', async () => {
    const out = await store.create('', withStatus(csr('a'), { conditions: [{ type: 'Approved', status: 'True' }], certificate: cert }), W);
    const spec = out.spec as Record<string, unknown>;
    assert.equal(spec.username, 'alice');
    assert.equal(spec.uid, 'u-1');
    assert.deepEqual(spec.groups, ['dev', 'system:authenticated']);
    assert.deepEqual(spec.extra, { scopes: ['a'] });
    assert.deepEqual(out.status, {});
  });

  it('create: an invalid request is a 422 with kube\'s causes', async () => {
    const bad = csr('bad');
    (bad.spec as Record<string, unknown>).request = Buffer.from('nope').toString('base64');
    const msg = await invalid(store.create('', bad, W));
    assert.equal(msg, 'CertificateSigningRequest.certificates.k8s.io "bad" is invalid: spec.request: Invalid value: []byte{0x6e, 0x6f, 0x70, 0x65}: PEM block type must be CERTIFICATE REQUEST'.replace('certificates.k8s.io', 'certificates.svc.io'));
  });

  it('main resource: spec and status are kept', async () => {
    const created = await store.create('', csr('m'), W);
    const next = withStatus(created, { conditions: [{ type: 'Approved', status: 'True' }] });
    (next.spec as Record<string, unknown>).usages = ['server auth'];
    next.metadata.labels = { x: 'y' };
    const { object } = await store.update('', 'm', next, W);
    assert.deepEqual(object.spec, created.spec);
    assert.deepEqual(object.status, {});
    assert.deepEqual(object.metadata.labels, { x: 'y' });
  });

  it('approval: conditions change with timestamps, the certificate does not', async () => {
    const created = await store.create('', csr('p'), W);
    const { object } = await store.update('', 'p', withStatus(created, { conditions: [{ type: 'Approved', status: 'True', reason: 'OK' }], certificate: cert }), { ...W, subresource: 'approval' });
    const [c] = conditions(object);
    assert.equal(c!.type, 'Approved');
    assert.match(c!.lastUpdateTime!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(c!.lastTransitionTime, c!.lastUpdateTime);
    assert.equal((object.status as Record<string, unknown>).certificate, undefined);
    // Approved then Denied is refused.
    const both = withStatus(object, { conditions: [...conditions(object), { type: 'Denied', status: 'True' }] });
    assert.match(await invalid(store.update('', 'p', both, { ...W, subresource: 'approval' })), /status\.conditions\[1\]\.type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive/);
  });

  it('status: the certificate is set, Approved is kept as stored, Failed may be added', async () => {
    const created = await store.create('', csr('s'), W);
    const approved = (await store.update('', 's', withStatus(created, { conditions: [{ type: 'Approved', status: 'True', reason: 'OK' }] }), { ...W, subresource: 'approval' })).object;
    const stored = conditions(approved)[0]!;
    const sent = withStatus(approved, { conditions: [{ ...stored, reason: 'Changed' }, { type: 'Failed', status: 'True' }], certificate: cert });
    const { object } = await store.update('', 's', sent, { ...W, subresource: 'status' });
    assert.deepEqual(conditions(object)[0], stored);
    assert.equal(conditions(object)[1]!.type, 'Failed');
    assert.equal((object.status as Record<string, unknown>).certificate, cert);
    // Adding an Approved condition through /status is refused.
    const denied = withStatus(object, { ...(object.status as object), conditions: [...conditions(object), { type: 'Denied', status: 'True' }] });
    assert.match(await invalid(store.update('', 's', denied, { ...W, subresource: 'status' })), /status\.conditions: Forbidden: updates may not add a condition of type "Denied"/);
  });

  it('main resource: an approval sent there is ignored, not refused', async () => {
    const created = await store.create('', csr('i'), W);
    const { object } = await store.update('', 'i', withStatus(created, { conditions: [{ type: 'Approved', status: 'True' }] }), W);
    assert.deepEqual(conditions(object), []);
  });
});
