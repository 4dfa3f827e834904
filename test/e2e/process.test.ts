// The real `svc` process: start-up output, flags errors, the admin
// kubeconfig, and graceful shutdown on SIGTERM (readyz fails at once, the
// server keeps serving for --shutdown-delay-duration, then exits 0 with every
// acknowledged write kept).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { freePort } from '../../src/testing/ports.js';

const main = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'cli', 'main.js');

function run(args: string[]): { proc: ChildProcess; out: () => string; exit: Promise<number | null> } {
  const proc = spawn(process.execPath, [main, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return { proc, out: () => out, exit: new Promise((r) => proc.on('exit', (code) => r(code))) };
}

async function waitFor(pred: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

function get(port: number, path: string, kubeconfig: string, method = 'GET', body?: string): Promise<{ status: number; text: string }> {
  const cfg = parse(readFileSync(kubeconfig, 'utf8'));
  const ca = Buffer.from(cfg.clusters[0].cluster['certificate-authority-data'], 'base64');
  const cert = Buffer.from(cfg.users[0].user['client-certificate-data'], 'base64');
  const key = Buffer.from(cfg.users[0].user['client-key-data'], 'base64');
  return new Promise((resolve, reject) => {
    const r = request({ host: '127.0.0.1', port, path, method, ca, cert, key, agent: false, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    r.on('error', reject);
    if (body) r.write(body);
    r.end();
  });
}

describe('svc process', () => {
  it('rejects unknown and malformed flags with exit code 1', async () => {
    const a = run(['apiserver', '--no-such-flag']);
    assert.equal(await a.exit, 1);
    assert.match(a.out(), /unknown flag: --no-such-flag/);
    const b = run(['server', '--secure-port=abc']);
    assert.equal(await b.exit, 1);
    assert.match(b.out(), /invalid value "abc" for --secure-port/);
    const c = run(['apiserver', '--storage-backend=etcd3', '--etcd-servers=http://127.0.0.1:1', `--data-dir=${mkdtempSync(join(tmpdir(), 'svc-p-'))}`]);
    assert.equal(await c.exit, 1);
    assert.match(c.out(), /cannot reach etcd at http:\/\/127\.0\.0\.1:1/);
  });

  it('starts, writes the admin kubeconfig, and shuts down gracefully on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-p-'));
    const port = await freePort();
    const s = run(['server', `--data-dir=${dataDir}`, `--secure-port=${port}`, '--shutdown-delay-duration=1s']);
    await waitFor(() => s.out().includes('admin kubeconfig'));
    const kc = join(dataDir, 'admin.svcconfig');
    assert.equal((await get(port, '/readyz', kc)).status, 200);
    const created = await get(port, '/api/v1/namespaces/default/configmaps', kc, 'POST', JSON.stringify({ metadata: { name: 'kept' } }));
    assert.equal(created.status, 201);
    s.proc.kill('SIGTERM');
    await waitFor(() => s.out().includes('shutting down'));
    const during = await get(port, '/readyz', kc);
    assert.equal(during.status, 500, 'readyz fails at once');
    assert.match(during.text, /\[-\]shutdown failed/);
    assert.equal((await get(port, '/api/v1/namespaces/default/configmaps/kept', kc)).status, 200, 'still serving during the delay');
    assert.equal(await s.exit, 0);

    const again = run(['server', `--data-dir=${dataDir}`, `--secure-port=${port}`]);
    await waitFor(() => again.out().includes('admin kubeconfig'));
    assert.equal((await get(port, '/api/v1/namespaces/default/configmaps/kept', kc)).status, 200, 'the acknowledged write survived');
    again.proc.kill('SIGTERM');
    assert.equal(await again.exit, 0);
  });
});
