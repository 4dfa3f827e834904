// kube's endpoints controller (pkg/controller/endpoint): for every Service
// with a selector, an Endpoints object of the same name listing its pods'
// addresses, written as service account endpoint-controller. Labels are the
// service's (plus service.kubernetes.io/headless for a headless one);
// annotations endpoints.kubernetes.io/last-change-trigger-time and, past 1000
// addresses, endpoints.kubernetes.io/over-capacity: truncated. When the
// Service goes, so does its Endpoints — and at start, every Endpoints without
// a Service (but leader-election records), as kube's checkLeftoverEndpoints.
import type { ControllerClient } from '../client.js';
import { StartWhenAuthorized } from '../client.js';
import type { Controller, ControllerContext } from '../context.js';
import type { EventRecorder } from '../events.js';
import { isNamespaceTerminating, isReason } from '../informer.js';
import type { SharedInformer } from '../shared.js';
import { WorkQueue } from '../workqueue.js';
import { servicesOnPodChange, servicesSelecting, splitKey } from '../endpointslice/membership.js';
import { isServiceIPSet, selectorOf, selects } from '../endpointslice/pods.js';
import { TriggerTimeTracker } from '../endpointslice/triggertime.js';
import {
  ANNOTATION_LEADER, ANNOTATION_OVER_CAPACITY, ANNOTATION_TRIGGER_TIME, ENDPOINTS, LABEL_HEADLESS, SERVICES,
  type Endpoints, type Pod, type Service,
} from '../endpointslice/types.js';
import { sameMap } from '../endpointslice/slices.js';
import { capacityAnnotationCorrect, desiredSubsets, subsetsEqual, truncateSubsets } from './desired.js';

export const SERVICE_ACCOUNT = 'endpoint-controller';

export interface EndpointsControllerOptions {
  /** How long a failed sync waits before it is tried again (default 500 ms). */
  readonly retryMs?: number;
}

export class EndpointsController implements Controller {
  private readonly client: ControllerClient;
  private readonly recorder: EventRecorder;
  private readonly queue: WorkQueue<string>;
  private readonly triggers = new TriggerTimeTracker();
  /** service key → the resourceVersion of our last write of its Endpoints, until the informer has it. */
  private readonly written = new Map<string, number>();
  private readonly services: SharedInformer;
  private readonly pods: SharedInformer;
  private readonly endpoints: SharedInformer;
  private readonly starter: StartWhenAuthorized;
  private synced!: () => void;
  private readonly ready = new Promise<void>((r) => (this.synced = r));

  constructor(private readonly ctx: ControllerContext, opts: EndpointsControllerOptions = {}) {
    this.client = ctx.client(SERVICE_ACCOUNT);
    this.recorder = ctx.recorder(SERVICE_ACCOUNT, 'endpoint-controller');
    this.services = ctx.informers.informer('', 'services');
    this.pods = ctx.informers.informer('', 'pods');
    this.endpoints = ctx.informers.informer('', 'endpoints');
    this.queue = new WorkQueue((key) => this.sync(key), {
      retryMs: opts.retryMs ?? 500,
      onError: (key, err) => console.error(`endpoint controller: syncing service ${key}: ${(err as Error).message}`),
    });
    this.starter = new StartWhenAuthorized(this.client, SERVICES, 'endpoint controller', () => this.run());
  }

  start(): Promise<void> {
    return this.starter.start();
  }

  stop(): void {
    this.starter.stop();
    this.queue.stop();
  }

  private async run(): Promise<void> {
    const enqueue = (key: string) => this.queue.add(key, key);
    const keyOf = (o: { metadata: { namespace?: string; name?: string } }) => `${o.metadata.namespace}/${o.metadata.name}`;
    this.services.addHandler({ onAdd: (s) => enqueue(keyOf(s)), onUpdate: (_, s) => enqueue(keyOf(s)), onDelete: (s) => enqueue(keyOf(s)) });
    this.pods.addHandler({
      onAdd: (p) => servicesSelecting(this.services, p as Pod).forEach(enqueue),
      onUpdate: (o, p) => servicesOnPodChange(this.services, o as Pod, p as Pod).forEach(enqueue),
      onDelete: (p) => servicesSelecting(this.services, p as Pod).forEach(enqueue),
    });
    this.endpoints.addHandler({
      onDelete: (e) => {
        this.written.delete(keyOf(e));
        enqueue(keyOf(e));
      },
    });
    await this.ctx.informers.start();
    await Promise.all([this.services, this.pods, this.endpoints].map((i) => i.waitForSync()));
    this.synced();
    // leftovers: Endpoints whose Service is gone while we were not running
    for (const e of this.endpoints.list()) if (!e.metadata.annotations?.[ANNOTATION_LEADER]) enqueue(keyOf(e));
  }

  private async sync(key: string): Promise<boolean> {
    await this.ready;
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
        capacityAnnotationCorrect(current.metadata.annotations, current.subsets ?? [], ANNOTATION_OVER_CAPACITY)) return true;
    }

    const annotations = { ...(current?.metadata.annotations ?? {}) };
    if (triggerTime) annotations[ANNOTATION_TRIGGER_TIME] = triggerTime;
    else delete annotations[ANNOTATION_TRIGGER_TIME];
    if (truncateSubsets(subsets)) annotations[ANNOTATION_OVER_CAPACITY] = 'truncated';
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
