// Defaults: kube's SetDefaults_KubeletConfiguration (v1beta1, v1.27) over a
// decoded --config file (or over nothing), and the legacy command-line
// defaults the kubelet keeps when no file is given (applyLegacyDefaults).
// As in Go, a field held by pointer keeps an explicit zero; a plain field's
// zero value is "unset" and takes the default.
//
// Where the spec's flag table differs from kube v1.27's file defaults, the
// spec wins: event-qps 5 / event-burst 10, svc-api-qps 5 / svc-api-burst 10,
// content type application/vnd.svc.protobuf, read-only port 0.
import type { AgentFlagsConfig, KubeletConfig } from './types.js';

const S = 1000;
const M = 60 * S;

/** DefaultEvictionHard on Linux. */
export const DEFAULT_EVICTION_HARD: Readonly<Record<string, string>> = Object.freeze({
  'memory.available': '100Mi',
  'nodefs.available': '10%',
  'nodefs.inodesFree': '5%',
  'imagefs.available': '15%',
});

export const DEFAULT_VOLUME_PLUGIN_DIR = '/usr/libexec/kubernetes/kubelet-plugins/volume/exec/';
export const DEFAULT_RUNTIME_ENDPOINT = 'unix:///run/containerd/containerd.sock';
export const DEFAULT_CONTENT_TYPE = 'application/vnd.svc.protobuf';
/** kube's --root-dir default: the agent keeps kube's paths (see README). */
export const DEFAULT_ROOT_DIR = '/var/lib/kubelet';
export const DEFAULT_CERT_DIR = '/var/lib/kubelet/pki';
export const DEFAULT_PAUSE_IMAGE = 'registry.k8s.io/pause:3.9';

type Partial = Record<string, unknown>;

const obj = (v: unknown): Partial => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Partial) : {});
/** A plain (non-pointer) field: its zero value takes the default. */
const plain = <T>(v: unknown, zero: T, def: T): T => (v === undefined || v === zero ? def : (v as T));
/** A pointer field: only absence takes the default. */
const ptr = <T>(v: unknown, def: T): T => (v === undefined || v === null ? def : (v as T));
const list = <T>(v: unknown): T[] => (Array.isArray(v) ? [...(v as T[])] : []);
const map = <T>(v: unknown): Record<string, T> => ({ ...(obj(v) as Record<string, T>) });

