// Server-side apply benchmark (issue 6): a 4 KiB Deployment applied by three
// field managers in turn, over HTTPS with 64 keep-alive connections against a
// `svc server` process (SQLite, synchronous=FULL); and the share of the
// stored object that metadata.managedFields takes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { freePort } from '../src/testing/ports.js';
import { startFloor } from './floor.js';
import { podBody } from './podbody.js';
import { cpuOf } from './proc.js';
import { fmt, startServerProcess, stopProcess, summarize } from './report.js';
import { benchTokenFlag, hasWrk, wrk, type WrkResult } from './wrk.js';

const main = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli', 'main.js');
const MANAGERS = ['deployer', 'autoscaler', 'labeler'];
const DEPLOYMENTS = 300;
const APPLIES = 15_000;

/** The Deployment a manager applies: the same spec for all (shared ownership), plus one annotation of its own that changes every time. */
function deployment(name: string, i: number, manager: string, round: number): string {
  const pod = JSON.parse(podBody(name, i)) as { metadata: { labels: Record<string, string> }; spec: unknown };
  const labels = { app: name };
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: pod.metadata.labels, annotations: { [`bench.svc.io/${manager}`]: String(round) } },
    spec: { replicas: 3, selector: { matchLabels: labels }, template: { metadata: { labels: { ...pod.metadata.labels, ...labels } }, spec: pod.spec } },
  });
}

/**
 * The wrk script: connection after connection, applies go to deployment d by
 * manager m in the same order as the Node client's loop (every deployment by
 * one manager, then by the next); each body's annotation carries the apply's
 * number. Bodies are read once from `bodies` (one JSON line per deployment and
 * manager, `__ROUND__` where the number goes).
 */
function applyScript(bodiesFile: string): string {
  return `
local threads = 0
function setup(thread) thread:set("tid", threads); threads = threads + 1 end
function init(args)
  parts = {}
  for line in io.lines("${bodiesFile}") do
    local before, after = line:match("^(.*)__ROUND__(.*)$")
    parts[#parts + 1] = { before, after }
  end
  counter = 0
end
local managers = { ${MANAGERS.map((m) => `"${m}"`).join(', ')} }
request = function()
  local i = counter * 2 + tid
  counter = counter + 1
  local d = i % ${DEPLOYMENTS}
  local m = math.floor(i / ${DEPLOYMENTS}) % ${MANAGERS.length}
  local p = parts[d * ${MANAGERS.length} + m + 1]
  return wrk.format("PATCH", "/apis/apps/v1/namespaces/default/deployments/d-" .. d .. "?fieldManager=" .. managers[m + 1] .. "&force=true",
    { ["Content-Type"] = "application/apply-patch+yaml" }, p[1] .. (i + 1) .. p[2])
end`;
}

