// What both dispatchers need per request: the webhooks that apply (with
// their resource and kind), the request's view, and the object versions each
// invocation sends (one conversion per kind and request).
import type { AdmissionAttributes } from '../../registry/admission.js';
import type { FeatureGates } from '../../features/gates.js';
import { newInternalError, StatusError } from '../../api/meta/index.js';
import type { CallbackCaller } from './caller.js';
import { CallingWebhookError } from './errors.js';
import { requestView, shouldCall, type Invocation, type MatchDeps, type RequestView } from './match.js';
import type { WebhookSource } from './source.js';
import type { CallInput } from './call.js';
import { toWebhookVersion } from './versioned.js';
import type { Webhook } from './types.js';
import type { WebhookConditions } from './conditions.js';

export const MATCH_CONDITIONS_GATE = 'AdmissionWebhookMatchConditions';

export interface DispatchDeps extends MatchDeps {
  readonly source: WebhookSource;
  readonly caller: CallbackCaller;
  readonly gates: FeatureGates;
  /** matchConditions' evaluation; absent when the server has no expression engine (see matchConditionsError). */
  readonly conditions?: WebhookConditions;
}

/** Whether the matchConditions gate is on (a gate this build does not know counts as off). */
export function matchConditionsEnabled(gates: FeatureGates): boolean {
  try {
    return gates.enabled(MATCH_CONDITIONS_GATE);
  } catch {
    return false;
  }
}

/**
 * With AdmissionWebhookMatchConditions on and no expression engine given to
 * the dispatcher (deps.conditions), a webhook with matchConditions cannot be
 * evaluated: its call fails (failurePolicy decides) with this error instead
 * of being called or skipped silently. With the gate off, kube ignores
 * matchConditions, and so do we.
 */
export function matchConditionsError(w: Webhook, deps: Pick<DispatchDeps, 'gates' | 'conditions'>): CallingWebhookError | undefined {
  if (deps.conditions || w.matchConditions.length === 0 || !matchConditionsEnabled(deps.gates)) return undefined;
  return new CallingWebhookError(w.name, 'matchConditions cannot be evaluated: the expression language is not available in this server');
}

/**
 * kube's ShouldCallHook: the rules and selectors (match.ts), then, with the
 * gate on, the webhook's matchConditions against the object in the
 * invocation's version (conditions.ts; a failed evaluation throws its 403).
 */
export async function shouldInvoke(w: Webhook, a: AdmissionAttributes, req: RequestView, deps: DispatchDeps, versioned: VersionedObjects): Promise<Invocation | undefined> {
  const inv = await shouldCall(w, a, req, deps);
  if (!inv || !deps.conditions || w.matchConditions.length === 0 || !matchConditionsEnabled(deps.gates)) return inv;
  return (await deps.conditions.matches(inv, a, req, versioned.for(inv))) ? inv : undefined;
}

/** An invocation and the request it is made for. */
export function callInput(a: AdmissionAttributes, req: RequestView, inv: Invocation, object: unknown, oldObject: unknown): CallInput {
  return {
    resource: inv.resource, kind: inv.kind, subresource: inv.subresource,
    requestResource: req.resource, requestKind: req.kind, requestSubresource: req.subresource,
    name: a.name, namespace: a.namespace, operation: a.operation, user: a.user,
    object, oldObject, dryRun: a.dryRun,
    options: a.operation === 'CONNECT' ? null : reviewOptions(a.operation, a.options),
  };
}

/**
 * The options a review carries. kube's patch handler admits a patch as an
 * update with UpdateOptions (patchToUpdateOptions), or as a create with
 * CreateOptions when an apply creates the object (patchToCreateOptions): the
 * PatchOptions' dryRun, fieldManager and fieldValidation, without force.
 */
function reviewOptions(operation: string, options: unknown): unknown {
  if (options === null || typeof options !== 'object' || (options as Record<string, unknown>).kind !== 'PatchOptions') return options ?? null;
  const patch = options as Record<string, unknown>;
  const out: Record<string, unknown> = { kind: operation === 'CREATE' ? 'CreateOptions' : 'UpdateOptions', apiVersion: patch.apiVersion };
  for (const k of ['dryRun', 'fieldManager', 'fieldValidation']) if (patch[k] !== undefined) out[k] = patch[k];
  return out;
}

/** The objects sent for an invocation's kind, converted once per kind. */
export class VersionedObjects {
  private readonly byKind = new Map<string, { object: Record<string, unknown> | undefined; oldObject: Record<string, unknown> | undefined }>();
  /** `copy`: whether callers change what they get (the mutating dispatcher does; the validating one only sends it). */
  constructor(private readonly a: AdmissionAttributes, private readonly copy = true) {}
  for(inv: Invocation) {
    const key = `${inv.kind.group}/${inv.kind.version}/${inv.kind.kind}`;
    let v = this.byKind.get(key);
    if (!v) {
      try {
        v = { object: toWebhookVersion(this.a.object, inv.kind, this.copy), oldObject: toWebhookVersion(this.a.oldObject, inv.kind, this.copy) };
      } catch (err) {
        throw newInternalError(err instanceof Error ? err : new Error(String(err)));
      }
      this.byKind.set(key, v);
    }
    return v;
  }
  /** Forgets the conversions (the object changed). */
  reset(): void {
    this.byKind.clear();
  }
}

/** Of the source's webhooks (`hooks`), those that apply, each with its invocation, in order; `index` is the webhook's position. */
export async function invocations(a: AdmissionAttributes, hooks: readonly Webhook[], deps: DispatchDeps, versioned: VersionedObjects): Promise<{ req: RequestView; list: { index: number; inv: Invocation }[] }> {
  const req = requestView(a, deps.equivalents);
  const list: { index: number; inv: Invocation }[] = [];
  for (let i = 0; i < hooks.length; i++) {
    const inv = await shouldInvoke(hooks[i]!, a, req, deps, versioned);
    if (inv) list.push({ index: i, inv });
  }
  return { req, list };
}

/** A StatusError for anything else that failed. */
export const asStatus = (err: unknown): StatusError => (err instanceof StatusError ? err : newInternalError(err instanceof Error ? err : new Error(String(err))));
