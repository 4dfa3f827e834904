// The client's wire behaviour against an in-process gRPC server speaking the
// same proto: what reaches the runtime (filters, wrappers, deadlines), how
// answers are shaped (absent messages, int64, bytes), and how failures and
// malformed answers become CriErrors. The real runtime is client.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Server, ServerCredentials, status as grpcStatus, type ServerUnaryCall, type sendUnaryData } from '@grpc/grpc-js';
import { tempDir } from '../../testing/tempdir.js';
import { criClient } from './client.js';
import { rpcErrorText } from './errors.js';
import { criService } from './load.js';
import { CriError, type ImageService, type RuntimeService } from './types.js';

type Handler = (req: Record<string, any>, call: ServerUnaryCall<object, object>) => object | Error | 'hang';
type Seen = { rpc: string; req: Record<string, any>; deadline: number | 'none'; at: number };

const NOW_NS = 1_795_790_018_812_783_400; // an int64 beyond 2^53, as the runtime sends timestamps

function grpcError(code: number, details: string): Error {
  return Object.assign(new Error(details), { code, details });
}

describe('CRI client on the wire (in-process gRPC server)', () => {
  const handlers = new Map<string, Handler>();
  const seen: Seen[] = [];
  let server: Server;
  let endpoint: string;
  let cri: RuntimeService & ImageService;
  const TIMEOUT = 60_000;

  before(async () => {
    server = new Server();
    for (const name of ['RuntimeService', 'ImageService'] as const) {
      const def = criService(name);
      const impl: Record<string, (call: ServerUnaryCall<object, object>, cb: sendUnaryData<object>) => void> = {};
      for (const rpc of Object.keys(def)) {
        impl[rpc] = (call, cb) => {
          const d = call.getDeadline();
          const deadline = d instanceof Date ? d.getTime() : d === Infinity ? 'none' : Number(d);
          seen.push({ rpc, req: call.request as Record<string, any>, deadline, at: Date.now() });
          const h = handlers.get(rpc);
          const out = h ? h(call.request as Record<string, any>, call) : {};
          if (out === 'hang') return;
          if (out instanceof Error) cb(out as never);
          else cb(null, out);
        };
      }
      server.addService(def as never, impl);
    }
    const sock = join(tempDir('svc-cri-wire-'), 'cri.sock');
    endpoint = `unix://${sock}`;
    await new Promise<void>((res, rej) => server.bindAsync(`unix:${sock}`, ServerCredentials.createInsecure(), (e) => (e ? rej(e) : res())));
    cri = criClient(endpoint, { timeoutMs: TIMEOUT });
  });
  after(() => {
    cri?.close();
    server?.forceShutdown();
  });

  const last = (rpc: string): Seen => {
    const s = seen.filter((x) => x.rpc === rpc).at(-1);
    assert.ok(s, `${rpc} was called`);
    return s;
  };

  test('requests carry the kubelet API version, ids, filters with state wrappers and label selectors', async () => {
    handlers.set('Version', () => ({ version: '0.1.0', runtimeName: 'fake', runtimeVersion: '1.0.0', runtimeApiVersion: 'v1' }));
    assert.equal((await cri.version()).runtimeName, 'fake');
    assert.equal(last('Version').req.version, '0.1.0');

    await cri.listContainers({ state: 'CONTAINER_RUNNING', podSandboxId: 'sb1', labelSelector: { a: 'b' } });
    const f = last('ListContainers').req.filter;
    assert.deepEqual({ id: f.id, state: f.state, podSandboxId: f.podSandboxId, labelSelector: f.labelSelector },
      { id: '', state: { state: 'CONTAINER_RUNNING' }, podSandboxId: 'sb1', labelSelector: { a: 'b' } });

    await cri.listContainers();
    assert.equal(last('ListContainers').req.filter, null, 'no filter is sent as no filter');

    await cri.listPodSandbox({ id: 'x' });
    assert.deepEqual(last('ListPodSandbox').req.filter.state, null, 'no state is not SANDBOX_READY');

    await cri.listPodSandbox({ state: 'SANDBOX_NOTREADY' });
    assert.deepEqual(last('ListPodSandbox').req.filter.state, { state: 'SANDBOX_NOTREADY' });

    handlers.set('RunPodSandbox', () => ({ podSandboxId: 'sb-1' }));
    const id = await cri.runPodSandbox({
      metadata: { name: 'p', uid: 'u', namespace: 'n', attempt: 2 },
      linux: { securityContext: { runAsUser: { value: 1000 }, namespaceOptions: { network: 'NODE' } }, sysctls: { 'net.core.somaxconn': '1024' } },
      portMappings: [{ protocol: 'UDP', containerPort: 53, hostPort: 5353 }],
    }, 'runc');
    assert.equal(id, 'sb-1');
    const run = last('RunPodSandbox').req;
    assert.equal(run.runtimeHandler, 'runc');
    assert.deepEqual(run.config.metadata, { name: 'p', uid: 'u', namespace: 'n', attempt: 2 });
    assert.deepEqual(run.config.linux.securityContext.runAsUser, { value: 1000 });
    assert.equal(run.config.linux.securityContext.namespaceOptions.network, 'NODE');
    assert.deepEqual(run.config.linux.sysctls, { 'net.core.somaxconn': '1024' });
    assert.deepEqual(run.config.portMappings, [{ protocol: 'UDP', containerPort: 53, hostPort: 5353, hostIp: '' }]);
  });

  test('deadlines: the request timeout, twice for RunPodSandbox, plus the grace period, none for pulls', async () => {
    handlers.set('ExecSync', () => ({ stdout: Buffer.from('out'), stderr: Buffer.alloc(0), exitCode: 0 }));
    handlers.set('PullImage', () => ({ imageRef: 'sha256:abc' }));
    handlers.set('RunPodSandbox', () => ({ podSandboxId: 'sb-1' }));
    await cri.startContainer('c1');
    await cri.runPodSandbox({ metadata: { name: 'p', uid: 'u', namespace: 'n', attempt: 0 } });
    await cri.stopContainer('c1', 30);
    await cri.execSync('c1', ['true'], 5);
    const withTimeout = last('ExecSync');
    await cri.execSync('c1', ['true'], 0);
    assert.equal(await cri.pullImage('busybox'), 'sha256:abc');
    // The deadline each call carried, from when it reached the server: the expected allowance, less the trip (< 10 s).
    const allowance = (s: Seen, expected: number | 'none') => {
      if (expected === 'none' || s.deadline === 'none') return assert.equal(s.deadline, expected, s.rpc);
      const left = s.deadline - s.at;
      assert.ok(left <= expected + 1_000 && left > expected - 10_000, `${s.rpc}: ${left} ms left, expected ${expected}`);
    };
    allowance(last('StartContainer'), TIMEOUT);
    allowance(last('RunPodSandbox'), 2 * TIMEOUT);
    allowance(last('StopContainer'), TIMEOUT + 30_000);
    assert.equal(last('StopContainer').req.timeout, 30);
    allowance(withTimeout, TIMEOUT + 5_000);
    assert.equal(withTimeout.req.timeout, 5);
    allowance(last('ExecSync'), 'none');
    allowance(last('PullImage'), 'none');
  });

  test('answers: absent messages, wrappers, int64 timestamps, bytes', async () => {
    handlers.set('ListContainers', () => ({
      containers: [{ id: 'c1', podSandboxId: 'sb', state: 'CONTAINER_EXITED', createdAt: NOW_NS }],
    }));
    const [c] = await cri.listContainers();
    assert.deepEqual(c, {
      id: 'c1', podSandboxId: 'sb', metadata: { name: '', attempt: 0 }, image: { image: '', annotations: {} }, imageRef: '',
      state: 'CONTAINER_EXITED', createdAt: NOW_NS, labels: {}, annotations: {},
    });

    handlers.set('ImageStatus', () => ({ image: { id: 'sha256:1', size: 10, uid: { value: 0 }, repoTags: ['a:1'] } }));
    assert.deepEqual(await cri.imageStatus('a:1'), {
      id: 'sha256:1', repoTags: ['a:1'], repoDigests: [], size: 10, uid: { value: 0 }, username: '', pinned: false,
    });
    assert.deepEqual(last('ImageStatus').req.image, { image: 'a:1', annotations: {} });
    handlers.set('ImageStatus', () => ({}));
    assert.equal(await cri.imageStatus('a:1'), undefined);

    handlers.set('ImageFsInfo', () => ({ imageFilesystems: [{ timestamp: NOW_NS, fsId: { mountpoint: '/var/lib' }, usedBytes: { value: 42 } }] }));
    assert.deepEqual(await cri.imageFsInfo(), [{ timestamp: NOW_NS, mountpoint: '/var/lib', usedBytes: 42 }]);

    handlers.set('PodSandboxStatus', () => ({
      status: { id: 'sb', metadata: { name: 'p', uid: 'u', namespace: 'n' }, createdAt: NOW_NS, state: 'SANDBOX_NOTREADY',
        network: { ip: '10.1.0.5', additionalIps: [{ ip: 'fd00::5' }] } },
    }));
    const st = await cri.podSandboxStatus('sb');
    assert.equal(st.state, 'SANDBOX_NOTREADY');
    assert.deepEqual(st.network, { ip: '10.1.0.5', additionalIps: [{ ip: 'fd00::5' }] });
    assert.equal(st.linux, undefined);
    assert.equal(st.createdAt, NOW_NS);

    handlers.set('ExecSync', () => ({ stdout: Buffer.from([0, 255, 10]), exitCode: 7 }));
    const ex = await cri.execSync('c', ['x'], 1);
    assert.ok(Buffer.isBuffer(ex.stdout) && Buffer.isBuffer(ex.stderr));
    assert.deepEqual([...ex.stdout], [0, 255, 10]);
    assert.equal(ex.stderr.length, 0);
    assert.equal(ex.exitCode, 7);
  });

  const broken: readonly { name: string; rpc: string; answer: object; call: (c: RuntimeService & ImageService) => Promise<unknown>; message: string }[] = [
    { name: 'a version without the runtime version', rpc: 'Version', answer: { version: '0.1.0', runtimeName: 'x', runtimeApiVersion: 'v1' },
      call: (c) => c.version(), message: 'not all fields are set in VersionResponse' },
    { name: 'a status with one condition', rpc: 'Status', answer: { status: { conditions: [{ type: 'RuntimeReady', status: true }] } },
      call: (c) => c.status(), message: 'RuntimeReady or NetworkReady condition are not set' },
    { name: 'a sandbox without an id', rpc: 'RunPodSandbox', answer: {},
      call: (c) => c.runPodSandbox({ metadata: { name: 'p', uid: 'u', namespace: 'n', attempt: 0 } }),
      message: 'PodSandboxId is not set for sandbox {"name":"p","uid":"u","namespace":"n","attempt":0}' },
    { name: 'a container status without an image ref', rpc: 'ContainerStatus',
      answer: { status: { id: 'c', metadata: { name: 'm' }, createdAt: 1, image: { image: 'busybox' } } },
      call: (c) => c.containerStatus('c'), message: 'status.ImageRef is not set' },
    { name: 'a container status without metadata', rpc: 'ContainerStatus', answer: { status: { id: 'c', createdAt: 1 } },
      call: (c) => c.containerStatus('c'), message: 'status.Metadata is not set' },
    { name: 'a sandbox status without a uid', rpc: 'PodSandboxStatus',
      answer: { status: { id: 's', metadata: { name: 'p', namespace: 'n' }, createdAt: 1 } },
      call: (c) => c.podSandboxStatus('s'), message: 'metadata.Name, metadata.Namespace or metadata.Uid is not in metadata' },
    { name: 'an image without a size', rpc: 'ImageStatus', answer: { image: { id: 'sha256:1' } },
      call: (c) => c.imageStatus('a:1'), message: 'Id or size of image "a:1" is not set' },
    { name: 'a pull without an image ref', rpc: 'PullImage', answer: {},
      call: (c) => c.pullImage('a:1'), message: 'imageRef of image "a:1" is not set' },
  ];
  for (const b of broken) {
    test(`a runtime answering ${b.name} is an Unknown CriError`, async () => {
      handlers.set(b.rpc, () => b.answer);
      await assert.rejects(b.call(cri), (e: unknown) =>
        e instanceof CriError && e.code === grpcStatus.UNKNOWN && e.message.startsWith(b.message) && e.method.endsWith(`/${b.rpc}`));
    });
  }

  test('a status error keeps its code and details; Go prints it as kube shows it', async () => {
    handlers.set('ContainerStatus', () => grpcError(grpcStatus.NOT_FOUND, 'an error occurred when try to find container "x": not found'));
    await assert.rejects(cri.containerStatus('x'), (e: unknown) => {
      assert.ok(e instanceof CriError);
      assert.equal(e.notFound, true);
      assert.equal(e.method, '/runtime.v1.RuntimeService/ContainerStatus');
      assert.equal(e.message, 'an error occurred when try to find container "x": not found');
      assert.equal(rpcErrorText(e), 'rpc error: code = NotFound desc = an error occurred when try to find container "x": not found');
      return true;
    });
  });

  test('a call past its deadline fails with DeadlineExceeded', async () => {
    handlers.set('ListImages', () => 'hang');
    const quick = criClient(endpoint, { timeoutMs: 100 });
    try {
      await assert.rejects(quick.listImages(), (e: unknown) => e instanceof CriError && e.code === grpcStatus.DEADLINE_EXCEEDED
        && e.method === '/runtime.v1.ImageService/ListImages');
    } finally {
      quick.close();
    }
  });

  test('a socket nobody listens on fails with Unavailable', async () => {
    const gone = criClient(`unix://${join(tempDir('svc-cri-none-'), 'none.sock')}`, { timeoutMs: 5_000 });
    try {
      await assert.rejects(gone.version(), (e: unknown) => e instanceof CriError && e.code === grpcStatus.UNAVAILABLE);
    } finally {
      gone.close();
    }
  });

  test('an endpoint without a scheme is used, with a deprecation notice', async () => {
    const warnings: string[] = [];
    const sock = endpoint.slice('unix://'.length);
    const bare = criClient(sock, { timeoutMs: 5_000, warn: (m) => warnings.push(m) });
    try {
      handlers.set('Version', () => ({ version: '0.1.0', runtimeName: 'fake', runtimeVersion: '1.0.0', runtimeApiVersion: 'v1' }));
      assert.equal((await bare.version()).runtimeName, 'fake');
      assert.deepEqual(warnings, [`Using "${sock}" as endpoint is deprecated, please consider using full URL format "unix://${sock}"`]);
    } finally {
      bare.close();
    }
  });
});
