// In-memory CRI services for tests (the runtime manager's and the pod
// workers'): sandboxes and containers with CRI states, exits a test triggers
// (`exit`), ExecSync through a handler, CRI log lines written to the real log
// paths when the sandbox has a log folder, images imported by the test, pulls
// that fail (no registry) unless an image is offered for pulling, and errors
// injected per method. Every call is recorded.
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  CriError,
  type Container, type ContainerConfig, type ContainerFilter, type ContainerState, type ContainerStatus,
  type ExecSyncResult, type FilesystemUsage, type Image, type ImageService, type PodSandbox, type PodSandboxConfig,
  type PodSandboxFilter, type PodSandboxState, type PodSandboxStatus, type RuntimeCondition, type RuntimeService,
  type VersionInfo,
} from '../cri/types.js';

interface FakeSandbox {
  id: string;
  config: PodSandboxConfig;
  state: PodSandboxState;
  createdAt: number;
  ip: string;
  runtimeHandler: string;
}

interface FakeContainer {
  id: string;
  sandboxId: string;
  config: ContainerConfig;
  state: ContainerState;
  createdAt: number;
  startedAt: number;
  finishedAt: number;
  exitCode: number;
  reason: string;
  message: string;
  logPath: string;
}

export interface FakeCall {
  readonly method: string;
  readonly args: readonly unknown[];
}

const matches = (labels: Readonly<Record<string, string>>, sel: Readonly<Record<string, string>> | undefined): boolean =>
  Object.entries(sel ?? {}).every(([k, v]) => labels[k] === v);

export interface FakeRuntimeOptions {
  /** Milliseconds since the epoch (timestamps are this in nanoseconds plus a counter, so order is kept). */
  readonly now?: () => number;
}

