// The node agent (issue 25): a real `svc server` process and a real `svc
// agent` process (its own RSS and CPU; a node token; its own containerd with
// CNI from src/testing/containerd.ts and its own --cgroup-root), measured as
// the issue asks:
//   - 30 busybox pods (one `sleep 3600` container each, bound by the
//     scheduler) from creation to all Ready (target ≤ 10 s), with how much of
//     it containerd/runc take: per pod, the span from the sandbox's creation
//     to its container's start (CRI's own nanosecond timestamps), and how
//     many pods were in that span at once (the agent starts pods in parallel);
//   - the agent's RSS with the 30 pods running (target ≤ 80 MB) and its CPU
//     over 30 idle seconds (target ≤ 2 % of a core);
//   - exit → status: 20 pods whose container exits after 2 s (restartPolicy
//     Never): from the container's finishedAt (CRI, ns) to the moment a watch
//     of pods sees phase Failed (the agent's status write landing), p50/p99
//     (target p99 ≤ 2 s).
// Needs root, containerd, runc, CNI plugins and busybox-static (see
// src/testing/containerd.ts); otherwise the suite reports why it did not run.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { freePort } from '../src/testing/ports.js';
import { BUSYBOX_IMAGE, containerdMissing, startContainerd, testCgroupRoot, unmountUnder, type Containerd } from '../src/testing/containerd.js';
import { criClient } from '../src/agent/cri/client.js';
import { client } from './httpclient.js';
import { LineReader } from './eventlines.js';
import { cpuOf, machineCpu, rssOf } from './proc.js';
import { fmt, startServerProcess, stopProcess, summarize } from './report.js';

const main = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli', 'main.js');
// the `svc` command as users run it (package.json's bin): for `svc agent` it starts node with the agent's memory options
const launcher = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'svc');
const NS = 'bench-agent';
const NODE = 'bench-node';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A watch of the namespace's pods: per pod name, when (Date.now) it was first seen Ready, and first seen in a terminal phase. */
function podWatch(port: number, ca: Buffer, token: string) {
  const ready = new Map<string, number>();
  const failed = new Map<string, number>();
  const lines = new LineReader((b, start, end) => {
    const now = Date.now();
    const p = (JSON.parse(b.toString('utf8', start, end)) as { object: Obj }).object;
    const name = p.metadata?.name as string;
    if ((p.status?.conditions ?? []).some((c: Obj) => c.type === 'Ready' && c.status === 'True') && !ready.has(name)) ready.set(name, now);
    if ((p.status?.phase === 'Failed' || p.status?.phase === 'Succeeded') && !failed.has(name)) failed.set(name, now);
  });
  const req = request({ host: '127.0.0.1', port, ca, path: `/api/v1/namespaces/${NS}/pods?watch=1`, headers: { Authorization: `Bearer ${token}` } }, (res) => {
    res.on('data', (d: Buffer) => lines.push(d));
  });
  req.end();
  return { ready, failed, close: () => void req.destroy() };
}

async function until(what: string, ok: () => boolean | Promise<boolean>, ms: number, every = 20): Promise<void> {
  const t0 = performance.now();
  while (!(await ok())) {
    if (performance.now() - t0 > ms) throw new Error(`${what}: not done in ${ms / 1000} s`);
    await sleep(every);
  }
}

/**
 * The CPU of containerd and everything it starts from now on (shims, runc,
 * the CNI plugins — not the containers, which runc moves to their pods'
 * cgroups): the daemon moved to a cpuacct cgroup of its own (cgroup v1's
 * cpuacct.usage, or v2's cpu.stat usage_usec), read in seconds.
 */
function containerdAccounting(c: Containerd): { seconds(): number; remove(): void } {
  const v1 = existsSync('/sys/fs/cgroup/cpuacct/cpuacct.usage');
  const dir = v1 ? `/sys/fs/cgroup/cpuacct/svc-bench-containerd-${process.pid}` : `/sys/fs/cgroup/svc-bench-containerd-${process.pid}`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'cgroup.procs'), readFileSync(join(c.root, 'containerd.pid'), 'utf8').trim());
  } catch {
    return { seconds: () => NaN, remove: () => undefined };
  }
  return {
    seconds: () => v1
      ? Number(readFileSync(join(dir, 'cpuacct.usage'), 'utf8')) / 1e9
      : Number(/usage_usec (\d+)/.exec(readFileSync(join(dir, 'cpu.stat'), 'utf8'))![1]) / 1e6,
    remove: () => {
      try {
        rmdirSync(dir);
      } catch {
        // a process still inside
      }
    },
  };
}

