// The benchmarks' HTTPS client: keep-alive connections with a client
// certificate or a bearer token, and a closed loop of gets over 64 of them.
import { Agent, request } from 'node:https';
import { summarize } from './report.js';

export type Call = (method: string, path: string, body?: string, contentType?: string) => Promise<{ status: number; body: string }>;

export function client(port: number, tls: { ca: Buffer; cert?: Buffer; key?: Buffer }, token?: string, sockets = 64): Call {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets, ...tls });
  return (method, path, body, contentType = 'application/json') =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = { ...(body ? { 'content-type': contentType } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) };
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

export type GetsResult = { rate: number; p50: number; p99: number };

export async function gets(call: Call, path: string, total: number): Promise<GetsResult> {
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

/** Polls a GET until it answers 200 (a binding reaches the authorizer through a watch), at most 5 s. */
export async function untilOk(call: Call, path: string): Promise<void> {
  for (let i = 0; i < 100 && (await call('GET', path)).status !== 200; i++) await new Promise((r) => setTimeout(r, 50));
}

/**
 * Gets with two clients of the same server: each warmed up, then phases interleaved (a, b, a, b),
 * the better of each client's two phases kept, so neither is favoured by running first or last.
 */
export async function compareGets(a: Call, b: Call, path: string, requests: number): Promise<{ a: GetsResult; b: GetsResult }> {
  await gets(a, path, 2000);
  await gets(b, path, 2000);
  const a1 = await gets(a, path, requests);
  const b1 = await gets(b, path, requests);
  const a2 = await gets(a, path, requests);
  const b2 = await gets(b, path, requests);
  return { a: a1.rate >= a2.rate ? a1 : a2, b: b1.rate >= b2.rate ? b1 : b2 };
}
