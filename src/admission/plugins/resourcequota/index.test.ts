import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../registry/object.js';
import { newConflict } from '../../../api/meta/index.js';
import { attrs, outcome } from '../testutil.js';
import { resourceQuotaPlugin } from './index.js';
import { podEvaluator } from '../../../quota/evaluators/pods.js';

/** Quotas as a store keeps them: a status write must carry the current resourceVersion. */
function quotaStore(quotas: ApiObject[]) {
  let rv = 100;
  const byName = new Map<string, ApiObject>(quotas.map((q) => [q.metadata.name!, { ...q, metadata: { ...q.metadata, resourceVersion: String(rv++) } }]));
  let writes = 0;
  return {
    byName,
    get writes() {
      return writes;
    },
    quotas: async (_ns: string) => {
      await new Promise((r) => setImmediate(r));
      return [...byName.values()];
    },
    /** Another server's charge: bumps used and the resourceVersion. */
    external(name: string, used: Record<string, string>) {
      const q = byName.get(name)!;
      byName.set(name, { ...q, metadata: { ...q.metadata, resourceVersion: String(rv++) }, status: { ...(q.status as object), used } });
    },
    updateStatus: async (q: ApiObject) => {
      await new Promise((r) => setImmediate(r));
      const cur = byName.get(q.metadata.name!)!;
      if (cur.metadata.resourceVersion !== q.metadata.resourceVersion) throw newConflict({ group: '', resource: 'resourcequotas' }, q.metadata.name!, 'the object has been modified; please apply your changes to the latest version and try again');
      writes++;
      const next = { ...q, metadata: { ...q.metadata, resourceVersion: String(rv++) } };
      byName.set(q.metadata.name!, next);
      return next;
    },
  };
}

const quota = (name: string, hard: Record<string, string>, used: Record<string, string>): ApiObject => ({
  apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace: 'ns', uid: `uid-${name}` }, spec: { hard }, status: { hard, used },
});
const pod = (name: string): ApiObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' }, spec: { containers: [{ name: 'app', resources: { requests: { cpu: '100m' } } }] } });
const used = (s: ReturnType<typeof quotaStore>, name: string) => (s.byName.get(name)!.status as { used: Record<string, string> }).used;
const plugin = (s: ReturnType<typeof quotaStore>) => resourceQuotaPlugin({ quotas: s.quotas, updateStatus: s.updateStatus, evaluators: () => [podEvaluator()] });

test('64 concurrent creates against pods=10: exactly 10 admitted, used pods=10', async () => {
  const s = quotaStore([quota('q', { pods: '10' }, { pods: '0' })]);
  const p = plugin(s);
  const results = await Promise.all(Array.from({ length: 64 }, (_, i) => outcome(() => p.admit(attrs({ object: pod(`p${i}`) })))));
  assert.equal(results.filter((r) => r === undefined).length, 10);
  assert.ok(results.filter((r) => r).every((r) => r!.code === 403 && /exceeded quota: q, requested: pods=1, used: pods=10, limited: pods=10/.test(r!.message!)));
  assert.deepEqual(used(s, 'q'), { pods: '10' });
  assert.ok(s.writes <= 10, 'batched: at most one write per admitted pod');
});

test('two servers on one store: CAS keeps the total at the quota', async () => {
  const s = quotaStore([quota('q', { pods: '10' }, { pods: '0' })]);
  const [a, b] = [plugin(s), plugin(s)];
  const results = await Promise.all(Array.from({ length: 64 }, (_, i) => outcome(() => (i % 2 ? a : b).admit(attrs({ object: pod(`p${i}`) })))));
  const admitted = results.filter((r) => r === undefined).length;
  assert.ok(admitted <= 10, `admitted ${admitted}`);
  assert.deepEqual(used(s, 'q'), { pods: String(admitted) });
  for (const r of results) if (r) assert.ok([403, 409].includes(r.code!), r.message);
});

test('a conflicting status write is retried against the fresh quota', async () => {
  const s = quotaStore([quota('q', { pods: '3' }, { pods: '0' })]);
  const real = s.updateStatus;
  let first = true;
  s.updateStatus = async (q) => {
    if (first) {
      first = false;
      s.external('q', { pods: '2' });
    }
    return real(q);
  };
  const p = resourceQuotaPlugin({ quotas: s.quotas, updateStatus: (q) => s.updateStatus(q), evaluators: () => [podEvaluator()] });
  await p.admit(attrs({ object: pod('a') }));
  assert.deepEqual(used(s, 'q'), { pods: '3' });
});

test('conflicts past the retries fail the request with the Conflict', async () => {
  const s = quotaStore([quota('q', { pods: '3' }, { pods: '0' })]);
  const p = resourceQuotaPlugin({
    quotas: s.quotas, evaluators: () => [podEvaluator()],
    updateStatus: async (q) => {
      throw newConflict({ group: '', resource: 'resourcequotas' }, q.metadata.name!, 'the object has been modified; please apply your changes to the latest version and try again');
    },
  });
  const r = await outcome(() => p.admit(attrs({ object: pod('a') })));
  assert.equal(r?.code, 409);
});