/** SetDefaults_KubeletConfiguration over a decoded file (already type-checked, durations in ms). */
export function defaultKubeletConfig(file: Partial = {}): KubeletConfig {
  const f = file;
  const authn = obj(f.authentication);
  const authz = obj(f.authorization);
  const logging = obj(f.logging);
  const json = obj(obj(logging.options).json);
  const maxParallel = f.maxParallelImagePulls as number | null | undefined;
  const statusUpdate = f.nodeStatusUpdateFrequency as number | undefined;
  return {
    enableServer: ptr(f.enableServer, true),
    staticPodPath: plain(f.staticPodPath, '', ''),
    syncFrequency: plain(f.syncFrequency, 0, 1 * M),
    fileCheckFrequency: plain(f.fileCheckFrequency, 0, 20 * S),
    httpCheckFrequency: plain(f.httpCheckFrequency, 0, 20 * S),
    staticPodURL: plain(f.staticPodURL, '', ''),
    staticPodURLHeader: map(f.staticPodURLHeader),
    address: plain(f.address, '', '0.0.0.0'),
    port: plain(f.port, 0, 10250),
    readOnlyPort: plain(f.readOnlyPort, 0, 0),
    tlsCertFile: plain(f.tlsCertFile, '', ''),
    tlsPrivateKeyFile: plain(f.tlsPrivateKeyFile, '', ''),
    tlsCipherSuites: list(f.tlsCipherSuites),
    tlsMinVersion: plain(f.tlsMinVersion, '', ''),
    rotateCertificates: plain(f.rotateCertificates, false, false),
    serverTLSBootstrap: plain(f.serverTLSBootstrap, false, false),
    authentication: {
      x509: { clientCAFile: plain(obj(authn.x509).clientCAFile, '', '') },
      webhook: { enabled: ptr(obj(authn.webhook).enabled, true), cacheTTL: plain(obj(authn.webhook).cacheTTL, 0, 2 * M) },
      anonymous: { enabled: ptr(obj(authn.anonymous).enabled, false) },
    },
    authorization: {
      mode: plain(authz.mode, '', 'Webhook'),
      webhook: {
        cacheAuthorizedTTL: plain(obj(authz.webhook).cacheAuthorizedTTL, 0, 5 * M),
        cacheUnauthorizedTTL: plain(obj(authz.webhook).cacheUnauthorizedTTL, 0, 30 * S),
      },
    },
    registryPullQPS: ptr(f.registryPullQPS, 5),
    registryBurst: plain(f.registryBurst, 0, 10),
    eventRecordQPS: ptr(f.eventRecordQPS, 5),
    eventBurst: plain(f.eventBurst, 0, 10),
    enableDebuggingHandlers: ptr(f.enableDebuggingHandlers, true),
    enableContentionProfiling: plain(f.enableContentionProfiling, false, false),
    healthzPort: ptr(f.healthzPort, 10248),
    healthzBindAddress: plain(f.healthzBindAddress, '', '127.0.0.1'),
    oomScoreAdj: ptr(f.oomScoreAdj, -999),
    clusterDomain: plain(f.clusterDomain, '', ''),
    clusterDNS: list(f.clusterDNS),
    streamingConnectionIdleTimeout: plain(f.streamingConnectionIdleTimeout, 0, 4 * 60 * M),
    nodeStatusUpdateFrequency: plain(statusUpdate, 0, 10 * S),
    // For backward compatibility the report frequency follows an explicitly set update frequency.
    nodeStatusReportFrequency: plain(f.nodeStatusReportFrequency, 0, statusUpdate ? statusUpdate : 5 * M),
    nodeLeaseDurationSeconds: plain(f.nodeLeaseDurationSeconds, 0, 40),
    imageMinimumGCAge: plain(f.imageMinimumGCAge, 0, 2 * M),
    imageGCHighThresholdPercent: ptr(f.imageGCHighThresholdPercent, 85),
    imageGCLowThresholdPercent: ptr(f.imageGCLowThresholdPercent, 80),
    volumeStatsAggPeriod: plain(f.volumeStatsAggPeriod, 0, 1 * M),
    kubeletCgroups: plain(f.kubeletCgroups, '', ''),
    systemCgroups: plain(f.systemCgroups, '', ''),
    cgroupRoot: plain(f.cgroupRoot, '', ''),
    cgroupsPerQOS: ptr(f.cgroupsPerQOS, true),
    cgroupDriver: plain(f.cgroupDriver, '', 'cgroupfs'),
    cpuManagerPolicy: plain(f.cpuManagerPolicy, '', 'none'),
    cpuManagerPolicyOptions: map(f.cpuManagerPolicyOptions),
    cpuManagerReconcilePeriod: plain(f.cpuManagerReconcilePeriod, 0, 10 * S),
    memoryManagerPolicy: plain(f.memoryManagerPolicy, '', 'None'),
    topologyManagerPolicy: plain(f.topologyManagerPolicy, '', 'none'),
    topologyManagerScope: plain(f.topologyManagerScope, '', 'container'),
    topologyManagerPolicyOptions: map(f.topologyManagerPolicyOptions),
    qosReserved: map(f.qosReserved),
    runtimeRequestTimeout: plain(f.runtimeRequestTimeout, 0, 2 * M),
    hairpinMode: plain(f.hairpinMode, '', 'promiscuous-bridge'),
    maxPods: plain(f.maxPods, 0, 110),
    podCIDR: plain(f.podCIDR, '', ''),
    // nil or negative: -1 (the node allocatable pid limit)
    podPidsLimit: typeof f.podPidsLimit === 'number' && f.podPidsLimit >= 0 ? f.podPidsLimit : -1,
    resolvConf: ptr(f.resolvConf, '/etc/resolv.conf'),
    runOnce: plain(f.runOnce, false, false),
    cpuCFSQuota: ptr(f.cpuCFSQuota, true),
    cpuCFSQuotaPeriod: ptr(f.cpuCFSQuotaPeriod, 100),
    nodeStatusMaxImages: ptr(f.nodeStatusMaxImages, 50),
    maxOpenFiles: plain(f.maxOpenFiles, 0, 1_000_000),
    contentType: plain(f.contentType, '', DEFAULT_CONTENT_TYPE),
    kubeAPIQPS: ptr(f.kubeAPIQPS, 5),
    kubeAPIBurst: plain(f.kubeAPIBurst, 0, 10),
    // true unless maxParallelImagePulls allows parallel pulls
    serializeImagePulls: ptr(f.serializeImagePulls, maxParallel === undefined || maxParallel === null || maxParallel < 2),
    maxParallelImagePulls: maxParallel ?? null,
    evictionHard: f.evictionHard === undefined || f.evictionHard === null ? { ...DEFAULT_EVICTION_HARD } : map(f.evictionHard),
    evictionSoft: map(f.evictionSoft),
    evictionSoftGracePeriod: map(f.evictionSoftGracePeriod),
    evictionPressureTransitionPeriod: plain(f.evictionPressureTransitionPeriod, 0, 5 * M),
    evictionMaxPodGracePeriod: plain(f.evictionMaxPodGracePeriod, 0, 0),
    evictionMinimumReclaim: map(f.evictionMinimumReclaim),
    podsPerCore: plain(f.podsPerCore, 0, 0),
    enableControllerAttachDetach: ptr(f.enableControllerAttachDetach, true),
    protectKernelDefaults: plain(f.protectKernelDefaults, false, false),
    makeIPTablesUtilChains: ptr(f.makeIPTablesUtilChains, true),
    iptablesMasqueradeBit: ptr(f.iptablesMasqueradeBit, 14),
    iptablesDropBit: ptr(f.iptablesDropBit, 15),
    featureGates: map(f.featureGates),
    failSwapOn: ptr(f.failSwapOn, true),
    memorySwap: { swapBehavior: plain(obj(f.memorySwap).swapBehavior, '', '') },
    containerLogMaxSize: plain(f.containerLogMaxSize, '', '10Mi'),
    containerLogMaxFiles: ptr(f.containerLogMaxFiles, 5),
    configMapAndSecretChangeDetectionStrategy: plain(f.configMapAndSecretChangeDetectionStrategy, '', 'Watch'),
    systemReserved: map(f.systemReserved),
    kubeReserved: map(f.kubeReserved),
    reservedSystemCPUs: plain(f.reservedSystemCPUs, '', ''),
    showHiddenMetricsForVersion: plain(f.showHiddenMetricsForVersion, '', ''),
    systemReservedCgroup: plain(f.systemReservedCgroup, '', ''),
    kubeReservedCgroup: plain(f.kubeReservedCgroup, '', ''),
    enforceNodeAllocatable: f.enforceNodeAllocatable === undefined || f.enforceNodeAllocatable === null ? ['pods'] : list(f.enforceNodeAllocatable),
    allowedUnsafeSysctls: list(f.allowedUnsafeSysctls),
    volumePluginDir: plain(f.volumePluginDir, '', DEFAULT_VOLUME_PLUGIN_DIR),
    providerID: plain(f.providerID, '', ''),
    kernelMemcgNotification: plain(f.kernelMemcgNotification, false, false),
    logging: {
      format: plain(logging.format, '', 'text'),
      flushFrequency: plain(logging.flushFrequency, 0, 5 * S),
      verbosity: plain(logging.verbosity, 0, 0),
      vmodule: list(logging.vmodule),
      options: { json: { splitStream: plain(json.splitStream, false, false), infoBufferSize: String(plain(json.infoBufferSize, '', '0')) } },
    },
    enableSystemLogHandler: ptr(f.enableSystemLogHandler, true),
    enableSystemLogQuery: plain(f.enableSystemLogQuery, false, false),
    shutdownGracePeriod: plain(f.shutdownGracePeriod, 0, 0),
    shutdownGracePeriodCriticalPods: plain(f.shutdownGracePeriodCriticalPods, 0, 0),
    shutdownGracePeriodByPodPriority: list(f.shutdownGracePeriodByPodPriority),
    reservedMemory: list(f.reservedMemory),
    enableProfilingHandler: ptr(f.enableProfilingHandler, true),
    enableDebugFlagsHandler: ptr(f.enableDebugFlagsHandler, true),
    seccompDefault: ptr(f.seccompDefault, false),
    memoryThrottlingFactor: ptr(f.memoryThrottlingFactor, 0.9),
    registerWithTaints: list(f.registerWithTaints),
    registerNode: ptr(f.registerNode, true),
    localStorageCapacityIsolation: ptr(f.localStorageCapacityIsolation, true),
    containerRuntimeEndpoint: plain(f.containerRuntimeEndpoint, '', DEFAULT_RUNTIME_ENDPOINT),
    imageServiceEndpoint: plain(f.imageServiceEndpoint, '', ''),
  };
}

