// A watch client for the e2e tests: opens a watch over HTTPS with the admin
// certificate and collects its newline-delimited events.
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { TestServer } from './harness.js';

export interface Ev { type: string; object: { kind?: string; metadata: { name?: string; resourceVersion: string; annotations?: Record<string, string> }; [k: string]: unknown } }

export interface Stream {
  events: Ev[];
  status: number;
  ended: Promise<void>;
  waitFor(n: number, ms?: number): Promise<void>;
  close(): void;
}

export function openWatch(t: TestServer, path: string): Promise<Stream> {
  const cfg = parse(readFileSync(t.kubeconfig, 'utf8'));
  const opts = {
    ca: Buffer.from(cfg.clusters[0].cluster['certificate-authority-data'], 'base64'),
    cert: Buffer.from(cfg.users[0].user['client-certificate-data'], 'base64'),
    key: Buffer.from(cfg.users[0].user['client-key-data'], 'base64'),
    agent: false as const,
  };
  return new Promise((resolve, reject) => {
    const req = request(`${t.url}${path}`, opts, (res) => {
      const events: Ev[] = [];
      let buf = '';
      let endedResolve!: () => void;
      const ended = new Promise<void>((r) => (endedResolve = r));
      res.on('data', (d: Buffer) => {
        buf += d.toString();
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (line.trim()) events.push(JSON.parse(line) as Ev);
        }
      });
      res.on('end', endedResolve);
      res.on('close', endedResolve);
      resolve({
        events,
        status: res.statusCode ?? 0,
        ended,
        close: () => req.destroy(),
        async waitFor(n, ms = 10_000) {
          const end = Date.now() + ms;
          while (events.length < n) {
            if (Date.now() > end) throw new Error(`got ${events.length} events, wanted ${n}: ${JSON.stringify(events.map((e) => e.type))}`);
            await new Promise((r) => setTimeout(r, 20));
          }
        },
      });
    });
    req.on('error', reject);
    req.end();
  });
}

