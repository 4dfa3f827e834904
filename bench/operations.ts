// Operating the server (issue 26): ConfigMap creates/s and gets/s on a server
// with metrics, an audit log at Metadata for every request and API Priority and
// Fairness, against the same on a server with audit off and the plain in-flight
// limiter (metrics are always on). Both `svc server` processes (SQLite) run at
// once and the phases are interleaved (creates A, creates B, gets A, gets B,
// then B before A…); the figures are the medians of the rounds' ratios
// (bench/report.ts pairedRatios). The load runs as an ordinary user (a ClusterRoleBinding
// to cluster-admin), not system:masters, so APF classifies it into a queued
// priority level (global-default) rather than the exempt one.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bindClusterAdmin, startAdminServer, type AdminServer } from './adminserver.js';
import { client, type Call } from './httpclient.js';
import { runLoad } from './load.js';
import { cpuShare, fmt, fmtRatios, pairedRatios, summarize } from './report.js';

const NS = 'bench-ops';
const USER_TOKEN = 'bench-user-token';

type Phase = { rate: number; p50: number; p99: number; cpuUs: number };

const configMap = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'bench' } }, data: { 'app.properties': 'color=blue\nsize=large\n', owner: 'team-platform' } });

async function prepare(server: AdminServer): Promise<Call> {
  await server.must('POST', '/api/v1/namespaces', { metadata: { name: NS } });
  await bindClusterAdmin(server, { kind: 'User', name: 'bench' });
  await server.must('POST', `/api/v1/namespaces/${NS}/configmaps`, JSON.parse(configMap('target')));
  const call = client(server.connection.port, { ca: server.connection.ca }, USER_TOKEN);
  for (let i = 0; i < 200; i++) {
    if ((await call('GET', `/api/v1/namespaces/${NS}/configmaps/target`)).status === 200) return call;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the bench user was never authorized');
}

export async function benchOperations(opts: { perPhase?: number; rounds?: number } = {}): Promise<string[]> {
  const perPhase = opts.perPhase ?? 1000;
  // 27 short rounds: single rounds' ratios swing ±20 points on a 2-core VM (the machine's own speed drifts over
  // seconds: bench/steadiness.ts). The same requests as nine rounds of 3,000 creates, cut finer: each pair of
  // phases is closer in time, and the median of 27 ratios moves less from run to run than the median of nine
  // (stop 31: nine runs of nine rounds spread 79–92 %, four of 27 rounds 87–91 %).
  const rounds = opts.rounds ?? 27;
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-ops-'));
  const servers: AdminServer[] = [];
  try {
    const policy = join(dir, 'audit-policy.yaml');
    writeFileSync(policy, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    const log = join(dir, 'audit.log');
    const users = [`${USER_TOKEN},bench,bench-uid,"bench-group"`];
    const on = await startAdminServer('ops-on', [`--audit-policy-file=${policy}`, `--audit-log-path=${log}`, '--enable-priority-and-fairness=true'], users);
    servers.push(on);
    const off = await startAdminServer('ops-off', ['--enable-priority-and-fairness=false'], users);
    servers.push(off);
    const sides = [{ name: 'on', server: on, call: await prepare(on) }, { name: 'off', server: off, call: await prepare(off) }];
    let made = 0;
    const creates = async (server: AdminServer, call: Call, total: number): Promise<Phase> => {
      const load = await runLoad(server.pid, total, 32, async () => {
        const r = await call('POST', `/api/v1/namespaces/${NS}/configmaps`, configMap(`cm-${made++}`));
        if (r.status !== 201) throw new Error(`configmap create answered ${r.status}: ${r.body.slice(0, 300)}`);
      });
      const s = summarize(load.latenciesMs);
      return { rate: load.rate, p50: s.p50, p99: s.p99, cpuUs: load.cpuUs };
    };
    const gets = async (server: AdminServer, call: Call, total: number): Promise<Phase> => {
      const load = await runLoad(server.pid, total, 32, async () => {
        const r = await call('GET', `/api/v1/namespaces/${NS}/configmaps/target`);
        if (r.status !== 200) throw new Error(`configmap get answered ${r.status}: ${r.body.slice(0, 300)}`);
      });
      const s = summarize(load.latenciesMs);
      return { rate: load.rate, p50: s.p50, p99: s.p99, cpuUs: load.cpuUs };
    };
    // warm-up: a full phase on each side first, so the measured rounds run JIT-compiled code as a long-running server does
    const warm = Math.max(perPhase, 3000);
    for (const s of sides) { await creates(s.server, s.call, warm); await gets(s.server, s.call, warm * 2); }
    const results: Record<string, { creates: Phase[]; gets: Phase[] }> = { on: { creates: [], gets: [] }, off: { creates: [], gets: [] } };
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? sides : [...sides].reverse();
      for (const s of order) results[s.name]!.creates.push(await creates(s.server, s.call, perPhase));
      for (const s of order) results[s.name]!.gets.push(await gets(s.server, s.call, perPhase * 2));
    }
    // the log and the backups it rotated to (audit-<time>.log beside it) when it passed its maximum size
    const logs = readdirSync(dir).filter((f) => f.startsWith('audit') && f.endsWith('.log')).map((f) => join(dir, f));
    const logged = logs.reduce((n, f) => n + readFileSync(f, 'utf8').split('\n').filter((l) => l.includes('"ResponseComplete"')).length, 0);
    const logBytes = logs.reduce((n, f) => n + statSync(f).size, 0);
    if (logged < perPhase * rounds) throw new Error(`the audit log holds ${logged} ResponseComplete events, fewer than the ${perPhase * rounds} creates: audit is not on`);
    const best = (ps: Phase[]) => ps.reduce((x, y) => (y.rate > x.rate ? y : x));
    const row = (what: string, verb: string, p: Phase) => `| ${what} | ${verb} | ${fmt(p.rate, 0)} | ${fmt(p.p50)} | ${fmt(p.p99)} | ${fmt(p.cpuUs, 0)} |`;
    const c = { on: best(results.on!.creates), off: best(results.off!.creates) };
    const g = { on: best(results.on!.gets), off: best(results.off!.gets) };
    const ratio = (verb: 'creates' | 'gets') => pairedRatios(results.on![verb].map((p) => p.rate), results.off![verb].map((p) => p.rate));
    const [cr, gr] = [ratio('creates'), ratio('gets')];
    const cpu = (verb: 'creates' | 'gets', side: string) => results[side]![verb].map((p) => fmt(p.cpuUs, 0)).join(', ');
    const offCpuShare = (verb: 'creates' | 'gets') => fmt(100 * cpuShare(results.on![verb].map((p) => p.cpuUs), results.off![verb].map((p) => p.cpuUs)), 0);
    return [
      '### Operating the server (issue 26): metrics + audit (Metadata, everything) + APF vs audit off + the plain in-flight limiter',
      '',
      `Two \`svc server\` processes on SQLite at once, a warm-up phase on each, then phases interleaved (the order alternating by round), the best of ${rounds} in the table, the ratios the medians of the rounds' ratios; 32 keep-alive clients as an ordinary user bound to cluster-admin (APF: global-default, queued); ${perPhase.toLocaleString('en')} creates and ${(perPhase * 2).toLocaleString('en')} gets of one ConfigMap per phase. Audit: log backend, default (blocking) mode, one policy rule \`level: Metadata\`; ${logBytes.toLocaleString('en')} bytes of audit log written (${logs.length} files) (${logged.toLocaleString('en')} ResponseComplete events).`,
      '',
      '| server | verb | per second | p50 ms | p99 ms | server CPU µs per request |',
      '|---|---|---|---|---|---|',
      row('metrics + audit + APF', 'create', c.on), row('metrics, no audit, in-flight limiter', 'create', c.off),
      row('metrics + audit + APF', 'get', g.on), row('metrics, no audit, in-flight limiter', 'get', g.off),
      '',
      `- creates/s: ${fmt(100 * cr.median, 0)} % (per round ${fmtRatios(cr)}; the whole run ${fmt(100 * cr.pooled, 0)} %; best against best ${fmt((100 * c.on.rate) / c.off.rate, 0)} %) (target ≥ 85 %)`,
      `- gets/s: ${fmt(100 * gr.median, 0)} % (per round ${fmtRatios(gr)}; the whole run ${fmt(100 * gr.pooled, 0)} %; best against best ${fmt((100 * g.on.rate) / g.off.rate, 0)} %) (target ≥ 85 %)`,
      `- server CPU µs per request, per round: creates on ${cpu('creates', 'on')} / off ${cpu('creates', 'off')}; gets on ${cpu('gets', 'on')} / off ${cpu('gets', 'off')}`,
      `- the off server's CPU for the whole run's requests as a share of the on server's (bench/report.ts cpuShare; a diagnostic, not the target's figure): creates ${offCpuShare('creates')} %, gets ${offCpuShare('gets')} %`,
    ];
  } finally {
    for (const s of servers) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
