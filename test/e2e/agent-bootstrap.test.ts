// The node agent's way in (issue 25): TLS bootstrap with a bootstrap token —
// the CSR approved by the approver (nodeclient) and signed by the signer of
// the controller manager, the key and certificates in --cert-dir as the
// kubelet keeps them, the svcconfig written — then the node's own identity
// through remoteAgentApi (its Node, its pods only, NodeRestriction refusing
// another node's), renewal as the node (selfnodeclient), a denied request,
// and the in-process AgentApi as system:node:<name>.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { kubeadmJoinSetup } from './agentpods.js';
import { eventually, HARNESS_CONTROLLERS, startTestServer, writeTokenFile, type TestServer } from './harness.js';
import { tempDir } from '../../src/testing/tempdir.js';
import { loadSvcconfig } from '../../src/client/svcconfig.js';
import { connectAgent, inProcessAgentApi, remoteAgentApi } from '../../src/agent/api/index.js';
import { CertStore, ClientCertificateRotation, loadClientCertificate, KUBELET_CLIENT_SIGNER } from '../../src/agent/bootstrap/index.js';
import { isStatusError } from '../../src/api/meta/index.js';
import { clientUsages, digestedName, generateKeyPem, nodeRequestPem, parseKey } from '../../src/agent/bootstrap/request.js';
import type { AgentApi } from '../../src/agent/api.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const NODES = { group: '', version: 'v1', resource: 'nodes' };
const node = (name: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'svc.io/hostname': name } } });
const pod = (name: string, nodeName: string) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName, containers: [{ name: 'c', image: 'busybox' }] },
});

