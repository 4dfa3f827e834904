// A pod → its CRI PodSandboxConfig (kube's generatePodSandboxConfig):
// metadata, hostname (none for host-network pods: containerd cannot set one
// without a private UTS namespace), the log folder, labels and annotations,
// DNS, port mappings, namespaces, sysctls, the sandbox security context
// (always seccomp RuntimeDefault, as kube forces it), cgroup parent, resources.
import { join } from 'node:path';
import type { NamespaceMode, NamespaceOption, PodSandboxConfig, PortMapping } from '../cri/types.js';
import { podDNS, type DnsOptions } from './dns.js';
import type { EventSink } from './events.js';
import { sandboxLabels } from './labels.js';
import { sandboxResources, type CpuQuotaOptions } from './resources.js';
import type { Pod } from './types.js';

export const DEFAULT_POD_LOGS_ROOT = '/var/log/pods';
const HOSTNAME_MAX = 63;

/** A pod's log folder: `<root>/<namespace>_<name>_<uid>`. */
export const podLogsDirectory = (root: string, pod: Pod): string =>
  join(root, `${pod.metadata.namespace}_${pod.metadata.name}_${pod.metadata.uid}`);

/** A sandbox config cannot be made (kube's errors from GeneratePodHostNameAndDomain). */
export class SandboxConfigError extends Error {
  override readonly name = 'SandboxConfigError';
}

function truncateHostname(podName: string, hostname: string): string {
  if (hostname.length <= HOSTNAME_MAX) return hostname;
  const cut = hostname.slice(0, HOSTNAME_MAX).replace(/[-.]+$/, '');
  if (cut === '') throw new SandboxConfigError(`hostname for pod "${podName}" was invalid: "${hostname}"`);
  return cut;
}

/** The pod's hostname and domain (kube's GeneratePodHostNameAndDomain). */
export function podHostnameAndDomain(pod: Pod, clusterDomain: string): { hostname: string; domain: string } {
  const hostname = truncateHostname(pod.metadata.name, pod.spec.hostname || pod.metadata.name);
  const domain = pod.spec.subdomain ? `${pod.spec.subdomain}.${pod.metadata.namespace}.svc.${clusterDomain}` : '';
  return { hostname, domain };
}

/** The hostname the kernel gets: the FQDN with setHostnameAsFQDN (at most 64 characters). */
export function kernelHostname(pod: Pod, clusterDomain: string): string {
  const { hostname, domain } = podHostnameAndDomain(pod, clusterDomain);
  if (!pod.spec.setHostnameAsFQDN || domain === '') return hostname;
  const fqdn = `${hostname}.${domain}`;
  if (fqdn.length > 64) {
    throw new SandboxConfigError(`failed to construct FQDN from pod hostname and cluster domain, FQDN ${fqdn} is too long (64 characters is the max, ${fqdn.length} characters requested)`);
  }
  return fqdn;
}

/** The sandbox's namespaces (kube's namespacesForPod). */
export function namespacesForPod(pod: Pod): NamespaceOption {
  const pid: NamespaceMode = pod.spec.hostPID ? 'NODE' : pod.spec.shareProcessNamespace ? 'POD' : 'CONTAINER';
  return { network: pod.spec.hostNetwork ? 'NODE' : 'POD', pid, ipc: pod.spec.hostIPC ? 'NODE' : 'POD' };
}

/** The sandbox's port mappings: every container port, duplicates skipped (kube's MakePortMappings). */
export function portMappings(pod: Pod): PortMapping[] {
  const out: PortMapping[] = [];
  for (const c of pod.spec.containers) {
    const seen = new Set<string>();
    for (const p of c.ports ?? []) {
      const protocol = (p.protocol ?? 'TCP') as 'TCP' | 'UDP' | 'SCTP';
      const key = p.name ? `${c.name}-${p.name}` : `${protocol}-${p.hostIP ?? ''}:${p.containerPort}:${p.hostPort ?? 0}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ protocol, containerPort: p.containerPort, hostPort: p.hostPort ?? 0, hostIp: p.hostIP ?? '' });
    }
  }
  return out;
}

/** Sysctl names with `/` as the separator turned into kube's dotted form (`net/ipv4/ip_forward` → `net.ipv4.ip_forward`). */
export function dottedSysctl(name: string): string {
  const first = name.search(/[./]/);
  if (first < 0 || name[first] === '.') return name;
  return name.replace(/[./]/g, (c) => (c === '/' ? '.' : '/'));
}

export const hasPrivilegedContainer = (pod: Pod): boolean =>
  [...(pod.spec.initContainers ?? []), ...pod.spec.containers].some((c) => c.securityContext?.privileged === true);

export interface SandboxOptions extends CpuQuotaOptions {
  readonly dns: DnsOptions;
  /** The pods' log root (default /var/log/pods). */
  readonly podLogsRoot?: string;
  /** The pod's cgroup parent, computed by the cgroup manager (src/agent/cm). */
  readonly cgroupParent?: string;
  readonly events: EventSink;
}

export function sandboxConfig(pod: Pod, attempt: number, opts: SandboxOptions): PodSandboxConfig {
  const sc = pod.spec.securityContext;
  const supplementalGroups: number[] = [];
  if (sc?.fsGroup !== undefined) supplementalGroups.push(sc.fsGroup);
  for (const g of sc?.supplementalGroups ?? []) supplementalGroups.push(g);
  const sysctls: Record<string, string> = {};
  for (const s of sc?.sysctls ?? []) sysctls[dottedSysctl(s.name)] = s.value;
  const { resources, overhead } = sandboxResources(pod, opts);
  const hostname = pod.spec.hostNetwork ? undefined : kernelHostname(pod, opts.dns.clusterDomain);
  return {
    metadata: { name: pod.metadata.name, namespace: pod.metadata.namespace, uid: pod.metadata.uid, attempt },
    ...(hostname !== undefined ? { hostname } : {}),
    logDirectory: podLogsDirectory(opts.podLogsRoot ?? DEFAULT_POD_LOGS_ROOT, pod),
    dnsConfig: podDNS(pod, opts.dns, opts.events),
    portMappings: portMappings(pod),
    labels: sandboxLabels(pod),
    annotations: { ...(pod.metadata.annotations ?? {}) },
    linux: {
      cgroupParent: opts.cgroupParent ?? '',
      securityContext: {
        namespaceOptions: namespacesForPod(pod),
        privileged: hasPrivilegedContainer(pod),
        seccomp: { profileType: 'RuntimeDefault' },
        ...(sc?.runAsUser !== undefined ? { runAsUser: { value: sc.runAsUser } } : {}),
        ...(sc?.runAsGroup !== undefined ? { runAsGroup: { value: sc.runAsGroup } } : {}),
        ...(supplementalGroups.length > 0 ? { supplementalGroups } : {}),
        ...(sc?.seLinuxOptions ? { selinuxOptions: { ...sc.seLinuxOptions } } : {}),
      },
      sysctls,
      resources,
      overhead,
    },
  };
}
