// A pod's DNS configuration for its sandbox (kube's pkg/kubelet/network/dns):
// the policy decides the base (the cluster's DNS servers and searches, the
// host's resolv.conf, or nothing), the pod's dnsConfig is merged on top, and
// the result is cut to the resolver's limits with kube's warning Events.
//
//   None                      → {} (+ dnsConfig)
//   Default                   → the host's resolv.conf
//   ClusterFirst              → cluster DNS; the host's for host-network pods
//   ClusterFirstWithHostNet   → cluster DNS
//   cluster DNS without --cluster-dns → the host's, with a MissingClusterDNS Event
import { readFileSync } from 'node:fs';
import type { DNSConfig } from '../cri/types.js';
import { Reasons, type EventSink } from './events.js';
import type { Pod } from './types.js';

export const MAX_DNS_NAMESERVERS = 3;
/** With ExpandedDNSConfig (beta, on by default in v1.27); 6 and 256 without. */
export const MAX_DNS_SEARCH_PATHS = 32;
export const MAX_DNS_SEARCH_LIST_CHARS = 2048;
const DNS1123_SUBDOMAIN_MAX = 253;

export interface DnsOptions {
  /** --cluster-dns. */
  readonly clusterDNS: readonly string[];
  /** --cluster-domain ('' for none). */
  readonly clusterDomain: string;
  /** --resolv-conf ('' for none). */
  readonly resolvConf: string;
  /** The ExpandedDNSConfig gate (default true). */
  readonly expandedDNSConfig?: boolean;
  /** Whether the node's address is IPv6 (the loopback server used when --resolv-conf is ''). */
  readonly ipv6?: boolean;
  /** Reads the resolv.conf file (tests). */
  readonly readFile?: (path: string) => string;
}

/** A resolv.conf's servers, searches and options (the last search line wins, as glibc reads it). */
export function parseResolvConf(text: string): { servers: string[]; searches: string[]; options: string[] } {
  const servers: string[] = [];
  let searches: string[] = [];
  let options: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/[#;].*$/, '');
    const f = line.trim().split(/\s+/).filter(Boolean);
    if (f.length === 0) continue;
    if (f[0] === 'nameserver' && f.length >= 2) servers.push(f[1]);
    if (f[0] === 'search') searches = f.slice(1).map((s) => (s === '.' ? s : s.replace(/\.$/, '')));
    if (f[0] === 'options') options = mergeOptions(options, f.slice(1));
  }
  return { servers, searches, options };
}

/** Options by name, later ones replacing earlier ones of the same name (`ndots:5` and `ndots:2` are one option). */
function mergeOptions(existing: readonly string[], more: readonly string[]): string[] {
  const byName = new Map<string, string>();
  for (const o of [...existing, ...more]) byName.set(o.split(':')[0], o);
  return [...byName.values()];
}

const unique = (xs: readonly string[]): string[] => [...new Set(xs)];

type PodDNSType = 'cluster' | 'host' | 'none';

function podDNSType(pod: Pod, opts: DnsOptions, events: EventSink): PodDNSType {
  const policy = pod.spec.dnsPolicy ?? 'ClusterFirst';
  let type: PodDNSType;
  if (policy === 'None') type = 'none';
  else if (policy === 'ClusterFirstWithHostNet') type = 'cluster';
  else if (policy === 'ClusterFirst') type = pod.spec.hostNetwork ? 'host' : 'cluster';
  else type = 'host';
  if (type === 'cluster' && opts.clusterDNS.length === 0) {
    events.event(pod, 'Warning', Reasons.MissingClusterDNS,
      `kubelet does not have ClusterDNS IP configured and cannot create Pod using "${policy}" policy. Falling back to "Default" policy.`);
    type = 'host';
  }
  return type;
}

/** The search list cut to the resolver's limits (kube's formDNSSearchFitsLimits). */
function fitSearches(pod: Pod, searches: string[], opts: DnsOptions, events: EventSink): string[] {
  const expanded = opts.expandedDNSConfig ?? true;
  const maxPaths = expanded ? MAX_DNS_SEARCH_PATHS : 6;
  const maxChars = expanded ? MAX_DNS_SEARCH_LIST_CHARS : 256;
  let exceeded = false;
  let out = searches;
  if (out.length > maxPaths) {
    out = out.slice(0, maxPaths);
    exceeded = true;
  }
  const short = out.filter((s) => s.length <= DNS1123_SUBDOMAIN_MAX);
  if (short.length !== out.length) exceeded = true;
  out = short;
  const lineLen = out.join(' ').length;
  if (lineLen > maxChars) {
    let cut = 0;
    let cutLen = 0;
    for (let i = out.length - 1; i >= 0; i--) {
      cutLen += out[i].length + 1;
      cut++;
      if (lineLen - cutLen <= maxChars) break;
    }
    out = out.slice(0, out.length - cut);
    exceeded = true;
  }
  if (exceeded) {
    events.event(pod, 'Warning', Reasons.DNSConfigForming,
      `Search Line limits were exceeded, some search paths have been omitted, the applied search line is: ${out.join(' ')}`);
  }
  return out;
}

/** The DNSConfig the sandbox gets (kube's Configurer.GetPodDNS). */
export function podDNS(pod: Pod, opts: DnsOptions, events: EventSink): DNSConfig {
  const type = podDNSType(pod, opts, events);
  let host = { servers: [] as string[], searches: [] as string[], options: [] as string[] };
  if (opts.resolvConf !== '') host = parseResolvConf((opts.readFile ?? ((p) => readFileSync(p, 'utf8')))(opts.resolvConf));
  let servers: string[] = [];
  let searches: string[] = [];
  let options: string[] = [];
  if (type === 'cluster') {
    servers = [...opts.clusterDNS];
    const ns = pod.metadata.namespace;
    const d = opts.clusterDomain;
    searches = d === '' ? host.searches : [`${ns}.svc.${d}`, `svc.${d}`, d, ...host.searches];
    options = ['ndots:5'];
  } else if (type === 'host') {
    ({ servers, searches, options } = host);
    if (opts.resolvConf === '') {
      servers = [opts.ipv6 ? '::1' : '127.0.0.1'];
      searches = ['.'];
    }
  }
  const extra = pod.spec.dnsConfig;
  if (extra) {
    servers = unique([...servers, ...(extra.nameservers ?? [])]);
    searches = unique([...searches, ...(extra.searches ?? [])]);
    options = mergeOptions(options, (extra.options ?? []).map((o) => (o.value !== undefined && o.value !== null ? `${o.name}:${o.value}` : o.name)));
  }
  if (servers.length > MAX_DNS_NAMESERVERS) {
    servers = servers.slice(0, MAX_DNS_NAMESERVERS);
    events.event(pod, 'Warning', Reasons.DNSConfigForming,
      `Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: ${servers.join(' ')}`);
  }
  searches = fitSearches(pod, searches, opts, events);
  return { servers, searches, options };
}
