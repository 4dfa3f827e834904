// CertificateSigningRequest validation with kube-apiserver v1.27's paths and
// messages (pkg/apis/certificates/validation), and the signer-name rules
// (pkg/apis/core/validation ValidateSignerName) ClusterTrustBundle shares.
// An update is checked as the subresource it came through allows: the main
// resource changes neither Approved/Denied conditions nor the certificate,
// /approval may change those conditions, /status may set the certificate.
import { type FieldError, type FieldPath, duplicate, fieldPath, forbidden, invalid, notSupported, required, tooLong } from '../../meta/field.js';
import { dns1123LabelErrors, dns1123SubdomainErrors } from '../../meta/validation.js';
import { type Obj, arr, num, obj, semanticEqual, str } from '../../meta/checks.js';
import { GoValue } from '../../meta/govalue.js';
import type { KindValidator } from '../../core/v1/validation.js';
import { certificateRequestError, decodePem, parseCertificates, pemBlocks } from '../pem.js';

// ---- signer names ----

const SUBDOMAIN_MAX = 253;
const LABEL_MAX = 63;
const SIGNER_NAME_MAX = SUBDOMAIN_MAX + (SUBDOMAIN_MAX + LABEL_MAX + 1) + 1;

/** ValidateSignerName: `example.com/signer-name`, DNS labels before the '/', subdomains after, 571 bytes at most. */
export function validateSignerName(path: FieldPath, signerName: string): FieldError[] {
  if (signerName === '') return [required(path)];
  const segments = signerName.split('/');
  if (segments.length !== 2) return [invalid(path, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  const [domain, rest] = segments as [string, string];
  const errs: FieldError[] = [];
  if (domain.length > SUBDOMAIN_MAX) errs.push(tooLong(path, SUBDOMAIN_MAX));
  const domainLabels = domain.split('.');
  for (const label of domainLabels) {
    const msgs = dns1123LabelErrors(label);
    if (msgs.length === 0) continue;
    for (const m of msgs) errs.push(invalid(path, domain, `validating label ${JSON.stringify(label)}: ${m}`));
    break;
  }
  if (domainLabels.length < 2) errs.push(invalid(path, domain, 'should be a domain with at least two segments separated by dots'));
  for (const label of rest.split('.')) {
    const msgs = dns1123SubdomainErrors(label);
    if (msgs.length === 0) continue;
    for (const m of msgs) errs.push(invalid(path, rest, `validating label ${JSON.stringify(label)}: ${m}`));
    break;
  }
  if (signerName.length > SIGNER_NAME_MAX) errs.push(tooLong(path, SIGNER_NAME_MAX));
  return errs;
}

// ---- CertificateSigningRequest ----

/** The v1beta1-only signer, refused through v1 (both spellings). */
const LEGACY_UNKNOWN_SIGNERS = new Set(['kubernetes.io/legacy-unknown', 'svc.io/legacy-unknown']);

export const KEY_USAGES = [
  'signing', 'digital signature', 'content commitment', 'key encipherment', 'key agreement', 'data encipherment',
  'cert sign', 'crl sign', 'encipher only', 'decipher only', 'any', 'server auth', 'client auth', 'code signing',
  'email protection', 's/mime', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'timestamping', 'ocsp signing',
  'microsoft sgc', 'netscape sgc',
];
const USAGES = new Set(KEY_USAGES);
const SORTED_USAGES = [...KEY_USAGES].sort();

/** Condition types whose status can only be True. */
const TRUE_ONLY_TYPES = new Set(['Approved', 'Denied', 'Failed']);
const ALL_STATUSES = ['False', 'True', 'Unknown'];

/** How an update reached the object: the main resource, /status or /approval. */
export type CsrWrite = 'main' | 'status' | 'approval';

interface Options {
  /** /approval: Approved and Denied conditions may be added or changed. */
  readonly settingApprovalConditions: boolean;
  /** /status: status.certificate may be set. */
  readonly settingCertificate: boolean;
  // What the stored object already breaks is tolerated on its updates.
  readonly bothApprovedAndDenied: boolean;
  readonly legacySignerName: boolean;
  readonly duplicateConditionTypes: boolean;
  readonly emptyConditionType: boolean;
  readonly arbitraryCertificate: boolean;
  readonly unknownUsages: boolean;
  readonly duplicateUsages: boolean;
}

const specOf = (csr: Obj) => obj(csr.spec);
const conditionsOf = (csr: Obj) => arr(obj(csr.status).conditions).map(obj);
const usagesOf = (csr: Obj) => arr(specOf(csr).usages).map(str);
/** A []byte field (base64 in JSON), decoded. */
const bytesOf = (v: unknown): Buffer => Buffer.from(str(v), 'base64');
const certificateOf = (csr: Obj) => bytesOf(obj(csr.status).certificate);

/** Go's %#v of a []byte, as "Invalid value" prints spec.request. */
function goBytes(v: unknown): GoValue {
  if (typeof v !== 'string' || v === '') return new GoValue(null, '[]byte(nil)');
  const b = bytesOf(v);
  return new GoValue(v, `[]byte{${[...b].map((x) => `0x${x.toString(16)}`).join(', ')}}`);
}

/** certificates.ParseCSR and CheckSignature: the first PEM block must be a CERTIFICATE REQUEST that parses and verifies. */
export function requestError(request: Buffer): string | undefined {
  const { block } = decodePem(request.toString('latin1'));
  if (!block || block.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  return certificateRequestError(block.bytes);
}

/** validateCertificate: status.certificate is empty or only CERTIFICATE blocks without headers, each parsing. */
export function certificateError(pem: Buffer): string | undefined {
  if (pem.length === 0) return undefined;
  const blocks = pemBlocks(pem.toString('latin1'));
  for (const b of blocks) {
    if (b.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(b.type)}`;
    if (Object.keys(b.headers).length !== 0) return 'no PEM block headers are permitted';
    let certs;
    try {
      certs = parseCertificates(b.bytes);
    } catch (err) {
      return (err as Error).message;
    }
    if (certs.length === 0) return 'found CERTIFICATE PEM block containing 0 certificates';
  }
  return blocks.length === 0 ? 'must contain at least one CERTIFICATE PEM block' : undefined;
}

function hasDuplicates(xs: readonly string[]): boolean {
  return new Set(xs).size !== xs.length;
}

function options(csr: Obj, old: Obj | undefined, write: CsrWrite): Options {
  const oldTypes = old ? conditionsOf(old).map((c) => str(c.type)) : [];
  return {
    settingApprovalConditions: write === 'approval',
    settingCertificate: write === 'status',
    bothApprovedAndDenied: oldTypes.includes('Approved') && oldTypes.includes('Denied'),
    legacySignerName: old !== undefined && LEGACY_UNKNOWN_SIGNERS.has(str(specOf(old).signerName)),
    duplicateConditionTypes: hasDuplicates(oldTypes),
    emptyConditionType: oldTypes.includes(''),
    arbitraryCertificate: old !== undefined && (certificateOf(csr).equals(certificateOf(old)) || certificateError(certificateOf(old)) !== undefined),
    unknownUsages: old !== undefined && usagesOf(old).some((u) => !USAGES.has(u)),
    duplicateUsages: old !== undefined && hasDuplicates(usagesOf(old)),
  };
}

function validateConditions(csr: Obj, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const path = fieldPath('status').child('conditions');
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditionsOf(csr).forEach((c, i) => {
    const p = path.index(i);
    const type = str(c.type);
    const status = str(c.status);
    if (!opts.emptyConditionType && type === '') errs.push(required(p.child('type')));
    const allowed = TRUE_ONLY_TYPES.has(type) ? ['True'] : ALL_STATUSES;
    if (status === '') errs.push(required(p.child('status')));
    else if (!allowed.includes(status)) errs.push(notSupported(p.child('status'), status, allowed));
    if (!opts.bothApprovedAndDenied) {
      if (type === 'Approved') {
        approved = true;
        if (denied) errs.push(invalid(p.child('type'), type, 'Approved and Denied conditions are mutually exclusive'));
      } else if (type === 'Denied') {
        denied = true;
        if (approved) errs.push(invalid(p.child('type'), type, 'Approved and Denied conditions are mutually exclusive'));
      }
    }
    if (!opts.duplicateConditionTypes) {
      if (seen.has(type)) errs.push(duplicate(p.child('type'), type));
      seen.add(type);
    }
  });
  return errs;
}

function validateCsr(csr: Obj, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const spec = specOf(csr);
  const sp = fieldPath('spec');
  const reqErr = requestError(bytesOf(spec.request));
  if (reqErr) errs.push(invalid(sp.child('request'), goBytes(spec.request), reqErr));
  const usages = usagesOf(csr);
  if (usages.length === 0) errs.push(required(sp.child('usages')));
  if (!opts.unknownUsages) {
    usages.forEach((u, i) => {
      if (!USAGES.has(u)) errs.push(notSupported(sp.child('usages').index(i), u, SORTED_USAGES));
    });
  }
  if (!opts.duplicateUsages) {
    const seen = new Set<string>();
    usages.forEach((u, i) => {
      if (seen.has(u)) errs.push(duplicate(sp.child('usages').index(i), u));
      seen.add(u);
    });
  }
  const signerName = str(spec.signerName);
  if (!opts.legacySignerName && LEGACY_UNKNOWN_SIGNERS.has(signerName)) {
    errs.push(invalid(sp.child('signerName'), signerName, 'the legacy signerName is not allowed via this API version'));
  } else errs.push(...validateSignerName(sp.child('signerName'), signerName));
  const exp = num(spec.expirationSeconds);
  if (exp !== undefined && exp < 600) errs.push(invalid(sp.child('expirationSeconds'), exp, 'may not specify a duration less than 600 seconds (10 minutes)'));
  errs.push(...validateConditions(csr, opts));
  if (!opts.arbitraryCertificate) {
    const certErr = certificateError(certificateOf(csr));
    if (certErr) errs.push(invalid(fieldPath('status').child('certificate'), '<certificate data>', certErr));
  }
  return errs;
}

/** ValidateCertificateSigningRequestCreate (metadata is the store's). */
export function validateCertificateSigningRequest(csr: Obj): FieldError[] {
  return validateCsr(csr, options(csr, undefined, 'main'));
}

const ofType = (csr: Obj, type: string) => conditionsOf(csr).filter((c) => str(c.type) === type);

/** A short rendering of the change to conditions of one type (kube prints a cmp.Diff here). */
function conditionDiff(before: Obj[], after: Obj[]): string {
  const lines = (xs: Obj[], sign: string) => xs.map((c) => `${sign} ${JSON.stringify(c)}`);
  return [...lines(before, '-'), ...lines(after, '+')].join('\n');
}

/**
 * The update validations of the main resource, /status and /approval
 * (ValidateCertificateSigningRequest{,Status,Approval}Update).
 */
export function validateCertificateSigningRequestUpdate(csr: Obj, old: Obj, write: CsrWrite = 'main'): FieldError[] {
  const opts = options(csr, old, write);
  const errs = validateCsr(csr, opts);
  const conditions = fieldPath('status').child('conditions');
  for (const t of ['Approved', 'Denied', 'Failed']) {
    if (ofType(csr, t).length < ofType(old, t).length) errs.push(forbidden(conditions, `updates may not remove a condition of type ${JSON.stringify(t)}`));
  }
  if (!opts.settingApprovalConditions) {
    for (const t of ['Approved', 'Denied']) {
      const before = ofType(old, t);
      const after = ofType(csr, t);
      if (after.length < before.length) continue; // refused above
      if (after.length > before.length) errs.push(forbidden(conditions, `updates may not add a condition of type ${JSON.stringify(t)}`));
      else if (!semanticEqual(before, after)) errs.push(forbidden(conditions, `updates may not modify a condition of type ${JSON.stringify(t)}\n${conditionDiff(before, after)}`));
    }
  }
  const cert = certificateOf(csr);
  const oldCert = certificateOf(old);
  if (!cert.equals(oldCert)) {
    const certificate = fieldPath('status').child('certificate');
    if (!opts.settingCertificate) errs.push(forbidden(certificate, 'updates may not set certificate content'));
    else if (oldCert.length > 0) errs.push(forbidden(certificate, 'updates may not modify existing certificate content'));
  }
  return errs;
}

const asWrite = (subresource: string | undefined): CsrWrite => (subresource === 'status' ? 'status' : subresource === 'approval' ? 'approval' : 'main');

export function certificatesV1Validators(): Record<string, KindValidator> {
  return {
    CertificateSigningRequest: {
      validate: validateCertificateSigningRequest,
      validateUpdate: (o, old, subresource) => validateCertificateSigningRequestUpdate(o, old, asWrite(subresource)),
    },
  };
}
