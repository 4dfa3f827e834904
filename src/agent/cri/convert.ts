// Between the messages as proto-loader gives them (load.ts: camelCase, every
// field present, absent sub-messages null, int64 as numbers, bytes as Buffers,
// enums by name) and the shapes of types.ts. Requests mostly need no work
// (types.ts mirrors the proto); responses are rebuilt field by field so that
// nothing beyond types.ts leaks out and absent wrappers become undefined.
// The checks are the kubelet's (verifySandboxStatus, verifyContainerStatus,
// …): a runtime answering without them is broken, reported as Unknown.
import { UNKNOWN } from './errors.js';
import {
  CriError,
  type Container,
  type ContainerFilter,
  type ContainerMetadata,
  type ContainerState,
  type ContainerStatus,
  type ExecSyncResult,
  type FilesystemUsage,
  type Image,
  type ImageSpec,
  type Int64Value,
  type Mount,
  type NamespaceOption,
  type PodSandbox,
  type PodSandboxFilter,
  type PodSandboxMetadata,
  type PodSandboxState,
  type PodSandboxStatus,
  type RuntimeCondition,
  type VersionInfo,
} from './types.js';

type Labels = Readonly<Record<string, string>>;

/** The response shapes we read (a subset of what proto-loader returns). */
export interface PbImageSpec { image: string; annotations: Labels }
export interface PbPodSandboxMetadata { name: string; uid: string; namespace: string; attempt: number }
export interface PbContainerMetadata { name: string; attempt: number }
export interface PbNamespaceOption { network: NamespaceOption['network']; pid: NamespaceOption['pid']; ipc: NamespaceOption['ipc']; targetId: string }
export interface PbPodSandbox {
  id: string; metadata: PbPodSandboxMetadata | null; state: PodSandboxState; createdAt: number;
  labels: Labels; annotations: Labels; runtimeHandler: string;
}
export interface PbPodSandboxStatus extends PbPodSandbox {
  network: { ip: string; additionalIps: { ip: string }[] } | null;
  linux: { namespaces: { options: PbNamespaceOption | null } | null } | null;
}
export interface PbContainer {
  id: string; podSandboxId: string; metadata: PbContainerMetadata | null; image: PbImageSpec | null; imageRef: string;
  state: ContainerState; createdAt: number; labels: Labels; annotations: Labels;
}
export interface PbMount { containerPath: string; hostPath: string; readonly: boolean; selinuxRelabel: boolean; propagation: Mount['propagation'] }
export interface PbContainerStatus {
  id: string; metadata: PbContainerMetadata | null; state: ContainerState; createdAt: number; startedAt: number;
  finishedAt: number; exitCode: number; image: PbImageSpec | null; imageRef: string; reason: string; message: string;
  labels: Labels; annotations: Labels; mounts: PbMount[]; logPath: string;
}
export interface PbImage {
  id: string; repoTags: string[]; repoDigests: string[]; size: number; uid: Int64Value | null; username: string; pinned: boolean;
}
export interface PbFilesystemUsage {
  timestamp: number; fsId: { mountpoint: string } | null; usedBytes: { value: number } | null; inodesUsed: { value: number } | null;
}
export interface PbVersion { version: string; runtimeName: string; runtimeVersion: string; runtimeApiVersion: string }
export interface PbExecSync { stdout: Uint8Array; stderr: Uint8Array; exitCode: number }

function broken(method: string, message: string): CriError {
  return new CriError(UNKNOWN, message, method);
}

/** Go's %q of a metadata struct, close enough for messages. */
function describe(v: unknown): string {
  return JSON.stringify(v ?? null);
}

// ---- requests

export function sandboxFilterToProto(f: PodSandboxFilter | undefined): object | undefined {
  if (!f) return undefined;
  return { id: f.id ?? '', state: f.state === undefined ? undefined : { state: f.state }, labelSelector: f.labelSelector ?? {} };
}

export function containerFilterToProto(f: ContainerFilter | undefined): object | undefined {
  if (!f) return undefined;
  return {
    id: f.id ?? '',
    state: f.state === undefined ? undefined : { state: f.state },
    podSandboxId: f.podSandboxId ?? '',
    labelSelector: f.labelSelector ?? {},
  };
}

// ---- responses

function imageSpec(s: PbImageSpec | null): ImageSpec {
  return { image: s?.image ?? '', annotations: { ...s?.annotations } };
}

function sandboxMetadata(m: PbPodSandboxMetadata | null): PodSandboxMetadata {
  return { name: m?.name ?? '', uid: m?.uid ?? '', namespace: m?.namespace ?? '', attempt: m?.attempt ?? 0 };
}

function containerMetadata(m: PbContainerMetadata | null): ContainerMetadata {
  return { name: m?.name ?? '', attempt: m?.attempt ?? 0 };
}

function namespaceOption(o: PbNamespaceOption): NamespaceOption {
  return { network: o.network, pid: o.pid, ipc: o.ipc, ...(o.targetId ? { targetId: o.targetId } : {}) };
}