export class FakeRuntime implements RuntimeService {
  readonly sandboxes = new Map<string, FakeSandbox>();
  readonly containers = new Map<string, FakeContainer>();
  readonly calls: FakeCall[] = [];
  /** ExecSync's answer (default: exit 0, no output). */
  exec: (id: string, cmd: readonly string[]) => ExecSyncResult | Promise<ExecSyncResult> = () => ({ stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), exitCode: 0 });
  /** Called when a container starts: return an exit to end it at once (a crashing container). */
  onStart: (c: { id: string; name: string; config: ContainerConfig }) => { exitCode: number; reason?: string; message?: string } | undefined = () => undefined;
  private readonly failures = new Map<string, Error[]>();
  private seq = 0;
  private ipSeq = 1;
  private readonly now: () => number;

  constructor(opts: FakeRuntimeOptions = {}) {
    this.now = opts.now ?? Date.now;
  }

  /** The next call of `method` fails with this error. */
  failNext(method: keyof RuntimeService, err: Error): void {
    const list = this.failures.get(method) ?? [];
    list.push(err);
    this.failures.set(method, list);
  }

  private call(method: string, ...args: unknown[]): void {
    this.calls.push({ method, args });
    const err = this.failures.get(method)?.shift();
    if (err) throw err;
  }

  /** The methods called, in order. */
  methods(): string[] {
    return this.calls.map((c) => c.method);
  }

  private ts(): number {
    // Microsecond steps: nanosecond epochs are past 2^53, so smaller steps would be lost.
    return this.now() * 1e6 + ++this.seq * 1000;
  }

  private id(): string {
    return (++this.seq).toString(16).padStart(12, '0') + 'f'.repeat(52);
  }

  private sandbox(id: string, method: string): FakeSandbox {
    const s = this.sandboxes.get(id);
    if (!s) throw new CriError(5, `an error occurred when try to find sandbox "${id}": not found`, method);
    return s;
  }

  private container(id: string, method: string): FakeContainer {
    const c = this.containers.get(id);
    if (!c) throw new CriError(5, `an error occurred when try to find container "${id}": not found`, method);
    return c;
  }

  /** The container of a pod (by its sandbox's pod name) and container name, newest first. */
  find(podName: string, containerName: string): FakeContainer | undefined {
    return [...this.containers.values()]
      .filter((c) => c.config.metadata.name === containerName && this.sandboxes.get(c.sandboxId)?.config.metadata.name === podName)
      .sort((a, b) => b.createdAt - a.createdAt)[0];
  }

  /** Ends a running container (a crash, a completion, an OOM kill). */
  exit(id: string, exitCode: number, reason = exitCode === 0 ? 'Completed' : 'Error', message = ''): void {
    const c = this.container(id, 'exit');
    if (c.state !== 'CONTAINER_RUNNING') return;
    Object.assign(c, { state: 'CONTAINER_EXITED', exitCode, reason, message, finishedAt: this.ts() });
  }

  /** Writes a CRI log line for the container (when its sandbox has a log folder). */
  log(id: string, stream: 'stdout' | 'stderr', text: string): void {
    const c = this.container(id, 'log');
    if (!c.logPath) return;
    mkdirSync(dirname(c.logPath), { recursive: true });
    appendFileSync(c.logPath, text.split('\n').filter((l, i, a) => l !== '' || i < a.length - 1).map((l) => `${new Date(this.now()).toISOString()} ${stream} F ${l}\n`).join(''));
  }

  /** A sandbox's state changed under the agent (its network went away). */
  setSandboxState(id: string, state: PodSandboxState): void {
    this.sandbox(id, 'setSandboxState').state = state;
  }

  async version(): Promise<VersionInfo> {
    this.call('version');
    return { version: '0.1.0', runtimeName: 'fake', runtimeVersion: '0.0.0', runtimeApiVersion: 'v1' };
  }

  async status(): Promise<readonly RuntimeCondition[]> {
    this.call('status');
    return [
      { type: 'RuntimeReady', status: true, reason: '', message: '' },
      { type: 'NetworkReady', status: true, reason: '', message: '' },
    ];
  }

  async runPodSandbox(config: PodSandboxConfig, runtimeHandler = ''): Promise<string> {
    this.call('runPodSandbox', config, runtimeHandler);
    const id = this.id();
    const hostNetwork = config.linux?.securityContext?.namespaceOptions?.network === 'NODE';
    this.sandboxes.set(id, { id, config, state: 'SANDBOX_READY', createdAt: this.ts(), ip: hostNetwork ? '' : `10.88.0.${++this.ipSeq}`, runtimeHandler });
    return id;
  }

  async stopPodSandbox(id: string): Promise<void> {
    this.call('stopPodSandbox', id);
    const s = this.sandbox(id, 'stopPodSandbox');
    for (const c of this.containers.values()) {
      if (c.sandboxId === id && c.state === 'CONTAINER_RUNNING') Object.assign(c, { state: 'CONTAINER_EXITED', exitCode: 137, reason: 'Error', finishedAt: this.ts() });
    }
    s.state = 'SANDBOX_NOTREADY';
  }

  async removePodSandbox(id: string): Promise<void> {
    this.call('removePodSandbox', id);
    this.sandbox(id, 'removePodSandbox');
    for (const [cid, c] of this.containers) if (c.sandboxId === id) this.containers.delete(cid);
    this.sandboxes.delete(id);
  }

  private sandboxView(s: FakeSandbox): PodSandbox {
    return { id: s.id, metadata: s.config.metadata, state: s.state, createdAt: s.createdAt, labels: s.config.labels ?? {}, annotations: s.config.annotations ?? {}, runtimeHandler: s.runtimeHandler };
  }

  async podSandboxStatus(id: string): Promise<PodSandboxStatus> {
    this.call('podSandboxStatus', id);
    const s = this.sandbox(id, 'podSandboxStatus');
    return {
      ...this.sandboxView(s),
      network: { ip: s.state === 'SANDBOX_READY' ? s.ip : '' },
      linux: { namespaces: { options: s.config.linux?.securityContext?.namespaceOptions ?? {} } },
    };
  }

  async listPodSandbox(filter: PodSandboxFilter = {}): Promise<readonly PodSandbox[]> {
    this.call('listPodSandbox', filter);
    return [...this.sandboxes.values()]
      .filter((s) => (!filter.id || s.id === filter.id) && (!filter.state || s.state === filter.state) && matches(s.config.labels ?? {}, filter.labelSelector))
      .map((s) => this.sandboxView(s));
  }

  async createContainer(podSandboxId: string, config: ContainerConfig, sandboxConfig: PodSandboxConfig): Promise<string> {
    this.call('createContainer', podSandboxId, config, sandboxConfig);
    const sb = this.sandbox(podSandboxId, 'createContainer');
    if (sb.state !== 'SANDBOX_READY') throw new CriError(2, `sandbox container "${podSandboxId}" is not running`, 'createContainer');
    const id = this.id();
    const logPath = sb.config.logDirectory && config.logPath ? join(sb.config.logDirectory, config.logPath) : '';
    this.containers.set(id, { id, sandboxId: podSandboxId, config, state: 'CONTAINER_CREATED', createdAt: this.ts(), startedAt: 0, finishedAt: 0, exitCode: 0, reason: '', message: '', logPath });
    return id;
  }

  async startContainer(id: string): Promise<void> {
    this.call('startContainer', id);
    const c = this.container(id, 'startContainer');
    if (c.state !== 'CONTAINER_CREATED') throw new CriError(9, `container "${id}" is not in created state`, 'startContainer');
    Object.assign(c, { state: 'CONTAINER_RUNNING', startedAt: this.ts() });
    const exit = this.onStart({ id, name: c.config.metadata.name, config: c.config });
    if (exit) this.exit(id, exit.exitCode, exit.reason, exit.message);
  }

  async stopContainer(id: string, timeoutSeconds: number): Promise<void> {
    this.call('stopContainer', id, timeoutSeconds);
    const c = this.container(id, 'stopContainer');
    if (c.state === 'CONTAINER_RUNNING') Object.assign(c, { state: 'CONTAINER_EXITED', exitCode: 137, reason: 'Error', finishedAt: this.ts() });
  }

  async removeContainer(id: string): Promise<void> {
    this.call('removeContainer', id);
    this.container(id, 'removeContainer');
    this.containers.delete(id);
  }

  private containerView(c: FakeContainer): Container {
    return {
      id: c.id, podSandboxId: c.sandboxId, metadata: c.config.metadata, image: c.config.image, imageRef: c.config.image.image,
      state: c.state, createdAt: c.createdAt, labels: c.config.labels ?? {}, annotations: c.config.annotations ?? {},
    };
  }

  async listContainers(filter: ContainerFilter = {}): Promise<readonly Container[]> {
    this.call('listContainers', filter);
    return [...this.containers.values()]
      .filter((c) => (!filter.id || c.id === filter.id) && (!filter.state || c.state === filter.state)
        && (!filter.podSandboxId || c.sandboxId === filter.podSandboxId) && matches(c.config.labels ?? {}, filter.labelSelector))
      .map((c) => this.containerView(c));
  }

  async containerStatus(id: string): Promise<ContainerStatus> {
    this.call('containerStatus', id);
    const c = this.container(id, 'containerStatus');
    const { podSandboxId: _sandbox, ...view } = this.containerView(c);
    return { ...view, startedAt: c.startedAt, finishedAt: c.finishedAt, exitCode: c.exitCode, reason: c.reason, message: c.message, mounts: c.config.mounts ?? [], logPath: c.logPath };
  }

  async execSync(id: string, cmd: readonly string[], timeoutSeconds: number): Promise<ExecSyncResult> {
    this.call('execSync', id, cmd, timeoutSeconds);
    const c = this.container(id, 'execSync');
    if (c.state !== 'CONTAINER_RUNNING') throw new CriError(9, `container is not created or running`, 'execSync');
    return this.exec(id, cmd);
  }

  async reopenContainerLog(id: string): Promise<void> {
    this.call('reopenContainerLog', id);
    this.container(id, 'reopenContainerLog');
  }

  close(): void {}
}

