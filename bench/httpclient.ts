// The benchmarks' HTTPS client: keep-alive connections with a client
// certificate or a bearer token, and a closed loop of gets over 64 of them.
import { Agent, request } from 'node:https';
import { summarize } from './report.js';

export type Call = (method: string, path: string, body?: string) => Promise<{ status: number; body: string }>;

export function client(port: number, tls: { ca: Buffer; cert?: Buffer; key?: Buffer }, token?: string): Call {
  const agent = new Agent({ keepAlive: true, maxSockets: 64, ...tls });
  return (method, path, body) =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) };
      const r = request({ host: '127.0.0.1', port, path, method, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      });
      r.on('error', reject);
      if (body) r.write(body);
      r.end();
    });
}

export async function gets(call: Call, path: string, total: number): Promise<{ rate: number; p50: number; p99: number }> {
  const lat: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(Array.from({ length: 64 }, async () => {
    while (next++ < total) {
      const t = performance.now();
      const { status } = await call('GET', path);
      if (status !== 200) throw new Error(`get answered ${status}`);
      lat.push(performance.now() - t);
    }
  }));
  const s = summarize(lat);
  return { rate: total / ((performance.now() - start) / 1000), p50: s.p50, p99: s.p99 };
}