export function version(v: PbVersion, method: string): VersionInfo {
  if (!v.version || !v.runtimeName || !v.runtimeVersion || !v.runtimeApiVersion) {
    throw broken(method, `not all fields are set in VersionResponse (${describe(v)})`);
  }
  return { version: v.version, runtimeName: v.runtimeName, runtimeVersion: v.runtimeVersion, runtimeApiVersion: v.runtimeApiVersion };
}

export function runtimeConditions(status: { conditions: RuntimeCondition[] } | null, method: string): RuntimeCondition[] {
  if (!status || status.conditions.length < 2) throw broken(method, 'RuntimeReady or NetworkReady condition are not set');
  return status.conditions.map((c) => ({ type: c.type, status: c.status, reason: c.reason, message: c.message }));
}

export function sandbox(s: PbPodSandbox): PodSandbox {
  return {
    id: s.id,
    metadata: sandboxMetadata(s.metadata),
    state: s.state,
    createdAt: s.createdAt,
    labels: { ...s.labels },
    annotations: { ...s.annotations },
    ...(s.runtimeHandler ? { runtimeHandler: s.runtimeHandler } : {}),
  };
}

export function sandboxStatus(s: PbPodSandboxStatus | null, method: string): PodSandboxStatus {
  if (!s) throw broken(method, 'status is not set');
  if (!s.id) throw broken(method, 'status.Id is not set');
  if (!s.metadata) throw broken(method, 'status.Metadata is not set');
  const m = s.metadata;
  if (!m.name || !m.namespace || !m.uid) {
    throw broken(method, `metadata.Name, metadata.Namespace or metadata.Uid is not in metadata ${describe(m)}`);
  }
  if (!s.createdAt) throw broken(method, 'status.CreatedAt is not set');
  const options = s.linux?.namespaces?.options;
  return {
    ...sandbox(s),
    ...(s.network ? { network: { ip: s.network.ip, additionalIps: s.network.additionalIps.map((a) => ({ ip: a.ip })) } } : {}),
    ...(s.linux ? { linux: { namespaces: { ...(options ? { options: namespaceOption(options) } : {}) } } } : {}),
  };
}

export function container(c: PbContainer): Container {
  return {
    id: c.id,
    podSandboxId: c.podSandboxId,
    metadata: containerMetadata(c.metadata),
    image: imageSpec(c.image),
    imageRef: c.imageRef,
    state: c.state,
    createdAt: c.createdAt,
    labels: { ...c.labels },
    annotations: { ...c.annotations },
  };
}

function mount(m: PbMount): Mount {
  return { containerPath: m.containerPath, hostPath: m.hostPath, readonly: m.readonly, selinuxRelabel: m.selinuxRelabel, propagation: m.propagation };
}

export function containerStatus(s: PbContainerStatus | null, method: string): ContainerStatus {
  if (!s) throw broken(method, 'status is not set');
  if (!s.id) throw broken(method, 'status.Id is not set');
  if (!s.metadata) throw broken(method, 'status.Metadata is not set');
  if (!s.metadata.name) throw broken(method, `metadata.Name is not in metadata ${describe(s.metadata)}`);
  if (!s.createdAt) throw broken(method, 'status.CreatedAt is not set');
  if (!s.image?.image) throw broken(method, 'status.Image is not set');
  if (!s.imageRef) throw broken(method, 'status.ImageRef is not set');
  return {
    id: s.id,
    metadata: containerMetadata(s.metadata),
    state: s.state,
    createdAt: s.createdAt,
    startedAt: s.startedAt,
    finishedAt: s.finishedAt,
    exitCode: s.exitCode,
    image: imageSpec(s.image),
    imageRef: s.imageRef,
    reason: s.reason,
    message: s.message,
    labels: { ...s.labels },
    annotations: { ...s.annotations },
    mounts: s.mounts.map(mount),
    logPath: s.logPath,
  };
}

export function image(i: PbImage): Image {
  return {
    id: i.id,
    repoTags: [...i.repoTags],
    repoDigests: [...i.repoDigests],
    size: i.size,
    ...(i.uid ? { uid: { value: i.uid.value } } : {}),
    username: i.username,
    pinned: i.pinned,
  };
}

/** ImageStatus: no image is "not present"; an image without id or size is a broken runtime. */
export function imageStatus(i: PbImage | null, ref: string, method: string): Image | undefined {
  if (!i) return undefined;
  if (!i.id || !i.size) throw broken(method, `Id or size of image ${JSON.stringify(ref)} is not set`);
  return image(i);
}

export function filesystemUsage(u: PbFilesystemUsage): FilesystemUsage {
  return {
    timestamp: u.timestamp,
    mountpoint: u.fsId?.mountpoint ?? '',
    ...(u.usedBytes ? { usedBytes: u.usedBytes.value } : {}),
    ...(u.inodesUsed ? { inodesUsed: u.inodesUsed.value } : {}),
  };
}

export function execSync(r: PbExecSync): ExecSyncResult {
  return { stdout: Buffer.from(r.stdout), stderr: Buffer.from(r.stderr), exitCode: r.exitCode };
}

/** RunPodSandbox / CreateContainer / PullImage answer with an id the kubelet insists on. */
export function requiredId(id: string, method: string, message: string): string {
  if (!id) throw broken(method, message);
  return id;
}
