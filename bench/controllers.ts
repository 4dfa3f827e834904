// Controllers and the scheduler (issue 24), one `svc server` process on
// SQLite with simulated nodes, as ../shared/reference/controllers-bench.md
// measured kube-controller-manager + kube-scheduler:
//   - a Deployment of 3,000 replicas (10m CPU / 16 MiB each) on 100
//     simulated nodes: the time until every pod has spec.nodeName (made by
//     the ReplicaSet controller, bound by the scheduler), then after a
//     background delete of the Deployment the time until the garbage
//     collector has deleted every pod (deletionTimestamp set, or gone);
//     targets: at most half the reference's 28.5 s and 13.5 s;
//   - scheduler throughput: 5,000 pending pods over 500 simulated nodes
//     (created while every node is cordoned, then all nodes uncordoned),
//     pods bound per second;
//   - the server's idle RSS with every controller running (target ≤ 150 MB).
// Progress is read from a watch of pods, so the polling costs nothing.
import { request } from 'node:https';
import { startAdminServer, type AdminServer } from './adminserver.js';
import { fmt } from './report.js';
import { LineReader } from './eventlines.js';
import { rssOf } from './proc.js';

const NS = 'bench';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Pod = { metadata: { name: string; deletionTimestamp?: string }; spec: { nodeName?: string } };

/** Watches the namespace's pods from now and counts, by name, those bound and those deleted. */
function podWatch(server: AdminServer): { bound: Set<string>; deleted: Set<string>; close(): void } {
  const bound = new Set<string>();
  const deleted = new Set<string>();
  const { port, ca, token } = server.connection;
  const lines = new LineReader((b, start, end) => {
    const e = JSON.parse(b.toString('utf8', start, end)) as { type: string; object: Pod };
    const p = e.object;
    if (p.spec?.nodeName) bound.add(p.metadata.name);
    if (e.type === 'DELETED' || p.metadata.deletionTimestamp) deleted.add(p.metadata.name);
  });
  const req = request({ host: '127.0.0.1', port, ca, path: `/api/v1/namespaces/${NS}/pods?watch=1&allowWatchBookmarks=false`, headers: { Authorization: `Bearer ${token}` } }, (res) => {
    res.on('data', (d: Buffer) => lines.push(d));
  });
  req.end();
  return { bound, deleted, close: () => req.destroy() };
}

async function until(what: string, ok: () => boolean, ms: number): Promise<void> {
  const t0 = performance.now();
  while (!ok()) {
    if (performance.now() - t0 > ms) throw new Error(`${what}: not done in ${ms / 1000} s`);
    await sleep(20);
  }
}

