// ClusterTrustBundle validation with kube-apiserver v1.27's paths and
// messages (pkg/apis/certificates/validation ValidateClusterTrustBundle{,Update},
// pkg/apis/core/validation ValidateClusterTrustBundleName). The name rule
// depends on spec.signerName, so it is the name validator the store runs on
// metadata (clusterTrustBundleNameErrors); the rest is here.
import { type FieldError, type FieldPath, fieldPath, invalid, tooLong } from '../../meta/field.js';
import { dns1123SubdomainErrors } from '../../meta/validation.js';
import { type Obj, immutable, obj, str } from '../../meta/checks.js';
import type { KindValidator } from '../../core/v1/validation.js';
import { validateSignerName } from '../v1/validation.js';
import type { X509Certificate } from 'node:crypto';
import { parseCertificates, pemBlocks } from '../pem.js';

/** certificates.MaxTrustBundleSize: 1 MiB. */
export const MAX_TRUST_BUNDLE_SIZE = 1024 * 1024;

function subdomainName(name: string, prefix: boolean): string[] {
  return dns1123SubdomainErrors(prefix && name.length > 1 && name.endsWith('-') ? name.slice(0, -1) + 'a' : name);
}

/**
 * ValidateClusterTrustBundleName: with a signer the name is the signer with
 * '/' spelled ':' and a ':' before a DNS-subdomain tail; without one it has
 * no ':' at all.
 */
export function clusterTrustBundleNameErrors(signerName: string, name: string, prefix: boolean): string[] {
  if (signerName === '') {
    if (name.includes(':')) return ['ClusterTrustBundle without signer name must not have ":" in its name'];
    return subdomainName(name, prefix);
  }
  const requiredPrefix = signerName.replaceAll('/', ':') + ':';
  if (!name.startsWith(requiredPrefix)) return [`ClusterTrustBundle for signerName ${signerName} must be named with prefix ${requiredPrefix}`];
  return subdomainName(name.slice(requiredPrefix.length), prefix);
}

/** validateTrustBundle: CA certificates only, no headers, no duplicates, at least one, 1 MiB at most. */
export function validateTrustBundle(path: FieldPath, bundle: string): FieldError[] {
  if (Buffer.byteLength(bundle, 'utf8') > MAX_TRUST_BUNDLE_SIZE) return [tooLong(path, MAX_TRUST_BUNDLE_SIZE)];
  const errs: FieldError[] = [];
  const bad = (msg: string) => errs.push(invalid(path, '<value omitted>', msg));
  const seen = new Map<string, number[]>();
  pemBlocks(Buffer.from(bundle, 'utf8').toString('latin1')).forEach((b, i) => {
    if (b.type !== 'CERTIFICATE') return void bad(`entry ${i} has bad block type: ${b.type}`);
    if (Object.keys(b.headers).length !== 0) return void bad(`entry ${i} has PEM block headers`);
    let certs: X509Certificate[];
    try {
      certs = parseCertificates(b.bytes);
    } catch {
      certs = [];
    }
    // x509.ParseCertificate: exactly one certificate in the block.
    if (certs.length !== 1 || certs[0]!.raw.length !== b.bytes.length) return void bad(`entry ${i} does not parse as X.509`);
    // Go sets IsCA only from a basicConstraints extension, so a CA here always has valid basic constraints.
    if (!certs[0]!.ca) return void bad(`entry ${i} does not have the CA bit set`);
    const key = b.bytes.toString('base64');
    seen.set(key, [...(seen.get(key) ?? []), i]);
  });
  // A malformed block says enough: no duplicate or missing-anchor errors on top.
  if (errs.length > 0) return errs;
  if (seen.size === 0) bad('at least one trust anchor must be provided');
  for (const indices of seen.values()) {
    if (indices.length > 1) bad(`duplicate trust anchor (indices [${indices.join(' ')}])`);
  }
  return errs;
}

const specOf = (b: Obj) => obj(b.spec);

/** ValidateClusterTrustBundle without the metadata (the store checks it, with clusterTrustBundleNameErrors as the name rule). */
export function validateClusterTrustBundle(bundle: Obj, parseBundle = true): FieldError[] {
  const spec = specOf(bundle);
  const errs: FieldError[] = [];
  const signerName = str(spec.signerName);
  if (signerName !== '') errs.push(...validateSignerName(fieldPath('spec').child('signerName'), signerName));
  if (parseBundle) errs.push(...validateTrustBundle(fieldPath('spec').child('trustBundle'), str(spec.trustBundle)));
  return errs;
}

/** ValidateClusterTrustBundleUpdate: an unchanged bundle is not parsed again; signerName is immutable. */
export function validateClusterTrustBundleUpdate(bundle: Obj, old: Obj): FieldError[] {
  const spec = specOf(bundle);
  const oldSpec = specOf(old);
  return [
    ...validateClusterTrustBundle(bundle, str(spec.trustBundle) !== str(oldSpec.trustBundle)),
    ...immutable(str(spec.signerName), str(oldSpec.signerName), fieldPath('spec').child('signerName')),
  ];
}

export function certificatesV1alpha1Validators(): Record<string, KindValidator> {
  return { ClusterTrustBundle: { validate: validateClusterTrustBundle, validateUpdate: validateClusterTrustBundleUpdate } };
}
