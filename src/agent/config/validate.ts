// Validation as kube's ValidateKubeletConfiguration (v1.27) for what the agent
// accepts, plus the start-up checks kube makes elsewhere (authorization mode,
// cgroup driver, CPU and memory manager policies, log size, TLS version) with
// their texts; and ValidateKubeletFlags (node labels, --node-ip, runtime).
// Each function returns every problem found; the caller aggregates.
import { isIP, isIPv6 } from 'node:net';
import { isKubeletLabel } from '../../admission/plugins/kubeletlabels.js';
import { parseQuantity } from '../../api/meta/quantity.js';
import { labelValueErrors, qualifiedNameErrors } from '../../api/meta/validation.js';
import type { FeatureGates } from '../../features/gates.js';
import { formatGoDuration } from '../../api/meta/goduration.js';
import { QUANTITY_SYNTAX } from './resources.js';
import { formatTaint, taintProblem } from './taints.js';
import type { AgentFlagsConfig, KubeletConfig } from './types.js';

const inRange = (v: number, lo: number, hi: number) => v >= lo && v <= hi;
const d = formatGoDuration;
const q = JSON.stringify;

const TOPOLOGY_POLICIES = ['none', 'best-effort', 'restricted', 'single-numa-node'];
const HAIRPIN_MODES = ['none', 'hairpin-veth', 'promiscuous-bridge'];
const TLS_VERSIONS = ['VersionTLS10', 'VersionTLS11', 'VersionTLS12', 'VersionTLS13'];

