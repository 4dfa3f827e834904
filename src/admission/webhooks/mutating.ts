// MutatingAdmissionWebhook (kube's mutating dispatcher): the webhooks called
// one after another in source order, each seeing the object as the previous
// one left it; an answer's JSON patch is applied to the object in the
// webhook's version, which is then written back into the admission object.
//
// Reinvocation (kube's webhookReinvokeContext, state kept per request in the
// ReinvocationContext of registry/admission.ts):
//   round 0: a webhook that changed the object asks for a second round and
//            marks every IfNeeded webhook called before it for reinvocation;
//            IfNeeded webhooks called after it are marked only if a later
//            change happens.
//   round 1: the whole mutating phase runs again (Admission.mutate, in-tree
//            plugins included); if the object changed since this plugin's
//            last call (a later plugin mutated it), every IfNeeded webhook
//            called so far is reinvoked; otherwise only the marked ones.
import type { AdmissionAttributes, AdmissionPlugin } from '../../registry/admission.js';
import { clone, deepEqual, type ApiObject } from '../../registry/object.js';
import { newInternalError, StatusError } from '../../api/meta/index.js';
import { applyJsonPatch, decodeJsonPatch, isPatchError, type JsonValue } from '../../patch/index.js';
import { applySimplePatch, applySteps, simpleStepsOf } from './simplepatch.js';
import { annotateFailedOpen, annotateFromAnswer, annotateMutation, annotatePatch } from './annotations.js';
import { callWebhook } from './call.js';
import { observeWebhook, WEBHOOK_ALLOWED, type WebhookOutcome } from '../../metrics/admission.js';
import { trackMutatingWebhook } from '../../metrics/latencytrackers.js';
import { asStatus, callInput, matchConditionsError, shouldInvoke, VersionedObjects, type DispatchDeps } from './dispatch.js';
import { CallingWebhookError, failedClosed, toStatusError } from './errors.js';
import { requestView, type Invocation, type RequestView } from './match.js';
import type { Webhook } from './types.js';
import { writeBack } from './versioned.js';

export const MUTATING_PLUGIN = 'MutatingAdmissionWebhook';

class ReinvokeState {
  lastOutput: unknown;
  previouslyInvoked = new Set<string>();
  reinvoke = new Set<string>();
  requireReinvokingPreviouslyInvoked(): void {
    for (const uid of this.previouslyInvoked) this.reinvoke.add(uid);
    this.previouslyInvoked.clear();
  }
}

const internal = (message: string) => newInternalError(new Error(message));

/**
 * kube-apiserver runs mutating admission before the store's BeforeCreate and
 * the strategy's PrepareForCreate: a mutating webhook sees a new object
 * without uid and generation and with creationTimestamp null (golden
 * webhook-06). This store fills them before admission, so they are taken
 * out of what is sent, and put back after a patch (kube would fill them then).
 */
function asBeforeCreate(o: Record<string, unknown>): void {
  const m = o.metadata;
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return;
  const meta = m as Record<string, unknown>;
  // a new metadata object (the copy sent is ours) rather than `delete`, which would leave it a slow
  // dictionary-mode object for JSON.stringify and every later read; members keep their order
  const out: Record<string, unknown> = {};
  for (const k in meta) {
    if (k === 'uid' || k === 'generation' || !Object.hasOwn(meta, k)) continue;
    out[k] = k === 'creationTimestamp' ? null : meta[k];
  }
  if (!Object.hasOwn(out, 'creationTimestamp')) out.creationTimestamp = null;
  o.metadata = out;
}

/** The metadata fields the store set before admission (see asBeforeCreate). */
function storeSet(o: ApiObject): Record<string, unknown> {
  const m = o.metadata as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of ['uid', 'creationTimestamp', 'generation']) if (m[k] !== undefined) out[k] = m[k];
  return out;
}

