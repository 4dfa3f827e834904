// Asking the API server for a certificate (client-go's util/certificate/csr):
// a CertificateSigningRequest created with its name (the bootstrap request's
// digested name; an existing one is reused when it is the same request by
// the same key) or generateName `csr-` (renewals), then watched by name
// until it is issued — or denied, failed, deleted or replaced, each an error
// with client-go's text.
import { createPublicKey, type KeyObject } from 'node:crypto';
import type * as X509 from '@peculiar/x509';
import { isStatusError } from '../../api/meta/index.js';
import type { ApiHttp } from '../../client/http.js';
import { isObject, type ApiObject } from '../../registry/object.js';
import { RemoteInformer } from '../../simnodes/remote/informer.js';
import { x509Library } from './x509lib.js';

const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
/** Our spelling of kube's kube-apiserver-client-kubelet signer (the approver and signer take both). */
export const KUBELET_CLIENT_SIGNER = 'svc.io/kube-apiserver-client-kubelet';

export class CertificateRequestError extends Error {
  override readonly name = 'CertificateRequestError';
}

export interface CertificateRequest {
  /** The PKCS#10 request, PEM. */
  readonly requestPem: string;
  /** '' for a generated name (`csr-…`). */
  readonly name: string;
  readonly signerName: string;
  readonly usages: readonly string[];
  readonly key: KeyObject;
  readonly expirationSeconds?: number;
}

/** Creates the request (or finds the same one already there): its name and uid. */
export async function requestCertificate(http: ApiHttp, req: CertificateRequest): Promise<{ name: string; uid: string }> {
  const body = {
    apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest',
    metadata: req.name ? { name: req.name } : { generateName: 'csr-' },
    spec: {
      request: Buffer.from(req.requestPem).toString('base64'), signerName: req.signerName, usages: [...req.usages],
      ...(req.expirationSeconds !== undefined ? { expirationSeconds: req.expirationSeconds } : {}),
    },
  };
  try {
    const made = await http.json('POST', CSRS, body) as unknown as ApiObject;
    return { name: made.metadata.name!, uid: made.metadata.uid! };
  } catch (err) {
    if (!(req.name && isStatusError(err) && err.status.reason === 'AlreadyExists')) throw err;
  }
  const found = await http.json('GET', `${CSRS}/${encodeURIComponent(req.name)}`) as unknown as ApiObject;
  const problem = await incompatibility(found, req);
  if (problem) throw new CertificateRequestError(`retrieved csr is not compatible: ${problem}`);
  return { name: found.metadata.name!, uid: found.metadata.uid! };
}

/** Why an existing request is not ours (kube's ensureCompatible), or undefined. */
async function incompatibility(found: ApiObject, req: CertificateRequest): Promise<string | undefined> {
  const spec = isObject(found.spec) ? found.spec : {};
  const x509 = await x509Library();
  let theirs: X509.Pkcs10CertificateRequest;
  try {
    theirs = new x509.Pkcs10CertificateRequest(Buffer.from(String(spec.request ?? ''), 'base64').toString('utf8'));
  } catch (err) {
    return `unable to parse original csr: ${(err as Error).message}`;
  }
  const ours = new x509.Pkcs10CertificateRequest(req.requestPem);
  if (theirs.subject !== ours.subject) return `csr subjects differ: new: ${ours.subject}, orig: ${theirs.subject}`;
  if (spec.signerName !== req.signerName) return `csr signerNames differ: new ${JSON.stringify(req.signerName)}, orig: ${JSON.stringify(spec.signerName)}`;
  const ourKey = Buffer.from(createPublicKey(req.key).export({ type: 'spki', format: 'der' }));
  if (!ourKey.equals(Buffer.from(theirs.publicKey.rawData))) return 'error validating signature new CSR against old key: the request is signed by another key';
  const status = isObject(found.status) ? found.status : {};
  if (typeof status.certificate === 'string' && status.certificate) {
    for (const c of Buffer.from(status.certificate, 'base64').toString('utf8').match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? []) {
      const notAfter = new x509.X509Certificate(c).notAfter;
      if (notAfter.getTime() < Date.now()) return `one of the certificates for the CSR has expired: ${notAfter.toISOString()}`;
    }
  }
  return undefined;
}

export interface WaitOptions {
  /** Give up after this long (kube: an hour). */
  readonly timeoutMs?: number;
}

/** Watches the request until it is issued: the certificate PEM. */
export function waitForCertificate(http: ApiHttp, name: string, uid: string, opts: WaitOptions = {}): Promise<string> {
  const informer = new RemoteInformer(http, CSRS, `fieldSelector=${encodeURIComponent(`metadata.name=${name}`)}`, `certificate request ${name}`);
  return new Promise<string>((resolve, reject) => {
    let done = false;
    const finish = (err: Error | undefined, pem?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      informer.stop();
      if (err) reject(err);
      else resolve(pem!);
    };
    const timer = setTimeout(() => finish(new CertificateRequestError(`timed out waiting for the certificate of csr ${JSON.stringify(name)}`)), opts.timeoutMs ?? 3_600_000);
    const check = (csr: ApiObject) => {
      if (csr.metadata.name !== name) return;
      if (csr.metadata.uid !== uid) return finish(new CertificateRequestError(`csr ${JSON.stringify(name)} changed UIDs`));
      const status = isObject(csr.status) ? csr.status : {};
      const conditions = (Array.isArray(status.conditions) ? status.conditions : []).filter(isObject);
      for (const c of conditions) {
        if (c.type === 'Denied') return finish(new CertificateRequestError(`certificate signing request is denied, reason: ${String(c.reason ?? '')}, message: ${String(c.message ?? '')}`));
        if (c.type === 'Failed') return finish(new CertificateRequestError(`certificate signing request failed, reason: ${String(c.reason ?? '')}, message: ${String(c.message ?? '')}`));
      }
      const approved = conditions.some((c) => c.type === 'Approved');
      if (approved && typeof status.certificate === 'string' && status.certificate) finish(undefined, Buffer.from(status.certificate, 'base64').toString('utf8'));
    };
    informer.addHandler({
      onAdd: check,
      onUpdate: (_old, csr) => check(csr),
      onDelete: (csr) => { if (csr.metadata.name === name) finish(new CertificateRequestError(`csr ${JSON.stringify(name)} was deleted`)); },
    });
    informer.start().catch((err: Error) => finish(err));
  });
}