export function validateKubeletConfig(kc: KubeletConfig, gates: FeatureGates): string[] {
  const errs: string[] = [];
  const bad = (m: string) => errs.push(`invalid configuration: ${m}`);
  const on = (g: string) => gates.enabled(g);

  if (kc.nodeLeaseDurationSeconds <= 0) bad('nodeLeaseDurationSeconds must be greater than 0');
  if (kc.systemCgroups !== '' && kc.cgroupRoot === '') bad('systemCgroups (--system-cgroups) was specified and cgroupRoot (--cgroup-root) was not specified');
  if (kc.eventBurst < 0) bad(`eventBurst (--event-burst) ${kc.eventBurst} must not be a negative number`);
  if (kc.eventRecordQPS < 0) bad(`eventRecordQPS (--event-qps) ${kc.eventRecordQPS} must not be a negative number`);
  if (kc.healthzPort !== 0 && !inRange(kc.healthzPort, 1, 65535)) bad(`healthzPort (--healthz-port) ${kc.healthzPort} must be between 1 and 65535, inclusive`);
  if (!on('CustomCPUCFSQuotaPeriod') && kc.cpuCFSQuotaPeriod !== 100) bad(`cpuCFSQuotaPeriod (--cpu-cfs-quota-period) ${d(kc.cpuCFSQuotaPeriod)} requires feature gate CustomCPUCFSQuotaPeriod`);
  if (on('CustomCPUCFSQuotaPeriod') && !inRange(kc.cpuCFSQuotaPeriod, 1, 1000)) bad(`cpuCFSQuotaPeriod (--cpu-cfs-quota-period) ${d(kc.cpuCFSQuotaPeriod)} must be between 1ms and 1sec, inclusive`);
  if (!inRange(kc.imageGCHighThresholdPercent, 0, 100)) bad(`imageGCHighThresholdPercent (--image-gc-high-threshold) ${kc.imageGCHighThresholdPercent} must be between 0 and 100, inclusive`);
  if (!inRange(kc.imageGCLowThresholdPercent, 0, 100)) bad(`imageGCLowThresholdPercent (--image-gc-low-threshold) ${kc.imageGCLowThresholdPercent} must be between 0 and 100, inclusive`);
  if (kc.imageGCLowThresholdPercent >= kc.imageGCHighThresholdPercent) {
    bad(`imageGCLowThresholdPercent (--image-gc-low-threshold) ${kc.imageGCLowThresholdPercent} must be less than imageGCHighThresholdPercent (--image-gc-high-threshold) ${kc.imageGCHighThresholdPercent}`);
  }
  if (!inRange(kc.iptablesDropBit, 0, 31)) bad(`iptablesDropBit (--iptables-drop-bit) ${kc.iptablesDropBit} must be between 0 and 31, inclusive`);
  if (!inRange(kc.iptablesMasqueradeBit, 0, 31)) bad(`iptablesMasqueradeBit (--iptables-masquerade-bit) ${kc.iptablesMasqueradeBit} must be between 0 and 31, inclusive`);
  if (kc.kubeAPIBurst < 0) bad(`kubeAPIBurst (--svc-api-burst) ${kc.kubeAPIBurst} must not be a negative number`);
  if (kc.kubeAPIQPS < 0) bad(`kubeAPIQPS (--svc-api-qps) ${kc.kubeAPIQPS} must not be a negative number`);
  if (kc.nodeStatusMaxImages < -1) bad(`nodeStatusMaxImages (--node-status-max-images) ${kc.nodeStatusMaxImages} must be -1 or greater`);
  if (kc.maxOpenFiles < 0) bad(`maxOpenFiles (--max-open-files) ${kc.maxOpenFiles} must not be a negative number`);
  if (kc.maxPods < 0) bad(`maxPods (--max-pods) ${kc.maxPods} must not be a negative number`);
  if (!inRange(kc.oomScoreAdj, -1000, 1000)) bad(`oomScoreAdj (--oom-score-adj) ${kc.oomScoreAdj} must be between -1000 and 1000, inclusive`);
  if (kc.podsPerCore < 0) bad(`podsPerCore (--pods-per-core) ${kc.podsPerCore} must not be a negative number`);
  if (!inRange(kc.port, 1, 65535)) bad(`port (--port) ${kc.port} must be between 1 and 65535, inclusive`);
  if (kc.readOnlyPort !== 0 && !inRange(kc.readOnlyPort, 1, 65535)) bad(`readOnlyPort (--read-only-port) ${kc.readOnlyPort} must be between 0 and 65535, inclusive`);
  if (kc.registryBurst < 0) bad(`registryBurst (--registry-burst) ${kc.registryBurst} must not be a negative number`);
  if (kc.registryPullQPS < 0) bad(`registryPullQPS (--registry-qps) ${kc.registryPullQPS} must not be a negative number`);
  if (kc.maxParallelImagePulls !== null && kc.maxParallelImagePulls < 1) bad(`maxParallelImagePulls ${kc.maxParallelImagePulls} must be a positive number`);
  if (kc.serializeImagePulls && kc.maxParallelImagePulls !== null && kc.maxParallelImagePulls > 1) bad('maxParallelImagePulls cannot be larger than 1 unless SerializeImagePulls (--serialize-image-pulls) is set to false');
  if (kc.serverTLSBootstrap && !on('RotateKubeletServerCertificate')) bad(`serverTLSBootstrap ${kc.serverTLSBootstrap} requires feature gate RotateKubeletServerCertificate`);
  if (kc.runOnce) bad(`runOnce (--runOnce) ${kc.runOnce}, Runonce mode has been deprecated and should not be set`);
  for (const t of kc.registerWithTaints) {
    if (taintProblem(t)) errs.push(`invalid taint: ${formatTaint(t)}`);
    if ((t as { timeAdded?: unknown }).timeAdded !== undefined) bad('taint.TimeAdded is not nil');
  }
  if (!TOPOLOGY_POLICIES.includes(kc.topologyManagerPolicy)) bad(`topologyManagerPolicy (--topology-manager-policy) ${q(kc.topologyManagerPolicy)} must be one of: [${TOPOLOGY_POLICIES.map((p) => q(p)).join(' ')}]`);
  if (kc.topologyManagerScope !== 'container' && kc.topologyManagerScope !== 'pod') bad(`topologyManagerScope (--topology-manager-scope) ${q(kc.topologyManagerScope)} must be one of: "container", or "pod"`);
  errs.push(...validateShutdown(kc, on));
  if (on('NodeSwap')) {
    if (!['', 'LimitedSwap', 'UnlimitedSwap'].includes(kc.memorySwap.swapBehavior)) bad(`memorySwap.swapBehavior ${q(kc.memorySwap.swapBehavior)} must be one of: "", "LimitedSwap", or "UnlimitedSwap"`);
  } else if (kc.memorySwap.swapBehavior !== '') bad('memorySwap.swapBehavior cannot be set when NodeSwap feature flag is disabled');
  errs.push(...validateEnforcement(kc));
  if (!HAIRPIN_MODES.includes(kc.hairpinMode)) bad(`option ${q(kc.hairpinMode)} specified for hairpinMode (--hairpin-mode). Valid options are "none", "hairpin-veth" or "promiscuous-bridge"`);
  if (kc.reservedSystemCPUs !== '') {
    if (kc.systemReservedCgroup !== '' || kc.kubeReservedCgroup !== '') bad("can't use reservedSystemCPUs (--reserved-cpus) with systemReservedCgroup (--system-reserved-cgroup) or kubeReservedCgroup (--svc-reserved-cgroup)");
    const problem = cpusetProblem(kc.reservedSystemCPUs);
    if (problem) bad(`unable to parse reservedSystemCPUs (--reserved-cpus) ${kc.reservedSystemCPUs}, error: ${problem}`);
  }
  if (kc.seccompDefault && !on('SeccompDefault')) bad(`seccompDefault ${kc.seccompDefault} requires feature gate SeccompDefault`);
  errs.push(...validateLogging(kc, on));
  if (on('MemoryQoS') && !(kc.memoryThrottlingFactor > 0)) bad('memoryThrottlingFactor is required when MemoryQoS feature flag is enabled');
  if (kc.memoryThrottlingFactor <= 0 || kc.memoryThrottlingFactor > 1) bad(`memoryThrottlingFactor ${kc.memoryThrottlingFactor} must be greater than 0 and less than or equal to 1.0`);
  if (kc.containerRuntimeEndpoint === '') bad('the containerRuntimeEndpoint was not specified or empty');
  // NodeLogQuery is not among the gates the agent accepts, so the field cannot be turned on.
  if (kc.enableSystemLogQuery) bad('NodeLogQuery feature gate is required for enableSystemLogQuery');
  if (kc.containerLogMaxFiles <= 1) bad('containerLogMaxFiles must be greater than 1');
  const size = parseQuantity(kc.containerLogMaxSize);
  if (!size) errs.push(`failed to parse container log max size ${q(kc.containerLogMaxSize)}: ${QUANTITY_SYNTAX}`);
  // start-up checks kube makes outside ValidateKubeletConfiguration
  if (kc.authorization.mode !== 'AlwaysAllow' && kc.authorization.mode !== 'Webhook') errs.push(`unknown authorization mode ${kc.authorization.mode}`);
  if (kc.cgroupDriver !== 'cgroupfs' && kc.cgroupDriver !== 'systemd') bad(`cgroupDriver (--cgroup-driver) ${q(kc.cgroupDriver)} must be one of: "cgroupfs", "systemd"`);
  if (kc.cpuManagerPolicy !== 'none' && kc.cpuManagerPolicy !== 'static') errs.push(`unknown policy: ${q(kc.cpuManagerPolicy)}`);
  if (kc.memoryManagerPolicy !== 'None' && kc.memoryManagerPolicy !== 'Static') errs.push(`unknown policy: ${q(kc.memoryManagerPolicy)}`);
  if (!['Get', 'Cache', 'Watch'].includes(kc.configMapAndSecretChangeDetectionStrategy)) errs.push(`unknown configmap and secret manager mode: ${kc.configMapAndSecretChangeDetectionStrategy}`);
  if (kc.tlsMinVersion !== '' && !TLS_VERSIONS.includes(kc.tlsMinVersion)) errs.push(`unknown tls version ${q(kc.tlsMinVersion)}`);
  for (const [field, flag, v] of [['address', 'address', kc.address], ['healthzBindAddress', 'healthz-bind-address', kc.healthzBindAddress]] as const) {
    if (isIP(v) === 0) bad(`${field} (--${flag}) ${q(v)} is not a valid IP address`);
  }
  return errs;
}