/** Images a test imports; pulls fail as with no registry unless the image is offered with `offer`. */
export class FakeImages implements ImageService {
  readonly images = new Map<string, Image>();
  readonly pulls: string[] = [];
  private readonly offered = new Map<string, Image>();
  private seq = 0;

  private make(name: string, user: { uid?: number; username?: string }): Image {
    return { id: `sha256:${(++this.seq).toString(16).padStart(64, '0')}`, repoTags: [name], repoDigests: [], size: 1 << 20, ...(user.uid !== undefined ? { uid: { value: user.uid } } : {}), username: user.username ?? '' };
  }

  /** An image present on the node (as `ctr images import`). */
  add(name: string, user: { uid?: number; username?: string } = {}): Image {
    const img = this.make(name, user);
    this.images.set(name, img);
    return img;
  }

  /** An image a pull would find. */
  offer(name: string, user: { uid?: number; username?: string } = {}): void {
    this.offered.set(name, this.make(name, user));
  }

  async imageStatus(image: string): Promise<Image | undefined> {
    return this.images.get(image) ?? [...this.images.values()].find((i) => i.id === image);
  }

  async listImages(): Promise<readonly Image[]> {
    return [...this.images.values()];
  }

  async pullImage(image: string): Promise<string> {
    this.pulls.push(image);
    const img = this.offered.get(image);
    if (!img) {
      throw new CriError(2, `failed to pull and unpack image "${image}": failed to resolve reference "${image}": dial tcp: lookup registry: no such host`, 'pullImage');
    }
    this.images.set(image, img);
    return img.id;
  }

  async removeImage(image: string): Promise<void> {
    this.images.delete(image);
  }

  async imageFsInfo(): Promise<readonly FilesystemUsage[]> {
    return [];
  }

  close(): void {}
}