async function readyNodes(server: AdminServer, count: number): Promise<void> {
  const t0 = performance.now();
  for (;;) {
    const r = await server.call('GET', '/api/v1/nodes');
    const items = (JSON.parse(r.body).items ?? []) as { spec?: { taints?: unknown[] }; status?: { conditions?: { type: string; status: string }[] } }[];
    const ready = items.filter((n) => (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True') && !(n.spec?.taints ?? []).length);
    if (ready.length >= count) return;
    if (performance.now() - t0 > 120_000) throw new Error(`only ${ready.length} of ${count} simulated nodes ready and untainted after 120 s`);
    await sleep(200);
  }
}

const container = { name: 'app', image: 'registry.example/app:1', resources: { requests: { cpu: '10m', memory: '16Mi' } } };

export async function benchControllers(opts: { replicas?: number; nodes?: number; pending?: number; schedNodes?: number } = {}): Promise<string[]> {
  const replicas = opts.replicas ?? 3000;
  const nodes = opts.nodes ?? 100;
  const lines: string[] = ['### Controllers and scheduler (issue 24)', ''];

  // Idle: every controller, no nodes.
  let server = await startAdminServer('controllers-idle');
  let idleRss: number;
  try {
    await sleep(10_000);
    idleRss = rssOf(server.pid);
  } finally {
    await server.stop();
  }

  // A Deployment of `replicas` on `nodes` nodes, then its garbage collection: as the reference, on plain
  // Node objects (Ready, 32 CPU / 256 GiB / 110 pods, no kubelet, node lifecycle controller off), and
  // again on simulated nodes whose kubelets report every pod Running (more writes than the reference).
  const plain = await deploymentRun(replicas, nodes, 'plain');
  const simulated = await deploymentRun(replicas, nodes, 'simulated');

  // Scheduler throughput: every node cordoned, `pending` pods created (all unschedulable), then every
  // node uncordoned at once: the node events move the whole queue to active; the clock runs from the
  // first uncordon until every pod is bound.
  const pending = opts.pending ?? 5000;
  const schedNodes = opts.schedNodes ?? 500;
  server = await startAdminServer('scheduler', [`--simulated-nodes=${schedNodes}`]);
  let schedRate: number;
  const merge = (body: unknown) => JSON.stringify(body);
  const patchNode = (name: string, unschedulable: boolean) =>
    server.call('PATCH', `/api/v1/nodes/${name}`, merge({ spec: { unschedulable } }), 'application/merge-patch+json').then((r) => {
      if (r.status !== 200) throw new Error(`cordon ${name}: ${r.status} ${r.body.slice(0, 200)}`);
    });
  const inParallel = async (n: number, f: (i: number) => Promise<void>) => {
    let next = 0;
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (next < n) await f(next++);
    }));
  };
  try {
    await readyNodes(server, schedNodes);
    await server.must('POST', '/api/v1/namespaces', { metadata: { name: NS } });
    const names = Array.from({ length: schedNodes }, (_, i) => `sim-node-${i}`);
    await inParallel(names.length, (i) => patchNode(names[i]!, true));
    await inParallel(pending, async (i) => void await server.must('POST', `/api/v1/namespaces/${NS}/pods`, { metadata: { name: `p-${i}` }, spec: { containers: [container] } }));
    const w = podWatch(server);
    try {
      await sleep(2000); // every pod tried once and parked as unschedulable
      if (w.bound.size > 0) throw new Error(`${w.bound.size} pods were bound to cordoned nodes`);
      const t0 = performance.now();
      await inParallel(names.length, (i) => patchNode(names[i]!, false));
      await until(`${pending} pods bound`, () => w.bound.size >= pending, 600_000);
      schedRate = pending / ((performance.now() - t0) / 1000);
    } finally {
      w.close();
    }
  } finally {
    await server.stop();
  }

  lines.push(
    `One \`svc server\` on SQLite (every controller, the scheduler); the reference is ../shared/reference/controllers-bench.md (kube-controller-manager + kube-scheduler v1.26, client limits raised, same machine). As the reference: ${nodes} plain Node objects (Ready, 32 CPU / 256 GiB / 110 pods, no kubelet, \`--controllers=*,-nodelifecycle\`); then the same on ${nodes} simulated nodes whose kubelets also report every pod Running.`,
    '',
    '| measure | svc | reference | target |',
    '|---|---|---|---|',
    `| ${replicas.toLocaleString('en')} replicas on ${nodes} nodes: all bound | ${fmt(plain.bindS, 1)} s (${fmt(replicas / plain.bindS, 0)} pods/s) | 28.5 s (105 pods/s) | ≤ 14.3 s |`,
    `| garbage collection of the ${replicas.toLocaleString('en')} pods | ${fmt(plain.gcS, 1)} s | 13.5 s | ≤ 6.8 s |`,
    `| peak server RSS during it | ${fmt(plain.peakRss / 1e6, 0)} MB | 247 MB (controller-manager + scheduler only) | |`,
    `| the same on simulated nodes (pods reported Running): bound / collected | ${fmt(simulated.bindS, 1)} s / ${fmt(simulated.gcS, 1)} s | | |`,
    `| scheduler throughput: ${pending.toLocaleString('en')} pending pods over ${schedNodes} nodes, from uncordoning to all bound | ${fmt(schedRate, 0)} pods/s | no kube-scheduler figure for it in the reference (none can run here) | ≥ 2× kube-scheduler |`,
    `| idle RSS, every controller running | ${fmt(idleRss / 1e6, 0)} MB | | ≤ 150 MB |`,
  );
  return lines;
}

/** Plain Node objects as the reference made them: Ready, no kubelet behind them. */
async function plainNodes(server: AdminServer, count: number): Promise<void> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const capacity = { cpu: '32', memory: '256Gi', pods: '110' };
  for (let i = 0; i < count; i++) {
    await server.must('POST', '/api/v1/nodes', {
      metadata: { name: `node-${i}`, labels: { 'kubernetes.io/hostname': `node-${i}` } },
      status: { capacity, allocatable: capacity, conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: now, lastTransitionTime: now }] },
    });
    // TaintNodesByCondition put not-ready on the new node; with no node lifecycle controller to lift it, the admin does
    const r = await server.call('PATCH', `/api/v1/nodes/node-${i}`, JSON.stringify({ spec: { taints: null } }), 'application/merge-patch+json');
    if (r.status !== 200) throw new Error(`untaint node-${i}: ${r.status} ${r.body.slice(0, 200)}`);
  }
}

/** A Deployment of `replicas` until every pod is bound, then its background deletion until the GC marked every pod. */
async function deploymentRun(replicas: number, nodes: number, kind: 'plain' | 'simulated'): Promise<{ bindS: number; gcS: number; peakRss: number }> {
  const server = await startAdminServer(`controllers-${kind}`, kind === 'plain' ? ['--controllers=*,-nodelifecycle'] : [`--simulated-nodes=${nodes}`]);
  let peakRss = 0;
  try {
    if (kind === 'plain') await plainNodes(server, nodes);
    await readyNodes(server, nodes);
    await server.must('POST', '/api/v1/namespaces', { metadata: { name: NS } });
    const w = podWatch(server);
    const rss = setInterval(() => (peakRss = Math.max(peakRss, rssOf(server.pid))), 500);
    try {
      await sleep(300);
      const t0 = performance.now();
      await server.must('POST', `/apis/apps/v1/namespaces/${NS}/deployments`, {
        metadata: { name: 'web' },
        spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [container] } } },
      });
      await until(`${replicas} pods bound`, () => w.bound.size >= replicas, 600_000);
      const bindS = (performance.now() - t0) / 1000;
      const t1 = performance.now();
      await server.must('DELETE', `/apis/apps/v1/namespaces/${NS}/deployments/web?propagationPolicy=Background`);
      await until(`${replicas} pods collected`, () => w.deleted.size >= replicas, 600_000);
      return { bindS, gcS: (performance.now() - t1) / 1000, peakRss };
    } finally {
      clearInterval(rss);
      w.close();
    }
  } finally {
    await server.stop();
  }
}
