// `svc agent`: the node agent's parts joined (kube's Kubelet.Run). In
// order: the runtime over CRI (the agent does not start without it), the
// machine's figures, cgroups, the Node (registration, status, Lease), the
// pod parts — volumes, probes, the runtime manager, the status manager, the
// pod workers with their lifecycle steps, PLEG — the pod sources (the API's
// pods bound to this node; static pods from a folder or URL, with mirror
// pods), the HTTPS server with container logs, log rotation, and the
// housekeeping loop (orphaned containers and cgroups, dead containers).
// Standalone mode (no API) runs static pods only.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isStatusError } from '../api/meta/index.js';
import { EventRecorder } from '../controllers/events/recorder.js';
import type { ApiObject } from '../registry/object.js';
import { formatResourceList, type ResourceList } from '../quota/resources.js';
import type { AgentApi } from './api.js';
import type { AgentConfig } from './config/index.js';
import { CgroupFs, ContainerManager } from './cm/index.js';
import { criClient } from './cri/client.js';
import type { ImageService, RuntimeService } from './cri/types.js';
import { agentEventSink } from './events/sink.js';
import { garbageCollect, KubeRuntimePort, RuntimeManager, type Pod } from './kuberuntime/index.js';
import { ContainerLogManager, locateContainerLog } from './logs/index.js';
import { hostMachine, NodeManager, parseEvictionThresholds, type MachineReader } from './node/index.js';
import { allocatable as allocatableOf, machineCapacity } from './node/capacity.js';
import { PodAdmission } from './pods/admission.js';
import { PodDispatch } from './pods/dispatch.js';
import { Pleg } from './pods/pleg.js';
import { StatusManager } from './pods/statusmanager.js';
import { PodLifecycle } from './pods/syncer.js';
import { PodWorkers } from './pods/workers.js';
import { ProberManager } from './probes/index.js';
import { LogUnavailable, servingTls, startAgentServer, type RunningAgentServer } from './server/index.js';
import { MirrorPodClient } from './sources/mirror.js';
import type { StaticPodSource } from './sources/source.js';
import { annotation, isMirrorPod, CONFIG_SOURCE } from './sources/staticpod.js';
import { VolumeManager } from './volumes/index.js';

import { NODE_LEASE_NAMESPACE } from './node/lease.js';
import { within } from '../async/within.js';

export { NODE_LEASE_NAMESPACE };

export interface AgentOptions {
  readonly config: AgentConfig;
  readonly nodeName: string;
  /** The hostname (kubernetes.io/hostname). */
  readonly hostname: string;
  /** API-server mode: the API as this node. Absent: standalone (static pods only). */
  readonly api?: AgentApi;
  readonly log?: (msg: string) => void;
  /** Tests: the machine's figures, the pod log root, PLEG's period. */
  readonly machine?: MachineReader;
  readonly podLogsRoot?: string;
  readonly plegPeriodMs?: number;
}

export interface RunningAgent {
  readonly nodeName: string;
  /** The HTTPS server's port (0 when --enable-server=false). */
  readonly port: number;
  readonly healthzPort: number | undefined;
  readonly runtime: RuntimeService;
  /** The pods the agent runs. */
  pods(): ApiObject[];
  stop(): Promise<void>;
}

export class AgentStartError extends Error {
  override readonly name = 'AgentStartError';
}

const HOUSEKEEPING_MS = 2000;
/** kube's ContainerGCPeriod: dead containers and sandboxes are collected every minute, not every housekeeping. */
const CONTAINER_GC_MS = 60_000;
const STOP_STEP_MS = 10_000;