describe('agent TLS bootstrap and node identity', () => {
  let t: TestServer;
  let dir: string;
  let caData: string;
  const apis: AgentApi[] = [];

  before(async () => {
    dir = tempDir('svc-agent-boot-');
    t = await startTestServer({
      enableBootstrapTokenAuth: true,
      tokenAuthFile: writeTokenFile(dir, 'token-joiner,joiner,joiner,"joiners"\ntoken-node-n7,system:node:n7,n7,"system:nodes"\n'),
      controllerManager: { controllers: [...HARNESS_CONTROLLERS, 'csrapproving', 'csrsigning'] },
      // kubeadm's admission: a node may only touch its own Node and pods
      admission: { enable: ['NodeRestriction'] },
    });
    const cfg = (await import('yaml')).parse(readFileSync(t.kubeconfig, 'utf8'));
    caData = cfg.clusters[0].cluster['certificate-authority-data'];
    await kubeadmJoinSetup(t);
    // a user that may ask but whose requests nobody approves automatically
    const r = await t.req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      metadata: { name: 'joiners-create' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:node-bootstrapper' },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'joiners' }],
    });
    assert.equal(r.status, 201, r.text);
  });
  after(async () => {
    for (const a of apis) a.close();
    await t?.stop();
  });

  const bootstrapFile = (name: string, token: string) => {
    const p = join(dir, name);
    writeFileSync(p, stringify({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'boot',
      clusters: [{ name: 'c', cluster: { server: t.url, 'certificate-authority-data': caData } }],
      contexts: [{ name: 'boot', context: { cluster: 'c', user: 'tls-bootstrap-token-user' } }],
      users: [{ name: 'tls-bootstrap-token-user', user: { token } }],
    }));
    return p;
  };

  it('bootstraps a client certificate with a bootstrap token and acts as the node with it', async () => {
    const certDir = join(dir, 'pki-n1');
    const svcconfigPath = join(dir, 'n1', 'agent.svcconfig');
    const result = await loadClientCertificate({
      svcconfigPath, bootstrapSvcconfigPath: bootstrapFile('bootstrap.svcconfig', 'abcdef.0123456789abcdef'), certDir, nodeName: 'n1', waitForServerMs: 5000, timeoutMs: 30_000,
    });
    assert.deepEqual(result, { bootstrapped: true, reason: `${svcconfigPath} does not exist` });

    // the request: the digested name, our signer spelling, the bootstrap user, approved as a node client
    const csr = ((await t.req('GET', CSRS)).body.items as Obj[]).find((c) => c.spec.username === 'system:bootstrap:abcdef')!;
    assert.match(csr.metadata.name, /^node-csr-[A-Za-z0-9_-]{43}$/);
    assert.equal(csr.spec.signerName, KUBELET_CLIENT_SIGNER);
    assert.deepEqual(csr.spec.usages, ['digital signature', 'client auth']);
    assert.deepEqual(csr.status.conditions.map((c: Obj) => [c.type, c.reason, c.message]), [['Approved', 'AutoApproved', 'Auto approving kubelet client certificate after SubjectAccessReview.']]);

    // the files, as the kubelet keeps them
    const files = readdirSync(certDir).sort();
    assert.equal(files.length, 2, files.join());
    assert.match(files[0]!, /^kubelet-client-\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d\.pem$/);
    assert.equal(files[1], 'kubelet-client-current.pem');
    assert.ok(lstatSync(join(certDir, 'kubelet-client-current.pem')).isSymbolicLink());
    assert.equal(readlinkSync(join(certDir, 'kubelet-client-current.pem')), join(certDir, files[0]!));
    assert.equal(existsSync(join(certDir, 'kubelet-client.key.tmp')), false, 'the request key is gone once issued');
    const pem = readFileSync(join(certDir, files[0]!), 'utf8');
    assert.match(pem, /^-----BEGIN CERTIFICATE-----[\s\S]+-----BEGIN EC PRIVATE KEY-----/);
    const cert = new X509Certificate(pem);
    assert.match(cert.subject, /CN=system:node:n1/);
    assert.match(cert.subject, /O=system:nodes/);
    assert.equal((lstatSync(join(certDir, files[0]!)).mode & 0o777), 0o600);

    // the svcconfig written: the bootstrap file's cluster, the store's current pair
    const written = (await import('yaml')).parse(readFileSync(svcconfigPath, 'utf8'));
    assert.deepEqual(written.users, [{ name: 'default-auth', user: { 'client-certificate': join(certDir, 'kubelet-client-current.pem'), 'client-key': join(certDir, 'kubelet-client-current.pem') } }]);
    assert.deepEqual(written.clusters, [{ name: 'default-cluster', cluster: { server: t.url, 'certificate-authority-data': caData } }]);
    assert.equal(written['current-context'], 'default-context');

    // the node identity: its own Node may be made, another node's not (NodeRestriction)
    const api = remoteAgentApi(loadSvcconfig(svcconfigPath), 'n1');
    apis.push(api);
    const made = await api.create(NODES, '', node('n1'));
    assert.equal(made.metadata.name, 'n1');
    assert.equal((made.metadata.managedFields as Obj[] | undefined)?.[0]?.manager, 'kubelet');
    await assert.rejects(api.create(NODES, '', node('n2')), (e) => isStatusError(e) && e.status.code === 403 && /node "n1" is not allowed to modify node "n2"/.test(e.status.message ?? ''));
    const patched = await api.patch(NODES, '', 'n1', { metadata: { annotations: { 'svc.io/agent': 'yes' } } });
    assert.equal(patched.metadata.annotations?.['svc.io/agent'], 'yes');
    const status = await api.update({ ...NODES, subresource: 'status' }, '', 'n1', (cur) => ({ ...cur, status: { ...(cur.status as Obj), conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'ok', lastHeartbeatTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }] } }));
    assert.equal((status.status as Obj).conditions[0].reason, 'KubeletReady');

    // its caches: its pods only, its Node only, every Service
    assert.equal((await t.req('POST', '/api/v1/nodes', node('n2'))).status, 201);
    assert.equal((await t.req('POST', '/api/v1/namespaces/default/pods', pod('on-n1', 'n1'))).status, 201);
    assert.equal((await t.req('POST', '/api/v1/namespaces/default/pods', pod('on-n2', 'n2'))).status, 201);
    const svc = await t.req('POST', '/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } });
    assert.equal(svc.status, 201, svc.text);
    for (const c of [api.pods(), api.node(), api.services()]) await c.start();
    assert.deepEqual(api.pods().list().map((p) => p.metadata.name), ['on-n1']);
    assert.deepEqual(api.node().list().map((n) => n.metadata.name), ['n1']);
    assert.ok(api.services().get('default', 'web'), 'a Service');
    const seen: string[] = [];
    api.pods().addHandler({ onAdd: (p) => seen.push(p.metadata.name!) });
    assert.equal((await t.req('POST', '/api/v1/namespaces/default/pods', pod('later-n2', 'n2'))).status, 201);
    assert.equal((await t.req('POST', '/api/v1/namespaces/default/pods', pod('later-n1', 'n1'))).status, 201);
    await eventually(async () => seen.includes('later-n1'));
    assert.deepEqual(seen, ['on-n1', 'later-n1']);

    // a second start finds the svcconfig valid
    assert.deepEqual(await loadClientCertificate({ svcconfigPath, bootstrapSvcconfigPath: join(dir, 'bootstrap.svcconfig'), certDir, nodeName: 'n1' }), { bootstrapped: false });
  });

  it('renews the certificate as the node (selfnodeclient); clients of the svcconfig use the new one', async () => {
    const certDir = join(dir, 'pki-n1');
    const svcconfigPath = join(dir, 'n1', 'agent.svcconfig');
    const store = new CertStore(certDir);
    const before = store.current()!;
    const api = remoteAgentApi(loadSvcconfig(svcconfigPath), 'n1');
    apis.push(api);
    await api.get(NODES, '', 'n1');
    // a clock past 90 % of the lifetime: the deadline has passed
    const rotation = new ClientCertificateRotation({ store, cluster: loadSvcconfig(svcconfigPath).connection, nodeName: 'n1', now: () => before.notAfter - 1000, waitTimeoutMs: 30_000 });
    assert.ok(rotation.nextDeadline()! < before.notAfter - 1000);
    await new Promise((r) => setTimeout(r, 1100)); // a new file name (timestamps have seconds)
    const after = await rotation.rotate();
    rotation.stop();
    assert.notEqual(after.leaf.serialNumber, before.leaf.serialNumber);
    assert.notEqual(after.keyPem, before.keyPem, 'a new key');
    assert.equal(store.current()!.leaf.serialNumber, after.leaf.serialNumber, 'the current link moved');
    const renewal = ((await t.req('GET', CSRS)).body.items as Obj[]).find((c) => c.spec.username === 'system:node:n1')!;
    assert.match(renewal.metadata.name, /^csr-/);
    assert.deepEqual(renewal.status.conditions.map((c: Obj) => c.message), ['Auto approving self kubelet client certificate after SubjectAccessReview.']);
    // the same client goes on, now with the new certificate
    assert.equal((await api.get(NODES, '', 'n1')).metadata.name, 'n1');
    assert.equal(readdirSync(certDir).filter((f) => /^kubelet-client-\d/.test(f)).length, 2);
  });

  it('a denied request fails the bootstrap with kube\'s message; the key is kept for the next attempt', async () => {
    const certDir = join(dir, 'pki-n3');
    const failure = loadClientCertificate({
      svcconfigPath: join(dir, 'n3.svcconfig'), bootstrapSvcconfigPath: bootstrapFile('joiner.svcconfig', 'token-joiner'), certDir, nodeName: 'n3', waitForServerMs: 5000, timeoutMs: 30_000,
    }).then(() => undefined, (e: Error) => e);
    let name = '';
    await eventually(async () => {
      const c = ((await t.req('GET', CSRS)).body.items as Obj[]).find((x) => x.spec.username === 'joiner');
      name = c?.metadata.name ?? '';
      return Boolean(c);
    });
    const cur = (await t.req('GET', `${CSRS}/${name}`)).body;
    const denied = await t.req('PUT', `${CSRS}/${name}/approval`, { ...cur, status: { conditions: [{ type: 'Denied', status: 'True', reason: 'NotANode', message: 'who are you' }] } });
    assert.equal(denied.status, 200, denied.text);
    const err = await failure;
    assert.deepEqual([err?.name, err?.message], ['CertificateRequestError', 'certificate signing request is denied, reason: NotANode, message: who are you']);
    assert.ok(existsSync(join(certDir, 'kubelet-client.key.tmp')));
    assert.equal(existsSync(join(dir, 'n3.svcconfig')), false);
    // again with the same key: the same request (same digested name) is found, not made anew — and it is denied
    await assert.rejects(loadClientCertificate({
      svcconfigPath: join(dir, 'n3.svcconfig'), bootstrapSvcconfigPath: join(dir, 'joiner.svcconfig'), certDir, nodeName: 'n3', waitForServerMs: 5000, timeoutMs: 30_000,
    }), { name: 'CertificateRequestError', message: 'certificate signing request is denied, reason: NotANode, message: who are you' });
    assert.deepEqual(((await t.req('GET', CSRS)).body.items as Obj[]).filter((x) => x.spec.username === 'joiner').map((x) => x.metadata.name), [name]);
  });

  it('a request of that name by another key is not taken for ours', async () => {
    const certDir = join(dir, 'pki-n8');
    mkdirSync(certDir, { recursive: true });
    const keyPem = generateKeyPem();
    writeFileSync(join(certDir, 'kubelet-client.key.tmp'), keyPem);
    const key = parseKey(keyPem)!;
    const name = digestedName(key, 'system:node:n8', ['system:nodes'], clientUsages(key));
    const other = parseKey(generateKeyPem())!;
    const made = await t.req('POST', CSRS, { metadata: { name }, spec: { request: Buffer.from(await nodeRequestPem(other, 'n8')).toString('base64'), signerName: KUBELET_CLIENT_SIGNER, usages: ['digital signature', 'client auth'] } });
    assert.equal(made.status, 201, made.text);
    await assert.rejects(loadClientCertificate({
      svcconfigPath: join(dir, 'n8.svcconfig'), bootstrapSvcconfigPath: join(dir, 'bootstrap.svcconfig'), certDir, nodeName: 'n8', waitForServerMs: 5000, timeoutMs: 30_000,
    }), { name: 'CertificateRequestError', message: 'retrieved csr is not compatible: error validating signature new CSR against old key: the request is signed by another key' });
  });

  it('connectAgent: bootstrap, then the node\'s AgentApi and the renewal of its certificate', async () => {
    const connected = await connectAgent({
      svcconfigPath: join(dir, 'n6', 'agent.svcconfig'), bootstrapSvcconfigPath: join(dir, 'bootstrap.svcconfig'), certDir: join(dir, 'pki-n6'), nodeName: 'n6', rotateCertificates: true,
    });
    try {
      assert.ok(connected.rotation, 'renewal runs: the svcconfig presents the store\'s certificate');
      const deadline = connected.rotation.nextDeadline()!;
      const cert = new CertStore(join(dir, 'pki-n6')).current()!;
      assert.ok(deadline >= cert.notBefore + 0.7 * (cert.notAfter - cert.notBefore) && deadline <= cert.notBefore + 0.9 * (cert.notAfter - cert.notBefore));
      assert.equal((await connected.api.create(NODES, '', node('n6'))).metadata.name, 'n6');
    } finally {
      connected.close();
    }
    const plain = await connectAgent({ svcconfigPath: join(dir, 'n6', 'agent.svcconfig'), certDir: join(dir, 'pki-n6'), nodeName: 'n6' });
    assert.equal(plain.rotation, undefined, 'without rotateCertificates');
    plain.close();
  });

  it('a svcconfig with an exec plugin: its token, run again after a 401', async () => {
    const plugin = join(dir, 'node-token.mjs');
    writeFileSync(plugin, [
      "import { appendFileSync, readFileSync } from 'node:fs';",
      "const log = process.env.RUNS; appendFileSync(log, 'run\\n');",
      "const runs = readFileSync(log, 'utf8').trim().split('\\n').length;",
      "const info = JSON.parse(process.env.SVC_EXEC_INFO);",
      "process.stdout.write(JSON.stringify({ kind: 'ExecCredential', apiVersion: info.apiVersion, status: { token: runs === 1 ? 'stale-token' : 'token-node-n7' } }));",
    ].join('\n'));
    const path = join(dir, 'n7.svcconfig');
    writeFileSync(path, stringify({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'n7',
      clusters: [{ name: 'c', cluster: { server: t.url, 'certificate-authority-data': caData } }],
      contexts: [{ name: 'n7', context: { cluster: 'c', user: 'n7' } }],
      users: [{ name: 'n7', user: { exec: { apiVersion: 'client.authentication.svc.io/v1', command: process.execPath, args: [plugin], interactiveMode: 'Never', env: [{ name: 'RUNS', value: join(dir, 'n7.runs') }] } } }],
    }));
    const api = remoteAgentApi(loadSvcconfig(path), 'n7');
    apis.push(api);
    assert.equal((await api.create(NODES, '', node('n7'))).metadata.name, 'n7');
    assert.equal((await api.get(NODES, '', 'n7')).metadata.name, 'n7');
    assert.equal(readFileSync(join(dir, 'n7.runs'), 'utf8'), 'run\nrun\n', 'run once, again after the 401, then cached');
  });

  it('in process: the node\'s calls as system:node:<name>, its pods and Node only', async () => {
    const api = inProcessAgentApi(t.server.controllerContext, 'n4');
    apis.push(api);
    const made = await api.create(NODES, '', node('n4'));
    assert.equal((made.metadata.managedFields as Obj[] | undefined)?.[0]?.manager, 'kubelet');
    await assert.rejects(api.create(NODES, '', node('n5')), (e) => isStatusError(e) && e.status.code === 403);
    const patched = await api.patch(NODES, '', 'n4', { metadata: { annotations: { a: 'b' } } });
    assert.equal(patched.metadata.annotations?.a, 'b');
    assert.equal((await t.req('POST', '/api/v1/namespaces/default/pods', pod('on-n4', 'n4'))).status, 201);
    await api.pods().start();
    await api.node().start();
    await eventually(async () => api.pods().list().length === 1);
    assert.deepEqual(api.pods().list().map((p) => p.metadata.name), ['on-n4']);
    assert.deepEqual(api.node().list().map((n) => n.metadata.name), ['n4']);
    // a pod of the node: its status patched by the node
    const st = await api.patch({ group: '', version: 'v1', resource: 'pods', subresource: 'status' }, 'default', 'on-n4', { status: { phase: 'Running' } });
    assert.equal((st.status as Obj).phase, 'Running');
  });
});
