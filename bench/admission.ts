// Admission (issue 20): pod creates/s with the default plugin set — in a
// namespace holding a LimitRange, a ResourceQuota and PodSecurity
// `restricted` enforced — against the same creates with every plugin
// disabled. Two `svc server` processes (SQLite) run side by side with the
// same namespace objects; their phases are interleaved, the order alternating
// by round (default, none, none, default…) so neither is favoured by it; the
// figure is the median of the rounds' ratios (bench/report.ts pairedRatios). Every pod passes `restricted` and fits the quota. The pods
// name a scheduler nobody runs (`schedulerName`): the cluster has no nodes,
// and the built-in scheduler would fail every pod with a FailedScheduling
// event and a status write (≈ 1.3–2.7 ms of CPU per pod, 2–3× the create),
// work that is not admission's and that ran on into the other server's phase.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { freePort } from '../src/testing/ports.js';
import { DEFAULT_ON_PLUGINS } from '../src/admission/chain.js';
import { cpuShare, fmt, fmtRatios, pairedRatios, startServerProcess, stopProcess, summarize } from './report.js';
import { client, untilOk, type Call } from './httpclient.js';
import { cpuOf } from './proc.js';

const main = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli', 'main.js');
export const NS = 'bench-adm';

/** The scheduler the bench's pods ask for: none runs, so they stay Pending untouched (see the top). */
const UNSERVED_SCHEDULER = 'bench-unscheduled';

/** A pod that PodSecurity `restricted` admits, with requests and limits inside the LimitRange. */
export function restrictedPod(name: string, i: number): string {
  return JSON.stringify({
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, labels: { app: `app-${i % 50}`, tier: 'backend', 'app.kubernetes.io/name': `app-${i % 50}` }, annotations: { 'bench.svc.io/owner': 'team-platform@example.com' } },
    spec: {
      schedulerName: UNSERVED_SCHEDULER,
      securityContext: { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [{
        name: 'app', image: `registry.example.com/platform/app-${i % 50}:1.24.3`,
        ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
        env: [{ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
        resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '500m', memory: '128Mi' } },
        securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
        readinessProbe: { httpGet: { path: '/ready', port: 8080 }, periodSeconds: 5 },
      }],
    },
  });
}

export const NAMESPACE = { metadata: { name: NS, labels: { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'v1.27' } } };
export const LIMIT_RANGE = {
  metadata: { name: 'limits' },
  spec: { limits: [{ type: 'Container', default: { cpu: '500m', memory: '128Mi' }, defaultRequest: { cpu: '100m', memory: '64Mi' }, max: { cpu: '2', memory: '1Gi' }, min: { cpu: '10m', memory: '16Mi' } }] },
};
export const QUOTA = { metadata: { name: 'quota' }, spec: { hard: { pods: '100000', 'requests.cpu': '10000', 'requests.memory': '10000Gi', 'limits.cpu': '50000', 'limits.memory': '20000Gi', 'count/configmaps': '100' } } };

interface Side {
  readonly name: string;
  readonly call: Call;
  readonly pid: number;
  made: number;
}