/**
 * applyLegacyDefaults: without --config the command line keeps its historic
 * defaults — anonymous requests allowed, no token webhook, AlwaysAllow.
 * (kube's read-only port 10255 is not kept: the agent serves no read-only port.)
 */
export function applyLegacyDefaults(c: KubeletConfig): void {
  c.authentication.anonymous.enabled = true;
  c.authentication.webhook.enabled = false;
  c.authorization.mode = 'AlwaysAllow';
}

export function defaultFlags(): Omit<AgentFlagsConfig, 'nodeIps'> {
  return {
    configFile: '',
    svcconfig: '',
    bootstrapSvcconfig: '',
    certDir: DEFAULT_CERT_DIR,
    rootDir: DEFAULT_ROOT_DIR,
    hostnameOverride: '',
    nodeIp: '',
    nodeLabels: {},
    lockFile: '',
    exitOnLockContention: false,
    imageCredentialProviderConfig: '',
    imageCredentialProviderBinDir: '',
    runtimeCgroups: '',
    masterServiceNamespace: 'default',
    containerRuntime: 'remote',
    podInfraContainerImage: DEFAULT_PAUSE_IMAGE,
    minimumContainerTtlDuration: 0,
    maximumDeadContainersPerContainer: 1,
    maximumDeadContainers: -1,
    keepTerminatedPodVolumes: false,
    imagePullProgressDeadline: 1 * M,
    version: false,
    help: false,
  };
}
