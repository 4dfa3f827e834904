// The Container Runtime Interface (CRI, `runtime.v1`) as the node agent uses
// it: the messages in TypeScript (proto field names in camelCase, as
// @grpc/proto-loader gives them with keepCase off), and the two services the
// agent calls. The gRPC client (client.ts) implements them against containerd;
// tests may implement them in memory. int64 fields are numbers (nanosecond
// timestamps lose precision below ~0.3 µs, which nothing here needs); enums
// are their proto names.

export interface KeyValue {
  readonly key: string;
  readonly value: string;
}

export interface PodSandboxMetadata {
  readonly name: string;
  readonly uid: string;
  readonly namespace: string;
  readonly attempt: number;
}

export interface ContainerMetadata {
  readonly name: string;
  readonly attempt: number;
}

export type NamespaceMode = 'POD' | 'CONTAINER' | 'NODE' | 'TARGET';

export interface NamespaceOption {
  readonly network?: NamespaceMode;
  readonly pid?: NamespaceMode;
  readonly ipc?: NamespaceMode;
  readonly targetId?: string;
}

export interface Int64Value {
  readonly value: number;
}

export interface SecurityProfile {
  readonly profileType: 'RuntimeDefault' | 'Unconfined' | 'Localhost';
  readonly localhostRef?: string;
}

export interface SELinuxOption {
  readonly user?: string;
  readonly role?: string;
  readonly type?: string;
  readonly level?: string;
}

export interface LinuxSandboxSecurityContext {
  readonly namespaceOptions?: NamespaceOption;
  readonly selinuxOptions?: SELinuxOption;
  readonly runAsUser?: Int64Value;
  readonly runAsGroup?: Int64Value;
  readonly readonlyRootfs?: boolean;
  readonly supplementalGroups?: readonly number[];
  readonly privileged?: boolean;
  readonly seccomp?: SecurityProfile;
  readonly apparmor?: SecurityProfile;
}

export interface LinuxContainerResources {
  readonly cpuPeriod?: number;
  readonly cpuQuota?: number;
  readonly cpuShares?: number;
  readonly memoryLimitInBytes?: number;
  readonly oomScoreAdj?: number;
  readonly cpusetCpus?: string;
  readonly cpusetMems?: string;
  readonly hugepageLimits?: readonly { readonly pageSize: string; readonly limit: number }[];
  readonly unified?: Readonly<Record<string, string>>;
  readonly memorySwapLimitInBytes?: number;
}

export interface LinuxPodSandboxConfig {
  readonly cgroupParent?: string;
  readonly securityContext?: LinuxSandboxSecurityContext;
  readonly sysctls?: Readonly<Record<string, string>>;
  readonly overhead?: LinuxContainerResources;
  readonly resources?: LinuxContainerResources;
}

export interface DNSConfig {
  readonly servers?: readonly string[];
  readonly searches?: readonly string[];
  readonly options?: readonly string[];
}

export interface PortMapping {
  readonly protocol?: 'TCP' | 'UDP' | 'SCTP';
  readonly containerPort?: number;
  readonly hostPort?: number;
  readonly hostIp?: string;
}

export interface PodSandboxConfig {
  readonly metadata: PodSandboxMetadata;
  readonly hostname?: string;
  /** Folder of the pod's container logs; a container's logPath is relative to it. */
  readonly logDirectory?: string;
  readonly dnsConfig?: DNSConfig;
  readonly portMappings?: readonly PortMapping[];
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly linux?: LinuxPodSandboxConfig;
}

export interface Capability {
  readonly addCapabilities?: readonly string[];
  readonly dropCapabilities?: readonly string[];
}

export interface LinuxContainerSecurityContext {
  readonly capabilities?: Capability;
  readonly privileged?: boolean;
  readonly namespaceOptions?: NamespaceOption;
  readonly selinuxOptions?: SELinuxOption;
  readonly runAsUser?: Int64Value;
  readonly runAsGroup?: Int64Value;
  readonly runAsUsername?: string;
  readonly readonlyRootfs?: boolean;
  readonly supplementalGroups?: readonly number[];
  readonly noNewPrivs?: boolean;
  readonly maskedPaths?: readonly string[];
  readonly readonlyPaths?: readonly string[];
  readonly seccomp?: SecurityProfile;
  readonly apparmor?: SecurityProfile;
}

export interface LinuxContainerConfig {
  readonly resources?: LinuxContainerResources;
  readonly securityContext?: LinuxContainerSecurityContext;
}

export type MountPropagation = 'PROPAGATION_PRIVATE' | 'PROPAGATION_HOST_TO_CONTAINER' | 'PROPAGATION_BIDIRECTIONAL';

export interface Mount {
  readonly containerPath: string;
  readonly hostPath: string;
  readonly readonly?: boolean;
  readonly selinuxRelabel?: boolean;
  readonly propagation?: MountPropagation;
}

export interface Device {
  readonly containerPath: string;
  readonly hostPath: string;
  readonly permissions: string;
}

export interface ImageSpec {
  readonly image: string;
  readonly annotations?: Readonly<Record<string, string>>;
}

export interface ContainerConfig {
  readonly metadata: ContainerMetadata;
  readonly image: ImageSpec;
  readonly command?: readonly string[];
  readonly args?: readonly string[];
  readonly workingDir?: string;
  readonly envs?: readonly KeyValue[];
  readonly mounts?: readonly Mount[];
  readonly devices?: readonly Device[];
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  /** Relative to the sandbox's logDirectory. */
  readonly logPath?: string;
  readonly stdin?: boolean;
  readonly stdinOnce?: boolean;
  readonly tty?: boolean;
  readonly linux?: LinuxContainerConfig;
}

