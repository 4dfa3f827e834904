// pods/eviction (kube's EvictionREST, v1.27): a POST of a policy/v1 (or
// v1beta1) Eviction deletes the pod if its PodDisruptionBudget allows.
//   - the Eviction's name must be the URL's; dryRun of the request and of the
//     Eviction's deleteOptions must agree;
//   - a pod that is terminal, Pending or already terminating is deleted at
//     once (no budget is involved);
//   - otherwise the budgets selecting the pod: none → deleted; more than one
//     → a Failure Status of code 500 (answered with 201, as kube does); one →
//     a ready pod needs status.disruptionsAllowed > 0 (429 TooManyRequests
//     with a DisruptionBudget cause otherwise; the budget must be observed at
//     its generation), which is decremented and the pod recorded in
//     status.disruptedPods; an unready pod is deleted without spending the
//     budget when the budget is met (or its unhealthyPodEvictionPolicy is
//     AlwaysAllow), with the pod's resourceVersion as precondition;
//   - the delete runs with the request's user, so admission sees who evicts.
import { newBadRequest, newForbidden, isStatusError, StatusError } from '../api/meta/index.js';
import { selectorIsEmpty, selectorMatches } from '../api/meta/checks.js';
import { isObject, nowTimestamp, type ApiObject } from './object.js';
import type { Registry } from './registry.js';
import { isPodReady } from '../api/core/v1/podutil.js';
import type { DeleteOptions, WriteContext } from './store.js';

/** kube's MaxDisruptedPodSize. */
const MAX_DISRUPTED_PODS = 2000;
/** Conflicts on the budget are retried this many times (kube's EvictionsRetry steps). */
const BUDGET_ATTEMPTS = 20;

const PDBS = { group: 'policy', resource: 'poddisruptionbudgets' };

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (isObject(v) ? v : {});

/** The create of pods/<name>/eviction; answers the Status kube answers. */
export async function evictPod(registry: Registry, namespace: string, name: string, eviction: ApiObject, ctx: WriteContext): Promise<ApiObject> {
  if ((eviction.metadata?.name ?? '') !== name) throw newBadRequest('name in URL does not match name in Eviction object');
  const options = deleteOptionsOf(eviction, ctx);
  const pods = registry.store('', 'pods');
  const dryRun = ctx.dryRun || (options.dryRun?.length ?? 0) > 0;
  const del = (extra: Partial<DeleteOptions> = {}) => pods.delete(namespace, name, { ...ctx, dryRun, ...optionsFor(options), ...extra });

  const pod = await pods.get(namespace, name);
  const phase = obj(pod.status).phase;
  if (phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata.deletionTimestamp) {
    // Terminal, pending or terminating: no disruption to budget for (a non-terminal pod keeps the precondition).
    const enforce = phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp && !options.preconditions?.resourceVersion;
    await del(enforce ? { preconditions: { ...options.preconditions, resourceVersion: pod.metadata.resourceVersion } } : {});
    return success();
  }

  const budgets = (await registry.store(PDBS.group, PDBS.resource).listShared(namespace))
    .filter((b) => {
      const sel = obj(b.spec).selector;
      return isObject(sel) && !selectorIsEmpty(sel) && selectorMatches(sel, pod.metadata.labels ?? {});
    });
  if (budgets.length > 1) {
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 } as unknown as ApiObject;
  }
  let guarded = false;
  if (budgets.length === 1) {
    const budget = budgets[0]!;
    const st = obj(budget.status);
    const ready = isPodReady(pod);
    const alwaysAllow = obj(budget.spec).unhealthyPodEvictionPolicy === 'AlwaysAllow';
    if (!ready && (alwaysAllow || (num(st.currentHealthy) >= num(st.desiredHealthy) && num(st.desiredHealthy) > 0))) {
      guarded = true; // the unready pod goes without spending the budget, unless it became ready meanwhile
    } else {
      await spendBudget(registry, namespace, budget.metadata.name!, name, dryRun);
    }
  }
  try {
    const precondition = guarded && !options.preconditions?.resourceVersion ? { preconditions: { ...options.preconditions, resourceVersion: pod.metadata.resourceVersion } } : {};
    await del(precondition);
  } catch (err) {
    if (guarded && !options.preconditions?.resourceVersion && isStatusError(err) && err.status.reason === 'Conflict') {
      throw tooManyRequests(`The disruption budget ${budgets[0]!.metadata.name} is still being processed by the server.`, 10);
    }
    throw err;
  }
  return success();
}

function success(): ApiObject {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } as unknown as ApiObject;
}

interface EvictionDeleteOptions {
  readonly dryRun?: string[];
  readonly gracePeriodSeconds?: number;
  readonly propagationPolicy?: string;
  readonly preconditions?: { uid?: string; resourceVersion?: string };
}

