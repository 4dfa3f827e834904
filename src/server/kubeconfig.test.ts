// Kubeconfig tests: the written YAML, what kubectl 1.27 reads from it, and a
// real kubectl request over TLS with the admin certificate.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { ADMIN_KUBECONFIG, buildKubeconfig, serverUrl, writeAdminKubeconfig, type Kubeconfig } from './kubeconfig.js';
import { ensurePki, parseCertificateBundle, peerCertificateChain, verifyClientCertificate, type Pki } from './pki.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.27';
/** Locally a missing kubectl skips; under CI=true it fails (see DESIGN §8). */
function kubectlSkip(): string | false {
  if (existsSync(KUBECTL)) return false;
  if (process.env.CI === 'true') throw new Error(`${KUBECTL} not found (required under CI=true)`);
  return `${KUBECTL} not found: install the Google Cloud SDK's kubectl component`;
}
const run = promisify(execFile);
const decode = (b64: string): string => Buffer.from(b64, 'base64').toString('utf8');

describe('admin kubeconfig', () => {
  let dataDir: string;
  let pki: Pki;
  let file: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-kubeconfig-'));
    pki = await ensurePki({ dataDir });
    file = await writeAdminKubeconfig({ dataDir, port: 6443, pki });
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('writes <dataDir>/admin.svcconfig, mode 0600', async () => {
    assert.equal(file, join(dataDir, ADMIN_KUBECONFIG));
    assert.equal((await stat(file)).mode & 0o777, 0o600);
  });

  it('is a standard kubeconfig with the CA, server and admin credentials inlined', async () => {
    const doc = parse(await readFile(file, 'utf8')) as Kubeconfig;
    assert.equal(doc.apiVersion, 'v1');
    assert.equal(doc.kind, 'Config');
    assert.equal(doc['current-context'], 'admin@svc');
    assert.deepEqual(doc.contexts, [{ name: 'admin@svc', context: { cluster: 'svc', user: 'admin' } }]);
    const [cluster] = doc.clusters;
    assert.equal(cluster?.name, 'svc');
    assert.equal(cluster?.cluster.server, 'https://127.0.0.1:6443');
    assert.equal(decode(cluster?.cluster['certificate-authority-data'] ?? ''), pki.ca.cert);
    const [user] = doc.users;
    assert.equal(user?.name, 'admin');
    assert.equal(decode(user?.user['client-certificate-data'] ?? ''), pki.admin.cert);
    assert.equal(decode(user?.user['client-key-data'] ?? ''), pki.admin.key);
  });

  it('is rewritten in place for a new port', async () => {
    await writeAdminKubeconfig({ dataDir, port: 7443, pki });
    const doc = parse(await readFile(file, 'utf8')) as Kubeconfig;
    assert.equal(doc.clusters[0]?.cluster.server, 'https://127.0.0.1:7443');
    await writeAdminKubeconfig({ dataDir, port: 6443, pki });
  });

  it('brackets IPv6 hosts and takes other names', () => {
    assert.equal(serverUrl('::1', 6443), 'https://[::1]:6443');
    assert.equal(serverUrl('localhost', 1), 'https://localhost:1');
    const doc = buildKubeconfig({ server: 'https://x:1', caCert: 'ca', client: { cert: 'c', key: 'k' }, clusterName: 'c1', userName: 'u1' });
    assert.equal(doc['current-context'], 'u1@c1');
    assert.deepEqual(doc.users[0], { name: 'u1', user: { 'client-certificate-data': 'Yw==', 'client-key-data': 'aw==' } });
  });

  it('reads back through kubectl config view', { skip: kubectlSkip() }, async () => {
    const { stdout } = await run(KUBECTL, ['--kubeconfig', file, 'config', 'view', '--raw', '-o', 'json']);
    const view = JSON.parse(stdout) as Kubeconfig;
    assert.equal(view['current-context'], 'admin@svc');
    assert.deepEqual(view.clusters, [{
      name: 'svc', cluster: { server: 'https://127.0.0.1:6443', 'certificate-authority-data': Buffer.from(pki.ca.cert).toString('base64') },
    }]);
    assert.deepEqual(view.users, [{
      name: 'admin',
      user: {
        'client-certificate-data': Buffer.from(pki.admin.cert).toString('base64'),
        'client-key-data': Buffer.from(pki.admin.key).toString('base64'),
      },
    }]);
  });

  describe('against a TLS server with the serving certificate', () => {
    let server: Server;
    let kubeconfig: string;
    before(async () => {
      server = createServer({ cert: pki.serving.cert, key: pki.serving.key, ca: pki.ca.cert, requestCert: true, rejectUnauthorized: false },
        (req, res) => {
          const result = verifyClientCertificate(peerCertificateChain(req.socket as TLSSocket), parseCertificateBundle(pki.ca.cert));
          res.setHeader('content-type', 'text/plain');
          res.end(result.ok ? `${req.url} ${result.user.name} ${result.user.groups.join(',')}` : `rejected: ${result.reason}`);
        });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      const dir = await mkdtemp(join(tmpdir(), 'svc-kubeconfig-tls-'));
      kubeconfig = await writeAdminKubeconfig({ dataDir: dir, port, pki });
    });
    after(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(join(kubeconfig, '..'), { recursive: true, force: true });
    });

    it('kubectl verifies the server and presents the admin certificate', { skip: kubectlSkip() }, async () => {
      const cacheDir = join(kubeconfig, '..', 'cache');
      const { stdout } = await run(KUBECTL, ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, 'get', '--raw', '/healthz']);
      assert.equal(stdout.trim(), '/healthz admin system:masters');
    });
  });
});
