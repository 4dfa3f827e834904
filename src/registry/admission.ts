// The admission seam: the write path calls mutate() and then admit() at fixed
// points with the operation, the new and old objects, the user and dryRun.
// Admission holds the enabled plugins in kube's fixed order (built from the
// flags by src/admission/chain.ts): every mutating step in order, then (after
// the strategy's validation) every validating step in order.
import type { UserInfo } from '../authn/user.js';
import type { ApiObject } from './object.js';
import { newBadRequest } from '../api/meta/index.js';
import type { ResourceRequestInfo } from '../endpoints/requestinfo.js';
import type { LatencyTrackers } from '../metrics/latencytrackers.js';
import { controllerRecorder, observeAdmissionStep, type AdmissionStepType } from '../metrics/admission.js';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface AdmissionAttributes {
  readonly operation: AdmissionOperation;
  readonly object: ApiObject | undefined;
  readonly oldObject: ApiObject | undefined;
  readonly resource: { readonly group: string; readonly version: string; readonly resource: string; readonly kind: string };
  readonly namespace: string;
  readonly name: string;
  readonly namespaced: boolean;
  readonly dryRun: boolean;
  readonly user: UserInfo | undefined;
  /** The subresource written ('status', 'eviction', 'token', 'ephemeralcontainers', …); absent or '' for the object itself. */
  readonly subresource?: string;
  /** Adds a `Warning: 299 - "<text>"` header to the response (as Kubernetes' warning.AddWarning); absent where nobody listens. */
  readonly warn?: (text: string) => void;
  /** Records an audit annotation for the request (Kubernetes' audit.AddAuditAnnotation); absent while there is no audit log. */
  readonly annotate?: (key: string, value: string) => void;
  /**
   * The API request that writes (its group and version as the client spelled
   * them, resource and subresource): what admission webhooks match and report
   * as requestResource. Absent for the server's own writes and CONNECT.
   */
  readonly requestInfo?: ResourceRequestInfo;
  /**
   * The options object of the request as Kubernetes sends it to webhooks
   * (CreateOptions, UpdateOptions, PatchOptions or DeleteOptions, apiVersion
   * meta.k8s.io/v1); absent where none was built (CONNECT: null on the wire).
   */
  readonly options?: Readonly<Record<string, unknown>>;
  /** Where webhooks note their time (the request's latency trackers, for the request SLI). */
  readonly latency?: LatencyTrackers;
  /** The reinvocation state of one request's mutating phase (set by Admission.mutate). */
  readonly reinvocation?: ReinvocationContext;
}

/**
 * Kube's admission.ReinvocationContext: a plugin that changed the object asks
 * for the mutating phase to run again (shouldReinvoke); in that second round
 * isReinvoke is true. Plugins keep their own per-request state in `values`.
 */
export class ReinvocationContext {
  isReinvoke = false;
  shouldReinvoke = false;
  readonly values = new Map<string, unknown>();
}

export interface AdmissionPlugin {
  readonly name: string;
  /** Mutating plugins run before the strategy's validation and may change the object; validating ones (the default) run after it. */
  readonly phase?: 'mutating' | 'validating';
  /**
   * The validating step of a plugin that has both (kube's plugins that are
   * both MutationInterface and ValidationInterface): with phase 'mutating',
   * admit() runs in the mutating phase and validate() in the validating one.
   */
  validate?(a: AdmissionAttributes): Promise<void> | void;
  /**
   * What the plugin does besides answering (as admission webhooks declare it):
   * 'None' (the default: built-in plugins only read), 'NoneOnDryRun' (it
   * skips its side effects when the request is a dry run), 'Some'. A dry-run
   * request that reaches a plugin with side effects fails (spec "Dry run").
   */
  readonly sideEffects?: 'None' | 'NoneOnDryRun' | 'Some';
  /** Throws an API error (StatusError) to reject. */
  admit(a: AdmissionAttributes): Promise<void> | void;
}

