// kube's endpoints controller (pkg/controller/endpoint): for every Service
// with a selector, an Endpoints object of the same name listing its pods'
// addresses, written as service account endpoint-controller. Labels are the
// service's (plus service.kubernetes.io/headless for a headless one);
// annotations endpoints.kubernetes.io/last-change-trigger-time and, past 1000
// addresses, endpoints.kubernetes.io/over-capacity: truncated. When the
// Service goes, so does its Endpoints — and at start, every Endpoints without
// a Service (but leader-election records), as kube's checkLeftoverEndpoints.
import type { ControllerClient } from '../client.js';
import type { Controller, ControllerContext } from '../context.js';
import type { EventRecorder } from '../events.js';
import { isNamespaceTerminating, isReason } from '../informer.js';
import type { SharedInformer } from '../shared.js';
import { keyOf, SyncLoop } from '../endpointslice/loop.js';
import { enqueueServicesAndPods, splitKey } from '../endpointslice/membership.js';
import { isServiceIPSet, selectorOf, selects } from '../endpointslice/pods.js';
import { TriggerTimeTracker } from '../endpointslice/triggertime.js';
import {
  ANNOTATION_LEADER, ANNOTATION_OVER_CAPACITY, ANNOTATION_TRIGGER_TIME, ENDPOINTS, LABEL_HEADLESS, SERVICES,
  type Endpoints, type Pod, type Service,
} from '../endpointslice/types.js';
import { sameMap } from '../endpointslice/slices.js';
import { capacityAnnotationCorrect, desiredSubsets, MAX_CAPACITY, subsetsEqual, truncateSubsets } from './desired.js';

export const SERVICE_ACCOUNT = 'endpoint-controller';

export interface EndpointsControllerOptions {
  /** The most addresses an Endpoints object holds (kube's maxCapacity, 1000; smaller in tests). */
  readonly maxAddresses?: number;
  /** How long a failed sync waits before it is tried again (default 500 ms). */
  readonly retryMs?: number;
}

export class EndpointsController implements Controller {
  private readonly client: ControllerClient;
  private readonly recorder: EventRecorder;
  private readonly triggers = new TriggerTimeTracker();
  /** service key → the resourceVersion of our last write of its Endpoints, until the informer has it. */
  private readonly written = new Map<string, number>();
  private readonly services: SharedInformer;
  private readonly pods: SharedInformer;
  private readonly endpoints: SharedInformer;
  private readonly loop: SyncLoop;

  private readonly capacity: number;

  constructor(ctx: ControllerContext, opts: EndpointsControllerOptions = {}) {
    this.capacity = opts.maxAddresses ?? MAX_CAPACITY;
    this.client = ctx.client(SERVICE_ACCOUNT);
    this.recorder = ctx.recorder(SERVICE_ACCOUNT, 'endpoint-controller');
    this.services = ctx.informers.informer('', 'services');
    this.pods = ctx.informers.informer('', 'pods');
    this.endpoints = ctx.informers.informer('', 'endpoints');
    this.loop = new SyncLoop({
      ctx, client: this.client, target: SERVICES, label: 'endpoint controller',
      ...(opts.retryMs !== undefined ? { retryMs: opts.retryMs } : {}),
      sync: (key) => this.sync(key),
      wire: (enqueue) => this.wire(enqueue),
      // leftovers: Endpoints whose Service went while we were not running (leader-election records aside)
      synced: (enqueue) => {
        for (const e of this.endpoints.list()) if (!e.metadata.annotations?.[ANNOTATION_LEADER]) enqueue(keyOf(e));
      },
    });
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  stop(): void {
    this.loop.stop();
  }

  private wire(enqueue: (key: string) => void): SharedInformer[] {
    enqueueServicesAndPods(this.services, this.pods, enqueue);
    this.endpoints.addHandler({
      onDelete: (e) => {
        this.written.delete(keyOf(e));
        enqueue(keyOf(e));
      },
    });
    return [this.services, this.pods, this.endpoints];
  }

  private async sync(key: string): Promise<boolean> {
    const [namespace, name] = splitKey(key);
    const svc = this.services.get(namespace, name) as Service | undefined;
    if (!svc) {
      try {
        await this.client.delete(ENDPOINTS, namespace, name);
      } catch (err) {
        if (!isReason(err, 'NotFound')) throw err;
      }
      this.triggers.delete(namespace, name);
      this.written.delete(key);
      return true;
    }
    if (svc.spec?.type === 'ExternalName') return true;
    const selector = selectorOf(svc);
    if (!selector) return true;

    const pods = (this.pods.list(namespace) as Pod[]).filter((p) => selects(selector, p.metadata.labels));
    const triggerTime = this.triggers.compute(svc, pods);
    const subsets = desiredSubsets(svc, pods);

    const current = this.endpoints.get(namespace, name) as Endpoints | undefined;
    const mine = this.written.get(key);
    if (mine !== undefined) {
      if (!current || Number(current.metadata.resourceVersion) < mine) return false; // the informer has not seen our write yet
      this.written.delete(key);
    }
    const create = !current;
    const svcLabels = svc.metadata.labels ?? {};
    if (current) {
      const labels = { ...(current.metadata.labels ?? {}) };
      delete labels[LABEL_HEADLESS];
      if (subsetsEqual(current.subsets, subsets) && sameMap(labels, svcLabels) &&
        capacityAnnotationCorrect(current.metadata.annotations, current.subsets ?? [], this.capacity)) return true;
    }

    const annotations = { ...(current?.metadata.annotations ?? {}) };
    if (triggerTime) annotations[ANNOTATION_TRIGGER_TIME] = triggerTime;
    else delete annotations[ANNOTATION_TRIGGER_TIME];
    if (truncateSubsets(subsets, this.capacity)) annotations[ANNOTATION_OVER_CAPACITY] = 'truncated';
    else delete annotations[ANNOTATION_OVER_CAPACITY];
    const labels = { ...svcLabels };
    if (!isServiceIPSet(svc)) labels[LABEL_HEADLESS] = '';
    else delete labels[LABEL_HEADLESS];

    let written: Endpoints;
    try {
      if (create) {
        written = await this.client.create(ENDPOINTS, namespace, { apiVersion: 'v1', kind: 'Endpoints', metadata: { name, labels, annotations }, subsets }) as Endpoints;
      } else {
        written = await this.client.update(ENDPOINTS, namespace, name, (cur) => ({ ...cur, metadata: { ...cur.metadata, labels, annotations }, subsets })) as Endpoints;
      }
    } catch (err) {
      // a terminating namespace refuses creates for good: drop the service
      if (create && isNamespaceTerminating(err)) return true;
      const ref = { apiVersion: 'v1', kind: 'Endpoints', namespace, name };
      const msg = (err as Error).message;
      if (create) await this.recorder.event(ref, 'Warning', 'FailedToCreateEndpoint', `Failed to create endpoint for service ${namespace}/${name}: ${msg}`);
      else await this.recorder.event(ref, 'Warning', 'FailedToUpdateEndpoint', `Failed to update endpoint ${namespace}/${name}: ${msg}`);
      throw err;
    }
    if (Number(written.metadata.resourceVersion) !== Number(current?.metadata.resourceVersion)) {
      this.written.set(key, Number(written.metadata.resourceVersion));
    }
    return true;
  }
}

/** kube-controller-manager's `endpoint` controller. */
export function startEndpointsController(ctx: ControllerContext, opts?: EndpointsControllerOptions): Controller {
  return new EndpointsController(ctx, opts);
}