export async function benchAgent(opts: { pods?: number; exits?: number; idleS?: number } = {}): Promise<string[]> {
  const podCount = opts.pods ?? 30;
  const exitCount = opts.exits ?? 20;
  const idleS = opts.idleS ?? 30;
  const lines: string[] = ['### Node agent (issue 25)', ''];
  const missing = containerdMissing();
  if (missing) return [...lines, `not run: ${missing}`];

  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-agent-'));
  const stops: (() => Promise<void> | void)[] = [() => rmSync(dir, { recursive: true, force: true })];
  try {
    const c = await startContainerd({ cni: true });
    const acct = containerdAccounting(c);
    stops.push(async () => {
      await c.stop();
      acct.remove();
    });
    const cgroups = await testCgroupRoot();
    stops.push(() => cgroups.remove());

    // the server: an admin token and the node's token
    const port = await freePort();
    const tokens = join(dir, 'tokens.csv');
    writeFileSync(tokens, `admin-token,admin,admin-uid,"system:masters"\ntoken-${NODE},system:node:${NODE},${NODE},"system:nodes"\n`);
    const dataDir = join(dir, 'server');
    mkdirSync(dataDir);
    const server = await startServerProcess(main, dataDir, port, [`--token-auth-file=${tokens}`, '--enable-admission-plugins=NodeRestriction']);
    stops.push(() => stopProcess(server));
    const cfg = parse(readFileSync(join(dataDir, 'admin.svcconfig'), 'utf8'));
    const ca = Buffer.from(cfg.clusters[0].cluster['certificate-authority-data'], 'base64');
    const call = client(port, { ca }, 'admin-token');
    const must = async (method: string, path: string, body?: unknown, want = [200, 201]) => {
      const r = await call(method, path, body === undefined ? undefined : JSON.stringify(body));
      if (!want.includes(r.status)) throw new Error(`${method} ${path} answered ${r.status}: ${r.body.slice(0, 300)}`);
      return r;
    };

    // the agent: its own process, as the node
    const svcconfig = join(dir, 'node.svcconfig');
    writeFileSync(svcconfig, stringify({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'node',
      clusters: [{ name: 'c', cluster: { server: `https://127.0.0.1:${port}`, 'certificate-authority-data': cfg.clusters[0].cluster['certificate-authority-data'] } }],
      contexts: [{ name: 'node', context: { cluster: 'c', user: 'node' } }],
      users: [{ name: 'node', user: { token: `token-${NODE}` } }],
    }));
    // The agent is started by the `svc` launcher (bin/svc), with this node first on PATH. For investigations,
    // SVC_BENCH_AGENT_NODE_FLAGS starts node directly with the given options instead (e.g. --cpu-prof; the
    // launcher's memory options are then only those listed).
    const flags = (process.env.SVC_BENCH_AGENT_NODE_FLAGS ?? '').split(' ').filter(Boolean);
    const agentArgs = ['agent',
      '--container-runtime-endpoint', c.endpoint, '--svcconfig', svcconfig, '--root-dir', join(dir, 'root'), '--cert-dir', join(dir, 'pki'),
      '--hostname-override', NODE, '--node-ip', '127.0.0.1', '--port', String(await freePort()), '--healthz-port', '0',
      '--cgroup-root', cgroups.path, '--cluster-domain', 'cluster.local',
    ];
    const agent: ChildProcess = flags.length
      ? spawn(process.execPath, [...flags, main, ...agentArgs], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(launcher, agentArgs, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` } });
    let agentErr = '';
    agent.stderr!.on('data', (d: Buffer) => (agentErr = (agentErr + d.toString()).slice(-4000)));
    stops.push(async () => {
      await stopProcess(agent);
      unmountUnder(dir);
    });
    agent.stdout!.resume(); // unused; kept drained

    // the node Ready and untainted (the node lifecycle controller lifts not-ready)
    await until('node Ready', async () => {
      const r = await call('GET', `/api/v1/nodes/${NODE}`);
      if (r.status !== 200) return false;
      const n = JSON.parse(r.body) as Obj;
      return (n.status?.conditions ?? []).some((x: Obj) => x.type === 'Ready' && x.status === 'True') && !(n.spec?.taints ?? []).length;
    }, 60_000, 200).catch((err: Error) => { throw new Error(`${err.message}; agent said: ${agentErr}`); });
    await must('POST', '/api/v1/namespaces', { metadata: { name: NS } });
    await until('default service account', async () => (await call('GET', `/api/v1/namespaces/${NS}/serviceaccounts/default`)).status === 200, 30_000, 100);

    const w = podWatch(port, ca, 'admin-token');
    stops.push(() => w.close());
    await sleep(300);
    const cri = criClient(c.endpoint);
    stops.push(() => cri.close());
    const pod = (name: string, script: string, restartPolicy: string) => ({
      metadata: { name },
      spec: { restartPolicy, terminationGracePeriodSeconds: 1, containers: [{ name: 'main', image: BUSYBOX_IMAGE, imagePullPolicy: 'Never', command: ['sh', '-c', script] }] },
    });

    // 1. 30 pods from creation to all Ready
    const cpu0 = { agent: cpuOf(agent.pid!), server: cpuOf(server.pid!), containerd: acct.seconds(), machine: machineCpu() };
    const t0 = Date.now();
    const names = Array.from({ length: podCount }, (_, i) => `sleep-${i}`);
    await Promise.all(names.map((n) => must('POST', `/api/v1/namespaces/${NS}/pods`, pod(n, 'sleep 3600', 'Always'))));
    await until(`${podCount} pods Ready`, () => names.every((n) => w.ready.has(n)), 120_000).catch((err: Error) => { throw new Error(`${err.message} (${w.ready.size} ready); agent said: ${agentErr}`); });
    const tReady = Date.now();
    const readyS = (tReady - t0) / 1000;
    const cpu1 = { agent: cpuOf(agent.pid!), server: cpuOf(server.pid!), containerd: acct.seconds(), machine: machineCpu() };
    // containerd's part: per pod, sandbox created → container started (CRI's clocks)
    const sandboxes = await cri.listPodSandbox();
    const containers = await cri.listContainers();
    const spans: { from: number; to: number }[] = [];
    for (const s of sandboxes) {
      if (s.metadata.namespace !== NS) continue;
      const ctr = containers.find((x) => x.podSandboxId === s.id);
      if (!ctr) continue;
      const st = await cri.containerStatus(ctr.id);
      spans.push({ from: s.createdAt / 1e6, to: st.startedAt / 1e6 });
    }
    const perPod = summarize(spans.map((s) => s.to - s.from));
    const firstSandbox = Math.min(...spans.map((s) => s.from));
    const lastStart = Math.max(...spans.map((s) => s.to));
    let maxOverlap = 0;
    for (const s of spans) maxOverlap = Math.max(maxOverlap, spans.filter((o) => o.from <= s.from && o.to > s.from).length);

    // 2. RSS and idle CPU with the pods running
    await sleep(5000);
    const rss = rssOf(agent.pid!);
    const idle0 = cpuOf(agent.pid!);
    const idleT0 = performance.now();
    await sleep(idleS * 1000);
    const idlePct = ((cpuOf(agent.pid!) - idle0) / ((performance.now() - idleT0) / 1000)) * 100;
    const rssAfter = rssOf(agent.pid!);

    // 3. exit → status: pods whose container exits 1 after 2 s — all created at once (their exits a burst),
    // then created 300 ms apart (exits one at a time)
    // containerd's own view: when CRI first lists each container as exited (polled every 100 ms), to split
    // each latency into containerd's (finishedAt → listed exited) and the agent's (listed exited → status seen)
    const listedExited = new Map<string, number>();
    const exitLatency = async (prefix: string, gapMs: number): Promise<{ total: number[]; containerd: number[]; agent: number[] }> => {
      let polling = true;
      const poller = (async () => {
        while (polling) {
          const now = Date.now();
          for (const x of await cri.listContainers({ state: 'CONTAINER_EXITED' }).catch(() => [])) if (!listedExited.has(x.id)) listedExited.set(x.id, now);
          await sleep(100);
        }
      })();
      const exits = Array.from({ length: exitCount }, (_, i) => `${prefix}-${i}`);
      if (gapMs === 0) await Promise.all(exits.map((n) => must('POST', `/api/v1/namespaces/${NS}/pods`, pod(n, 'sleep 2; exit 1', 'Never'))));
      else for (const n of exits) await Promise.all([must('POST', `/api/v1/namespaces/${NS}/pods`, pod(n, 'sleep 2; exit 1', 'Never')), sleep(gapMs)]);
      await until(`${exitCount} pods Failed`, () => exits.every((n) => w.failed.has(n)), 120_000).catch((err: Error) => { throw new Error(`${err.message} (${w.failed.size}); agent said: ${agentErr}`); })
        .finally(() => (polling = false));
      await poller;
      const lat = { total: [] as number[], containerd: [] as number[], agent: [] as number[] };
      for (const ctr of await cri.listContainers({ state: 'CONTAINER_EXITED' })) {
        const name = ctr.labels['io.kubernetes.pod.name'] ?? '';
        const seen = w.failed.get(name);
        if (!name.startsWith(`${prefix}-`) || seen === undefined) continue;
        const st = await cri.containerStatus(ctr.id);
        const listed = listedExited.get(ctr.id) ?? NaN;
        lat.total.push(seen - st.finishedAt / 1e6);
        lat.containerd.push(listed - st.finishedAt / 1e6);
        lat.agent.push(seen - listed);
      }
      return lat;
    };
    const burst = await exitLatency('exit', 0);
    await sleep(3000);
    const spread = await exitLatency('exit-spread', 300);
    const exit = summarize(burst.total);
    const exitSpread = summarize(spread.total);
    const split = (l: { containerd: number[]; agent: number[] }) => {
      const c = summarize(l.containerd);
      const a = summarize(l.agent);
      return `containerd (finishedAt → CRI lists it exited, polled every 100 ms) p50 ${fmt(c.p50, 0)} / max ${fmt(c.max, 0)} ms; agent (listed exited → status seen: PLEG's 1 s relist, sync, status write, watch) p50 ${fmt(a.p50, 0)} / max ${fmt(a.max, 0)} ms`;
    };

    const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    const cpuS = (k: keyof typeof cpu0) => cpu1[k] - cpu0[k];
    lines.push(
      `One \`svc server\` process (SQLite, every controller, the scheduler, NodeRestriction) and one \`svc agent\` process (${flags.length ? `node ${flags.join(' ')} main.js agent` : 'started as users start it: bin/svc'}; node token, its own containerd ${'with a CNI bridge'} and --cgroup-root, PLEG every 1 s as kube's); busybox pods of one container; load average at the end ${load}.`,
      '',
      '| measure | svc | target |',
      '|---|---|---|',
      `| ${podCount} pods (\`sleep 3600\`, bound by the scheduler) from creation to all Ready (watch) | ${fmt(readyS, 1)} s | ≤ 10 s |`,
      `| of which containerd/runc: per pod, sandbox created → container started (CRI timestamps), p50 / max | ${fmt(perPod.p50, 0)} ms / ${fmt(perPod.max, 0)} ms | |`,
      `| first sandbox created → last container started; most pods in that span at once | ${fmt((lastStart - firstSandbox) / 1000, 1)} s (first sandbox ${fmt((firstSandbox - t0) / 1000, 2)} s after the first create, last start ${fmt((tReady - lastStart) / 1000, 2)} s before all Ready seen); ${maxOverlap} at once | |`,
      `| CPU during it: agent / server / containerd with its shims, runc and CNI plugins (cpuacct) / whole machine (other work included) | ${fmt(cpuS('agent'), 1)} / ${fmt(cpuS('server'), 1)} / ${fmt(cpuS('containerd'), 1)} / ${fmt(cpuS('machine'), 1)} s (of ${fmt(2 * readyS, 1)} core-s) | |`,
      `| agent RSS with ${podCount} pods running (VmRSS), after 5 s / after the idle ${idleS} s | ${fmt(rss / 1e6, 0)} MB / ${fmt(rssAfter / 1e6, 0)} MB | ≤ 80 MB |`,
      `| agent CPU over ${idleS} idle seconds with ${podCount} pods (utime+stime) | ${fmt(idlePct, 2)} % of a core | ≤ 2 % |`,
      `| exit → status: container finishedAt (CRI) → phase Failed seen by a watch; ${burst.total.length} pods created at once (exits within ~1 s), p50 / p99 / max | ${fmt(exit.p50, 0)} / ${fmt(exit.p99, 0)} / ${fmt(exit.max, 0)} ms (${split(burst)}) | p99 ≤ 2 s |`,
      `| the same, ${spread.total.length} pods created 300 ms apart (one exit at a time), p50 / p99 / max | ${fmt(exitSpread.p50, 0)} / ${fmt(exitSpread.p99, 0)} / ${fmt(exitSpread.max, 0)} ms (${split(spread)}) | p99 ≤ 2 s |`,
    );
    // the pods go (their containers stop with the agent; the logs under /var/log/pods with them)
    await call('DELETE', `/api/v1/namespaces/${NS}/pods`).catch(() => undefined);
    await until('pods deleted', async () => (JSON.parse((await call('GET', `/api/v1/namespaces/${NS}/pods`)).body).items ?? []).length === 0, 60_000, 500).catch(() => undefined);
    return lines;
  } finally {
    for (const s of stops.reverse()) {
      try {
        await s();
      } catch {
        // best effort
      }
    }
    const logs = '/var/log/pods';
    const left = (() => { try { return readdirSync(logs); } catch { return []; } })();
    for (const d of left.filter((n) => n.startsWith(`${NS}_`))) rmSync(join(logs, d), { recursive: true, force: true });
  }
}
