// certificates.svc.io end to end over HTTPS: a CertificateSigningRequest is
// validated with kube's texts and records its requester; /approval approves,
// /status issues, the main resource changes neither; ClusterTrustBundles
// (alpha: gate and runtime-config on) are named after their signer and hold
// CA certificates only.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './harness.js';
import { parseRuntimeConfig } from '../../src/api/catalog/enablement.js';
import { FeatureGates } from '../../src/features/gates.js';
import { TEST_CA_PEM, TEST_CSR_SPEC, newCertificatePem } from '../../src/api/certificates/testing.js';

const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const CSRS_SVC = '/apis/certificates.svc.io/v1/certificatesigningrequests';
const CTBS = '/apis/certificates.svc.io/v1alpha1/clustertrustbundles';
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('certificates.svc.io', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({
      controllers: false,
      featureGates: FeatureGates.parse('ClusterTrustBundle=true'),
      runtimeConfig: parseRuntimeConfig({ 'certificates.k8s.io/v1alpha1': 'true' }),
    });
  });
  after(async () => t?.stop());

  it('an invalid request is refused with every cause', async () => {
    const r = await t.req('POST', CSRS, { metadata: { name: 'bad' }, spec: { request: b64('hi'), signerName: 'nodomain', usages: ['client auth', 'client auth'], expirationSeconds: 60 } });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.message, [
      'CertificateSigningRequest.certificates.svc.io "bad" is invalid: [',
      'spec.request: Invalid value: []byte{0x68, 0x69}: PEM block type must be CERTIFICATE REQUEST, ',
      'spec.usages[1]: Duplicate value: "client auth", ',
      "spec.signerName: Invalid value: \"nodomain\": must be a fully qualified domain and path of the form 'example.com/signer-name', ",
      'spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 600 seconds (10 minutes)]',
    ].join(''));
  });

  it('create, approve, issue', async () => {
    const c = await t.req('POST', CSRS, { metadata: { name: 'good' }, spec: { ...TEST_CSR_SPEC, username: 'someone-else' } });
    assert.equal(c.status, 201, c.text);
    assert.notEqual(c.body.spec.username, 'someone-else');
    assert.ok(c.body.spec.username, 'the requester is recorded');
    assert.deepEqual(c.body.status, {});

    // The main resource ignores status.
    const approved = { ...c.body, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'E2E' }] } };
    const ignored = await t.req('PUT', `${CSRS}/good`, approved);
    assert.equal(ignored.status, 200, ignored.text);
    assert.deepEqual(ignored.body.status, {});

    // /approval approves (svc.io spelling), with timestamps.
    const a = await t.req('PUT', `${CSRS_SVC}/good/approval`, { ...approved, metadata: ignored.body.metadata });
    assert.equal(a.status, 200, a.text);
    assert.equal(a.body.status.conditions[0].type, 'Approved');
    assert.ok(a.body.status.conditions[0].lastUpdateTime);

    // Denying as well is refused.
    const both = { ...a.body, status: { conditions: [...a.body.status.conditions, { type: 'Denied', status: 'True' }] } };
    const d = await t.req('PUT', `${CSRS}/good/approval`, both);
    assert.equal(d.status, 422);
    assert.match(d.body.message, /status\.conditions\[1\]\.type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive/);

    // /status issues the certificate; it must be PEM certificates.
    const junk = await t.req('PUT', `${CSRS}/good/status`, { ...a.body, status: { ...a.body.status, certificate: b64('junk') } });
    assert.equal(junk.status, 422);
    assert.match(junk.body.message, /status\.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block/);
    const issued = b64(await newCertificatePem('CN=issued', 'leaf'));
    const s = await t.req('PUT', `${CSRS}/good/status`, { ...a.body, status: { ...a.body.status, certificate: issued } });
    assert.equal(s.status, 200, s.text);
    assert.equal(s.body.status.certificate, issued);
    assert.equal(s.body.status.conditions[0].type, 'Approved');
  });

  it('ClusterTrustBundles: names follow the signer, bundles hold CA certificates', async () => {
    const ok = await t.req('POST', CTBS, { metadata: { name: 'example.com:signer:one' }, spec: { signerName: 'example.com/signer', trustBundle: TEST_CA_PEM } });
    assert.equal(ok.status, 201, ok.text);
    const plain = await t.req('POST', CTBS, { metadata: { name: 'plain' }, spec: { trustBundle: TEST_CA_PEM } });
    assert.equal(plain.status, 201, plain.text);

    const misnamed = await t.req('POST', CTBS, { metadata: { name: 'one' }, spec: { signerName: 'example.com/signer', trustBundle: TEST_CA_PEM } });
    assert.equal(misnamed.status, 422);
    assert.equal(misnamed.body.message, 'ClusterTrustBundle.certificates.svc.io "one" is invalid: metadata.name: Invalid value: "one": ClusterTrustBundle for signerName example.com/signer must be named with prefix example.com:signer:');

    const leaf = await t.req('POST', CTBS, { metadata: { name: 'leaf' }, spec: { trustBundle: await newCertificatePem('CN=leaf', 'leaf') } });
    assert.equal(leaf.status, 422);
    assert.equal(leaf.body.message, 'ClusterTrustBundle.certificates.svc.io "leaf" is invalid: spec.trustBundle: Invalid value: "<value omitted>": entry 0 does not have the CA bit set');

    const moved = await t.req('PUT', `${CTBS}/example.com:signer:one`, { ...ok.body, spec: { ...ok.body.spec, signerName: 'example.com/other' } });
    assert.equal(moved.status, 422);
    assert.match(moved.body.message, /spec\.signerName: Invalid value: "example.com\/other": field is immutable/);
  });
});
