// The agent's configuration: KubeletConfiguration's fields (camelCase, as the
// --config file spells them; durations in milliseconds) plus the flag-only
// settings. `AgentConfig` is what parseAgentArgs returns.
import type { FeatureGates } from '../../features/gates.js';
import type { ResourceMap } from './resources.js';
import type { Threshold } from './eviction.js';
import type { Taint } from './taints.js';

export interface KubeletAuthentication {
  x509: { clientCAFile: string };
  webhook: { enabled: boolean; cacheTTL: number };
  anonymous: { enabled: boolean };
}

export interface KubeletAuthorization {
  mode: string;
  webhook: { cacheAuthorizedTTL: number; cacheUnauthorizedTTL: number };
}

export interface LoggingConfig {
  format: string;
  flushFrequency: number;
  verbosity: number;
  vmodule: { filePattern: string; verbosity: number }[];
  options: { json: { splitStream: boolean; infoBufferSize: string } };
}

export interface ShutdownGracePeriodByPodPriority {
  priority: number;
  shutdownGracePeriodSeconds: number;
}

export interface MemoryReservation {
  numaNode: number;
  limits: Record<string, string>;
}

/** kubelet.config.k8s.io/v1beta1 KubeletConfiguration (v1.27) after defaulting; durations in ms. */
export interface KubeletConfig {
  enableServer: boolean;
  staticPodPath: string;
  syncFrequency: number;
  fileCheckFrequency: number;
  httpCheckFrequency: number;
  staticPodURL: string;
  staticPodURLHeader: Record<string, string[]>;
  address: string;
  port: number;
  readOnlyPort: number;
  tlsCertFile: string;
  tlsPrivateKeyFile: string;
  tlsCipherSuites: string[];
  tlsMinVersion: string;
  rotateCertificates: boolean;
  serverTLSBootstrap: boolean;
  authentication: KubeletAuthentication;
  authorization: KubeletAuthorization;
  registryPullQPS: number;
  registryBurst: number;
  /** 0 means the client's default (5). */
  eventRecordQPS: number;
  eventBurst: number;
  enableDebuggingHandlers: boolean;
  enableContentionProfiling: boolean;
  healthzPort: number;
  healthzBindAddress: string;
  oomScoreAdj: number;
  clusterDomain: string;
  clusterDNS: string[];
  streamingConnectionIdleTimeout: number;
  nodeStatusUpdateFrequency: number;
  nodeStatusReportFrequency: number;
  nodeLeaseDurationSeconds: number;
  imageMinimumGCAge: number;
  imageGCHighThresholdPercent: number;
  imageGCLowThresholdPercent: number;
  volumeStatsAggPeriod: number;
  kubeletCgroups: string;
  systemCgroups: string;
  cgroupRoot: string;
  cgroupsPerQOS: boolean;
  cgroupDriver: string;
  cpuManagerPolicy: string;
  cpuManagerPolicyOptions: Record<string, string>;
  cpuManagerReconcilePeriod: number;
  memoryManagerPolicy: string;
  topologyManagerPolicy: string;
  topologyManagerScope: string;
  topologyManagerPolicyOptions: Record<string, string>;
  qosReserved: Record<string, string>;
  runtimeRequestTimeout: number;
  hairpinMode: string;
  maxPods: number;
  podCIDR: string;
  podPidsLimit: number;
  resolvConf: string;
  runOnce: boolean;
  cpuCFSQuota: boolean;
  cpuCFSQuotaPeriod: number;
  nodeStatusMaxImages: number;
  maxOpenFiles: number;
  contentType: string;
  /** 0 means the client's default (5). */
  kubeAPIQPS: number;
  kubeAPIBurst: number;
  serializeImagePulls: boolean;
  maxParallelImagePulls: number | null;
  evictionHard: Record<string, string>;
  evictionSoft: Record<string, string>;
  evictionSoftGracePeriod: Record<string, string>;
  evictionPressureTransitionPeriod: number;
  evictionMaxPodGracePeriod: number;
  evictionMinimumReclaim: Record<string, string>;
  podsPerCore: number;
  enableControllerAttachDetach: boolean;
  protectKernelDefaults: boolean;
  makeIPTablesUtilChains: boolean;
  iptablesMasqueradeBit: number;
  iptablesDropBit: number;
  featureGates: Record<string, boolean>;
  failSwapOn: boolean;
  memorySwap: { swapBehavior: string };
  containerLogMaxSize: string;
  containerLogMaxFiles: number;
  configMapAndSecretChangeDetectionStrategy: string;
  systemReserved: Record<string, string>;
  kubeReserved: Record<string, string>;
  reservedSystemCPUs: string;
  showHiddenMetricsForVersion: string;
  systemReservedCgroup: string;
  kubeReservedCgroup: string;
  enforceNodeAllocatable: string[];
  allowedUnsafeSysctls: string[];
  volumePluginDir: string;
  providerID: string;
  kernelMemcgNotification: boolean;
  logging: LoggingConfig;
  enableSystemLogHandler: boolean;
  enableSystemLogQuery: boolean;
  shutdownGracePeriod: number;
  shutdownGracePeriodCriticalPods: number;
  shutdownGracePeriodByPodPriority: ShutdownGracePeriodByPodPriority[];
  reservedMemory: MemoryReservation[];
  enableProfilingHandler: boolean;
  enableDebugFlagsHandler: boolean;
  seccompDefault: boolean;
  memoryThrottlingFactor: number;
  registerWithTaints: Taint[];
  registerNode: boolean;
  localStorageCapacityIsolation: boolean;
  containerRuntimeEndpoint: string;
  /** Empty in the file means: the runtime endpoint (AgentConfig.imageServiceEndpoint is resolved). */
  imageServiceEndpoint: string;
}

/** Settings only the command line carries (kube's KubeletFlags). */
export interface AgentFlagsConfig {
  /** --config, absolute; '' when not given. */
  configFile: string;
  /** --svcconfig (--kubeconfig): given → API-server mode; '' → standalone. */
  svcconfig: string;
  bootstrapSvcconfig: string;
  certDir: string;
  rootDir: string;
  hostnameOverride: string;
  /** --node-ip as given ('' → the node's default address). */
  nodeIp: string;
  /** --node-ip parsed: one IP or a dual-stack pair. */
  nodeIps: string[];
  nodeLabels: Record<string, string>;
  lockFile: string;
  exitOnLockContention: boolean;
  imageCredentialProviderConfig: string;
  imageCredentialProviderBinDir: string;
  runtimeCgroups: string;
  /** Namespace whose services become pods' environment variables. */
  masterServiceNamespace: string;
  containerRuntime: string;
  podInfraContainerImage: string;
  minimumContainerTtlDuration: number;
  maximumDeadContainersPerContainer: number;
  maximumDeadContainers: number;
  keepTerminatedPodVolumes: boolean;
  imagePullProgressDeadline: number;
  /** --version: print the version and exit ('raw' for the raw form). */
  version: boolean | 'raw';
  /** -h/--help: print agentUsage() and exit. */
  help: boolean;
}

/** Typed views of string-valued settings, parsed and checked. */
export interface AgentConfigDerived {
  /** Feature gates: the file's featureGates with --feature-gates over them. */
  gates: FeatureGates;
  /** --eviction-hard and --eviction-soft (with grace periods and minimum reclaims). */
  evictionThresholds: Threshold[];
  kubeReservedResources: ResourceMap;
  systemReservedResources: ResourceMap;
  /** containerLogMaxSize in bytes. */
  containerLogMaxSizeBytes: number;
}

export type AgentConfig = KubeletConfig & AgentFlagsConfig & AgentConfigDerived;