/** Kubernetes' answer when a dry run meets an admission step that cannot promise to have no side effects. */
function dryRunUnsupported(p: AdmissionPlugin): Error {
  return newBadRequest(`admission webhook ${JSON.stringify(p.name)} does not support dry run`);
}

type Step = (a: AdmissionAttributes) => Promise<void> | void;

/** One plugin's step of a phase, with the recorder of its duration metric. */
interface ChainStep {
  readonly plugin: AdmissionPlugin;
  readonly run: Step;
  readonly record: (operation: string, rejected: boolean, seconds: number) => void;
}

/**
 * Runs the steps in order; a step that answers synchronously
 * costs no await (most built-in plugins decide without I/O), so a chain of
 * twenty plugins is not twenty turns of the microtask queue. Each step and
 * the whole phase are timed (apiserver_admission_controller_ and
 * step_admission_duration_seconds); one clock reading ends a step and starts
 * the next.
 */
async function runSteps(steps: readonly ChainStep[], a: AdmissionAttributes, type: AdmissionStepType): Promise<void> {
  const phaseStart = performance.now();
  let stepStart = phaseStart;
  let current: ChainStep | undefined;
  try {
    for (let i = 0; i < steps.length; i++) {
      const s = steps[i]!;
      current = s;
      if (a.dryRun && s.plugin.sideEffects === 'Some') throw dryRunUnsupported(s.plugin);
      const r = s.run(a);
      if (r !== undefined && typeof (r as Promise<void>).then === 'function') await r;
      const now = performance.now();
      s.record(a.operation, false, (now - stepStart) / 1000);
      stepStart = now;
    }
  } catch (err) {
    const now = performance.now();
    if (current) current.record(a.operation, true, (now - stepStart) / 1000);
    observeAdmissionStep(type, a.operation, true, (now - phaseStart) / 1000);
    throw err;
  }
  observeAdmissionStep(type, a.operation, false, (stepStart - phaseStart) / 1000);
}

export class Admission {
  private readonly plugins: AdmissionPlugin[] = [];
  private readonly mutating: ChainStep[] = [];
  private readonly validating: ChainStep[] = [];
  /** The plugins in the order they run (kube's order: chain.ts sorts them). */
  constructor(plugins: readonly AdmissionPlugin[] = []) {
    for (const p of plugins) this.register(p);
  }
  /** Appends a plugin at the end of the chain. */
  register(p: AdmissionPlugin): void {
    if (this.plugins.some((x) => x.name === p.name)) throw new Error(`admission plugin ${p.name} registered twice`);
    this.plugins.push(p);
    if (p.phase === 'mutating') {
      this.mutating.push({ plugin: p, run: (a) => p.admit(a), record: controllerRecorder(p.name, 'admit') });
      if (p.validate) this.validating.push({ plugin: p, run: (a) => p.validate!(a), record: controllerRecorder(p.name, 'validate') });
    } else {
      this.validating.push({ plugin: p, run: (a) => p.admit(a), record: controllerRecorder(p.name, 'validate') });
    }
  }
  /** The names of the plugins, in order. */
  names(): string[] {
    return this.plugins.map((p) => p.name);
  }
  /**
   * The mutating phase: before validation. As kube's reinvoker: when a plugin
   * asked for it (a mutating webhook changed the object), every mutating step
   * runs once more, in order (the built-in ones being idempotent, the
   * webhooks deciding themselves which of them run again).
   */
  async mutate(a: AdmissionAttributes): Promise<void> {
    if (this.mutating.length === 0) return;
    const reinvocation = a.reinvocation ?? new ReinvocationContext();
    const attrs: AdmissionAttributes = a.reinvocation ? a : { ...a, reinvocation };
    await runSteps(this.mutating, attrs, 'admit');
    if (!reinvocation.shouldReinvoke || reinvocation.isReinvoke) return;
    reinvocation.isReinvoke = true;
    await runSteps(this.mutating, attrs, 'admit');
  }
  /** The validating phase: after validation, just before storage. */
  admit(a: AdmissionAttributes): Promise<void> {
    return runSteps(this.validating, a, 'validate');
  }
}
