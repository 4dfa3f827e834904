// What a controller is built from (kube's ControllerContext): the registry
// and storage of this server, shared informers fed by the watch cache, the
// controller manager's configuration (kube's ComponentConfig: the root CA
// published to pods, the legacy token signer, --concurrent-*-syncs, …) and —
// per controller — an API client authorized as the controller's own service
// account in svc-system (kube-controller-manager's
// --use-service-account-credentials) and an event recorder writing through it.
import type { UserInfo } from '../authn/user.js';
import type { TokenGenerator } from '../authn/serviceaccount/index.js';
import type { PemKeyPair } from '../server/pki.js';
import type { Authorizer } from '../authz/authorizer.js';
import type { FeatureGates } from '../features/gates.js';
import type { Registry } from '../registry/registry.js';
import type { Store } from '../storage/interface.js';
import type { SubresourceCreate } from '../registry/subresources.js';
import { ControllerClient, controllerUser } from './client.js';
import { EventRecorder } from './events.js';
import { CONTROLLER_MANAGER } from './informer.js';
import { InformerFactory } from './shared.js';

/** A running controller (or scheduler, or simulated node set). */
export interface Controller {
  start(): Promise<void>;
  stop(): void | Promise<void>;
}

/** The controller manager's configuration the controllers read (kube's KubeControllerManagerConfiguration, in part). */
export interface ControllerConfig {
  /** The CA bundle published to pods and token Secrets (kube's --root-ca-file). */
  readonly rootCA: string;
  /** Signs legacy service-account token Secrets (kube's --service-account-private-key-file); no token controller without it. */
  readonly tokenGenerator?: TokenGenerator;
  /** serviceaccounts/token for in-process clients (the API server's TokenRequest storage); absent: 405 as without a token issuer. */
  readonly tokenRequest?: SubresourceCreate;
  /** The CA that signs certificates for the built-in signers (kube's --cluster-signing-cert-file/-key-file): the generated CA, if any. */
  readonly clusterSigningCA?: PemKeyPair;
  /** --concurrent-*-syncs: workers per controller, by kube's controller name (`replicaset`, `deployment`, `namespace`…). */
  readonly concurrentSyncs: Readonly<Record<string, number>>;
  /** The other per-controller flags (absent: kube's defaults). */
  readonly settings?: ControllerSettings;
}

/** kube-controller-manager's per-controller flags that svc has (node lifecycle, pod GC). */
export interface ControllerSettings {
  readonly nodeMonitorPeriodMs?: number;
  readonly nodeMonitorGracePeriodMs?: number;
  readonly nodeStartupGracePeriodMs?: number;
  readonly nodeEvictionRate?: number;
  readonly secondaryNodeEvictionRate?: number;
  readonly unhealthyZoneThreshold?: number;
  readonly largeClusterSizeThreshold?: number;
  readonly terminatedPodGCThreshold?: number;
}

export interface ControllerContextOptions {
  readonly resyncMs?: number;
  readonly config?: Partial<ControllerConfig>;
}

export class ControllerContext {
  readonly informers: InformerFactory;
  readonly config: ControllerConfig;

  constructor(
    readonly registry: Registry, readonly storage: Store, readonly authorizer: Authorizer, readonly gates: FeatureGates,
    opts: ControllerContextOptions = {},
  ) {
    this.informers = new InformerFactory(registry, opts.resyncMs ?? 0);
    this.config = { rootCA: '', concurrentSyncs: {}, ...opts.config };
  }

  /** A client acting as `serviceAccount` in svc-system, recording managedFields as `manager`. */
  client(serviceAccount: string, manager = CONTROLLER_MANAGER): ControllerClient {
    return this.clientAs(controllerUser(serviceAccount), manager);
  }

  /** A client acting as this user (the scheduler's system:svc-scheduler, a node's system:node:<name>, the manager's own user for leader election). */
  clientAs(user: UserInfo, manager = CONTROLLER_MANAGER): ControllerClient {
    return new ControllerClient(this.registry, this.authorizer, user, this.gates, manager);
  }

  /** An event recorder writing as `serviceAccount`, with kube's component name (source.component). */
  recorder(serviceAccount: string, component: string): EventRecorder {
    return new EventRecorder(this.client(serviceAccount), component);
  }

  /** The workers a controller runs (`--concurrent-<name>-syncs`), or `fallback` (kube's default for it). */
  concurrency(controller: string, fallback: number): number {
    return this.config.concurrentSyncs[controller] ?? fallback;
  }
}
