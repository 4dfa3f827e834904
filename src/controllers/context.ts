// What a controller is built from (kube's ControllerContext): the registry
// and storage of this server, shared informers fed by the watch cache, and —
// per controller — an API client authorized as the controller's own service
// account in svc-system (kube-controller-manager's
// --use-service-account-credentials) and an event recorder writing through it.
import type { Authorizer } from '../authz/authorizer.js';
import type { FeatureGates } from '../features/gates.js';
import type { Registry } from '../registry/registry.js';
import type { Store } from '../storage/interface.js';
import { ControllerClient, controllerUser } from './client.js';
import { EventRecorder } from './events.js';
import { CONTROLLER_MANAGER } from './informer.js';
import { InformerFactory } from './shared.js';

/** A running controller (or scheduler, or simulated node set). */
export interface Controller {
  start(): Promise<void>;
  stop(): void | Promise<void>;
}

export class ControllerContext {
  readonly informers: InformerFactory;

  constructor(
    readonly registry: Registry, readonly storage: Store, readonly authorizer: Authorizer, readonly gates: FeatureGates,
    opts: { readonly resyncMs?: number } = {},
  ) {
    this.informers = new InformerFactory(registry, opts.resyncMs ?? 0);
  }

  /** A client acting as `serviceAccount` in svc-system, recording managedFields as `manager`. */
  client(serviceAccount: string, manager = CONTROLLER_MANAGER): ControllerClient {
    return new ControllerClient(this.registry, this.authorizer, controllerUser(serviceAccount), this.gates, manager);
  }

  /** An event recorder writing as `serviceAccount`, with kube's component name (source.component). */
  recorder(serviceAccount: string, component: string): EventRecorder {
    return new EventRecorder(this.client(serviceAccount), component);
  }
}
