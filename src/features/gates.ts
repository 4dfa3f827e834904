// Feature gates: the v1.27 gates with their stage and default, parsed from
// `--feature-gates=Name=true,Other=false` as Kubernetes parses them.
//
//   alpha  → off unless set (AllAlpha=true turns on every alpha gate not set)
//   beta   → as its default unless set (AllBeta likewise)
//   GA     → locked on: setting it true warns, setting it false fails
//   DEPRECATED → as its default unless set; setting it warns
//
// The warnings are kube's (component-base featuregate Set), printed at start-up:
//   Setting GA feature gate X=true. It will be removed in a future release.
//   Setting deprecated feature gate X=false. It will be removed in a future release.
//
// Unknown names and values that are not Go booleans are errors naming the gate.

export type Stage = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

export interface GateSpec {
  readonly stage: Stage;
  readonly default: boolean;
  /** GA gates are locked to their default. */
  readonly locked?: boolean;
}

const alpha = (on = false): GateSpec => ({ stage: 'ALPHA', default: on });
const beta = (on = true): GateSpec => ({ stage: 'BETA', default: on });
const ga = (): GateSpec => ({ stage: 'GA', default: true, locked: true });

const names = (list: string, spec: () => GateSpec) => list.split(/\s+/).filter(Boolean).map((n) => [n, spec()] as const);

/** Every gate the server accepts: the spec's list, plus the API server gates v1.27 has. */
export const KNOWN_GATES: ReadonlyMap<string, GateSpec> = new Map<string, GateSpec>([
  ...names(
    `APIListChunking APIPriorityAndFairness APIResponseCompression APIServerIdentity AnyVolumeDataSource AppArmor
     CPUManagerPolicyBetaOptions CPUManagerPolicyOptions CSINodeExpandSecret CronJobTimeZone CustomResourceValidationExpressions
     DownwardAPIHugePages ExpandedDNSConfig GRPCContainerProbe GracefulNodeShutdown GracefulNodeShutdownBasedOnPodPriority
     JobMutableNodeSchedulingDirectives JobPodFailurePolicy JobReadyPods KubeletPodResources KubeletPodResourcesGetAllocatable
     LogarithmicScaleDown LoggingBetaOptions MemoryManager NodeInclusionPolicyInPodTopologySpread NodeOutOfServiceVolumeDetach
     OpenAPIEnums OpenAPIV3 PodDeletionCost PodDisruptionConditions ProbeTerminationGracePeriod ProxyTerminatingEndpoints
     RemainingItemCount RetroactiveDefaultStorageClass RotateKubeletServerCertificate SeccompDefault ServerSideFieldValidation
     SizeMemoryBackedVolumes StatefulSetAutoDeletePVC StorageVersionHash TopologyAwareHints TopologyManager WinOverlay`,
    () => beta(true),
  ),
  ...names(`CSIMigrationPortworx ExperimentalHostUserNamespaceDefaulting MinDomainsInPodTopologySpread TopologyManagerPolicyBetaOptions`, () => beta(false)),
  ...names(`WindowsHostNetwork`, () => alpha(true)),
  ...names(
    `APISelfSubjectReview APIServerTracing AdmissionWebhookMatchConditions AggregatedDiscoveryEndpoint ClusterTrustBundle CPUManagerPolicyAlphaOptions CSIMigrationRBD CSIVolumeHealth
     ComponentSLIs ContainerCheckpoint ContextualLogging CrossNamespaceVolumeDataSource CustomCPUCFSQuotaPeriod DisableCloudProviders
     DisableKubeletCloudCredentialProviders DynamicResourceAllocation EventedPLEG HPAContainerMetrics HPAScaleToZero
     HonorPVReclaimPolicy IPTablesOwnershipCleanup InTreePluginAWSUnregister InTreePluginAzureDiskUnregister
     InTreePluginAzureFileUnregister InTreePluginGCEUnregister InTreePluginOpenStackUnregister InTreePluginPortworxUnregister
     InTreePluginRBDUnregister InTreePluginvSphereUnregister KMSv2 KubeletInUserNamespace KubeletTracing
     LegacyServiceAccountTokenTracking LocalStorageCapacityIsolationFSQuotaMonitoring LoggingAlphaOptions
     MatchLabelKeysInPodTopologySpread MaxUnavailableStatefulSet MemoryQoS MinimizeIPTablesRestore MultiCIDRRangeAllocator
     NetworkPolicyStatus NodeSwap PDBUnhealthyPodEvictionPolicy PodAndContainerStatsFromCRI PodHasNetworkCondition
     PodSchedulingReadiness ProcMountType QOSReserved ReadWriteOncePod RecoverVolumeExpansionFailure SELinuxMountReadWriteOncePod
     StatefulSetStartOrdinal StorageVersionAPI TopologyManagerPolicyAlphaOptions
     TopologyManagerPolicyOptions UserNamespacesStatelessPodsSupport ValidatingAdmissionPolicy VolumeCapacityPriority WinDSR
     WatchList`,
    () => alpha(false),
  ),
  ...names(`ServerSideApply`, ga),
]);

