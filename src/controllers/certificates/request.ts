// What the CSR approver and signer read of a CertificateSigningRequest: the
// PKCS#10 request decoded (subject, SANs), the built-in signer names (kube's
// kubernetes.io/… and our svc.io/… spelling alike), and kube's checks of a
// kubelet client and a kubelet serving request (k8s.io/api certificates
// helpers ValidateKubeletClientCSR / ValidateKubeletServingCSR).
import * as x509 from '@peculiar/x509';
import { isObject, type ApiObject } from '../../registry/object.js';

export type SignerKind = 'kube-apiserver-client' | 'kube-apiserver-client-kubelet' | 'kubelet-serving' | 'legacy-unknown';
const KINDS: readonly SignerKind[] = ['kube-apiserver-client', 'kube-apiserver-client-kubelet', 'kubelet-serving', 'legacy-unknown'];

/** The built-in signer a signerName names, in either spelling. */
export function signerKind(signerName: string): SignerKind | undefined {
  const m = /^(kubernetes\.io|svc\.io)\/(.+)$/.exec(signerName);
  return m && (KINDS as readonly string[]).includes(m[2]!) ? (m[2] as SignerKind) : undefined;
}

export interface DecodedRequest {
  readonly commonName: string;
  readonly organizations: string[];
  readonly dnsNames: string[];
  readonly ipAddresses: string[];
  readonly emailAddresses: string[];
  readonly uris: string[];
  readonly request: x509.Pkcs10CertificateRequest;
}

export const specOf = (csr: ApiObject): Record<string, unknown> => (isObject(csr.spec) ? csr.spec : {});

/** The CSR's PKCS#10 request (spec.request: base64 of a PEM block); throws when it is not one. */
export function decodeRequest(csr: ApiObject): DecodedRequest {
  const pemText = Buffer.from(String(specOf(csr).request ?? ''), 'base64').toString('utf8');
  const request = new x509.Pkcs10CertificateRequest(pemText);
  const name = request.subjectName;
  const values = (oidName: string) => name.getField(oidName);
  const san = (request.getExtension('2.5.29.17') as x509.SubjectAlternativeNameExtension | null);
  const items = san ? san.names.items : [];
  const of = (type: string) => items.filter((n: x509.GeneralName) => n.type === type).map((n: x509.GeneralName) => n.value);
  return {
    commonName: values('CN')[0] ?? '', organizations: values('O'),
    dnsNames: of('dns'), ipAddresses: of('ip'), emailAddresses: of('email'), uris: of('url'), request,
  };
}

const usagesOf = (csr: ApiObject): string[] => (Array.isArray(specOf(csr).usages) ? (specOf(csr).usages as string[]) : []);

/** A kubelet client certificate request: O=system:nodes only, CN=system:node:<name>, no SANs, client usages (kube's error texts). */
export function kubeletClientError(csr: ApiObject, req: DecodedRequest): string | undefined {
  if (req.organizations.length !== 1 || req.organizations[0] !== 'system:nodes') return 'subject organization is not system:nodes';
  if (!req.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  if (req.dnsNames.length > 0) return 'dnsNames are not allowed';
  if (req.emailAddresses.length > 0) return 'email addresses are not allowed';
  if (req.ipAddresses.length > 0) return 'IP addresses are not allowed';
  if (req.uris.length > 0) return 'URIs are not allowed';
  return usagesError(usagesOf(csr), ['client auth'], ['digital signature', 'key encipherment', 'client auth']);
}

/** A kubelet serving certificate request: O=system:nodes only, CN=system:node:<name>, DNS or IP SANs only, server usages. */
export function kubeletServingError(csr: ApiObject, req: DecodedRequest): string | undefined {
  if (req.organizations.length !== 1 || req.organizations[0] !== 'system:nodes') return 'subject organization is not system:nodes';
  if (!req.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  if (req.dnsNames.length === 0 && req.ipAddresses.length === 0) return 'DNS or IP subjectAltName is required';
  if (req.emailAddresses.length > 0) return 'email subjectAltNames are not allowed';
  if (req.uris.length > 0) return 'URI subjectAltNames are not allowed';
  return usagesError(usagesOf(csr), ['server auth'], ['digital signature', 'key encipherment', 'server auth']);
}

function usagesError(usages: string[], required: string[], allowed: string[]): string | undefined {
  const bad = usages.filter((u) => !allowed.includes(u));
  if (bad.length > 0) return `usages did not match [${allowed.join(' ')}]`;
  const missing = required.filter((u) => !usages.includes(u));
  if (missing.length > 0) return `missing required usages [${missing.join(' ')}]`;
  return undefined;
}

export type Condition = Record<string, unknown>;
export const conditionsOf = (csr: ApiObject): Condition[] => {
  const st = isObject(csr.status) ? csr.status : {};
  return (Array.isArray(st.conditions) ? st.conditions : []).filter(isObject);
};
export const hasCondition = (csr: ApiObject, type: string): boolean => conditionsOf(csr).some((c) => c.type === type && c.status !== 'False');
export const hasCertificate = (csr: ApiObject): boolean => isObject(csr.status) && typeof csr.status.certificate === 'string' && csr.status.certificate !== '';