export type PodSandboxState = 'SANDBOX_READY' | 'SANDBOX_NOTREADY';
export type ContainerState = 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED' | 'CONTAINER_UNKNOWN';

export interface PodSandbox {
  readonly id: string;
  readonly metadata: PodSandboxMetadata;
  readonly state: PodSandboxState;
  /** Nanoseconds since the epoch. */
  readonly createdAt: number;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly runtimeHandler?: string;
}

export interface PodSandboxStatus extends PodSandbox {
  readonly network?: { readonly ip: string; readonly additionalIps?: readonly { readonly ip: string }[] };
  readonly linux?: { readonly namespaces?: { readonly options?: NamespaceOption } };
}

export interface Container {
  readonly id: string;
  readonly podSandboxId: string;
  readonly metadata: ContainerMetadata;
  readonly image: ImageSpec;
  readonly imageRef: string;
  readonly state: ContainerState;
  readonly createdAt: number;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
}

export interface ContainerStatus {
  readonly id: string;
  readonly metadata: ContainerMetadata;
  readonly state: ContainerState;
  /** Nanoseconds since the epoch; 0 when not yet. */
  readonly createdAt: number;
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly exitCode: number;
  readonly image: ImageSpec;
  readonly imageRef: string;
  /** `Completed`, `Error`, `OOMKilled`, … */
  readonly reason: string;
  readonly message: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly mounts: readonly Mount[];
  /** Absolute path of the container's CRI log file. */
  readonly logPath: string;
}

export interface PodSandboxFilter {
  readonly id?: string;
  readonly state?: PodSandboxState;
  readonly labelSelector?: Readonly<Record<string, string>>;
}

export interface ContainerFilter {
  readonly id?: string;
  readonly state?: ContainerState;
  readonly podSandboxId?: string;
  readonly labelSelector?: Readonly<Record<string, string>>;
}

export interface VersionInfo {
  readonly version: string;
  readonly runtimeName: string;
  readonly runtimeVersion: string;
  readonly runtimeApiVersion: string;
}

export interface RuntimeCondition {
  /** `RuntimeReady`, `NetworkReady`. */
  readonly type: string;
  readonly status: boolean;
  readonly reason: string;
  readonly message: string;
}

export interface ExecSyncResult {
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly exitCode: number;
}

export interface Image {
  readonly id: string;
  readonly repoTags: readonly string[];
  readonly repoDigests: readonly string[];
  readonly size: number;
  readonly uid?: Int64Value;
  readonly username: string;
  readonly pinned?: boolean;
}

export interface AuthConfig {
  readonly username?: string;
  readonly password?: string;
  readonly auth?: string;
  readonly serverAddress?: string;
  readonly identityToken?: string;
  readonly registryToken?: string;
}

export interface FilesystemUsage {
  readonly timestamp: number;
  readonly mountpoint: string;
  readonly usedBytes?: number;
  readonly inodesUsed?: number;
}

/** A failed CRI call: the gRPC status code (5 NotFound, 4 DeadlineExceeded, 14 Unavailable, …) and message. */
export class CriError extends Error {
  override readonly name = 'CriError';
  constructor(readonly code: number, message: string, readonly method: string) {
    super(message);
  }
  get notFound(): boolean {
    return this.code === 5;
  }
}

/** runtime.v1.RuntimeService, the calls the agent makes. */
export interface RuntimeService {
  version(): Promise<VersionInfo>;
  status(): Promise<readonly RuntimeCondition[]>;
  runPodSandbox(config: PodSandboxConfig, runtimeHandler?: string): Promise<string>;
  stopPodSandbox(id: string): Promise<void>;
  removePodSandbox(id: string): Promise<void>;
  /** Throws CriError (notFound) for an unknown sandbox. */
  podSandboxStatus(id: string): Promise<PodSandboxStatus>;
  listPodSandbox(filter?: PodSandboxFilter): Promise<readonly PodSandbox[]>;
  createContainer(podSandboxId: string, config: ContainerConfig, sandboxConfig: PodSandboxConfig): Promise<string>;
  startContainer(id: string): Promise<void>;
  /** SIGTERM (or the image's stop signal), SIGKILL after timeoutSeconds. */
  stopContainer(id: string, timeoutSeconds: number): Promise<void>;
  removeContainer(id: string): Promise<void>;
  listContainers(filter?: ContainerFilter): Promise<readonly Container[]>;
  /** Throws CriError (notFound) for an unknown container. */
  containerStatus(id: string): Promise<ContainerStatus>;
  execSync(id: string, cmd: readonly string[], timeoutSeconds: number): Promise<ExecSyncResult>;
  reopenContainerLog(id: string): Promise<void>;
  close(): void;
}

/** runtime.v1.ImageService. */
export interface ImageService {
  /** undefined when the image is not present. */
  imageStatus(image: string): Promise<Image | undefined>;
  listImages(): Promise<readonly Image[]>;
  /** The image reference pulled. */
  pullImage(image: string, auth?: AuthConfig, sandboxConfig?: PodSandboxConfig): Promise<string>;
  removeImage(image: string): Promise<void>;
  imageFsInfo(): Promise<readonly FilesystemUsage[]>;
  close(): void;
}