/** The meta-gates that set every alpha or beta gate not named explicitly. */
const ALL_ALPHA = 'AllAlpha';
const ALL_BETA = 'AllBeta';

export class FeatureGateError extends Error {}

const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const GO_FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

export class FeatureGates {
  private readonly set = new Map<string, boolean>();
  /** Warnings to print at start-up (GA and deprecated gates set explicitly). */
  readonly warnings: string[] = [];

  /** Parses the `--feature-gates` value: `Name=bool` pairs separated by commas. */
  static parse(text: string, known: ReadonlyMap<string, GateSpec> = KNOWN_GATES): FeatureGates {
    const g = new FeatureGates(known);
    for (const pair of text.split(',').map((s) => s.trim()).filter(Boolean)) {
      const eq = pair.indexOf('=');
      if (eq < 0) throw new FeatureGateError(`missing bool value for ${pair}`);
      g.setGate(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    return g;
  }

  constructor(private readonly known: ReadonlyMap<string, GateSpec> = KNOWN_GATES) {}

  private setGate(name: string, text: string): void {
    const value = GO_TRUE.has(text) ? true : GO_FALSE.has(text) ? false : undefined;
    if (value === undefined) throw new FeatureGateError(`invalid value of ${name}=${text}, err: strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`);
    if (name !== ALL_ALPHA && name !== ALL_BETA) {
      const spec = this.known.get(name);
      if (!spec) throw new FeatureGateError(`unrecognized feature gate: ${name}`);
      if (spec.locked && value !== spec.default) throw new FeatureGateError(`cannot set feature gate ${name} to ${value}, feature is locked to ${spec.default}`);
      if (spec.stage === 'DEPRECATED') this.warnings.push(`Setting deprecated feature gate ${name}=${value}. It will be removed in a future release.`);
      else if (spec.stage === 'GA') this.warnings.push(`Setting GA feature gate ${name}=${value}. It will be removed in a future release.`);
    }
    this.set.set(name, value);
  }

  enabled(name: string): boolean {
    const spec = this.known.get(name);
    if (!spec) throw new Error(`feature gate ${name} is not registered`); // a programming error, not user input
    const explicit = this.set.get(name);
    if (explicit !== undefined) return explicit;
    if (spec.stage === 'ALPHA' && this.set.has(ALL_ALPHA)) return this.set.get(ALL_ALPHA)!;
    if (spec.stage === 'BETA' && this.set.has(ALL_BETA)) return this.set.get(ALL_BETA)!;
    return spec.default;
  }

  /** `Name=true` for every gate set on the command line, as kube-apiserver logs them. */
  toString(): string {
    return [...this.set].map(([k, v]) => `${k}=${v}`).join(',');
  }
}

/** The defaults: what a server started without --feature-gates has. */
export const DEFAULT_GATES = new FeatureGates();