function validateShutdown(kc: KubeletConfig, on: (g: string) => boolean): string[] {
  const errs: string[] = [];
  const bad = (m: string) => errs.push(`invalid configuration: ${m}`);
  const sgp = kc.shutdownGracePeriod;
  const crit = kc.shutdownGracePeriodCriticalPods;
  if (on('GracefulNodeShutdown')) {
    if (crit > sgp) bad(`shutdownGracePeriodCriticalPods ${d(crit)} must be <= shutdownGracePeriod ${d(sgp)}`);
    if (sgp < 0 || (sgp > 0 && sgp < 1000)) bad(`shutdownGracePeriod ${d(sgp)} must be either zero or otherwise >= 1 sec`);
    if (crit < 0 || (crit > 0 && crit < 1000)) bad(`shutdownGracePeriodCriticalPods ${d(crit)} must be either zero or otherwise >= 1 sec`);
  }
  if ((sgp > 0 || crit > 0) && !on('GracefulNodeShutdown')) bad('specifying shutdownGracePeriod or shutdownGracePeriodCriticalPods requires feature gate GracefulNodeShutdown');
  const byPriority = kc.shutdownGracePeriodByPodPriority.length > 0;
  if (on('GracefulNodeShutdownBasedOnPodPriority')) {
    if (byPriority && (sgp > 0 || crit > 0)) bad('Cannot specify both shutdownGracePeriodByPodPriority and shutdownGracePeriod at the same time');
  } else if (byPriority) bad('Specifying shutdownGracePeriodByPodPriority requires feature gate GracefulNodeShutdownBasedOnPodPriority');
  return errs;
}

