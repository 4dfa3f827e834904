// The `svc` command as its own process, for the tests that start it that way.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { parse } from 'yaml';
import { freePort } from '../../src/testing/ports.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const main = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'cli', 'main.js');

export interface SvcProcess {
  readonly proc: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  out(): string;
  readonly exit: Promise<number | null>;
}

export function runSvc(args: string[]): SvcProcess {
  const proc = spawn(process.execPath, [main, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return { proc, out: () => out, exit: new Promise((r) => proc.on('exit', (code) => r(code))) };
}

export async function waitFor(pred: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Requests to a server as the admin of its kubeconfig (the generated client certificate). */
export interface AdminClient {
  (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export function adminClient(port: number, kubeconfig: string): AdminClient {
  const cfg = parse(readFileSync(kubeconfig, 'utf8'));
  const ca = Buffer.from(cfg.clusters[0].cluster['certificate-authority-data'], 'base64');
  const cert = Buffer.from(cfg.users[0].user['client-certificate-data'], 'base64');
  const key = Buffer.from(cfg.users[0].user['client-key-data'], 'base64');
  return (method, path, body) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers = payload ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {};
      const r = request({ host: '127.0.0.1', port, path, method, ca, cert, key, agent: false, headers }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      });
      r.on('error', reject);
      if (payload) r.write(payload);
      r.end();
    });
}

/**
 * `svc apiserver` as its own process on a free port of 127.0.0.1, once it serves (the start has
 * printed the admin kubeconfig; a process that exits first fails with its output), and a client
 * as its admin.
 */
export async function startSvcApiserver(dataDir: string, flags: string[], waitMs = 30_000): Promise<{ server: SvcProcess; req: AdminClient }> {
  const port = await freePort();
  const server = runSvc(['apiserver', `--data-dir=${dataDir}`, `--secure-port=${port}`, '--bind-address=127.0.0.1', ...flags]);
  await waitFor(() => server.out().includes('admin kubeconfig') || server.proc.exitCode !== null, waitMs);
  if (!server.out().includes('admin kubeconfig')) throw new Error(`svc apiserver did not start:\n${server.out()}`);
  return { server, req: adminClient(port, join(dataDir, 'admin.svcconfig')) };
}
