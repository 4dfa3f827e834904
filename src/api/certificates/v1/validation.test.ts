// CertificateSigningRequest validation causes (kube v1.27 texts), the request
// and certificate parsing behind them, and the signer-name rules.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { renderCause } from '../../meta/govalue.js';
import { fieldPath } from '../../meta/field.js';
import type { Obj } from '../../meta/checks.js';
import { certificateError, requestError, validateCertificateSigningRequest, validateCertificateSigningRequestUpdate, validateSignerName } from './validation.js';
import { TEST_CA_PEM, TEST_CSR_PEM, TEST_CSR_SPEC, newCertificatePem, newCertificateRequestPem } from '../testing.js';

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
const csr = (spec: Obj = {}, status?: Obj): Obj => ({ metadata: { name: 'c' }, spec: { ...TEST_CSR_SPEC, ...spec }, ...(status ? { status } : {}) });
const causes = (errs: ReturnType<typeof validateCertificateSigningRequest>) => errs.map(renderCause);
const cond = (type: string, status = 'True', extra: Obj = {}): Obj => ({ type, status, lastUpdateTime: '2026-01-01T00:00:00Z', ...extra });

describe('certificate requests (ParseCSR + CheckSignature)', () => {
  const fresh: Record<string, string> = {};
  before(async () => {
    fresh.rsa = await newCertificateRequestPem('CN=r', 'rsa');
    fresh.ed = await newCertificateRequestPem('CN=e', 'ed25519');
  });
  const tampered = () => {
    // The same request with one byte of the subject changed: it still parses, the signature fails.
    const body = Buffer.from(TEST_CSR_PEM.split('\n').slice(1, -2).join(''), 'base64');
    const at = body.indexOf(Buffer.from('svc-test'));
    body[at] = 'S'.charCodeAt(0);
    return `-----BEGIN CERTIFICATE REQUEST-----\n${body.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
  };
  const rows: [string, () => string, string | undefined][] = [
    ['the fixed ECDSA request', () => TEST_CSR_PEM, undefined],
    ['an RSA request', () => fresh.rsa!, undefined],
    ['an Ed25519 request', () => fresh.ed!, undefined],
    ['text before and after the block', () => `hello\n${TEST_CSR_PEM}bye\n`, undefined],
    ['empty', () => '', 'PEM block type must be CERTIFICATE REQUEST'],
    ['not PEM', () => 'junk', 'PEM block type must be CERTIFICATE REQUEST'],
    ['another block type first', () => TEST_CA_PEM + TEST_CSR_PEM, 'PEM block type must be CERTIFICATE REQUEST'],
    ['a certificate is no request', () => TEST_CA_PEM.replaceAll('CERTIFICATE', 'CERTIFICATE REQUEST'), 'asn1: structure error: tags don\'t match (version)'],
    ['garbage DER', () => `-----BEGIN CERTIFICATE REQUEST-----\n${b64('abc')}\n-----END CERTIFICATE REQUEST-----\n`, 'asn1: syntax error: data truncated'],
    ['a bad signature', tampered, 'x509: ECDSA verification failure'],
  ];
  for (const [what, pem, want] of rows) it(what, () => assert.equal(requestError(Buffer.from(pem())), want));
});

describe('issued certificates (validateCertificate)', () => {
  const rows: [string, string, string | undefined][] = [
    ['empty is fine', '', undefined],
    ['one certificate', TEST_CA_PEM, undefined],
    ['a chain', TEST_CA_PEM + TEST_CA_PEM, undefined],
    ['no block', 'junk', 'must contain at least one CERTIFICATE PEM block'],
    ['another type', TEST_CSR_PEM, 'only CERTIFICATE PEM blocks are allowed, found "CERTIFICATE REQUEST"'],
    ['headers', TEST_CA_PEM.replace('-----\n', '-----\nProc-Type: 4,ENCRYPTED\n\n'), 'no PEM block headers are permitted'],
    ['not X.509', `-----BEGIN CERTIFICATE-----\n${b64('0\x03\x02\x01\x00')}\n-----END CERTIFICATE-----\n`, 'x509: malformed certificate'],
  ];
  for (const [what, pem, want] of rows) it(what, () => assert.equal(certificateError(Buffer.from(pem)), want));
});

describe('ValidateSignerName', () => {
  const long = 'a'.repeat(64);
  const rows: [string, string, string[]][] = [
    ['valid', 'example.com/my-signer', []],
    ['svc.io spelling', 'svc.io/kube-apiserver-client', []],
    ['empty', '', ['spec.signerName: Required value']],
    ['no slash', 'example.com', ["spec.signerName: Invalid value: \"example.com\": must be a fully qualified domain and path of the form 'example.com/signer-name'"]],
    ['two slashes', 'example.com/a/b', ["spec.signerName: Invalid value: \"example.com/a/b\": must be a fully qualified domain and path of the form 'example.com/signer-name'"]],
    ['single-label domain', 'example/s', ['spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots']],
    ['bad domain label', 'Ex.com/s', [
      'spec.signerName: Invalid value: "Ex.com": validating label "Ex": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')',
    ]],
    ['long domain label', `${long}.com/s`, [`spec.signerName: Invalid value: "${long}.com": validating label "${long}": must be no more than 63 characters`]],
    ['bad path', 'example.com/A_b', [
      'spec.signerName: Invalid value: "A_b": validating label "A_b": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
    ]],
    ['too long', `example.com/${'a'.repeat(253)}.${'b'.repeat(253)}.${'c'.repeat(60)}`, ['spec.signerName: Too long: must have at most 571 bytes']],
  ];
  for (const [what, name, want] of rows) it(what, () => assert.deepEqual(validateSignerName(fieldPath('spec.signerName'), name).map(renderCause), want));
});

describe('CertificateSigningRequest create', () => {
  const rows: [string, Obj, string[]][] = [
    ['valid', csr(), []],
    ['nothing at all', { metadata: { name: 'c' }, spec: {} }, [
      'spec.request: Invalid value: []byte(nil): PEM block type must be CERTIFICATE REQUEST',
      'spec.usages: Required value',
      'spec.signerName: Required value',
    ]],
    ['request not PEM', csr({ request: b64('hi') }), ['spec.request: Invalid value: []byte{0x68, 0x69}: PEM block type must be CERTIFICATE REQUEST']],
    ['usages unknown and duplicated', csr({ usages: ['client auth', 'teleport', 'client auth'] }), [
      'spec.usages[1]: Unsupported value: "teleport": supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping"',
      'spec.usages[2]: Duplicate value: "client auth"',
    ]],
    ['legacy signer', csr({ signerName: 'kubernetes.io/legacy-unknown' }), ['spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version']],
    ['short expiration', csr({ expirationSeconds: 599 }), ['spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)']],
    ['ten minutes is enough', csr({ expirationSeconds: 600 }), []],
  ];
  for (const [what, o, want] of rows) it(what, () => assert.deepEqual(causes(validateCertificateSigningRequest(o)), want));
});

describe('CertificateSigningRequest update', () => {
  let issued = '';
  before(async () => {
    issued = b64(await newCertificatePem('CN=issued', 'leaf'));
  });
  const approved = () => csr({}, { conditions: [cond('Approved')] });
  type Row = [string, () => [Obj, Obj, 'main' | 'status' | 'approval'], string[]];
  const rows: Row[] = [
    ['main: metadata only', () => [csr(), csr(), 'main'], []],
    ['main: may not approve', () => [approved(), csr(), 'main'], ['status.conditions: Forbidden: updates may not add a condition of type "Approved"']],
    ['main: may not set the certificate', () => [csr({}, { certificate: b64(TEST_CA_PEM) }), csr(), 'main'], ['status.certificate: Forbidden: updates may not set certificate content']],
    ['approval: approve', () => [approved(), csr(), 'approval'], []],
    ['approval: deny', () => [csr({}, { conditions: [cond('Denied')] }), csr(), 'approval'], []],
    ['approval: both', () => [csr({}, { conditions: [cond('Approved'), cond('Denied')] }), csr(), 'approval'], ['status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive']],
    ['approval: both, already stored so', () => [csr({}, { conditions: [cond('Approved'), cond('Denied'), cond('Failed')] }), csr({}, { conditions: [cond('Approved'), cond('Denied')] }), 'approval'], []],
    ['approval: status must be True', () => [csr({}, { conditions: [cond('Approved', 'False')] }), csr(), 'approval'], ['status.conditions[0].status: Unsupported value: "False": supported values: "True"']],
    ['approval: other types may be any status', () => [csr({}, { conditions: [cond('Pending', 'Maybe'), cond('Checked', 'False')] }), csr(), 'approval'], ['status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"']],
    ['approval: type and status required, duplicates refused', () => [csr({}, { conditions: [{ lastUpdateTime: 'x' }, cond('Approved'), cond('Approved')] }), csr(), 'approval'], [
      'status.conditions[0].type: Required value',
      'status.conditions[0].status: Required value',
      'status.conditions[2].type: Duplicate value: "Approved"',
    ]],
    ['approval: may not remove', () => [csr(), approved(), 'approval'], ['status.conditions: Forbidden: updates may not remove a condition of type "Approved"']],
    ['approval: may not set the certificate', () => [csr({}, { conditions: [cond('Approved')], certificate: issued }), approved(), 'approval'], ['status.certificate: Forbidden: updates may not set certificate content']],
    ['status: may set the certificate once', () => [csr({}, { conditions: [cond('Approved')], certificate: issued }), approved(), 'status'], []],
    ['status: may not change it', () => [csr({}, { conditions: [cond('Approved')], certificate: b64(TEST_CA_PEM) }), csr({}, { conditions: [cond('Approved')], certificate: issued }), 'status'], ['status.certificate: Forbidden: updates may not modify existing certificate content']],
    ['status: the certificate must be PEM certificates', () => [csr({}, { conditions: [cond('Approved')], certificate: b64('nope') }), approved(), 'status'], ['status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block']],
    ['status: may add Failed', () => [csr({}, { conditions: [cond('Approved'), cond('Failed')] }), approved(), 'status'], []],
    ['status: may not approve', () => [approved(), csr(), 'status'], ['status.conditions: Forbidden: updates may not add a condition of type "Approved"']],
    ['status: may not remove Failed', () => [approved(), csr({}, { conditions: [cond('Approved'), cond('Failed')] }), 'status'], ['status.conditions: Forbidden: updates may not remove a condition of type "Failed"']],
  ];
  for (const [what, args, want] of rows) {
    it(what, () => {
      const [o, old, write] = args();
      assert.deepEqual(causes(validateCertificateSigningRequestUpdate(o, old, write)), want);
    });
  }

  it('main: changing an Approved condition is refused with the change shown', () => {
    const errs = causes(validateCertificateSigningRequestUpdate(csr({}, { conditions: [cond('Approved', 'True', { reason: 'New' })] }), approved(), 'main'));
    assert.equal(errs.length, 1);
    assert.match(errs[0]!, /^status\.conditions: Forbidden: updates may not modify a condition of type "Approved"\n/);
  });
});
