// 100 creates/s over HTTP/2 to a fresh svc server: latency distribution, no watchers.
import http2 from 'node:http2';
import { mkdtempSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { startServerProcess } from './dist/bench/report.js';
import { cpuOf } from './dist/bench/proc.js';
import { freePort } from './dist/src/testing/ports.js';
const dir = mkdtempSync('/tmp/svc-cr-'); const port = await freePort();
const proc = await startServerProcess('/work/main/dist/src/cli/main.js', dir, port);
const cfg = parse(readFileSync(dir + '/admin.svcconfig', 'utf8'));
const creds = { ca: Buffer.from(cfg.clusters[0].cluster['certificate-authority-data'], 'base64'), cert: Buffer.from(cfg.users[0].user['client-certificate-data'], 'base64'), key: Buffer.from(cfg.users[0].user['client-key-data'], 'base64') };
const s = http2.connect(`https://127.0.0.1:${port}`, creds);
const req = (method, path, body) => new Promise((res, rej) => { const st = s.request({ ':method': method, ':path': path, 'content-type': 'application/json' }); let st0; st.on('response', (h) => (st0 = h[':status'])); st.resume(); st.on('end', () => res(st0)); st.on('error', rej); st.end(body); });
await req('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: 'w' } }));
const lat = []; const pad = 'p'.repeat(200);
const N = Number(process.argv[2] ?? 1000);
const c0 = cpuOf(proc.pid); const t0 = performance.now(); const ps = [];
for (let i = 0; i < N; i++) {
  const due = t0 + i * 10; const w = due - performance.now(); if (w > 1) await new Promise((r) => setTimeout(r, w));
  const t = performance.now();
  ps.push(req('POST', '/api/v1/namespaces/w/configmaps', JSON.stringify({ metadata: { name: 'cm-' + i }, data: { seq: String(i), pad } })).then((c) => { if (c !== 201) throw new Error(c); lat.push(performance.now() - t); }));
}
await Promise.all(ps);
const cpu = cpuOf(proc.pid) - c0; console.log('server CPU per create', (cpu * 1e6 / N).toFixed(0), 'us');
lat.sort((a, b) => a - b); const q = (p) => lat[Math.floor(p * lat.length)].toFixed(2);
console.log(`creates ${N} at 100/s: p50 ${q(0.5)} p90 ${q(0.9)} p99 ${q(0.99)} max ${lat[lat.length - 1].toFixed(1)} ms`);
s.close(); proc.kill();
