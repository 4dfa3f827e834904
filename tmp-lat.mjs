import http2 from 'node:http2';
import { monitorEventLoopDelay } from 'node:perf_hooks';
const orig = http2.createSecureServer;
const lat = []; const h = monitorEventLoopDelay({ resolution: 1 }); h.enable();
http2.createSecureServer = (opts, listener) => {
  const srv = orig(opts, listener);
  srv.prependListener('request', (req, res) => { const t = performance.now(); globalThis.__lastReq = t; if (req.method === 'POST') res.on('finish', () => lat.push(performance.now() - t)); });
  return srv;
};
process.on('SIGTERM', () => {
  lat.sort((a, b) => a - b); const q = (p) => (lat[Math.floor(p * lat.length)] ?? 0).toFixed(2);
  console.error(`server-side POST ${lat.length}: p50 ${q(0.5)} p90 ${q(0.9)} p99 ${q(0.99)} max ${(lat[lat.length - 1] ?? 0).toFixed(1)} ms; loop delay p50 ${(h.percentile(50) / 1e6).toFixed(2)} p99 ${(h.percentile(99) / 1e6).toFixed(2)} max ${(h.max / 1e6).toFixed(1)} ms`);
  process.exit(0);
});
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
const fl = []; const of = fs.fsync;
fs.fsync = (fd, cb) => { const t = performance.now(); of(fd, (e) => { fl.push(performance.now() - t); cb(e); }); };
syncBuiltinESMExports();
process.prependListener('SIGTERM', () => { fl.sort((a, b) => a - b); const q = (p) => (fl[Math.floor(p * fl.length)] ?? 0).toFixed(2); console.error(`fsync ${fl.length}: p50 ${q(0.5)} p90 ${q(0.9)} p99 ${q(0.99)} max ${(fl[fl.length - 1] ?? 0).toFixed(1)}`); });
import { SqliteStore } from '/work/main/dist/src/storage/sqlite/store.js';
const oc = SqliteStore.prototype.create; const cl = []; globalThis.__lastReq = 0; const pre = [];
SqliteStore.prototype.create = function (k, v) { const t = performance.now(); if (k.includes('configmaps')) pre.push(t - globalThis.__lastReq); return oc.call(this, k, v).then((r) => { if (k.includes('configmaps')) cl.push(performance.now() - t); return r; }); };
process.prependListener('SIGTERM', () => { for (const [n, a] of [['create', cl], ['req->create', pre]]) { a.sort((x, y) => x - y); const q = (p) => (a[Math.floor(p * a.length)] ?? 0).toFixed(2); console.error(`${n} ${a.length}: p50 ${q(0.5)} p90 ${q(0.9)} p99 ${q(0.99)}`); } });