/** The Eviction's deleteOptions with the request's dryRun (kube's propagateDryRun). */
function deleteOptionsOf(eviction: ApiObject, ctx: WriteContext): EvictionDeleteOptions {
  const given = obj((eviction as Json).deleteOptions);
  const requestDryRun = Array.isArray(ctx.options?.dryRun) ? (ctx.options.dryRun as string[]) : ctx.dryRun ? ['All'] : [];
  const own = Array.isArray(given.dryRun) ? (given.dryRun as string[]) : [];
  if (own.length > 0 && requestDryRun.length > 0 && JSON.stringify(own) !== JSON.stringify(requestDryRun)) {
    throw newBadRequest(`Non-matching dry-run options in request and content: [${requestDryRun.join(' ')}] and [${own.join(' ')}]`);
  }
  const pre = obj(given.preconditions);
  return {
    dryRun: own.length > 0 ? own : requestDryRun,
    ...(typeof given.gracePeriodSeconds === 'number' ? { gracePeriodSeconds: given.gracePeriodSeconds } : {}),
    ...(typeof given.propagationPolicy === 'string' ? { propagationPolicy: given.propagationPolicy } : {}),
    ...(isObject(given.preconditions) ? { preconditions: { ...(typeof pre.uid === 'string' ? { uid: pre.uid } : {}), ...(typeof pre.resourceVersion === 'string' ? { resourceVersion: pre.resourceVersion } : {}) } } : {}),
  };
}

function optionsFor(o: EvictionDeleteOptions): Partial<DeleteOptions> {
  return {
    ...(o.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: o.gracePeriodSeconds } : {}),
    ...(o.propagationPolicy !== undefined ? { propagationPolicy: o.propagationPolicy } : {}),
    ...(o.preconditions ? { preconditions: o.preconditions } : {}),
  };
}

/** kube's checkAndDecrement, retried on conflicts with the budget read again. */
async function spendBudget(registry: Registry, namespace: string, budgetName: string, podName: string, dryRun: boolean): Promise<void> {
  const store = registry.store(PDBS.group, PDBS.resource);
  for (let attempt = 1; ; attempt++) {
    const budget = await store.get(namespace, budgetName);
    const st = obj(budget.status);
    if (num(st.observedGeneration) < num(budget.metadata.generation)) {
      throw tooManyRequests(`The disruption budget ${budgetName} is still being processed by the server.`, 10);
    }
    const allowed = num(st.disruptionsAllowed);
    if (allowed < 0) throw newForbidden({ group: 'policy', resource: 'poddisruptionbudget' }, budgetName, 'pdb disruptions allowed is negative');
    if (Object.keys(obj(st.disruptedPods)).length > MAX_DISRUPTED_PODS) {
      throw newForbidden({ group: 'policy', resource: 'poddisruptionbudget' }, budgetName, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
    }
    if (allowed === 0) {
      throw tooManyRequests(`The disruption budget ${budgetName} needs ${num(st.desiredHealthy)} healthy pods and has ${num(st.currentHealthy)} currently`, 0);
    }
    if (dryRun) return;
    const status: Json = { ...st, disruptionsAllowed: allowed - 1, disruptedPods: { ...obj(st.disruptedPods), [podName]: nowTimestamp() } };
    if (allowed - 1 === 0) status.conditions = withDisruptionAllowed(status);
    try {
      await store.update(namespace, budgetName, { ...budget, status }, { dryRun: false, subresource: 'status' });
      return;
    } catch (err) {
      if (!(isStatusError(err) && err.status.reason === 'Conflict') || attempt >= BUDGET_ATTEMPTS) {
        if (isStatusError(err) && err.status.reason === 'Conflict') {
          throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Timeout: couldn't update PodDisruptionBudget "${budgetName}" due to conflicts`, reason: 'Timeout', details: { retryAfterSeconds: 10 }, code: 504 });
        }
        throw err;
      }
    }
  }
}

/** The DisruptionAllowed condition as component-helpers' UpdateDisruptionAllowedCondition writes it. */
export function withDisruptionAllowed(status: Json): Json[] {
  const allowed = num(status.disruptionsAllowed) > 0;
  const conditions = (Array.isArray(status.conditions) ? status.conditions : []).map((c) => ({ ...obj(c) }));
  const want = { type: 'DisruptionAllowed', status: allowed ? 'True' : 'False', reason: allowed ? 'SufficientPods' : 'InsufficientPods', message: '', observedGeneration: num(status.observedGeneration) };
  const i = conditions.findIndex((c) => c.type === 'DisruptionAllowed');
  if (i < 0) conditions.push({ ...want, lastTransitionTime: nowTimestamp() });
  else {
    const changed = conditions[i]!.status !== want.status;
    conditions[i] = { ...conditions[i], ...want, lastTransitionTime: changed ? nowTimestamp() : conditions[i]!.lastTransitionTime };
  }
  return conditions;
}

function tooManyRequests(causeMessage: string, retryAfterSeconds: number): StatusError {
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: "Cannot evict pod as it would violate the pod's disruption budget.", reason: 'TooManyRequests',
    details: { causes: [{ reason: 'DisruptionBudget', message: causeMessage }], ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}) },
    code: 429,
  });
}

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
