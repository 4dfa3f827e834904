// The `svc agent` flags: the spec's table plus the kubelet v1.27 flags the
// agent uses, each bound to the AgentConfig field it sets. Our names come
// first (`--svcconfig`, `--svc-reserved`, `--svc-api-qps` …); kube's spellings
// are aliases. Flags of KubeletConfiguration fields are deprecated in favour
// of --config, as kube marks them (except -v, --vmodule, --log-flush-frequency
// and --provider-id); a few flag-only ones carry their own notice.
import type { FlagDef, FlagKind } from './pflag.js';

export const CONFIG_DEPRECATION =
  "This parameter should be set via the config file specified by the Kubelet's --config flag. See https://kubernetes.io/docs/tasks/administer-cluster/kubelet-config-file/ for more information.";

export interface AgentFlag extends FlagDef {
  /** Dotted path of the AgentConfig field the flag sets. */
  readonly field: string;
  /** Paths the flag holds (resolved against the working directory). */
  readonly path?: boolean;
}

type Opts = { aliases?: string[]; shorthand?: string; deprecated?: string; path?: boolean };

/** A KubeletConfiguration flag: deprecated in favour of --config. */
const cfg = (name: string, kind: FlagKind, field: string, help: string, o: Opts = {}): AgentFlag => ({ name, kind, field, help, deprecated: CONFIG_DEPRECATION, ...o });
/** A flag-only setting (kube's KubeletFlags). */
const flag = (name: string, kind: FlagKind, field: string, help: string, o: Opts = {}): AgentFlag => ({ name, kind, field, help, ...o });

const GC_DEPRECATION = 'Use --eviction-hard or --eviction-soft instead. Will be removed in a future version.';

