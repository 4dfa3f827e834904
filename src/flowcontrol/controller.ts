// The APF config controller (kube's apf_controller, v1.27) as the server runs
// it: informers on FlowSchemas and PriorityLevelConfigurations feed
// FlowControlConfig (a burst of changes is digested once); every 10 s the
// current limits are re-divided (borrowing); each stored FlowSchema's
// `Dangling` condition is written when it changes, through the status
// subresource as the server's own loopback identity (system:apiserver), with
// kube's field manager.
import type { Registry } from '../registry/registry.js';
import type { Store } from '../storage/interface.js';
import type { ApiObject } from '../registry/object.js';
import type { Authorizer } from '../authz/authorizer.js';
import type { UserInfo } from '../authn/user.js';
import type { RequestInfo } from '../endpoints/requestinfo.js';
import type { FeatureGates } from '../features/gates.js';
import { Informer } from '../controllers/informer.js';
import { ControllerClient } from '../controllers/client.js';
import { realClock, type Clock } from './clock.js';
import { FlowControlConfig, type Classified } from './config.js';
import { BORROWING_ADJUSTMENT_PERIOD_MS } from './concurrency.js';
import { FLOWCONTROL_GROUP } from './bootstrap.js';
import { rfc3339 } from '../api/meta/time.js';

export const CONFIG_CONSUMER_MANAGER = 'api-priority-and-fairness-config-consumer-v1';
const LOOPBACK_USER: UserInfo = { name: 'system:apiserver', groups: ['system:masters', 'system:authenticated'] };

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** kube's Dangling condition for a schema. */
export function danglingCondition(level: string, dangling: boolean): { type: string; status: string; reason: string; message: string } {
  return dangling
    ? { type: 'Dangling', status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named "${level}" but there is no such object` }
    : { type: 'Dangling', status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named "${level}" and it exists` };
}


/** The status with the condition set (lastTransitionTime kept when the status did not change), or undefined when nothing changes. */
export function withDangling(fs: ApiObject, cond: ReturnType<typeof danglingCondition>, nowMs: number): Obj | undefined {
  const status = obj((fs as unknown as Obj).status);
  const conditions = (Array.isArray(status.conditions) ? status.conditions : []).map(obj);
  const have = conditions.find((c) => c.type === 'Dangling');
  if (have && have.status === cond.status && have.reason === cond.reason && have.message === cond.message) return undefined;
  const next = { ...cond, lastTransitionTime: have && have.status === cond.status ? have.lastTransitionTime : rfc3339(nowMs) };
  return { ...status, conditions: [...conditions.filter((c) => c.type !== 'Dangling'), next] };
}

export interface ControllerOptions {
  readonly registry: Registry;
  readonly storage: Store;
  readonly authorizer: Authorizer;
  readonly gates: FeatureGates;
  readonly serverConcurrencyLimit: number;
  readonly clock?: Clock;
}

export class FlowControlController {
  readonly config: FlowControlConfig;
  private readonly flowSchemas = new Map<string, ApiObject>();
  private readonly priorityLevels = new Map<string, ApiObject>();
  private readonly informers: Informer[] = [];
  private readonly client: ControllerClient;
  private readonly clock: Clock;
  private scheduled = false;
  private stopped = false;
  private cancelBorrowing: (() => void) | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly opts: ControllerOptions) {
    this.clock = opts.clock ?? realClock;
    this.config = new FlowControlConfig(this.clock, opts.serverConcurrencyLimit);
    this.config.apply([], []);
    this.client = new ControllerClient(opts.registry, opts.authorizer, LOOPBACK_USER, opts.gates, CONFIG_CONSUMER_MANAGER);
  }

  /** The schema and level of a request; the catch-all (always present) when nothing matches. */
  classify(user: UserInfo, info: RequestInfo): Classified {
    return this.config.classify(user, info);
  }

  async start(): Promise<void> {
    const watch = (resource: string, into: Map<string, ApiObject>) => new Informer(this.opts.registry, this.opts.storage, { group: FLOWCONTROL_GROUP, resource }, {
      onList: () => into.clear(),
      onObject: (o) => {
        into.set(o.metadata.name!, o);
        this.schedule();
      },
      onDelete: (o) => {
        into.delete(o.metadata.name!);
        this.schedule();
      },
    }, 'apf config controller');
    this.informers.push(watch('prioritylevelconfigurations', this.priorityLevels), watch('flowschemas', this.flowSchemas));
    for (const i of this.informers) await i.start();
    this.digest();
    const tick = () => {
      if (this.stopped) return;
      this.config.adjustBorrowing();
      this.cancelBorrowing = this.clock.after(BORROWING_ADJUSTMENT_PERIOD_MS, tick);
    };
    this.cancelBorrowing = this.clock.after(BORROWING_ADJUSTMENT_PERIOD_MS, tick);
  }

  stop(): void {
    this.stopped = true;
    this.cancelBorrowing?.();
    for (const i of this.informers) i.stop();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.stopped) this.digest();
    });
  }

  private digest(): void {
    this.config.apply([...this.flowSchemas.values()], [...this.priorityLevels.values()]);
    const wanted: [ApiObject, Obj][] = [];
    for (const [name, d] of this.config.dangling) {
      const fs = this.flowSchemas.get(name);
      if (!fs) continue;
      const status = withDangling(fs, danglingCondition(d.level, d.dangling), Date.now());
      if (status) wanted.push([fs, status]);
    }
    if (wanted.length === 0) return;
    this.writing = this.writing.then(() => this.writeStatuses(wanted));
  }

  /** Resolves once the status writes queued so far are done (tests). */
  settled(): Promise<void> {
    return this.writing;
  }

  /**
   * Resolves once every stored FlowSchema, as the informer last saw it, carries the Dangling
   * condition it should (the writes done and seen back), or after `timeoutMs`: the server's start
   * waits for this, so that its own status writes do not land amid a client's first requests.
   */
  async quiesce(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && !this.stopped) {
      await this.writing;
      if (!this.scheduled && this.uptodate()) return;
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  private uptodate(): boolean {
    for (const [name, d] of this.config.dangling) {
      const fs = this.flowSchemas.get(name);
      if (fs && withDangling(fs, danglingCondition(d.level, d.dangling), Date.now())) return false;
    }
    return true;
  }

  private async writeStatuses(wanted: [ApiObject, Obj][]): Promise<void> {
    const target = { group: FLOWCONTROL_GROUP, version: 'v1beta3', resource: 'flowschemas', subresource: 'status' };
    for (const [fs, status] of wanted) {
      try {
        await this.client.update(target, '', fs.metadata.name!, (cur) => {
          const d = this.config.dangling.get(cur.metadata.name!);
          const s = d ? withDangling(cur, danglingCondition(d.level, d.dangling), Date.now()) : undefined;
          return { ...cur, status: s ?? status } as ApiObject;
        });
      } catch (err) {
        if (!this.stopped) console.error(`E svc: apf: status of FlowSchema ${fs.metadata.name}: ${(err as Error).message}`);
      }
    }
  }
}