/** Calls one webhook and applies its patch; whether the object changed. */
async function callMutating(a: AdmissionAttributes, req: RequestView, inv: Invocation, versioned: VersionedObjects, deps: DispatchDeps, round: number, index: number): Promise<boolean> {
  const w = inv.webhook;
  let changed = false;
  try {
    const mc = matchConditionsError(w, deps);
    if (mc) throw mc;
    const { object, oldObject } = versioned.for(inv);
    if (a.operation === 'CREATE' && object) asBeforeCreate(object);
    const answer = await callWebhook(deps.caller, w, callInput(a, req, inv, object, oldObject));
    annotateFromAnswer(a, w.name, answer.auditAnnotations);
    for (const text of answer.warnings) a.warn?.(text);
    if (!answer.allowed) throw toStatusError(w.name, answer.result);
    if (!answer.patch) return false;
    let patched: JsonValue | undefined;
    let ops: unknown;
    try {
      const text = answer.patch.toString('utf8');
      const unsupported = () => internal(`admission webhook ${JSON.stringify(w.name)} attempted to modify the object, which is not supported for this operation`);
      // the common patch (add/replace of members) from one JSON.parse; anything else decoded as evanphx does
      const simple = simpleStepsOf(text);
      if (simple) {
        if (simple.steps.length === 0) return false;
        if (!object || !a.object) throw unsupported();
        patched = applySteps(object as JsonValue, simple.steps);
        ops = simple.body; // its values may now also be in `patched`: annotatePatch writes it out before anything changes them
      }
      if (patched === undefined) {
        const decoded = decodeJsonPatch(text, 'Ignore');
        if (decoded.operations.length === 0) return false;
        if (!object || !a.object) throw unsupported();
        patched = applySimplePatch(object as JsonValue, decoded.operations) ?? applyJsonPatch(object as JsonValue, decoded.operations);
        ops = JSON.parse(text);
      }
    } catch (err) {
      if (isPatchError(err)) throw internal(err.message);
      throw err;
    }
    if (patched === null || typeof patched !== 'object' || Array.isArray(patched)) throw internal(`admission webhook ${JSON.stringify(w.name)} returned a patch that does not leave an object`);
    changed = !deepEqual(object, patched);
    annotatePatch(a, round, index, w.configuration, w.name, ops);
    const target = a.object!; // both ways above refuse a patch when there is no object
    const kept = a.operation === 'CREATE' ? storeSet(target) : undefined;
    writeBack(patched as Record<string, unknown>, inv.kind, target, deps.gates);
    if (kept) Object.assign(target.metadata, kept);
    versioned.reset();
    return changed;
  } finally {
    annotateMutation(a, round, index, w.configuration, w.name, changed);
  }
}

export function mutatingWebhookPlugin(deps: DispatchDeps): AdmissionPlugin {
  return {
    name: MUTATING_PLUGIN,
    phase: 'mutating',
    // per webhook: see call.ts (a dry run to a webhook with side effects is refused there)
    sideEffects: 'None',
    admit: (a) => deps.source.dispatch(a, mutate),
  };

  async function mutate(a: AdmissionAttributes, hooks: readonly Webhook[]): Promise<void> {
    const r = a.reinvocation;
    let state = r?.values.get(MUTATING_PLUGIN) as ReinvokeState | undefined;
    if (!state) {
      state = new ReinvokeState();
      r?.values.set(MUTATING_PLUGIN, state);
    }
    const reinvoking = r?.isReinvoke === true;
    if (reinvoking && !deepEqual(state.lastOutput, a.object)) state.requireReinvokingPreviouslyInvoked();
    const req = requestView(a, deps.equivalents);
    const versioned = new VersionedObjects(a);
    const round = reinvoking ? 1 : 0;
    try {
      for (let i = 0; i < hooks.length; i++) {
        const w = hooks[i]!;
        const inv = await shouldInvoke(w, a, req, deps, versioned);
        if (!inv) continue;
        if (reinvoking && !state.reinvoke.has(w.uid)) continue;
        let changed: boolean;
        const started = performance.now();
        try {
          changed = await callMutating(a, req, inv, versioned, deps, round, i);
          trackMutatingWebhook(a.latency, performance.now() - started);
          observeWebhook(w.name, 'admit', a.operation, (performance.now() - started) / 1000, WEBHOOK_ALLOWED);
        } catch (err) {
          trackMutatingWebhook(a.latency, performance.now() - started);
          observeWebhook(w.name, 'admit', a.operation, (performance.now() - started) / 1000, webhookOutcome(err, w.failurePolicy === 'Ignore'));
          if (err instanceof CallingWebhookError) {
            if (w.failurePolicy === 'Ignore') {
              annotateFailedOpen(a, 'mutation', round, i, 'true');
              continue;
            }
            throw failedClosed(err);
          }
          throw asStatus(err);
        }
        if (changed) {
          state.requireReinvokingPreviouslyInvoked();
          if (r) r.shouldReinvoke = true;
        }
        if (w.reinvocationPolicy === 'IfNeeded') state.previouslyInvoked.add(w.uid);
      }
    } finally {
      // what a reinvocation compares with: only needed when some webhook may be called again
      state.lastOutput = a.object === undefined || state.previouslyInvoked.size === 0 ? undefined : clone(a.object);
    }
  }
}

/** How a failed mutating call is recorded: a call failure, a denial (its code), or the server's own error (500). */
function webhookOutcome(err: unknown, failOpen: boolean): WebhookOutcome {
  if (err instanceof CallingWebhookError) return { kind: 'callFailed', failOpen, code: 0 };
  if (err instanceof StatusError && !(err.status.code === 500 && err.status.reason === 'InternalError')) return { kind: 'rejected', code: err.status.code ?? 400 };
  return { kind: 'internal' };
}
