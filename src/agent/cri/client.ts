// The CRI client: RuntimeService and ImageService (types.ts) over gRPC on a
// unix socket, as the kubelet's remote runtime/image services call them.
//
//   criClient(endpoint) ── one grpc-js channel ──▶ unix socket ──▶ containerd's CRI plugin
//        │ per call: request (types.ts shape) → proto-loader serializer (load.ts)
//        │           deadline from --runtime-request-timeout (see deadlines below)
//        └ response → convert.ts (checks + types.ts shape); failures → CriError (errors.ts)
//
// Deadlines, as kubelet v1.27 sets them: every call gets the request timeout
// (2 min by default), except RunPodSandbox (twice that), StopContainer (the
// timeout plus the grace period), ExecSync (the timeout plus the command's
// timeout; none when the command has none) and PullImage (none: pulls take as
// long as they take).
import { Client, credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import * as convert from './convert.js';
import { parseEndpoint } from './endpoint.js';
import { toCriError } from './errors.js';
import { criMethod, type CriServiceName } from './load.js';
import type {
  AuthConfig,
  ContainerConfig,
  ContainerFilter,
  ImageService,
  PodSandboxConfig,
  PodSandboxFilter,
  RuntimeService,
} from './types.js';

export interface CriClientOptions {
  /** --runtime-request-timeout in milliseconds (default 2 minutes). */
  readonly timeoutMs?: number;
  /** Where a notice about a deprecated endpoint spelling goes (default: process warnings). */
  readonly warn?: (message: string) => void;
}

/** The CRI API version the kubelet announces in VersionRequest. */
export const KUBE_RUNTIME_API_VERSION = '0.1.0';
export const DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS = 2 * 60_000;
/** The kubelet's limit on CRI messages either way (16 MiB). */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** Milliseconds from the call's start, or null for no deadline. */
type Deadline = number | null;

export function criClient(endpoint: string, opts: CriClientOptions = {}): RuntimeService & ImageService {
  const { path: socket, deprecation } = parseEndpoint(endpoint);
  if (deprecation) (opts.warn ?? ((m: string) => process.emitWarning(m)))(deprecation);
  const timeout = opts.timeoutMs ?? DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS;
  const channel = new Client(`unix:${socket}`, credentials.createInsecure(), {
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  });

  const call = <R>(service: CriServiceName, rpc: string, request: object, deadlineMs: Deadline): Promise<R> => {
    const m = criMethod(service, rpc);
    return new Promise<R>((resolve, reject) => {
      const options = deadlineMs === null ? {} : { deadline: Date.now() + deadlineMs };
      try {
        channel.makeUnaryRequest(m.path, m.requestSerialize, m.responseDeserialize, request, new Metadata(), options,
          (err: ServiceError | null, res?: object) => (err ? reject(toCriError(err, m.path)) : resolve(res as R)));
      } catch (err) {
        reject(toCriError(err, m.path));
      }
    });
  };
  const runtime = <R>(rpc: string, request: object): Promise<R> => call<R>('RuntimeService', rpc, request, timeout);
  const images = <R>(rpc: string, request: object): Promise<R> => call<R>('ImageService', rpc, request, timeout);
  /** The rpc's full name, as CriError.method carries it. */
  const method = (rpc: string, service: CriServiceName = 'RuntimeService'): string => criMethod(service, rpc).path;
  const close = (): void => channel.close();

  return {
    async version() {
      const v = await runtime<convert.PbVersion>('Version', { version: KUBE_RUNTIME_API_VERSION });
      return convert.version(v, method('Version'));
    },
    async status() {
      const r = await runtime<{ status: Parameters<typeof convert.runtimeConditions>[0] }>('Status', { verbose: false });
      return convert.runtimeConditions(r.status, method('Status'));
    },
    async runPodSandbox(config: PodSandboxConfig, runtimeHandler = '') {
      const r = await call<{ podSandboxId: string }>('RuntimeService', 'RunPodSandbox', { config, runtimeHandler }, 2 * timeout);
      return convert.requiredId(r.podSandboxId, method('RunPodSandbox'),
        `PodSandboxId is not set for sandbox ${JSON.stringify(config.metadata)}`);
    },
    async stopPodSandbox(id: string) {
      await runtime('StopPodSandbox', { podSandboxId: id });
    },
    async removePodSandbox(id: string) {
      await runtime('RemovePodSandbox', { podSandboxId: id });
    },
    async podSandboxStatus(id: string) {
      const r = await runtime<{ status: convert.PbPodSandboxStatus | null }>('PodSandboxStatus', { podSandboxId: id, verbose: false });
      return convert.sandboxStatus(r.status, method('PodSandboxStatus'));
    },
    async listPodSandbox(filter?: PodSandboxFilter) {
      const r = await runtime<{ items: convert.PbPodSandbox[] }>('ListPodSandbox', { filter: convert.sandboxFilterToProto(filter) });
      return r.items.map(convert.sandbox);
    },
    async createContainer(podSandboxId: string, config: ContainerConfig, sandboxConfig: PodSandboxConfig) {
      const r = await runtime<{ containerId: string }>('CreateContainer', { podSandboxId, config, sandboxConfig });
      return convert.requiredId(r.containerId, method('CreateContainer'),
        `ContainerId is not set for container ${JSON.stringify(config.metadata)}`);
    },
    async startContainer(id: string) {
      await runtime('StartContainer', { containerId: id });
    },
    async stopContainer(id: string, timeoutSeconds: number) {
      await call('RuntimeService', 'StopContainer', { containerId: id, timeout: timeoutSeconds }, timeout + timeoutSeconds * 1000);
    },
    async removeContainer(id: string) {
      await runtime('RemoveContainer', { containerId: id });
    },
    async listContainers(filter?: ContainerFilter) {
      const r = await runtime<{ containers: convert.PbContainer[] }>('ListContainers', { filter: convert.containerFilterToProto(filter) });
      return r.containers.map(convert.container);
    },
    async containerStatus(id: string) {
      const r = await runtime<{ status: convert.PbContainerStatus | null }>('ContainerStatus', { containerId: id, verbose: false });
      return convert.containerStatus(r.status, method('ContainerStatus'));
    },
    async execSync(id: string, cmd: readonly string[], timeoutSeconds: number) {
      const deadline = timeoutSeconds > 0 ? timeout + timeoutSeconds * 1000 : null;
      const r = await call<convert.PbExecSync>('RuntimeService', 'ExecSync', { containerId: id, cmd, timeout: timeoutSeconds }, deadline);
      return convert.execSync(r);
    },
    async reopenContainerLog(id: string) {
      await runtime('ReopenContainerLog', { containerId: id });
    },

    async imageStatus(image: string) {
      const r = await images<{ image: convert.PbImage | null }>('ImageStatus', { image: { image }, verbose: false });
      return convert.imageStatus(r.image, image, method('ImageStatus', 'ImageService'));
    },
    async listImages() {
      const r = await images<{ images: convert.PbImage[] }>('ListImages', {});
      return r.images.map(convert.image);
    },
    async pullImage(image: string, auth?: AuthConfig, sandboxConfig?: PodSandboxConfig) {
      const r = await call<{ imageRef: string }>('ImageService', 'PullImage', { image: { image }, auth, sandboxConfig }, null);
      return convert.requiredId(r.imageRef, method('PullImage', 'ImageService'), `imageRef of image ${JSON.stringify(image)} is not set`);
    },
    async removeImage(image: string) {
      await images('RemoveImage', { image: { image } });
    },
    async imageFsInfo() {
      const r = await images<{ imageFilesystems: convert.PbFilesystemUsage[] }>('ImageFsInfo', {});
      return r.imageFilesystems.map(convert.filesystemUsage);
    },
    close,
  };
}
