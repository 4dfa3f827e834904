// The parts of core/v1 Pods the runtime manager reads, as typed views over the
// plain JSON objects the agent receives (src/registry/object.ts). Only the
// fields used here are named; the JSON may carry more.
import { formatGoDuration } from '../../api/meta/goduration.js';
export interface KeyRef { readonly name?: string; readonly key: string; readonly optional?: boolean }
export interface FieldRef { readonly apiVersion?: string; readonly fieldPath: string }
export interface ResourceFieldRef { readonly containerName?: string; readonly resource: string; readonly divisor?: string | number }
export interface EnvVar {
  readonly name: string;
  readonly value?: string;
  readonly valueFrom?: {
    readonly fieldRef?: FieldRef;
    readonly resourceFieldRef?: ResourceFieldRef;
    readonly configMapKeyRef?: KeyRef;
    readonly secretKeyRef?: KeyRef;
  };
}
export interface EnvFromSource {
  readonly prefix?: string;
  readonly configMapRef?: { readonly name?: string; readonly optional?: boolean };
  readonly secretRef?: { readonly name?: string; readonly optional?: boolean };
}
export interface ContainerPort { readonly name?: string; readonly containerPort: number; readonly hostPort?: number; readonly protocol?: string; readonly hostIP?: string }
export interface VolumeMount {
  readonly name: string;
  readonly mountPath: string;
  readonly readOnly?: boolean;
  readonly subPath?: string;
  readonly subPathExpr?: string;
  readonly mountPropagation?: 'None' | 'HostToContainer' | 'Bidirectional';
}
export type ResourceList = Readonly<Record<string, string | number>>;
export interface SeccompProfile { readonly type: 'RuntimeDefault' | 'Unconfined' | 'Localhost'; readonly localhostProfile?: string }
export interface SELinuxOptions { readonly user?: string; readonly role?: string; readonly type?: string; readonly level?: string }
export interface SecurityContext {
  readonly capabilities?: { readonly add?: readonly string[]; readonly drop?: readonly string[] };
  readonly privileged?: boolean;
  readonly seLinuxOptions?: SELinuxOptions;
  readonly runAsUser?: number;
  readonly runAsGroup?: number;
  readonly runAsNonRoot?: boolean;
  readonly readOnlyRootFilesystem?: boolean;
  readonly allowPrivilegeEscalation?: boolean;
  readonly procMount?: 'Default' | 'Unmasked';
  readonly seccompProfile?: SeccompProfile;
}
export interface PodSecurityContext {
  readonly seLinuxOptions?: SELinuxOptions;
  readonly runAsUser?: number;
  readonly runAsGroup?: number;
  readonly runAsNonRoot?: boolean;
  readonly supplementalGroups?: readonly number[];
  readonly fsGroup?: number;
  readonly sysctls?: readonly { readonly name: string; readonly value: string }[];
  readonly seccompProfile?: SeccompProfile;
}
export interface HTTPHeader { readonly name: string; readonly value: string }
export interface LifecycleHandler {
  readonly exec?: { readonly command?: readonly string[] };
  readonly httpGet?: { readonly path?: string; readonly port: number | string; readonly host?: string; readonly scheme?: 'HTTP' | 'HTTPS'; readonly httpHeaders?: readonly HTTPHeader[] };
  readonly tcpSocket?: { readonly port: number | string; readonly host?: string };
}
export interface Probe { readonly terminationGracePeriodSeconds?: number }
export interface Container {
  readonly name: string;
  readonly image?: string;
  readonly command?: readonly string[];
  readonly args?: readonly string[];
  readonly workingDir?: string;
  readonly ports?: readonly ContainerPort[];
  readonly env?: readonly EnvVar[];
  readonly envFrom?: readonly EnvFromSource[];
  readonly resources?: { readonly limits?: ResourceList; readonly requests?: ResourceList };
  readonly volumeMounts?: readonly VolumeMount[];
  readonly lifecycle?: { readonly postStart?: LifecycleHandler; readonly preStop?: LifecycleHandler };
  readonly livenessProbe?: Probe;
  readonly startupProbe?: Probe;
  readonly terminationMessagePath?: string;
  readonly terminationMessagePolicy?: 'File' | 'FallbackToLogsOnError';
  readonly imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
  readonly securityContext?: SecurityContext;
  readonly stdin?: boolean;
  readonly stdinOnce?: boolean;
  readonly tty?: boolean;
}
export interface PodDNSConfig {
  readonly nameservers?: readonly string[];
  readonly searches?: readonly string[];
  readonly options?: readonly { readonly name: string; readonly value?: string }[];
}
export interface PodSpec {
  readonly containers: readonly Container[];
  readonly initContainers?: readonly Container[];
  readonly restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  readonly terminationGracePeriodSeconds?: number;
  readonly dnsPolicy?: 'ClusterFirst' | 'ClusterFirstWithHostNet' | 'Default' | 'None';
  readonly dnsConfig?: PodDNSConfig;
  readonly nodeName?: string;
  readonly serviceAccountName?: string;
  readonly hostNetwork?: boolean;
  readonly hostPID?: boolean;
  readonly hostIPC?: boolean;
  readonly shareProcessNamespace?: boolean;
  readonly securityContext?: PodSecurityContext;
  readonly hostname?: string;
  readonly subdomain?: string;
  readonly setHostnameAsFQDN?: boolean;
  readonly priority?: number;
  readonly priorityClassName?: string;
  readonly overhead?: ResourceList;
  readonly enableServiceLinks?: boolean;
  readonly hostAliases?: readonly { readonly ip: string; readonly hostnames?: readonly string[] }[];
}
export interface Pod {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: {
    readonly name: string;
    readonly namespace: string;
    readonly uid: string;
    readonly labels?: Readonly<Record<string, string>>;
    readonly annotations?: Readonly<Record<string, string>>;
    readonly deletionTimestamp?: string;
    readonly deletionGracePeriodSeconds?: number;
  };
  readonly spec: PodSpec;
  readonly status?: { readonly podIP?: string; readonly podIPs?: readonly { readonly ip: string }[]; readonly hostIP?: string };
}

/** kube's format.Pod: `name_namespace(uid)`. */
export const formatPod = (pod: Pod): string => `${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;

/** The containers of a pod with their kind, init containers first. */
export function allContainers(pod: Pod): { container: Container; init: boolean }[] {
  return [
    ...(pod.spec.initContainers ?? []).map((container) => ({ container, init: true })),
    ...pod.spec.containers.map((container) => ({ container, init: false })),
  ];
}

/** The spec of a container (init or regular) by name. */
export function containerSpec(pod: Pod, name: string): { container: Container; init: boolean } | undefined {
  return allContainers(pod).find((c) => c.container.name === name);
}

/** Go's time.Duration text for a number of milliseconds (`10s`, `1m20s`, `5m0s`). */
export const goDuration = (ms: number): string => formatGoDuration(ms);
