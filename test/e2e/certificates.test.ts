// CSR approving and signing (issue 24): a node joining with a bootstrap token
// asks for a kubelet client certificate, the approver approves it after a
// SubjectAccessReview, the signer issues it with the cluster CA; other
// requests wait for a person (kubectl certificate approve) and a request a
// signer refuses is Failed with kube's reason.
import assert from 'node:assert/strict';
import { X509Certificate, webcrypto } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import * as x509 from '@peculiar/x509';
import { eventually, startTestServer, type TestServer } from './harness.js';
import { CsrApprover } from '../../src/controllers/certificates/approver.js';
import { CsrSigner } from '../../src/controllers/certificates/signer.js';
import { CsrCleaner } from '../../src/controllers/certificates/cleaner.js';
import { loadCertificateAuthority } from '../../src/server/pki.js';
import { kubectlFor, kubectlMissing } from './kubectlcli.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';

async function csrPem(cn: string, orgs: string[], dns: string[] = []): Promise<string> {
  x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
  const keys = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const req = await x509.Pkcs10CertificateRequestGenerator.create({
    name: [{ CN: [cn] }, ...orgs.map((o) => ({ O: [o] }))], keys, signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    extensions: dns.length > 0 ? [new x509.SubjectAlternativeNameExtension(dns.map((d) => ({ type: 'dns' as const, value: d })))] : [],
  });
  return req.toString('pem');
}

const csr = (name: string, pem: string, signerName: string, usages: string[]) => ({
  metadata: { name }, spec: { request: Buffer.from(pem).toString('base64'), signerName, usages },
});

