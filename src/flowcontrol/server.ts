// API Priority and Fairness as one server assembles it: the bootstrap
// configuration producer (post-start hook priority-and-fairness-config-producer:
// the first ensure during the start, retried with back-off until it succeeds,
// then every minute), and — when --enable-priority-and-fairness and the
// APIPriorityAndFairness gate are on and the flowcontrol API is served — the
// config controller (post-start hook priority-and-fairness-filter), the
// filter's dependencies and the debug dumps.
import type { Registry } from '../registry/registry.js';
import type { Store } from '../storage/interface.js';
import type { Authorizer } from '../authz/authorizer.js';
import type { FeatureGates } from '../features/gates.js';
import { PostStartHook, type HealthCheck } from '../server/health.js';
import type { PriorityAndFairnessDeps } from '../server/filters/apf.js';
import { FLOWCONTROL_GROUP } from './bootstrap.js';
import { ensureBootstrapConfiguration, ENSURE_PERIOD_MS } from './ensure.js';
import { FlowControlController } from './controller.js';
import { registryCounts } from './counts.js';
import { debugDump } from './debug.js';
import { observeConfig } from './metrics.js';

export interface Component {
  start(): Promise<void>;
  stop(): void;
}

/** The producer: ensure once (retrying with back-off while it fails), then every minute. */
class ConfigProducer implements Component {
  private cancel: NodeJS.Timeout | undefined;
  private stopped = false;
  constructor(private readonly hook: PostStartHook, private readonly ensure: () => Promise<void>) {}
  async start(): Promise<void> {
    await this.attempt(1000);
  }
  private schedule(ms: number, fn: () => Promise<void>): void {
    if (this.stopped) return;
    this.cancel = setTimeout(() => void fn(), ms);
    this.cancel.unref();
  }
  private async attempt(backoffMs: number): Promise<void> {
    try {
      await this.ensure();
      this.hook.done();
      this.schedule(ENSURE_PERIOD_MS, () => this.periodic());
    } catch (err) {
      if (this.stopped) return;
      console.error(`E svc: APF bootstrap ensurer ran into error, will retry later: ${(err as Error).message}`);
      this.schedule(backoffMs, () => this.attempt(Math.min(backoffMs * 2, 30_000)));
    }
  }
  private async periodic(): Promise<void> {
    try {
      await this.ensure();
    } catch (err) {
      if (!this.stopped) console.error(`E svc: APF bootstrap ensurer ran into error, will retry later: ${(err as Error).message}`);
    }
    this.schedule(ENSURE_PERIOD_MS, () => this.periodic());
  }
  stop(): void {
    this.stopped = true;
    clearTimeout(this.cancel);
  }
}

export interface ApfServerOptions {
  readonly enablePriorityAndFairness?: boolean;
  readonly maxRequestsInflight: number;
  readonly maxMutatingRequestsInflight: number;
  readonly requestTimeoutMs: number;
}

export interface ApfServerDeps {
  readonly registry: Registry;
  readonly storage: Store;
  readonly authorizer: Authorizer;
  readonly gates: FeatureGates;
}

export interface ApfServer {
  /** The filter's dependencies; undefined: the in-flight limit stays. */
  readonly filter: PriorityAndFairnessDeps | undefined;
  readonly debug: ((path: string, query: URLSearchParams) => string | undefined) | undefined;
  readonly hooks: readonly HealthCheck[];
  /** Started in order once the watch caches are ready. */
  components(): Component[];
}

export function priorityAndFairness(opts: ApfServerOptions, deps: ApfServerDeps): ApfServer {
  const served = deps.registry.has(FLOWCONTROL_GROUP, 'flowschemas') && deps.registry.has(FLOWCONTROL_GROUP, 'prioritylevelconfigurations');
  if (!served) return { filter: undefined, debug: undefined, hooks: [], components: () => [] };
  const producerHook = new PostStartHook('priority-and-fairness-config-producer');
  const producer = new ConfigProducer(producerHook, () => ensureBootstrapConfiguration(deps.registry));
  const enabled = (opts.enablePriorityAndFairness ?? true) && deps.gates.enabled('APIPriorityAndFairness');
  if (!enabled) return { filter: undefined, debug: undefined, hooks: [producerHook], components: () => [producer] };

  const controller = new FlowControlController({
    registry: deps.registry, storage: deps.storage, authorizer: deps.authorizer, gates: deps.gates,
    serverConcurrencyLimit: opts.maxRequestsInflight + opts.maxMutatingRequestsInflight,
  });
  observeConfig(controller.config);
  const filterHook = new PostStartHook('priority-and-fairness-filter');
  const controllerComponent: Component = {
    start: async () => {
      await controller.start();
      filterHook.done();
    },
    stop: () => controller.stop(),
  };
  return {
    filter: { controller, counts: registryCounts(deps.registry), watchList: deps.gates.enabled('WatchList'), requestTimeoutMs: opts.requestTimeoutMs },
    debug: (path, query) => debugDump(controller.config, path, query),
    hooks: [producerHook, filterHook],
    // the bootstrap objects' Dangling conditions are written and seen before the server is started
    components: () => [controllerComponent, producer, { start: () => controller.quiesce(), stop: () => undefined }],
  };
}