test('dry run: checked, nothing recorded', async () => {
  const s = quotaStore([quota('q', { pods: '1' }, { pods: '0' })]);
  const p = plugin(s);
  assert.equal(p.sideEffects, 'NoneOnDryRun');
  assert.equal(await outcome(() => p.admit(attrs({ object: pod('a'), dryRun: true }))), undefined);
  assert.equal(s.writes, 0);
  assert.deepEqual(used(s, 'q'), { pods: '0' });
  s.external('q', { pods: '1' });
  assert.equal((await outcome(() => p.admit(attrs({ object: pod('b'), dryRun: true }))))?.code, 403);
});

test('skipped: subresources, cluster-scoped, events, deletes', async () => {
  const s = quotaStore([quota('q', { pods: '0', 'count/events': '0', 'count/configmaps': '0' }, { pods: '0', 'count/events': '0', 'count/configmaps': '0' })]);
  const p = plugin(s);
  const cases = [
    attrs({ object: pod('a'), subresource: 'status', operation: 'UPDATE', oldObject: pod('a') }),
    attrs({ object: pod('a'), namespace: '' }),
    attrs({ resource: 'events', object: { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' } } }),
    attrs({ operation: 'DELETE', oldObject: pod('a') }),
  ];
  // answered at once: no promise for the chain to await
  for (const a of cases) assert.equal(p.admit(a), undefined);
  // a resource no evaluator knows is counted as count/<resource>
  const cm = await outcome(() => p.admit(attrs({ resource: 'configmaps', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } } })));
  assert.equal(cm?.message, 'configmaps "c" is forbidden: exceeded quota: q, requested: count/configmaps=1, used: count/configmaps=0, limited: count/configmaps=0');
});

test('a namespace the store shows without quotas admits at once, unless limited resources need a quota', async () => {
  let listed = 0;
  const quotas = async () => {
    listed++;
    return [];
  };
  const updateStatus = async (q: ApiObject) => q;
  const peeks: (readonly ApiObject[] | undefined)[] = [];
  const peekQuotas = (_ns: string) => peeks.shift();
  const p = resourceQuotaPlugin({ quotas, peekQuotas, updateStatus, evaluators: () => [podEvaluator()] });
  // known at once and empty: no batch, nothing listed
  peeks.push([]);
  assert.equal(p.admit(attrs({ object: pod('a') })), undefined, 'no promise');
  assert.equal(listed, 0);
  // not known at once: the batch lists
  peeks.push(undefined);
  assert.equal(await outcome(() => p.admit(attrs({ object: pod('b') }))), undefined);
  assert.equal(listed, 1);
  // a quota shown: the batch lists too (what it finds decides)
  peeks.push([quota('q', { pods: '5' }, { pods: '0' })]);
  assert.equal(await outcome(() => p.admit(attrs({ object: pod('c') }))), undefined);
  assert.equal(listed, 2);
  // limited resources configured: an empty namespace still goes through the check, which refuses
  const limited = resourceQuotaPlugin({
    quotas, peekQuotas: () => [], updateStatus, evaluators: () => [podEvaluator()],
    config: { limitedResources: [{ apiGroup: '', resource: 'pods', matchContains: ['cpu'], matchScopes: [] }] },
  });
  const refused = await outcome(() => limited.admit(attrs({ object: pod('d') })));
  assert.equal(refused?.message, 'pods "d" is forbidden: insufficient quota to consume: cpu,requests.cpu');
  assert.equal(listed, 3);
});

test('requests arriving while a status write is in flight are checked together, in one write', async () => {
  const s = quotaStore([quota('q', { pods: '100' }, { pods: '0' })]);
  const real = s.updateStatus;
  const held: (() => void)[] = [];
  s.updateStatus = async (q) => {
    await new Promise<void>((r) => held.push(r));
    return real(q);
  };
  const p = resourceQuotaPlugin({ quotas: s.quotas, updateStatus: (q) => s.updateStatus(q), evaluators: () => [podEvaluator()] });
  /** Turns of the event loop until a status write is held (at most 20). */
  const writesHeld = async () => {
    for (let i = 0; i < 20 && held.length === 0; i++) await new Promise((r) => setImmediate(r));
    return held.length;
  };
  const first = p.admit(attrs({ object: pod('first') }));
  // the first batch starts at once: its write is in flight before any other request arrives
  assert.equal(await writesHeld(), 1);
  const rest = Array.from({ length: 5 }, (_, i) => p.admit(attrs({ object: pod(`next-${i}`) })));
  held.shift()!();
  await first;
  assert.equal(await writesHeld(), 1, 'the five waiting requests make one batch');
  held.shift()!();
  await Promise.all(rest);
  assert.equal(s.writes, 2);
  assert.deepEqual(used(s, 'q'), { pods: '6' });
});
