// ResourceQuota (validating): every create or update of a namespaced object
// (not a subresource) is measured against the namespace's quotas
// (check.ts); when it fits, the new usage is written to the quotas' status
// before the object is stored, so concurrent writes cannot together exceed a
// quota. As kube's quota evaluator, writes are handled per namespace in
// batches: one batch at a time per namespace in this process (one starts at
// once when none is in progress; the requests that arrive meanwhile make the
// next), each checked against the usage the batch before it left, and one status update per
// changed quota, a compare-and-swap on its resourceVersion — so several
// servers on one store stay correct too. A conflicting update is retried
// (three times) against a fresh read of the quotas that failed. A dry run is
// checked and records nothing. A namespace the store shows without quotas
// (and no limited resources configured) admits at once, without a batch.
import { newInternalError } from '../../../api/meta/index.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../../registry/admission.js';
import type { ApiObject } from '../../../registry/object.js';
import { listsEqual } from '../../../quota/resources.js';
import type { UsageEvaluator } from '../../../quota/evaluator.js';
import { checkRequest, forWrite, statusUsed } from './check.js';
import { evaluatorFor } from '../../../quota/registry.js';
import type { ResourceQuotaConfiguration } from './config.js';

export { parseResourceQuotaConfiguration, type ResourceQuotaConfiguration, type LimitedResource } from './config.js';

export interface ResourceQuotaPluginOptions {
  /** The namespace's ResourceQuota objects, as recent as the store has them. */
  readonly quotas: (namespace: string) => Promise<readonly ApiObject[]>;
  /**
   * The namespace's quotas when the store knows them at once and exactly
   * (GenericStore.listSharedNow); undefined: ask quotas().
   */
  readonly peekQuotas?: (namespace: string) => readonly ApiObject[] | undefined;
  /** Writes the quota's status, refused with a Conflict unless metadata.resourceVersion is still current; answers the stored quota. */
  readonly updateStatus: (quota: ApiObject) => Promise<ApiObject>;
  /** The usage evaluators (src/quota/registry.ts quotaEvaluators; the same array while the served resources stay the same). */
  readonly evaluators: () => readonly UsageEvaluator[];
  readonly config?: ResourceQuotaConfiguration;
  /** How long a request waits for its batch (kube: 10 s). */
  readonly timeoutMs?: number;
}

const RETRIES = 3;

/** A request waiting for its batch; `result` undefined: admitted, 'pending': not yet decided. */
interface Waiter {
  readonly a: AdmissionAttributes;
  readonly ev: UsageEvaluator;
  result: unknown;
  settled: boolean;
}
const PENDING = Symbol('pending');

const rvOf = (q: ApiObject): bigint => {
  try {
    return BigInt(q.metadata.resourceVersion ?? '0');
  } catch {
    return 0n;
  }
};

