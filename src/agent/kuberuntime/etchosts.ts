// The pod's /etc/hosts, which the kubelet manages (kube's ensureHostsFile):
// `<pods-dir>/<uid>/etc-hosts`, written before each container starts and
// mounted at /etc/hosts once the pod has an IP, unless the container mounts
// something there itself. Pod-network pods get localhost entries and their
// IPs with the hostname (and FQDN with a subdomain); host-network pods a copy
// of the node's hosts file. hostAliases are appended to both.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Mount } from '../cri/types.js';
import { podHostnameAndDomain } from './sandbox.js';
import type { Pod } from './types.js';

export const ETC_HOSTS = '/etc/hosts';

function aliases(pod: Pod): string {
  const list = pod.spec.hostAliases ?? [];
  if (list.length === 0) return '';
  return `\n# Entries added by HostAliases.\n${list.map((a) => `${a.ip}\t${(a.hostnames ?? []).join('\t')}\n`).join('')}`;
}

/** The managed hosts file's text (kube's managedHostsFileContent / nodeHostsFileContent). */
export function etcHostsContent(pod: Pod, podIPs: readonly string[], clusterDomain: string, nodeHostsFile = ETC_HOSTS): string {
  if (pod.spec.hostNetwork) return readFileSync(nodeHostsFile, 'utf8') + aliases(pod);
  const { hostname, domain } = podHostnameAndDomain(pod, clusterDomain);
  let out = '# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n'
    + 'fe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n';
  for (const ip of podIPs) out += domain ? `${ip}\t${hostname}.${domain}\t${hostname}\n` : `${ip}\t${hostname}\n`;
  return out + aliases(pod);
}

/** Writes the pod's hosts file and returns its mount. */
export function etcHostsMount(podsDir: string, pod: Pod, podIPs: readonly string[], clusterDomain: string, nodeHostsFile?: string): Mount {
  const dir = join(podsDir, pod.metadata.uid);
  mkdirSync(dir, { recursive: true, mode: 0o750 });
  const file = join(dir, 'etc-hosts');
  writeFileSync(file, etcHostsContent(pod, podIPs, clusterDomain, nodeHostsFile), { mode: 0o644 });
  return { containerPath: ETC_HOSTS, hostPath: file, readonly: false, selinuxRelabel: true };
}