export async function startAgent(o: AgentOptions): Promise<RunningAgent> {
  const c = o.config;
  const log = o.log ?? ((m: string) => console.error(`svc agent: ${m}`));
  const stops: [part: string, stop: () => void | Promise<void>][] = [];
  // each part gets STOP_STEP_MS to stop, so a stuck part (a probe, a stream) cannot hold the agent's exit
  const stopAll = async () => {
    for (const [part, s] of stops.reverse()) {
      try {
        if (!(await within(Promise.resolve().then(s), STOP_STEP_MS))) log(`stopping: ${part} did not stop in ${STOP_STEP_MS / 1000} s; going on`);
      } catch (err) {
        log(`stopping ${part}: ${(err as Error).message}`);
      }
    }
  };
  try {
    return await start();
  } catch (err) {
    await stopAll();
    throw err;
  }

  async function start(): Promise<RunningAgent> {
    if (!c.containerRuntimeEndpoint) throw new AgentStartError('failed to run Kubelet: --container-runtime-endpoint is not set (e.g. unix:///run/containerd/containerd.sock)');
    // the serving pair first, as kube sets up its TLS before anything runs: a pair to generate is made by a
    // child process (server/selfsigned.ts) while the runtime, node and volume parts start
    const tlsPending = c.enableServer ? servingTls({ tlsCertFile: c.tlsCertFile, tlsPrivateKeyFile: c.tlsPrivateKeyFile, certDir: c.certDir, hostname: o.hostname }) : undefined;
    tlsPending?.catch(() => undefined); // awaited below; a start failing before then must not leave it unhandled
    const cri = criClient(c.containerRuntimeEndpoint, { timeoutMs: c.runtimeRequestTimeout });
    const runtime: RuntimeService = cri;
    const images: ImageService = c.imageServiceEndpoint && c.imageServiceEndpoint !== c.containerRuntimeEndpoint
      ? criClient(c.imageServiceEndpoint, { timeoutMs: c.runtimeRequestTimeout }) : cri;
    stops.push(['the runtime client', () => runtime.close()], ['the image client', () => { if (images !== cri) images.close(); }]);
    let version;
    try {
      version = await runtime.version();
    } catch (err) {
      throw new AgentStartError(`failed to run Kubelet: validate service connection: validate CRI v1 runtime API for endpoint "${c.containerRuntimeEndpoint}": ${(err as Error).message}`);
    }
    log(`container runtime ${version.runtimeName} ${version.runtimeVersion} (CRI ${version.runtimeApiVersion}) at ${c.containerRuntimeEndpoint}`);

    const api = o.api;
    const rootDir = c.rootDir;
    mkdirSync(join(rootDir, 'pods'), { recursive: true });
    const machine = o.machine ?? hostMachine({ rootDir });
    const evictionHard = parseEvictionThresholds(Object.entries(c.evictionHard).map(([k, v]) => `${k}<${v}`).join(','));
    const capacity = machineCapacity(machine, { maxPods: c.maxPods, localStorageCapacityIsolation: c.localStorageCapacityIsolation });
    const alloc = allocatableOf(capacity, { svcReserved: c.kubeReserved, systemReserved: c.systemReserved, evictionHard });
    const allocatable = (): ResourceList => alloc;
    const allocatableStrings = formatResourceList(alloc);

    // cgroups
    const cm = new ContainerManager({
      fs: new CgroupFs(), cgroupRoot: c.cgroupRoot || '/', cgroupsPerQOS: c.cgroupsPerQOS, enforceNodeAllocatable: c.enforceNodeAllocatable,
      capacity, svcReserved: c.kubeReserved, systemReserved: c.systemReserved, svcReservedCgroup: c.kubeReservedCgroup, systemReservedCgroup: c.systemReservedCgroup,
      enforceCPULimits: c.cpuCFSQuota, cpuPeriodUs: Math.round(c.cpuCFSQuotaPeriod * 1000), podPidsLimit: c.podPidsLimit,
    });
    cm.start();

    // events, as the node
    const recorder = api ? new EventRecorder(undefined, 'kubelet', o.nodeName, { sink: agentEventSink(api, c.eventRecordQPS, c.eventBurst) }) : undefined;
    const podEvent = (pod: ApiObject, type: 'Normal' | 'Warning', reason: string, message: string, fieldPath?: string) => {
      if (!recorder) return void log(`${type} ${reason} pod ${pod.metadata.namespace}/${pod.metadata.name}: ${message}`);
      void recorder.event({ kind: 'Pod', apiVersion: 'v1', namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '', ...(fieldPath ? { fieldPath } : {}) }, type, reason, message);
    };

    let pleg: Pleg | undefined;
    const hostIP = (): string => c.nodeIps[0] || machine.defaultRouteIP() || '127.0.0.1';

    // pods
    const status = new StatusManager({
      ...(api ? { api } : {}),
      lookup: api ? (ns, name) => api.pods().get(ns, name) : () => undefined,
      onError: (t, err) => log(`status of pod ${t.namespace}/${t.name}: ${(err as Error).message}`),
    });
    stops.push(['the status manager', () => status.stop()]);
    const volumes = new VolumeManager({ rootDir, ...(api ? { api } : {}), log });
    let workers!: PodWorkers;
    let runtimePort!: KubeRuntimePort;
    const probes = new ProberManager({
      runtime,
      onChange: (u) => workers.resync(u.podUid),
      onLivenessFailure: (uid, _name, _message, failure) => {
        void (async () => {
          const pod = dispatch.get(uid);
          if (!pod) return;
          try {
            await manager.killContainer(pod as unknown as Pod, failure.containerId, _name, _message, failure.reason, failure.gracePeriodSeconds);
          } catch (err) {
            log(`killing container ${_name} of pod ${pod.metadata.namespace}/${pod.metadata.name}: ${(err as Error).message}`);
          }
          workers.resync(uid);
        })();
      },
      recorder: { event: (ref, type, reason, message) => recorder?.event(ref, type, reason, message) },
    });
    stops.push(['the probes', () => probes.close()]);
    const manager = new RuntimeManager({
      runtime, images,
      events: { event: (pod, type, reason, message, fieldPath) => podEvent(pod as unknown as ApiObject, type, reason, message, fieldPath) },
      dns: { clusterDNS: c.clusterDNS, clusterDomain: c.clusterDomain, resolvConf: c.resolvConf },
      podsDir: join(rootDir, 'pods'),
      ...(o.podLogsRoot ? { podLogsRoot: o.podLogsRoot } : {}),
      memoryCapacity: machine.memoryCapacity(),
      nodeAllocatable: allocatableStrings,
      hostIPs: [hostIP()],
      masterServiceNamespace: c.masterServiceNamespace,
      ...(api ? { envSources: envSources(api) } : {}),
      seccompDefault: c.seccompDefault,
      seccompProfileRoot: join(rootDir, 'seccomp'),
      runtimeName: version.runtimeName,
      cpuCFSQuota: c.cpuCFSQuota,
      cpuCFSQuotaPeriodUs: Math.round(c.cpuCFSQuotaPeriod * 1000),
      probes: { result: (kind, containerID) => probes.result(kind, containerID) },
    });
    runtimePort = new KubeRuntimePort(manager, { runtime, ...(o.podLogsRoot ? { podLogsRoot: o.podLogsRoot } : {}) });
    const admission = new PodAdmission();
    const mirrors = api ? new MirrorPodClient(api, () => api.node().get('', o.nodeName)?.metadata.uid) : undefined;
    const lifecycle = new PodLifecycle({
      runtime: runtimePort,
      volumes: { mount: (p) => volumes.mountPod(p), unmount: (p) => volumes.unmountPod(p.metadata.uid ?? '') },
      probes: {
        add: (p) => probes.addPod(p as never),
        remove: (p) => probes.removePod(p.metadata.uid ?? ''),
        apply: (p, statuses) => probes.updatePodStatus(p as never, statuses.map((s) => ({ ...s })) as never).containerStatuses as Record<string, unknown>[] ?? [],
      },
      cgroups: {
        ensure: async (p) => cm.ensurePod(p),
        remove: async (p) => { cm.removePod(p.metadata.uid ?? ''); },
      },
      mirrors: {
        isStatic: (p) => isStaticPod(p),
        ensure: async (p) => {
          if (!mirrors || !api) return undefined;
          const existing = api.pods().get(p.metadata.namespace ?? '', p.metadata.name ?? '');
          if (existing && isMirrorPod(existing) && !existing.metadata.deletionTimestamp) return existing;
          return mirrors.create(p).catch((err: unknown) => {
            log(`mirror pod of ${p.metadata.namespace}/${p.metadata.name}: ${(err as Error).message}`);
            return undefined;
          });
        },
        remove: async (p) => { await mirrors?.delete(p.metadata.namespace ?? '', p.metadata.name ?? ''); },
      },
      events: { record: (p, type, reason, message) => podEvent(p, type, reason, message) },
      status,
      hostIP,
      rejection: (uid) => admission.rejection(uid),
    });
    workers = new PodWorkers(lifecycle, {
      resyncMs: c.syncFrequency,
      onError: (pod, err) => log(`sync of pod ${pod.metadata.namespace}/${pod.metadata.name}: ${isStatusError(err) ? err.status.message : (err as Error).message}`),
    });
    stops.push(['the pod workers', () => workers.stop()]);
    const dispatch = new PodDispatch({ workers, admission, status, runtime: runtimePort, allocatable, log });
    pleg = new Pleg({ runtime, onPodChanged: (uid) => workers.resync(uid), ...(o.plegPeriodMs ? { periodMs: o.plegPeriodMs } : {}), onError: (err) => log(`PLEG: ${(err as Error).message}`) });
    pleg.start();
    stops.push(['the pod lifecycle events', () => pleg!.stop()]);

    // the serving pair ready before any pod runs (kube: TLS set up before the sync loop and the server start together)
    const tls = await tlsPending;

    // sources
    if (api) {
      const pods = api.pods();
      pods.addHandler({
        onAdd: (p) => dispatch.upsert(p),
        onUpdate: (_old, p) => dispatch.upsert(p),
        onDelete: (p) => dispatch.remove(p),
      });
      api.services();
      await pods.start();
      await api.services().start();
      await api.node().start();
    }
    let statics: StaticPodSource | undefined;
    if (c.staticPodPath || c.staticPodURL) {
      // loaded only here: manifests are validated as pods (the API's pod validation)
      const { StaticPodSource } = await import('./sources/source.js');
      statics = new StaticPodSource({
        nodeName: o.nodeName,
        ...(c.staticPodPath ? { path: c.staticPodPath } : {}),
        fileCheckMs: c.fileCheckFrequency,
        ...(c.staticPodURL ? { url: c.staticPodURL, headers: c.staticPodURLHeader } : {}),
        httpCheckMs: c.httpCheckFrequency,
        onError: (source, err) => log(`static pods from ${source}: ${err.message}`),
      });
      statics.onUpdate((u) => {
        for (const p of u.pods) {
          if (u.op === 'REMOVE') {
            dispatch.remove(p);
            void mirrors?.delete(p.metadata.namespace ?? '', p.metadata.name ?? '').catch(() => undefined);
          } else {
            dispatch.upsert(p);
          }
        }
      });
      await statics.start();
      stops.push(['the static pod sources', () => statics!.stop()]);
    }

    // the server and log rotation
    let server: RunningAgentServer | undefined;
    if (c.enableServer && tls) {
      const clientCAs = c.authentication.x509.clientCAFile ? readCAs(c.authentication.x509.clientCAFile) : undefined;
      server = await startAgentServer({
        host: {
          pods: () => dispatch.list(),
          logPath: async (ns, name, container, previous) => {
            const pod = dispatch.byName(ns, name) ?? (api ? api.pods().get(ns, name) : undefined);
            if (!pod) throw new LogUnavailable(`pod "${name}" not found`);
            const current = status.getPodStatus(pod.metadata.uid ?? '') ?? pod.status;
            const located = await locateContainerLog(runtime, { name, status: current }, container, previous);
            return located;
          },
        },
        nodeName: o.nodeName,
        address: c.address,
        port: c.port,
        tls,
        authentication: {
          ...(clientCAs ? { clientCAs } : {}),
          ...(c.authentication.webhook.enabled && api ? { tokenWebhook: { api, cacheTtlMs: c.authentication.webhook.cacheTTL } } : {}),
          anonymous: c.authentication.anonymous.enabled,
        },
        authorization: c.authorization.mode === 'Webhook' && api
          ? { mode: 'Webhook' as const, api, authorizedTtlMs: c.authorization.webhook.cacheAuthorizedTTL, unauthorizedTtlMs: c.authorization.webhook.cacheUnauthorizedTTL }
          : { mode: 'AlwaysAllow' as const },
        ...(c.healthzPort > 0 ? { healthz: { address: c.healthzBindAddress, port: c.healthzPort } } : {}),
        onError: (err) => log(`server: ${(err as Error).message}`),
      });
      stops.push(['the agent server', () => server!.close()]);
      log(`serving on https://${c.address}:${server.port}${server.healthzPort ? `, /healthz on http://${c.healthzBindAddress}:${server.healthzPort}` : ''}`);
    }
    // the Node
    const node = api ? new NodeManager({
      api, runtime, images, machine,
      node: { name: o.nodeName, hostname: o.hostname, labels: c.nodeLabels, taints: c.registerWithTaints, controllerAttachDetach: c.enableControllerAttachDetach },
      registerNode: c.registerNode, maxPods: c.maxPods, svcReserved: c.kubeReserved, systemReserved: c.systemReserved, evictionHard,
      evictionPressureTransitionMs: c.evictionPressureTransitionPeriod, localStorageCapacityIsolation: c.localStorageCapacityIsolation,
      nodeIPs: c.nodeIps, kubeletPort: server?.port || c.port, leaseNamespace: NODE_LEASE_NAMESPACE, leaseDurationSeconds: c.nodeLeaseDurationSeconds,
      statusUpdateMs: c.nodeStatusUpdateFrequency, statusReportMs: c.nodeStatusReportFrequency,
      healthChecks: [{ name: 'PLEG', check: () => { const h = pleg?.healthy(); return h && !h.ok ? `PLEG is not healthy: ${h.message}` : undefined; } }],
      onEvent: (e) => {
        if (recorder) void recorder.event({ kind: 'Node', apiVersion: 'v1', name: o.nodeName, uid: o.nodeName }, e.type, e.reason, e.message);
      },
      onError: (what, err) => log(`${what}: ${(err as Error).message}`),
    }) : undefined;
    if (node) {
      await node.start();
      stops.push(['the node status', () => node.stop()]);
    }
    const rotation = new ContainerLogManager({ runtime, policy: { maxSizeBytes: c.containerLogMaxSizeBytes, maxFiles: c.containerLogMaxFiles }, onError: (id, err) => log(`log rotation of ${id}: ${(err as Error).message}`) });
    rotation.start();
    stops.push(['the log rotation', () => rotation.stop()]);

    // housekeeping
    const housekeeping = setInterval(() => {
      void (async () => {
        await dispatch.cleanup();
        const active = new Set(dispatch.list().map((p) => p.metadata.uid ?? ''));
        probes.cleanupPods(active);
        cm.cleanupOrphans(active);
        if (mirrors && statics) await mirrors.sync(statics.pods());
      })().catch((err: unknown) => log(`housekeeping: ${(err as Error).message}`));
    }, HOUSEKEEPING_MS);
    housekeeping.unref();
    stops.push(['housekeeping', () => clearInterval(housekeeping)]);
    const containerGc = setInterval(() => {
      const active = new Set(dispatch.list().map((p) => p.metadata.uid ?? ''));
      garbageCollect(runtime, { isPodActive: (uid) => active.has(uid) }).catch((err: unknown) => log(`container garbage collection: ${(err as Error).message}`));
    }, CONTAINER_GC_MS);
    containerGc.unref();
    stops.push(['container collection', () => clearInterval(containerGc)]);
    if (api) stops.push(['the API client', () => api.close()]);

    return {
      nodeName: o.nodeName,
      port: server?.port ?? 0,
      healthzPort: server?.healthzPort,
      runtime,
      pods: () => dispatch.list(),
      stop: stopAll,
    };
  }
}


/** ConfigMaps, Secrets and Services for container environments, read as the node. */
function envSources(api: AgentApi) {
  const get = async (resource: string, ns: string, name: string) => {
    try {
      return await api.get({ group: '', version: 'v1', resource }, ns, name) as { data?: Record<string, string> };
    } catch (err) {
      if (isStatusError(err) && err.status.code === 404) return undefined;
      throw err;
    }
  };
  return {
    configMap: (ns: string, name: string) => get('configmaps', ns, name),
    secret: (ns: string, name: string) => get('secrets', ns, name),
    services: () => api.services().list() as never[],
  };
}

const STATIC_SOURCES = new Set(['file', 'http']);

/** A static pod: from the manifest folder or URL (kube's config.source annotation, either spelling). */
function isStaticPod(pod: ApiObject): boolean {
  return STATIC_SOURCES.has(annotation(pod, CONFIG_SOURCE) ?? '');
}

function readCAs(file: string): X509Certificate[] {
  const pem = readFileSync(file, 'utf8');
  return (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map((b) => new X509Certificate(b));
}

