// The real `svc` process: start-up output, flags errors, the admin
// kubeconfig, and graceful shutdown on SIGTERM (readyz fails at once, the
// server keeps serving for --shutdown-delay-duration, then exits 0 with every
// acknowledged write kept).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { freePort } from '../../src/testing/ports.js';
import { runSvc, waitFor } from './svcprocess.js';
import { tempDir } from '../../src/testing/tempdir.js';

const WAIT_MS = 20_000;

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
    const a = runSvc(['apiserver', '--no-such-flag']);
    assert.equal(await a.exit, 1);
    assert.match(a.out(), /unknown flag: --no-such-flag/);
    const b = runSvc(['server', '--secure-port=abc']);
    assert.equal(await b.exit, 1);
    assert.match(b.out(), /invalid value "abc" for --secure-port/);
    const c = runSvc(['apiserver', '--storage-backend=etcd3', '--etcd-servers=http://127.0.0.1:1', `--data-dir=${tempDir('svc-p-')}`]);
    assert.equal(await c.exit, 1);
    assert.match(c.out(), /cannot reach etcd at http:\/\/127\.0\.0\.1:1/);
  });

  it('starts, writes the admin kubeconfig, and shuts down gracefully on SIGTERM', async () => {
    const dataDir = tempDir('svc-p-');
    const port = await freePort();
    const s = runSvc(['server', `--data-dir=${dataDir}`, `--secure-port=${port}`, '--shutdown-delay-duration=1s']);
    await waitFor(() => s.out().includes('admin kubeconfig'), WAIT_MS);
    const kc = join(dataDir, 'admin.svcconfig');
    assert.equal((await get(port, '/readyz', kc)).status, 200);
    const created = await get(port, '/api/v1/namespaces/default/configmaps', kc, 'POST', JSON.stringify({ metadata: { name: 'kept' } }));
    assert.equal(created.status, 201);
    s.proc.kill('SIGTERM');
    await waitFor(() => s.out().includes('shutting down'), WAIT_MS);
    const during = await get(port, '/readyz', kc);
    assert.equal(during.status, 500, 'readyz fails at once');
    assert.match(during.text, /\[-\]shutdown failed/);
    assert.equal((await get(port, '/api/v1/namespaces/default/configmaps/kept', kc)).status, 200, 'still serving during the delay');
    assert.equal(await s.exit, 0);

    const again = runSvc(['server', `--data-dir=${dataDir}`, `--secure-port=${port}`]);
    await waitFor(() => again.out().includes('admin kubeconfig'), WAIT_MS);
    assert.equal((await get(port, '/api/v1/namespaces/default/configmaps/kept', kc)).status, 200, 'the acknowledged write survived');
    again.proc.kill('SIGTERM');
    assert.equal(await again.exit, 0);
  });
});