export async function benchApply(): Promise<string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-apply-'));
  const port = await freePort();
  const proc = await startServerProcess(main, dataDir, port, [benchTokenFlag(dataDir)]);
  try {
    const cfg = parse(readFileSync(join(dataDir, 'admin.svcconfig'), 'utf8'));
    const agent = new Agent({
      keepAlive: true, maxSockets: 64,
      ca: Buffer.from(cfg.clusters[0].cluster['certificate-authority-data'], 'base64'),
      cert: Buffer.from(cfg.users[0].user['client-certificate-data'], 'base64'),
      key: Buffer.from(cfg.users[0].user['client-key-data'], 'base64'),
    });
    const call = (method: string, path: string, body?: string, type = 'application/apply-patch+yaml') =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const r = request({ host: '127.0.0.1', port, path, method, agent, headers: body ? { 'content-type': type } : {} }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        r.on('error', reject);
        if (body) r.write(body);
        r.end();
      });
    const path = (d: number, manager: string) => `/apis/apps/v1/namespaces/default/deployments/d-${d}?fieldManager=${manager}&force=true`;
    const size = Buffer.byteLength(deployment('d-0', 0, MANAGERS[0]!, 0));
    // Create every deployment with all three managers once (warm-up, not measured).
    for (let d = 0; d < DEPLOYMENTS; d++) {
      for (const m of MANAGERS) {
        const r = await call('PATCH', path(d, m), deployment(`d-${d}`, d, m, 0));
        if (r.status !== 200 && r.status !== 201) throw new Error(`apply answered ${r.status}: ${r.text}`);
      }
    }
    const rows: string[] = [];
    const measured = async (pid: number, run: () => Promise<number>) => {
      const t0 = cpuOf(pid);
      const n = await run();
      return { n, cpuUs: ((cpuOf(pid) - t0) * 1e6) / n };
    };
    // 1. The Node https client (client certificate), a fixed number of applies.
    const lat: number[] = [];
    let secs = 0;
    const node = await measured(proc.pid!, async () => {
      let next = 0;
      const start = performance.now();
      await Promise.all(Array.from({ length: 64 }, async () => {
        while (next < APPLIES) {
          const i = next++;
          const d = i % DEPLOYMENTS;
          const m = MANAGERS[Math.floor(i / DEPLOYMENTS) % MANAGERS.length]!;
          const t = performance.now();
          const r = await call('PATCH', path(d, m), deployment(`d-${d}`, d, m, i + 1));
          if (r.status !== 200) throw new Error(`apply ${i} answered ${r.status}: ${r.text}`);
          lat.push(performance.now() - t);
        }
      }));
      secs = (performance.now() - start) / 1000;
      return APPLIES;
    });
    const s = summarize(lat);
    rows.push(`| Node https client (in the bench process) | ${APPLIES.toLocaleString('en-US')} | ${fmt(APPLIES / secs, 0)} | ${fmt(s.p50)} ms | ${fmt(s.p99)} ms | 0 | ${fmt(node.cpuUs / 1000, 2)} ms |`);
    // 2. wrk, 10 s.
    const wrkRow = async (label: string, target: number, pid: number) => {
      let w!: WrkResult;
      const c = await measured(pid, async () => {
        w = wrk(`https://127.0.0.1:${target}`, 10, join(dataDir, 'apply.lua'));
        return w.requests;
      });
      return `| ${label} | ${w.requests.toLocaleString('en-US')} in 10 s | ${fmt(w.rate, 0)} | ${w.p50} | ${w.p99} | ${w.errors} | ${fmt(c.cpuUs / 1000, 2)} ms |`;
    };
    const withWrk = hasWrk();
    if (withWrk) {
      const bodies = join(dataDir, 'bodies.jsonl');
      const lines: string[] = [];
      for (let d = 0; d < DEPLOYMENTS; d++) for (const m of MANAGERS) lines.push(deployment(`d-${d}`, d, m, -1).replace('"-1"', '"__ROUND__"'));
      writeFileSync(bodies, lines.join('\n') + '\n');
      writeFileSync(join(dataDir, 'apply.lua'), applyScript(bodies));
      rows.push(await wrkRow('wrk (C; bearer token; 2 threads)', port, proc.pid!));
    } else rows.push('| wrk not installed (apt-get install wrk) | | | | | | |');
    const stored = JSON.parse((await call('GET', '/apis/apps/v1/namespaces/default/deployments/d-0')).text) as { metadata: { managedFields: unknown[] } };
    const whole = Buffer.byteLength(JSON.stringify(stored));
    const managed = Buffer.byteLength(JSON.stringify(stored.metadata.managedFields));
    // 3. The floor (bench/floor.ts): the same wrk load against a server that only decodes the body, merges
    // its annotations into the stored object above, encodes it, writes it to SQLite with an fsync and answers it.
    if (withWrk) {
      const storedFile = join(dataDir, 'stored.json');
      writeFileSync(storedFile, JSON.stringify(stored));
      const floorPort = await freePort();
      const floor = await startFloor(dataDir, floorPort, storedFile);
      try {
        rows.push(await wrkRow('floor: wrk against bench/floor.ts (no apply logic at all, see below)', floorPort, floor.pid!));
      } finally {
        await stopProcess(floor);
      }
    }
    return [
      `### Server-side apply (issue 6): a ${fmt(size / 1024, 1)} KiB Deployment applied by ${MANAGERS.length} managers in turn (force=true, each changes one annotation of its own), ${DEPLOYMENTS} deployments, 64 HTTPS keep-alive connections, \`svc server\` on SQLite (synchronous=FULL); the load generator shares the 2 cores`,
      '',
      '| load generator | applies | per second | p50 | p99 | non-2xx | server CPU per apply |',
      '|---|---|---|---|---|---|---|',
      ...rows,
      '',
      `- Stored object as served: ${fmt(whole / 1024, 1)} KiB, of which metadata.managedFields ${fmt(managed / 1024, 1)} KiB (${fmt((100 * managed) / whole, 0)} %, ${stored.metadata.managedFields.length} entries)`,
      '- The floor row is the machine, not svc: bench/floor.ts answers each apply by merging the body\'s annotations into the stored object above (no field management, defaulting, validation, admission, authentication or watch cache), encoding it, writing it to SQLite (WAL, fsync on the thread pool, group commit, as svc) and sending it back, over the same TLS and HTTP stack. An apply server on this machine cannot go faster than it; the share of the floor\'s rate that svc reaches is the figure to follow.',
    ];
  } finally {
    await stopProcess(proc);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
