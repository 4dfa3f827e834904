// API server benchmark (issue 3): durable creates and gets of 1 KiB
// configmaps over HTTPS with 64 keep-alive connections, and the idle RSS of
// a freshly started `svc server` process.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { freePort } from '../src/testing/ports.js';
import { rssOf } from './proc.js';
import { fmt, startServerProcess, stopProcess, summarize } from './report.js';
import { benchTokenFlag, hasWrk, wrk } from './wrk.js';

const main = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli', 'main.js');

interface Client {
  call(method: string, path: string, body?: string): Promise<number>;
}

function client(port: number, kubeconfig: string, connections: number): Client {
  const cfg = parse(readFileSync(kubeconfig, 'utf8'));
  const agent = new Agent({
    keepAlive: true,
    maxSockets: connections,
    ca: Buffer.from(cfg.clusters[0].cluster['certificate-authority-data'], 'base64'),
    cert: Buffer.from(cfg.users[0].user['client-certificate-data'], 'base64'),
    key: Buffer.from(cfg.users[0].user['client-key-data'], 'base64'),
  });
  return {
    call: (method, path, body) =>
      new Promise((resolve, reject) => {
        const r = request({ host: '127.0.0.1', port, path, method, agent, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        r.on('error', reject);
        if (body) r.write(body);
        r.end();
      }),
  };
}

async function load(c: Client, total: number, concurrency: number, op: (i: number) => Promise<number>, expect: number): Promise<{ rate: number; p50: number; p99: number }> {
  const lat: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        const status = await op(i);
        if (status !== expect) throw new Error(`request ${i} answered ${status}, expected ${expect}`);
        lat.push(performance.now() - t);
      }
    }),
  );
  const s = summarize(lat);
  return { rate: total / ((performance.now() - start) / 1000), p50: s.p50, p99: s.p99 };
}

const WRK_POST = `
local id = 0
function setup(thread) id = id + 1; thread:set("tid", id) end
counter = 0
request = function()
  counter = counter + 1
  local body = '{"metadata":{"name":"wrk-' .. tid .. '-' .. counter .. '"},"data":{"v":"' .. string.rep("x", 1024) .. '"}}'
  return wrk.format("POST", "/api/v1/namespaces/default/configmaps", {["Content-Type"]="application/json", ["Authorization"]="Bearer bench-token"}, body)
end`;

export async function benchApiServer(): Promise<string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-api-'));
  const port = await freePort();
  writeFileSync(join(dataDir, 'post.lua'), WRK_POST);
  const proc = await startServerProcess(main, dataDir, port, [benchTokenFlag(dataDir)]);
  try {
    await new Promise((r) => setTimeout(r, 3000));
    const idle = rssOf(proc.pid!);
    const c = client(port, join(dataDir, 'admin.svcconfig'), 64);
    const value = JSON.stringify({ metadata: { name: 'x' }, data: { v: 'x'.repeat(1024) } });
    const body = (i: number) => value.replace('"name":"x"', `"name":"cm-${i}"`);
    await load(c, 500, 64, (i) => c.call('POST', '/api/v1/namespaces/default/configmaps', body(1_000_000 + i)), 201); // warm-up
    const creates = await load(c, 20_000, 64, (i) => c.call('POST', '/api/v1/namespaces/default/configmaps', body(i)), 201);
    const gets = await load(c, 40_000, 64, (i) => c.call('GET', `/api/v1/namespaces/default/configmaps/cm-${i % 20_000}`), 200);
    const loaded = rssOf(proc.pid!);
    const wrkLines: string[] = [];
    if (hasWrk()) {
      const base = `https://127.0.0.1:${port}`;
      const wc = wrk(base, 10, join(dataDir, 'post.lua'));
      const wg = wrk(`${base}/api/v1/namespaces/default/configmaps/cm-1`, 10);
      wrkLines.push(
        '',
        'With wrk as the load generator (C, bearer token, HTTP/1.1 keep-alive, 2 threads, 64 connections, 10 s each; it shares the 2 cores):',
        '',
        '| operation | per second | p50 | p99 | non-2xx |',
        '|---|---|---|---|---|',
        `| durable create | ${fmt(wc.rate, 0)} | ${wc.p50} | ${wc.p99} | ${wc.errors} |`,
        `| get | ${fmt(wg.rate, 0)} | ${wg.p50} | ${wg.p99} | ${wg.errors} |`,
      );
    } else wrkLines.push('', 'wrk not installed (apt-get install wrk): only the Node client figures above.');
    return [
      '### API server (issue 3): 1 KiB configmaps over HTTPS, 64 keep-alive connections, `svc server` on SQLite (synchronous=FULL), Node https client (client certificate)',
      '',
      '| operation | requests | per second | p50 ms | p99 ms |',
      '|---|---|---|---|---|',
      `| durable create | 20,000 | ${fmt(creates.rate, 0)} | ${fmt(creates.p50)} | ${fmt(creates.p99)} |`,
      `| get | 40,000 | ${fmt(gets.rate, 0)} | ${fmt(gets.p50)} | ${fmt(gets.p99)} |`,
      '',
      `- Idle RSS 3 s after start: ${fmt(idle / 2 ** 20, 1)} MiB; after the load (20,000 objects stored): ${fmt(loaded / 2 ** 20, 1)} MiB`,
      '- The Node https client above runs in the benchmark process on the same 2 cores and costs about as much CPU as the server, so those figures are lower bounds.',
      ...wrkLines,
    ];
  } finally {
    await stopProcess(proc);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
