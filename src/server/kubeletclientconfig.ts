// The API server's identity towards node agents. With --kubelet-client-certificate
// and --kubelet-client-key it presents that pair; otherwise, when the server made
// its own PKI, a client certificate from the cluster CA for
// `kube-apiserver-kubelet-client` in `system:masters` (what kubeadm v1.27 issues
// as apiserver-kubelet-client), made at start and kept in memory; with neither
// it presents none (an agent then sees system:anonymous).
// --kubelet-certificate-authority verifies the agents' serving certificates.
import { readFileSync } from 'node:fs';
import { kubeletClient, type KubeletClient } from '../endpoints/kubeletclient.js';
import { issueClientCertificate, type PemKeyPair } from './pki.js';

export interface KubeletClientOptions {
  readonly clientCertificateFile?: string;
  readonly clientKeyFile?: string;
  readonly certificateAuthorityFile?: string;
  /** --kubelet-preferred-address-types (default: InternalIP, ExternalIP, Hostname, InternalDNS, ExternalDNS, as kubeadm sets it). */
  readonly preferredAddressTypes?: readonly string[];
}

export const KUBELET_CLIENT_USER = { name: 'kube-apiserver-kubelet-client', groups: ['system:masters'] } as const;

export async function buildKubeletClient(o: KubeletClientOptions = {}, clusterCA?: PemKeyPair): Promise<KubeletClient> {
  let pair: PemKeyPair | undefined;
  if (o.clientCertificateFile && o.clientKeyFile) pair = { cert: readFileSync(o.clientCertificateFile, 'utf8'), key: readFileSync(o.clientKeyFile, 'utf8') };
  else if (clusterCA) pair = await issueClientCertificate(clusterCA, KUBELET_CLIENT_USER.name, KUBELET_CLIENT_USER.groups);
  return kubeletClient({
    ...(pair ? { cert: pair.cert, key: pair.key } : {}),
    ...(o.certificateAuthorityFile ? { ca: readFileSync(o.certificateAuthorityFile, 'utf8') } : {}),
    ...(o.preferredAddressTypes && o.preferredAddressTypes.length > 0 ? { preferredAddressTypes: o.preferredAddressTypes } : {}),
  });
}
