// Server-side apply benchmark (issue 6): a 4 KiB Deployment applied by three
// field managers in turn, over HTTPS with 64 keep-alive connections against a
// `svc server` process (SQLite, synchronous=FULL); and the share of the
// stored object that metadata.managedFields takes.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { freePort } from '../src/testing/ports.js';
import { podBody } from './podbody.js';
import { fmt, startServerProcess, summarize } from './report.js';

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

export async function benchApply(): Promise<string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-apply-'));
  const port = await freePort();
  const proc = await startServerProcess(main, dataDir, port);
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
    const lat: number[] = [];
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
    const secs = (performance.now() - start) / 1000;
    const s = summarize(lat);
    const stored = JSON.parse((await call('GET', '/apis/apps/v1/namespaces/default/deployments/d-0')).text) as { metadata: { managedFields: unknown[] } };
    const whole = Buffer.byteLength(JSON.stringify(stored));
    const managed = Buffer.byteLength(JSON.stringify(stored.metadata.managedFields));
    return [
      `### Server-side apply (issue 6): a ${fmt(size / 1024, 1)} KiB Deployment applied by ${MANAGERS.length} managers in turn (force=true, each changes one annotation of its own), ${DEPLOYMENTS} deployments, 64 HTTPS connections, \`svc server\` on SQLite`,
      '',
      '| applies | per second | p50 ms | p99 ms |',
      '|---|---|---|---|',
      `| ${APPLIES.toLocaleString('en-US')} | ${fmt(APPLIES / secs, 0)} | ${fmt(s.p50)} | ${fmt(s.p99)} |`,
      '',
      `- Stored object as served: ${fmt(whole / 1024, 1)} KiB, of which metadata.managedFields ${fmt(managed / 1024, 1)} KiB (${fmt((100 * managed) / whole, 0)} %, ${stored.metadata.managedFields.length} entries)`,
      '- The Node https client runs in the benchmark process on the same 2 cores as the server.',
    ];
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => proc.on('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