export const AGENT_FLAGS: readonly AgentFlag[] = [
  // where the configuration and the API server are
  flag('config', 'string', 'configFile', 'The agent loads its initial configuration (a KubeletConfiguration, kubelet.config.svc.io/v1beta1 or kubelet.config.k8s.io/v1beta1) from this file; relative paths start at the working directory. Flags given on the command line override it.', { path: true }),
  flag('svcconfig', 'string', 'svcconfig', 'Path to a svcconfig file: how to connect to the API server. Given: API-server mode; omitted: standalone mode (static pods only).', { aliases: ['kubeconfig'], path: true }),
  flag('bootstrap-svcconfig', 'string', 'bootstrapSvcconfig', 'Path to a svcconfig file used to get a client certificate when the --svcconfig file does not exist; the key and certificate go to --cert-dir and a svcconfig is written to --svcconfig.', { aliases: ['bootstrap-kubeconfig'], path: true }),
  flag('cert-dir', 'string', 'certDir', 'Directory of the TLS certificates; ignored when --tls-cert-file and --tls-private-key-file are given.', { path: true }),
  flag('root-dir', 'string', 'rootDir', 'Directory for the agent\'s files (volume mounts, pod folders, plugins).', { path: true }),
  flag('hostname-override', 'string', 'hostnameOverride', 'If non-empty, this string identifies the node instead of the hostname.'),
  flag('node-ip', 'string', 'nodeIp', 'IP address (or comma-separated dual-stack IP addresses) of the node. Default: the node\'s default IPv4 address, else its IPv6 address.'),
  flag('node-labels', 'map', 'nodeLabels', 'Labels to add when registering the node: key=value pairs separated by commas. Labels in the kubernetes.io and svc.io namespaces must be among the allowed node labels.'),
  flag('lock-file', 'string', 'lockFile', '<Warning: Alpha feature> The path to the file the agent uses as a lock file.', { path: true }),
  flag('exit-on-lock-contention', 'bool', 'exitOnLockContention', 'Whether the agent should exit upon lock-file contention.'),
  flag('image-credential-provider-config', 'string', 'imageCredentialProviderConfig', 'The path to the credential provider plugin config file.', { path: true }),
  flag('image-credential-provider-bin-dir', 'string', 'imageCredentialProviderBinDir', 'The path to the directory where credential provider plugin binaries are located.', { path: true }),
  flag('runtime-cgroups', 'string', 'runtimeCgroups', 'Optional absolute name of cgroups to create and run the runtime in.'),
  flag('container-runtime', 'string', 'containerRuntime', 'The container runtime to use; only remote (CRI) is supported.', { deprecated: "will be removed in 1.27 as the only valid value is 'remote'" }),
  flag('pod-infra-container-image', 'string', 'podInfraContainerImage', 'The image of the pod sandbox (pause) container, kept from image garbage collection.', { deprecated: 'will be removed in a future release. Image garbage collector will get sandbox image information from CRI.' }),
  flag('minimum-container-ttl-duration', 'duration', 'minimumContainerTtlDuration', 'Minimum age for a finished container before it is garbage collected.', { deprecated: GC_DEPRECATION }),
  flag('maximum-dead-containers-per-container', 'int32', 'maximumDeadContainersPerContainer', 'Maximum number of old instances to retain per container.', { deprecated: GC_DEPRECATION }),
  flag('maximum-dead-containers', 'int32', 'maximumDeadContainers', 'Maximum number of old instances of containers to retain globally; negative disables.', { deprecated: GC_DEPRECATION }),
  flag('keep-terminated-pod-volumes', 'bool', 'keepTerminatedPodVolumes', 'Keep terminated pod volumes mounted to the node after the pod terminates.', { deprecated: 'will be removed in a future version' }),
  flag('image-pull-progress-deadline', 'duration', 'imagePullProgressDeadline', 'Accepted for compatibility; it applied to the docker runtime only and has no effect with CRI.', { deprecated: 'will be removed along with dockershim.' }),

  // the agent's server
  cfg('enable-server', 'bool', 'enableServer', 'Enable the agent\'s server.'),
  cfg('address', 'ip', 'address', 'The IP address the agent serves on (0.0.0.0 or :: for all interfaces and IP families).'),
  cfg('port', 'int32', 'port', 'The port the agent serves on.'),
  cfg('read-only-port', 'int32', 'readOnlyPort', 'The read-only port without authentication or authorization (0 disables it).'),
  cfg('healthz-bind-address', 'ip', 'healthzBindAddress', 'The IP address of the healthz server (0.0.0.0 or :: for all interfaces).'),
  cfg('healthz-port', 'int32', 'healthzPort', 'The port of the localhost healthz endpoint (0 disables it).'),
  cfg('enable-debugging-handlers', 'bool', 'enableDebuggingHandlers', 'Enables server endpoints for log collection and local running of containers and commands.'),
  cfg('contention-profiling', 'bool', 'enableContentionProfiling', 'Enable block profiling, if profiling is enabled.'),
  cfg('tls-cert-file', 'string', 'tlsCertFile', 'File with the x509 certificate for HTTPS (CA certificates after the server certificate). Without it and --tls-private-key-file, a self-signed certificate is made in --cert-dir.', { path: true }),
  cfg('tls-private-key-file', 'string', 'tlsPrivateKeyFile', 'File with the x509 private key matching --tls-cert-file.', { path: true }),
  cfg('tls-cipher-suites', 'strings', 'tlsCipherSuites', 'Comma-separated list of cipher suites for the server; default: Go\'s.'),
  cfg('tls-min-version', 'string', 'tlsMinVersion', 'Minimum TLS version: VersionTLS10, VersionTLS11, VersionTLS12, VersionTLS13.'),
  cfg('rotate-certificates', 'bool', 'rotateCertificates', 'Auto rotate the agent\'s client certificate by requesting new ones from the API server as the current one nears expiry.'),
  cfg('rotate-server-certificates', 'bool', 'serverTLSBootstrap', 'Auto-request and rotate the serving certificate from the API server (needs RotateKubeletServerCertificate).'),
  cfg('anonymous-auth', 'bool', 'authentication.anonymous.enabled', 'Requests to the agent\'s server not rejected by another method are anonymous: user system:anonymous, group system:unauthenticated.'),
  cfg('authentication-token-webhook', 'bool', 'authentication.webhook.enabled', 'Use the TokenReview API to authenticate bearer tokens.'),
  cfg('authentication-token-webhook-cache-ttl', 'duration', 'authentication.webhook.cacheTTL', 'How long to cache answers of the token authenticator.'),
  cfg('client-ca-file', 'string', 'authentication.x509.clientCAFile', 'Requests with a client certificate signed by one of these authorities are authenticated with the identity of the certificate\'s CommonName.', { path: true }),
  cfg('authorization-mode', 'string', 'authorization.mode', 'Authorization mode of the agent\'s server: AlwaysAllow or Webhook (SubjectAccessReview).'),
  cfg('authorization-webhook-cache-authorized-ttl', 'duration', 'authorization.webhook.cacheAuthorizedTTL', 'How long to cache "authorized" answers of the webhook authorizer.'),
  cfg('authorization-webhook-cache-unauthorized-ttl', 'duration', 'authorization.webhook.cacheUnauthorizedTTL', 'How long to cache "unauthorized" answers of the webhook authorizer.'),
  cfg('streaming-connection-idle-timeout', 'duration', 'streamingConnectionIdleTimeout', 'Longest a streaming connection may be idle before it is closed; 0 for no timeout.'),

  // pod sources
  cfg('pod-manifest-path', 'string', 'staticPodPath', 'Path to the folder of static pod files, or to one file. Files starting with a dot are ignored.', { path: true }),
  cfg('file-check-frequency', 'duration', 'fileCheckFrequency', 'Duration between checks of the static pod files.'),
  cfg('http-check-frequency', 'duration', 'httpCheckFrequency', 'Duration between checks of --manifest-url.'),
  cfg('manifest-url', 'string', 'staticPodURL', 'URL of static pod specifications.'),
  cfg('manifest-url-header', 'multimap', 'staticPodURLHeader', 'Comma-separated name:value HTTP headers for --manifest-url; a name may repeat; the flag may be repeated, e.g. --manifest-url-header \'a:hello,b:again,c:world\' --manifest-url-header \'b:beautiful\'.'),
  cfg('sync-frequency', 'duration', 'syncFrequency', 'Max period between synchronizing running containers and config.'),
  flag('master-service-namespace', 'string', 'masterServiceNamespace', 'The namespace from which the control plane\'s services are injected into pods as environment variables.', { deprecated: 'This flag will be removed in a future version.' }),

  // registration and status
  cfg('register-node', 'bool', 'registerNode', 'Register the node with the API server (needs --svcconfig).'),
  cfg('register-with-taints', 'taints', 'registerWithTaints', 'Taints of the node when registered (comma-separated key=value:Effect); no-op without --register-node.'),
  cfg('node-status-update-frequency', 'duration', 'nodeStatusUpdateFrequency', 'How often the agent computes node status and, with leases, how often it posts it when nothing changed. Keep it in step with the node lifecycle controller\'s grace period.'),
  cfg('node-status-max-images', 'int32', 'nodeStatusMaxImages', 'Most images reported in node.status.images; -1 for no cap.'),
  flag('provider-id', 'string', 'providerID', 'Unique identifier of the node in the machine database, i.e. the cloud provider.'),
  cfg('max-pods', 'int32', 'maxPods', 'Number of pods that can run on this node.'),
  cfg('pods-per-core', 'int32', 'podsPerCore', 'Number of pods per core that can run on this node; the lower of this and --max-pods counts. 0 disables it.'),
  cfg('pod-cidr', 'string', 'podCIDR', 'The CIDR of pod IP addresses, used only in standalone mode.'),
  cfg('pod-max-pids', 'int64', 'podPidsLimit', 'Maximum number of processes per pod; -1: the node allocatable pid capacity.'),

  // API client
  cfg('svc-api-content-type', 'string', 'contentType', 'Content type of requests sent to the API server.', { aliases: ['kube-api-content-type'] }),
  cfg('svc-api-qps', 'int32', 'kubeAPIQPS', 'QPS to the API server; 0 uses 5. Events and node heartbeats are limited separately.', { aliases: ['kube-api-qps'] }),
  cfg('svc-api-burst', 'int32', 'kubeAPIBurst', 'Burst to the API server.', { aliases: ['kube-api-burst'] }),
  cfg('event-qps', 'int32', 'eventRecordQPS', 'Events created per second, at least 0; 0 uses 5.'),
  cfg('event-burst', 'int32', 'eventBurst', 'Burst of event records, at least 0; 0 uses 10.'),

  // runtime and images
  cfg('container-runtime-endpoint', 'string', 'containerRuntimeEndpoint', 'The CRI runtime service endpoint (unix:// sockets on Linux).'),
  cfg('image-service-endpoint', 'string', 'imageServiceEndpoint', 'The CRI image service endpoint; default: --container-runtime-endpoint.'),
  cfg('runtime-request-timeout', 'duration', 'runtimeRequestTimeout', 'Timeout of every runtime request except long-running ones (pull, logs, exec, attach).'),
  cfg('serialize-image-pulls', 'bool', 'serializeImagePulls', 'Pull images one at a time.'),
  cfg('registry-qps', 'int32', 'registryPullQPS', 'Image pulls per second; 0 for no limit.'),
  cfg('registry-burst', 'int32', 'registryBurst', 'Burst of image pulls (with --registry-qps > 0).'),
  cfg('minimum-image-ttl-duration', 'duration', 'imageMinimumGCAge', 'Minimum age of an unused image before it is garbage collected.'),
  cfg('image-gc-high-threshold', 'int32', 'imageGCHighThresholdPercent', 'Percent of disk usage after which image garbage collection always runs; 0-100, 100 disables it.'),
  cfg('image-gc-low-threshold', 'int32', 'imageGCLowThresholdPercent', 'Percent of disk usage before which image garbage collection never runs; not above --image-gc-high-threshold.'),
  cfg('container-log-max-size', 'string', 'containerLogMaxSize', 'Beta: a container log file rotates at this size (a quantity, e.g. 10Mi).'),
  cfg('container-log-max-files', 'int32', 'containerLogMaxFiles', 'Beta: most log files kept per container; at least 2.'),
  cfg('seccomp-default', 'bool', 'seccompDefault', 'Use RuntimeDefault as the default seccomp profile of every workload.'),
  cfg('volume-plugin-dir', 'string', 'volumePluginDir', 'The directory searched for additional third-party volume plugins.', { path: true }),
  cfg('volume-stats-agg-period', 'duration', 'volumeStatsAggPeriod', 'How often disk usage of volumes is computed; 0 disables it.'),
  cfg('enable-controller-attach-detach', 'bool', 'enableControllerAttachDetach', 'The attach/detach controller attaches and detaches this node\'s volumes, not the agent.'),
  cfg('allowed-unsafe-sysctls', 'strings', 'allowedUnsafeSysctls', 'Comma-separated unsafe sysctls or patterns (ending in *) pods may set. Use at your own risk.'),
  cfg('resolv-conf', 'string', 'resolvConf', 'Resolver configuration file used as the basis of container DNS; empty: none.', { path: true }),
  cfg('cluster-dns', 'strings', 'clusterDNS', 'Comma-separated DNS server IPs for pods with dnsPolicy=ClusterFirst; all must serve the same records.'),
  cfg('cluster-domain', 'string', 'clusterDomain', 'Domain of the cluster; containers search it besides the host\'s search domains.'),
  cfg('hairpin-mode', 'string', 'hairpinMode', 'How the agent sets up hairpin NAT: promiscuous-bridge, hairpin-veth or none.'),
  cfg('make-iptables-util-chains', 'bool', 'makeIPTablesUtilChains', 'Ensure the iptables utility rules exist on the host.'),
  cfg('iptables-masquerade-bit', 'int32', 'iptablesMasqueradeBit', 'The fwmark bit for SNAT packets, 0-31; match the proxy\'s.'),
  cfg('iptables-drop-bit', 'int32', 'iptablesDropBit', 'The fwmark bit for dropped packets, 0-31.'),

  // resources, cgroups, eviction
  cfg('cgroup-driver', 'string', 'cgroupDriver', 'Driver used to manipulate cgroups: cgroupfs or systemd.'),
  cfg('cgroup-root', 'string', 'cgroupRoot', 'Optional root cgroup for pods (best effort); default: the runtime\'s.'),
  cfg('cgroups-per-qos', 'bool', 'cgroupsPerQOS', 'Create the QoS cgroup hierarchy; top-level QoS and pod cgroups are created when true.'),
  cfg('node-agent-cgroups', 'string', 'kubeletCgroups', 'Optional absolute name of cgroups to create and run the agent in.', { aliases: ['kubelet-cgroups'] }),
  cfg('system-cgroups', 'string', 'systemCgroups', 'Optional absolute name of cgroups for non-kernel processes not already in a container (needs --cgroup-root).'),
  cfg('svc-reserved', 'map', 'kubeReserved', 'Resources reserved for the svc system components: resourceName=quantity pairs (cpu, memory, ephemeral-storage, pid), e.g. cpu=200m,memory=500Mi.', { aliases: ['kube-reserved'] }),
  cfg('svc-reserved-cgroup', 'string', 'kubeReservedCgroup', 'Absolute name of the top-level cgroup of the svc components reserved by --svc-reserved.', { aliases: ['kube-reserved-cgroup'] }),
  cfg('system-reserved', 'map', 'systemReserved', 'Resources reserved for non-svc components: resourceName=quantity pairs (cpu, memory, ephemeral-storage, pid).'),
  cfg('system-reserved-cgroup', 'string', 'systemReservedCgroup', 'Absolute name of the top-level cgroup of the non-svc components reserved by --system-reserved.'),
  cfg('reserved-cpus', 'string', 'reservedSystemCPUs', 'Comma-separated CPUs or ranges reserved for system and svc components; overrides --system-reserved and --svc-reserved cpu.'),
  cfg('enforce-node-allocatable', 'strings', 'enforceNodeAllocatable', 'Comma-separated node allocatable enforcements: none, pods, system-reserved, kube-reserved (the last two need their cgroup flags).'),
  cfg('cpu-cfs-quota', 'bool', 'cpuCFSQuota', 'Enforce CPU CFS quota for containers that set CPU limits.'),
  cfg('cpu-cfs-quota-period', 'duration', 'cpuCFSQuotaPeriod', 'CPU CFS quota period (needs CustomCPUCFSQuotaPeriod to differ from 100ms).'),
  cfg('cpu-manager-policy', 'string', 'cpuManagerPolicy', 'CPU manager policy: none or static.'),
  cfg('cpu-manager-policy-options', 'map', 'cpuManagerPolicyOptions', 'key=value options fine-tuning the CPU manager policy.'),
  cfg('cpu-manager-reconcile-period', 'duration', 'cpuManagerReconcilePeriod', '<Warning: Alpha feature> CPU manager reconciliation period.'),
  cfg('memory-manager-policy', 'string', 'memoryManagerPolicy', 'Memory manager policy: None or Static.'),
  cfg('topology-manager-policy', 'string', 'topologyManagerPolicy', 'Topology manager policy: none, best-effort, restricted, single-numa-node.'),
  cfg('topology-manager-scope', 'string', 'topologyManagerScope', 'Scope of topology hints: container or pod.'),
  cfg('topology-manager-policy-options', 'map', 'topologyManagerPolicyOptions', 'key=value options fine-tuning the topology manager policy.'),
  cfg('qos-reserved', 'map', 'qosReserved', '<Warning: Alpha feature> resource=percentage pairs of requests reserved per QoS level (needs QOSReserved).'),
  cfg('eviction-hard', 'langleMap', 'evictionHard', 'Thresholds (e.g. memory.available<1Gi) that trigger pod eviction.'),
  cfg('eviction-soft', 'langleMap', 'evictionSoft', 'Thresholds (e.g. memory.available<1.5Gi) that trigger pod eviction once held for their grace period.'),
  cfg('eviction-soft-grace-period', 'map', 'evictionSoftGracePeriod', 'Grace periods (e.g. memory.available=1m30s) a soft threshold must hold before eviction.'),
  cfg('eviction-minimum-reclaim', 'map', 'evictionMinimumReclaim', 'Minimum reclaims (e.g. imagefs.available=2Gi) of an eviction under pressure.'),
  cfg('eviction-max-pod-grace-period', 'int32', 'evictionMaxPodGracePeriod', 'Maximum grace period in seconds of pods killed when a soft threshold is met; negative defers to the pod.'),
  cfg('eviction-pressure-transition-period', 'duration', 'evictionPressureTransitionPeriod', 'How long the agent waits before leaving an eviction pressure condition.'),
  cfg('kernel-memcg-notification', 'bool', 'kernelMemcgNotification', 'Use kernel memcg notification to find memory eviction thresholds crossed, instead of polling.'),
  cfg('fail-swap-on', 'bool', 'failSwapOn', 'Refuse to start when swap is enabled on the node.'),
  cfg('local-storage-capacity-isolation', 'bool', 'localStorageCapacityIsolation', 'Local ephemeral storage isolation; false when the root filesystem cannot report ephemeral storage usage.'),
  cfg('max-open-files', 'int64', 'maxOpenFiles', 'Number of files the agent\'s process can open.'),
  cfg('oom-score-adj', 'int32', 'oomScoreAdj', 'The oom-score-adj of the agent\'s process, in [-1000, 1000].'),
  cfg('protect-kernel-defaults', 'bool', 'protectKernelDefaults', 'Error if kernel tunables differ from the agent\'s defaults, instead of changing them.'),

  // features and logging
  cfg('feature-gates', 'boolMap', 'featureGates', 'Comma-separated Name=true|false pairs for alpha/beta features (AllAlpha, AllBeta, and the gates of the spec\'s list).'),
  cfg('logging-format', 'string', 'logging.format', 'Log format: text, or json (needs LoggingBetaOptions).'),
  cfg('log-json-info-buffer-size', 'string', 'logging.options.json.infoBufferSize', '[Alpha] In JSON format with split streams, the info messages may be buffered: size in bytes (a quantity). 0 disables buffering.'),
  cfg('log-json-split-stream', 'bool', 'logging.options.json.splitStream', '[Alpha] In JSON format, write errors to stderr and info to stdout.'),
  flag('log-flush-frequency', 'duration', 'logging.flushFrequency', 'Maximum number of seconds between log flushes.'),
  flag('v', 'int32', 'logging.verbosity', 'Number for the log level verbosity.', { shorthand: 'v' }),
  flag('vmodule', 'string', 'logging.vmodule', 'Comma-separated pattern=N settings for file-filtered logging (text format only).'),

  flag('version', 'version', 'version', '--version, --version=raw prints version information and quits.'),
  flag('help', 'bool', 'help', 'Help for the agent.', { shorthand: 'h' }),
];