export function resourceQuotaPlugin(opts: ResourceQuotaPluginOptions): AdmissionPlugin {
  const limited = opts.config?.limitedResources ?? [];
  const timeoutMs = opts.timeoutMs ?? 10_000;
  /** Quotas this plugin wrote, newer than a lagging list may show (kube's updatedQuotas cache). */
  const written = new Map<string, ApiObject>();
  /** Per namespace: requests waiting for the next batch; a namespace present in `running` has a batch in progress. */
  const work = new Map<string, { w: Waiter; done: () => void }[]>();
  const running = new Set<string>();

  async function getQuotas(ns: string): Promise<ApiObject[]> {
    const listed = await opts.quotas(ns);
    return listed.map((q) => {
      const key = `${ns}/${q.metadata.name}`;
      const mine = written.get(key);
      if (!mine) return q;
      if (mine.metadata.uid === q.metadata.uid && rvOf(mine) > rvOf(q)) return mine;
      written.delete(key);
      return q;
    });
  }

  function remember(q: ApiObject): void {
    const key = `${q.metadata.namespace}/${q.metadata.name}`;
    written.delete(key);
    written.set(key, q);
    if (written.size > 1000) written.delete(written.keys().next().value!);
  }

  /** kube's checkQuotas: each pending waiter against the running quotas, then one update per changed quota. */
  async function checkQuotas(quotas: readonly ApiObject[], waiters: readonly Waiter[], retries: number): Promise<void> {
    const original = quotas;
    let running = quotas;
    let changed = false;
    for (const w of waiters) {
      if (w.result !== PENDING) continue;
      let next: readonly ApiObject[];
      try {
        next = checkRequest(running, w.a, w.ev, limited);
      } catch (err) {
        w.result = err;
        continue;
      }
      if (w.a.dryRun) {
        w.result = undefined;
        continue;
      }
      // checkRequest answers a new quota object where, and only where, the write changes its usage
      if (next === running || next.every((q, i) => q === running[i])) w.result = undefined;
      else changed = true;
      running = next;
    }
    if (!changed) return;

    const failed: string[] = [];
    let lastErr: unknown;
    await Promise.all(running.map(async (q, i) => {
      if (listsEqual(statusUsed(q), statusUsed(original[i]!))) return;
      try {
        remember(await opts.updateStatus(forWrite(q)));
      } catch (err) {
        failed.push(q.metadata.name!);
        lastErr = err;
      }
    }));
    const fail = (err: unknown) => {
      for (const w of waiters) if (w.result === PENDING) w.result = err;
    };
    if (failed.length === 0) return fail(undefined);
    if (retries <= 0) return fail(lastErr);
    let fresh: ApiObject[];
    try {
      fresh = await getQuotas(running[0]!.metadata.namespace!);
    } catch {
      return fail(lastErr);
    }
    // Only the quotas whose update failed are checked again: the others already hold the pending requests' usage.
    await checkQuotas(fresh.filter((q) => failed.includes(q.metadata.name!)), waiters, retries - 1);
  }

  async function checkBatch(ns: string, waiters: Waiter[]): Promise<void> {
    let quotas: ApiObject[];
    try {
      quotas = await getQuotas(ns);
    } catch (err) {
      for (const w of waiters) w.result = err;
      return;
    }
    if (quotas.length === 0 && limited.length === 0) {
      for (const w of waiters) w.result = undefined;
      return;
    }
    await checkQuotas(quotas, waiters, RETRIES);
  }

  async function drain(ns: string): Promise<void> {
    try {
      for (let batch = work.get(ns); batch && batch.length > 0; batch = work.get(ns)) {
        work.delete(ns);
        try {
          await checkBatch(ns, batch.map((b) => b.w));
        } catch (err) {
          for (const b of batch) if (b.w.result === PENDING) b.w.result = err;
        }
        for (const b of batch) b.done();
      }
    } finally {
      running.delete(ns);
    }
  }

  function evaluate(w: Waiter): Promise<void> {
    const ns = w.a.namespace;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (w.settled) return;
        w.settled = true;
        reject(newInternalError(new Error('resource quota evaluation timed out')));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        if (w.settled) return;
        w.settled = true;
        if (w.result === undefined) resolve();
        else reject(w.result === PENDING ? new Error('DEFAULT DENY') : w.result);
      };
      const queue = work.get(ns) ?? [];
      queue.push({ w, done });
      work.set(ns, queue);
      if (!running.has(ns)) {
        // No batch in progress: this one starts now, and the requests arriving while its status write is
        // in flight make the next (batches as large as the write is long, no turn of the event loop
        // waited for: starting on setImmediate cost ≈ 30 µs of CPU per pod and wrote no fewer statuses).
        running.add(ns);
        queueMicrotask(() => void drain(ns));
      }
    });
  }

  return {
    name: 'ResourceQuota',
    phase: 'validating',
    sideEffects: 'NoneOnDryRun',
    // no promise for a write it has nothing to say about (the chain awaits only steps that wait)
    admit(a) {
      if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
      if ((a.subresource ?? '') !== '' || a.namespace === '' || !a.object) return;
      const { group, resource } = a.resource;
      // kube's ignored resources (events, reviews…) have no evaluator; any other resource is at least counted
      const ev = evaluatorFor(opts.evaluators(), group, resource);
      if (!ev || !ev.handles(a.operation, '')) return;
      // No quota in the namespace and no limited resource: kube's evaluator admits; said without queueing
      // when the store knows it at once (most namespaces have no quota; the queue cost ≈ 35 µs per write).
      if (limited.length === 0 && opts.peekQuotas?.(a.namespace)?.length === 0) return;
      return evaluate({ a, ev, result: PENDING, settled: false });
    },
  };
}
