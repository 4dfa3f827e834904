// ClusterTrustBundle validation causes (kube v1.27 texts): the name rule that
// follows spec.signerName, the trust bundle's PEM checks, and updates.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { renderCause } from '../../meta/govalue.js';
import type { Obj } from '../../meta/checks.js';
import { clusterTrustBundleNameErrors, validateClusterTrustBundle, validateClusterTrustBundleUpdate, MAX_TRUST_BUNDLE_SIZE } from './validation.js';
import { TEST_CA_PEM, TEST_CSR_PEM, newCertificatePem } from '../testing.js';

const ctb = (trustBundle: string, signerName?: string): Obj => ({ metadata: { name: 'b' }, spec: { trustBundle, ...(signerName !== undefined ? { signerName } : {}) } });
const TB = 'spec.trustBundle: Invalid value: "<value omitted>": ';

describe('ValidateClusterTrustBundleName', () => {
  const rows: [string, string, string, boolean, string[]][] = [
    ['no signer: a subdomain', '', 'my-bundle', false, []],
    ['no signer: no colon', '', 'a:b', false, ['ClusterTrustBundle without signer name must not have ":" in its name']],
    ['no signer: generateName prefix', '', 'bundle-', true, []],
    ['signer: prefixed', 'example.com/signer', 'example.com:signer:foo', false, []],
    ['signer: prefix missing', 'example.com/signer', 'foo', false, ['ClusterTrustBundle for signerName example.com/signer must be named with prefix example.com:signer:']],
    ['signer: tail must be a subdomain', 'example.com/signer', 'example.com:signer:Foo', false, [
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]],
  ];
  for (const [what, signer, name, prefix, want] of rows) it(what, () => assert.deepEqual(clusterTrustBundleNameErrors(signer, name, prefix), want));
});

describe('ClusterTrustBundle', () => {
  const pem: Record<string, string> = {};
  before(async () => {
    pem.ca2 = await newCertificatePem('CN=ca2', 'ca');
    pem.leaf = await newCertificatePem('CN=leaf', 'leaf');
    pem.notCa = await newCertificatePem('CN=not-ca', 'not-ca');
  });
  const rows: [string, () => Obj, string[]][] = [
    ['one anchor', () => ctb(TEST_CA_PEM), []],
    ['two anchors, a signer', () => ctb(TEST_CA_PEM + pem.ca2!, 'example.com/signer'), []],
    ['bad signer name', () => ctb(TEST_CA_PEM, 'nodomain'), ["spec.signerName: Invalid value: \"nodomain\": must be a fully qualified domain and path of the form 'example.com/signer-name'"]],
    ['empty', () => ctb(''), [`${TB}at least one trust anchor must be provided`]],
    ['bad block type', () => ctb(TEST_CA_PEM + TEST_CSR_PEM), [`${TB}entry 1 has bad block type: CERTIFICATE REQUEST`]],
    ['headers', () => ctb(TEST_CA_PEM.replace('-----\n', '-----\nA: b\n\n')), [`${TB}entry 0 has PEM block headers`]],
    ['not X.509', () => ctb(`-----BEGIN CERTIFICATE-----\n${Buffer.from('junk!!').toString('base64')}\n-----END CERTIFICATE-----\n`), [`${TB}entry 0 does not parse as X.509`]],
    ['a leaf without basic constraints', () => ctb(pem.leaf!), [`${TB}entry 0 does not have the CA bit set`]],
    ['CA:false', () => ctb(TEST_CA_PEM + pem.notCa!), [`${TB}entry 1 does not have the CA bit set`]],
    ['each bad entry, and no duplicate report then', () => ctb(pem.leaf! + TEST_CA_PEM + TEST_CA_PEM + TEST_CSR_PEM), [
      `${TB}entry 0 does not have the CA bit set`,
      `${TB}entry 3 has bad block type: CERTIFICATE REQUEST`,
    ]],
    ['duplicates', () => ctb(TEST_CA_PEM + pem.ca2! + TEST_CA_PEM + TEST_CA_PEM), [`${TB}duplicate trust anchor (indices [0 2 3])`]],
    ['too big', () => ctb('x'.repeat(MAX_TRUST_BUNDLE_SIZE + 1)), ['spec.trustBundle: Too long: must have at most 1048576 bytes']],
  ];
  for (const [what, o, want] of rows) it(what, () => assert.deepEqual(validateClusterTrustBundle(o()).map(renderCause), want));

  it('update: signerName is immutable', () => {
    assert.deepEqual(validateClusterTrustBundleUpdate(ctb(TEST_CA_PEM, 'example.com/b'), ctb(TEST_CA_PEM, 'example.com/a')).map(renderCause), [
      'spec.signerName: Invalid value: "example.com/b": field is immutable',
    ]);
  });
  it('update: an unchanged bundle is not parsed again', () => {
    assert.deepEqual(validateClusterTrustBundleUpdate(ctb('stored before the rules'), ctb('stored before the rules')), []);
  });
  it('update: a changed bundle is', () => {
    assert.deepEqual(validateClusterTrustBundleUpdate(ctb(''), ctb(TEST_CA_PEM)).map(renderCause), [`${TB}at least one trust anchor must be provided`]);
  });
});