async function startSide(name: string, args: string[]): Promise<{ side: Side; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-adm-'));
  const port = await freePort();
  const tokens = join(dataDir, 'tokens.csv');
  writeFileSync(tokens, 'admin-token,admin,admin-uid,"system:masters"\n');
  const proc = await startServerProcess(main, dataDir, port, [`--token-auth-file=${tokens}`, ...args]);
  const cfg = parse(readFileSync(join(dataDir, 'admin.svcconfig'), 'utf8'));
  const call = client(port, { ca: Buffer.from(cfg.clusters[0].cluster['certificate-authority-data'], 'base64') }, 'admin-token');
  const must = async (path: string, body: unknown) => {
    const r = await call('POST', path, JSON.stringify(body));
    if (r.status !== 201) throw new Error(`${name}: POST ${path} answered ${r.status}: ${r.body.slice(0, 300)}`);
  };
  await must('/api/v1/namespaces', NAMESPACE);
  await untilOk(call, `/api/v1/namespaces/${NS}/serviceaccounts/default`);
  await must(`/api/v1/namespaces/${NS}/limitranges`, LIMIT_RANGE);
  await must(`/api/v1/namespaces/${NS}/resourcequotas`, QUOTA);
  // the quota controller fills status.used (ResourceQuota admission refuses pods until it has)
  for (let i = 0; i < 100; i++) {
    const q = await call('GET', `/api/v1/namespaces/${NS}/resourcequotas/quota`);
    if (q.status === 200 && JSON.parse(q.body).status?.used) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    side: { name, call, pid: proc.pid!, made: 0 },
    stop: async () => {
      await stopProcess(proc);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `otherCpuMs`: what the other server spent meanwhile (its controllers still reacting to its own creates), per create of this phase. */
type Phase = { rate: number; p50: number; p99: number; cpuMs: number; otherCpuMs: number };

/** `total` pod creates over 32 keep-alive connections; anything but 201 fails the benchmark. */
async function creates(side: Side, total: number, other: Side): Promise<Phase> {
  const lat: number[] = [];
  const first = side.made;
  side.made += total;
  let next = 0;
  const start = performance.now();
  const cpu0 = cpuOf(side.pid);
  const otherCpu0 = cpuOf(other.pid);
  await Promise.all(Array.from({ length: 32 }, async () => {
    while (next < total) {
      const i = first + next++;
      const t = performance.now();
      const r = await side.call('POST', `/api/v1/namespaces/${NS}/pods`, restrictedPod(`pod-${i}`, i));
      if (r.status !== 201) throw new Error(`${side.name}: pod create answered ${r.status}: ${r.body.slice(0, 300)}`);
      lat.push(performance.now() - t);
    }
  }));
  const s = summarize(lat);
  return {
    rate: total / ((performance.now() - start) / 1000), p50: s.p50, p99: s.p99,
    cpuMs: ((cpuOf(side.pid) - cpu0) * 1000) / total, otherCpuMs: ((cpuOf(other.pid) - otherCpu0) * 1000) / total,
  };
}

/** The ResourceQuota status writes a server made (its storage metrics: updates of resourcequotas). */
async function quotaWrites(call: Call): Promise<number> {
  const text = (await call('GET', '/metrics')).body;
  const m = /^etcd_request_duration_seconds_count\{operation="update",type="resourcequotas"\} (\d+)$/m.exec(text);
  return m ? Number(m[1]) : 0;
}

/** `onArgs`: extra flags of the default side, for investigations (e.g. one plugin disabled). */
export async function benchAdmission(opts: { perPhase?: number; rounds?: number; onArgs?: string[] } = {}): Promise<string[]> {
  const perPhase = opts.perPhase ?? 4000;
  const rounds = opts.rounds ?? 5;
  const everyPlugin = [...DEFAULT_ON_PLUGINS].join(',');
  const on = await startSide('default plugins', opts.onArgs ?? []);
  const off = await startSide('no plugins', [`--disable-admission-plugins=${everyPlugin}`]);
  try {
    // warm-up: a full phase on each side first, so the measured rounds run JIT-compiled code as a long-running server does
    await creates(on.side, perPhase, off.side);
    await creates(off.side, perPhase, on.side);
    const writes0 = await quotaWrites(on.side.call);
    // each round runs both sides back to back, the order alternating by round
    const as: Phase[] = [];
    const bs: Phase[] = [];
    for (let r = 0; r < rounds; r++) {
      if (r % 2 === 0) {
        as.push(await creates(on.side, perPhase, off.side));
        bs.push(await creates(off.side, perPhase, on.side));
      } else {
        bs.push(await creates(off.side, perPhase, on.side));
        as.push(await creates(on.side, perPhase, off.side));
      }
    }
    const ratio = pairedRatios(as.map((p) => p.rate), bs.map((p) => p.rate));
    const writes = (await quotaWrites(on.side.call)) - writes0;
    const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
    const best = (ps: Phase[]) => ps.reduce((x, y) => (y.rate > x.rate ? y : x));
    const a = best(as);
    const b = best(bs);
    const quota = JSON.parse((await on.side.call('GET', `/api/v1/namespaces/${NS}/resourcequotas/quota`)).body);
    const sample = JSON.parse((await on.side.call('GET', `/api/v1/namespaces/${NS}/pods/pod-0`)).body);
    const row = (what: string, p: Phase) => `| ${what} | ${perPhase.toLocaleString('en')} ×${rounds} | ${fmt(p.rate, 0)} | ${fmt(p.p50)} | ${fmt(p.p99)} | ${fmt(p.cpuMs, 3)} |`;
    return [
      '### Admission (issue 20): pod creates/s, default plugins (LimitRange, ResourceQuota, PodSecurity restricted in the namespace) vs every plugin disabled',
      '',
      `Two \`svc server\` processes on SQLite side by side (one per plugin set), 32 keep-alive connections (Node https client), ~1.4 KiB restricted pods, a warm-up phase on each side, then phases interleaved (the order alternating by round), the best of ${rounds} each in the table; the ratio is the median of the ${rounds} rounds' ratios.`,
      '',
      '| plugins | creates | per second | p50 ms | p99 ms | server CPU ms per create |',
      '|---|---|---|---|---|---|',
      row(`default (${[...DEFAULT_ON_PLUGINS].length} default-on names; those built run)`, a),
      row('none (--disable-admission-plugins=every default-on plugin)', b),
      '',
      `- default / none: ${fmt(100 * ratio.median, 0)} %, median of the rounds (per round ${fmtRatios(ratio)}; the whole run ${fmt(100 * ratio.pooled, 0)} %; best against best ${fmt((100 * a.rate) / b.rate, 0)} %) (target ≥ 85 %)`,
      `- server CPU ms per create, per round: default ${as.map((p) => fmt(p.cpuMs, 3)).join(', ')}; none ${bs.map((p) => fmt(p.cpuMs, 3)).join(', ')}`,
      `- the no-plugin server's CPU for the run's creates as a share of the default server's (bench/report.ts cpuShare; a diagnostic, not the target's figure): ${fmt(100 * cpuShare(as.map((p) => p.cpuMs), bs.map((p) => p.cpuMs)), 0)} %`,
      `- ResourceQuota status writes during the phases: ${writes} for ${(rounds * perPhase).toLocaleString('en')} pods (${fmt((rounds * perPhase) / Math.max(1, writes), 1)} pods per write)`,
      `- server CPU while the other side was measured (its controllers still reacting to its own creates), ms per create of the measured phase, mean of the rounds: default server ${fmt(mean(bs.map((p) => p.otherCpuMs)), 3)}, none server ${fmt(mean(as.map((p) => p.otherCpuMs)), 3)}`,
      `- quota after the run: used pods=${quota.status?.used?.pods}, requests.cpu=${quota.status?.used?.['requests.cpu']}; a created pod's service account ${sample.spec?.serviceAccountName}, volumes ${(sample.spec?.volumes ?? []).map((v: { name: string }) => v.name).join(',')}`,
    ];
  } finally {
    await on.stop();
    await off.stop();
  }
}