function validateEnforcement(kc: KubeletConfig): string[] {
  const errs: string[] = [];
  const bad = (m: string) => errs.push(`invalid configuration: ${m}`);
  for (const val of kc.enforceNodeAllocatable) {
    switch (val) {
      case 'pods':
        break;
      case 'system-reserved':
        if (kc.systemReservedCgroup === '') bad('systemReservedCgroup (--system-reserved-cgroup) must be specified when "system-reserved" contained in enforceNodeAllocatable (--enforce-node-allocatable)');
        break;
      case 'kube-reserved':
        if (kc.kubeReservedCgroup === '') bad('kubeReservedCgroup (--svc-reserved-cgroup) must be specified when "kube-reserved" contained in enforceNodeAllocatable (--enforce-node-allocatable)');
        break;
      case 'none':
        if (kc.enforceNodeAllocatable.length > 1) bad('enforceNodeAllocatable (--enforce-node-allocatable) may not contain additional enforcements when "none" is specified');
        break;
      default:
        bad(`option ${q(val)} specified for enforceNodeAllocatable (--enforce-node-allocatable). Valid options are "pods", "system-reserved", "kube-reserved", or "none"`);
    }
  }
  return errs;
}

function validateLogging(kc: KubeletConfig, on: (g: string) => boolean): string[] {
  const errs: string[] = [];
  const l = kc.logging;
  if (l.format !== 'text' && l.format !== 'json') errs.push(`logging.format: Invalid value: ${q(l.format)}: Unsupported log format`);
  else if (l.format === 'json' && !on('LoggingBetaOptions')) errs.push('logging.format: Forbidden: Log format json is disabled, see LoggingBetaOptions feature');
  if (l.verbosity < 0) errs.push(`logging.verbosity: Invalid value: ${l.verbosity}: Must be >= 0`);
  if (l.vmodule.length > 0 && l.format !== 'text') errs.push('logging.vmodule: Forbidden: Only supported for text log format');
  l.vmodule.forEach((item, i) => {
    if (item.filePattern === '') errs.push(`logging.vmodule[${i}]: Required value: File pattern must not be empty`);
    if (/[=,]/.test(item.filePattern)) errs.push(`logging.vmodule[${i}]: Invalid value: ${q(item.filePattern)}: File pattern must not contain equal sign or comma`);
  });
  if (l.options.json.splitStream && !on('LoggingAlphaOptions')) errs.push('logging.options.json.splitStream: Forbidden: Feature LoggingAlphaOptions is disabled');
  const buf = parseQuantity(l.options.json.infoBufferSize);
  if (!buf) errs.push(`logging.options.json.infoBufferSize: Invalid value: ${q(l.options.json.infoBufferSize)}: ${QUANTITY_SYNTAX}`);
  else if (buf.nanos !== 0n && !on('LoggingAlphaOptions')) errs.push('logging.options.json.infoBufferSize: Forbidden: Feature LoggingAlphaOptions is disabled');
  return errs;
}