describe('certificate signing requests', { skip: kubectlMissing }, () => {
  let t: TestServer;
  const kubectl = kubectlFor(() => t);
  let approver: CsrApprover;
  let signer: CsrSigner;
  before(async () => {
    t = await startTestServer();
    approver = new CsrApprover(t.server.controllerContext);
    signer = new CsrSigner(t.server.controllerContext, { ca: await loadCertificateAuthority(t.dataDir) });
    await approver.start();
    await signer.start();
    // kubeadm's bindings for joining nodes: bootstrappers may create CSRs and have node client ones approved
    for (const [name, role] of [['join-create', 'system:node-bootstrapper'], ['join-approve', 'system:certificates.k8s.io:certificatesigningrequests:nodeclient']]) {
      const r = await t.req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
        metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
        subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:bootstrappers' }],
      });
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => {
    approver?.stop();
    signer?.stop();
    await t?.stop();
    kubectl.cleanup();
  });

  it('a joining node\'s kubelet client request is approved after a SubjectAccessReview and signed by the cluster CA', async () => {
    const pem = await csrPem('system:node:n1', ['system:nodes']);
    const made = await t.req('POST', CSRS, csr('node-n1', pem, 'kubernetes.io/kube-apiserver-client-kubelet', ['digital signature', 'client auth']), {
      headers: { 'Impersonate-User': 'system:bootstrap:abcdef', 'Impersonate-Group': 'system:bootstrappers' },
    });
    assert.equal(made.status, 201, made.text);
    await eventually(async () => Boolean((await t.req('GET', `${CSRS}/node-n1`)).body.status?.certificate));
    const got = (await t.req('GET', `${CSRS}/node-n1`)).body;
    assert.deepEqual(got.status.conditions.map((c: Obj) => [c.type, c.status, c.reason, c.message]), [['Approved', 'True', 'AutoApproved', 'Auto approving kubelet client certificate after SubjectAccessReview.']]);
    const cert = new X509Certificate(Buffer.from(got.status.certificate, 'base64').toString('utf8'));
    const ca = new X509Certificate((await loadCertificateAuthority(t.dataDir)).cert);
    assert.ok(cert.verify(ca.publicKey), 'signed by the cluster CA');
    assert.match(cert.subject, /CN=system:node:n1/);
    assert.match(cert.subject, /O=system:nodes/);
    assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.2']);
    const days = (Date.parse(cert.validTo) - Date.now()) / 86_400_000;
    assert.ok(days > 360 && days <= 366, `valid for a year (${days} days)`);
  });

  it('a client certificate request waits for a person; approved, it is signed (svc.io signer spelling, expirationSeconds)', async () => {
    const pem = await csrPem('jane', ['devs']);
    assert.equal((await t.req('POST', CSRS, { ...csr('jane', pem, 'svc.io/kube-apiserver-client', ['client auth']), spec: { ...csr('jane', pem, 'svc.io/kube-apiserver-client', ['client auth']).spec, expirationSeconds: 3600 } })).status, 201);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await t.req('GET', `${CSRS}/jane`)).body.status?.conditions, undefined);
    // kubectl maps `csr` to the first group discovery lists (certificates.k8s.io for stock clients) and approves it
    const approved = await kubectl('certificate', 'approve', 'jane');
    assert.equal(approved.code, 0, approved.err);
    assert.equal(approved.out, 'certificatesigningrequest.certificates.k8s.io/jane approved\n');
    const condition = (await t.req('GET', `${CSRS}/jane`)).body.status.conditions[0];
    assert.deepEqual([condition.type, condition.reason, condition.message], ['Approved', 'KubectlApprove', 'This CSR was approved by kubectl certificate approve.']);
    await eventually(async () => Boolean((await t.req('GET', `${CSRS}/jane`)).body.status?.certificate));
    const cert = new X509Certificate(Buffer.from((await t.req('GET', `${CSRS}/jane`)).body.status.certificate, 'base64').toString('utf8'));
    const minutes = (Date.parse(cert.validTo) - Date.now()) / 60_000;
    assert.ok(minutes > 55 && minutes <= 61, `expirationSeconds honoured (${minutes} minutes)`);
  });

  it('a request the signer refuses is Failed with SignerValidationFailure', async () => {
    const pem = await csrPem('svc', ['x']);
    assert.equal((await t.req('POST', CSRS, csr('bad', pem, 'kubernetes.io/kube-apiserver-client', ['client auth', 'server auth']))).status, 201);
    const cur = (await t.req('GET', `${CSRS}/bad`)).body;
    const approve = await t.req('PUT', `${CSRS}/bad/approval`, { ...cur, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'ok' }] } });
    assert.equal(approve.status, 200, approve.text);
    await eventually(async () => ((await t.req('GET', `${CSRS}/bad`)).body.status?.conditions ?? []).some((c: Obj) => c.type === 'Failed'));
    const failed = (await t.req('GET', `${CSRS}/bad`)).body.status.conditions.find((c: Obj) => c.type === 'Failed');
    assert.deepEqual([failed.reason, failed.message], ['SignerValidationFailure', 'invalid usage for client certificate: server auth']);
  });

  it('the CSR cleaner: an hour later the issued, failed and denied requests go; a pending one stays until 24 hours', async () => {
    const pem = await csrPem('later', []);
    assert.equal((await t.req('POST', CSRS, csr('pending', pem, 'kubernetes.io/kube-apiserver-client', ['client auth']))).status, 201);
    const names = async () => ((await t.req('GET', CSRS)).body.items as Obj[]).map((c) => c.metadata.name as string).sort();
    const before = await names();
    assert.ok(before.includes('jane') && before.includes('bad') && before.includes('pending'), before.join());
    const cleanAt = async (ms: number) => {
      const cleaner = new CsrCleaner(t.server.controllerContext, { now: () => Date.now() + ms, periodMs: 3_600_000 });
      await cleaner.start();
      await cleaner.clean();
      cleaner.stop();
    };
    await cleanAt(2 * 3_600_000);
    await eventually(async () => (await names()).join() === 'pending');
    await cleanAt(25 * 3_600_000);
    await eventually(async () => (await names()).length === 0);
  });
});