/** cpuset.Parse: "0-3,5,7-8"; the problem text, or undefined. */
function cpusetProblem(s: string): string | undefined {
  for (const r of s.split(',')) {
    const m = /^\s*(\d+)(?:-(\d+))?\s*$/.exec(r);
    if (!m) return `strconv.Atoi: parsing ${q(r)}: invalid syntax`;
    if (m[2] !== undefined && Number(m[1]) > Number(m[2])) return `invalid range ${q(r)} (${m[1]} > ${m[2]})`;
  }
  return undefined;
}

// ---- flags (kube's ValidateKubeletFlags and the --node-ip check) ------------

const RESERVED_LABEL_DOMAINS = ['kubernetes.io', 'k8s.io', 'svc.io'];

function isReservedLabel(key: string): boolean {
  const ns = key.includes('/') ? key.slice(0, key.indexOf('/')) : '';
  return RESERVED_LABEL_DOMAINS.some((d) => ns === d || ns.endsWith(`.${d}`));
}

/** The first problem of the flag-only settings, as kube returns the first. */
export function validateAgentFlags(f: AgentFlagsConfig): string | undefined {
  if (f.containerRuntime !== 'remote') return `unsupported CRI runtime: ${q(f.containerRuntime)}, only 'remote' is currently supported`;
  const unknown = Object.keys(f.nodeLabels).filter((k) => isReservedLabel(k) && !isKubeletLabel(k)).sort();
  if (unknown.length) {
    return `unknown 'kubernetes.io', 'k8s.io' or 'svc.io' labels specified with --node-labels: [${unknown.join(' ')}]\n` +
      "--node-labels in the 'kubernetes.io' (or 'svc.io') namespace must begin with an allowed prefix (kubelet.kubernetes.io, node.kubernetes.io, kubelet.svc.io, node.svc.io) or be in the specifically allowed set (the node labels NodeRestriction allows)";
  }
  const invalid: string[] = [];
  for (const [k, v] of Object.entries(f.nodeLabels)) {
    const ke = qualifiedNameErrors(k);
    if (ke.length) invalid.push(`'${k}' - ${ke.join(', ')}`);
    const ve = labelValueErrors(v);
    if (ve.length) invalid.push(`'${v}' - ${ve.join(', ')}`);
  }
  if (invalid.length) return `invalid node labels: ${invalid.join('; ')}`;
  return undefined;
}

/** --node-ip: one IP or a dual-stack pair. Returns the IPs, or the problem. */
export function parseNodeIps(nodeIp: string): string[] | string {
  if (nodeIp === '') return [];
  const ips = nodeIp.split(',').map((s) => s.trim());
  for (const ip of ips) if (isIP(ip) === 0) return `bad --node-ip ${q(nodeIp)}: ${q(ip)} is not a valid IP address`;
  if (ips.length > 2 || (ips.length === 2 && isIPv6(ips[0]!) === isIPv6(ips[1]!))) return `bad --node-ip ${q(nodeIp)}; must contain either a single IP or a dual-stack pair of IPs`;
  if (ips.length === 2 && ips.some((ip) => ip === '0.0.0.0' || ip === '::')) return `dual-stack --node-ip ${q(nodeIp)} cannot include '0.0.0.0' or '::'`;
  return ips;
}
