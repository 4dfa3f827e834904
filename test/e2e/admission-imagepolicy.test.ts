// ImagePolicyWebhook over HTTPS (issue 21), on SQLite and etcd: a real image
// policy backend (src/testing/webhookserver.ts, mutual TLS) named by a
// connection-credentials file; pods allowed, denied with the backend's reason,
// decisions cached (an identical pod is not reviewed again), a backend answering
// 500 retried as kube does (and refused: defaultAllow false), an unreachable
// backend decided by defaultAllow (admitted and annotated failed-open, or
// refused with the error); the configuration embedded and by path; a bad one
// stops the start.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { tempDir } from '../../src/testing/tempdir.js';
import { startTestWebhook, type Review, type TestWebhook } from '../../src/testing/webhookserver.js';
import type { TestServer } from './harness.js';
import { runSvc } from './svcprocess.js';
import { BACKENDS } from './backends.js';
import { admissionConfig, given, pod } from './admission-table.js';

const NS = 'img';
const FAILED_OPEN = 'alpha.image-policy.k8s.io/failed-open';
const PODS = `/api/v1/namespaces/${NS}/pods`;

/** The backend's policy: images starting with "bad" are refused, with a reason naming them. */
function policy(review: Review) {
  const bad = (review.spec?.containers ?? []).map((c: { image?: string }) => c.image ?? '').filter((i: string) => i.startsWith('bad'));
  return bad.length > 0
    ? { allowed: false, reason: `images ${bad.join(', ')} are not signed`, auditAnnotations: { verdict: 'unsigned' } }
    : { allowed: true };
}

/**
 * A port nothing listens on. It is taken below the kernel's ephemeral range, so the servers and
 * clients this run starts (all on port 0) cannot be handed it while the test relies on it being
 * closed (a reused ephemeral port once made this test see another server's certificate).
 */
async function closedPort(): Promise<number> {
  const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
  for (let port = low - 1 - Math.floor(Math.random() * 5000); port > 1024; port--) {
    const s = net.createServer();
    const free = await new Promise<boolean>((r) => { s.once('error', () => r(false)); s.listen(port, '127.0.0.1', () => r(true)); });
    if (free) { await new Promise((r) => s.close(r)); return port; }
  }
  throw new Error('no free port below the ephemeral range');
}

const enable = { enable: ['ImagePolicyWebhook'] };
/** A pod with an init container and annotations of the image policy domains and another. */
const reviewed = (name: string, unrelated = 'no') => pod(name, { initContainers: [{ name: 'init', image: 'registry.example/init:1' }] }, {
  annotations: { 'ticket.image-policy.k8s.io/id': 'T-1', 'x.image-policy.svc.io/why': 'test', unrelated },
});
const reviews = (hook: TestWebhook) => hook.seen.map((s) => s.body);

for (const backend of BACKENDS) {
  describe(`ImagePolicyWebhook with a backend (${backend.name})`, { skip: backend.skip }, () => {
    let hook: TestWebhook;
    let t: TestServer;
    before(async () => {
      hook = await startTestWebhook({
        path: '/imagepolicy',
        handle: (review, res) => {
          // a backend failing for "flaky" images: kube retries a 500 (5 attempts, retryBackoff apart)
          if (JSON.stringify(review.spec).includes('flaky')) res.writeHead(500).end('{"kind":"Status","message":"policy store down"}');
          else res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'ImageReview', status: policy(review) }));
        },
      });
      const configFile = admissionConfig(tempDir('svc-adm-img-'), {
        ImagePolicyWebhook: { imagePolicy: { kubeConfigFile: hook.connectionFile(), allowTTL: 50, denyTTL: 50, retryBackoff: 1, defaultAllow: false } },
      });
      t = await backend.start({ admission: { ...enable, configFile } });
      await given(t, [['/api/v1/namespaces', { metadata: { name: NS } }]]);
    });
    after(async () => {
      await t?.stop();
      await hook?.close();
    });

    it('allows a pod the backend allows; the ImageReview carries its images, policy annotations and namespace', async () => {
      const r = await t.req('POST', PODS, reviewed('ok'));
      assert.equal(r.status, 201, r.text);
      const sent = reviews(hook).at(-1)!;
      assert.equal(sent.apiVersion, 'imagepolicy.k8s.io/v1alpha1');
      assert.equal(sent.kind, 'ImageReview');
      assert.deepEqual(sent.spec, {
        containers: [{ image: 'registry.example/app:1.0' }, { image: 'registry.example/init:1' }],
        annotations: { 'ticket.image-policy.k8s.io/id': 'T-1', 'x.image-policy.svc.io/why': 'test' },
        namespace: NS,
      });
      assert.equal(hook.seen.at(-1)!.clientCN, 'admin', 'the client certificate of the connection file');
      assert.equal(r.body.metadata.annotations[FAILED_OPEN], undefined);
    });

    it('refuses a pod the backend denies, with its reason; nothing stored', async () => {
      const r = await t.req('POST', PODS, pod('denied', { containers: [{ name: 'app', image: 'bad/app:2' }] }));
      assert.equal(r.status, 403, r.text);
      assert.equal(r.body.reason, 'Forbidden');
      assert.equal(r.body.message, 'pods "denied" is forbidden: image policy webhook backend denied one or more images: images bad/app:2 are not signed');
      assert.equal((await t.req('GET', `${PODS}/denied`)).status, 404);
    });

    it('caches decisions: an identical pod is not reviewed again, a different one is', async () => {
      const before = hook.seen.length;
      assert.equal((await t.req('POST', PODS, pod('denied-again', { containers: [{ name: 'app', image: 'bad/app:2' }] }))).status, 403);
      assert.equal((await t.req('POST', PODS, reviewed('same-images', 'other value'))).status, 201);
      assert.equal(hook.seen.length, before, 'both answered from the cache');
      assert.equal((await t.req('POST', PODS, pod('new-image', { containers: [{ name: 'app', image: 'registry.example/app:2.0' }] }))).status, 201);
      assert.equal(hook.seen.length, before + 1);
    });

    it('a backend answering 500 is asked five times, then defaultAllow false refuses with the error; not cached', async () => {
      const before = hook.seen.length;
      const flaky = pod('flaky', { containers: [{ name: 'app', image: 'flaky/app:1' }] });
      const r = await t.req('POST', PODS, flaky);
      assert.equal(r.status, 403, r.text);
      assert.match(r.body.message, /^pods "flaky" is forbidden: https:\/\/localhost:\d+\/imagepolicy: the server answered 500: .*policy store down/);
      assert.equal(hook.seen.length, before + 5);
      assert.equal((await t.req('POST', PODS, flaky)).status, 403);
      assert.equal(hook.seen.length, before + 10, 'a failure is not cached');
    });
  });

  describe(`ImagePolicyWebhook with its backend down (${backend.name})`, { skip: backend.skip }, () => {
    let hook: TestWebhook;
    const servers: Record<'open' | 'closed', TestServer | undefined> = { open: undefined, closed: undefined };
    before(async () => {
      hook = await startTestWebhook({ path: '/unused', handle: (_r, res) => res.end('{}') });
      const down = hook.connectionFile({ server: `https://localhost:${await closedPort()}/imagepolicy` });
      const dir = tempDir('svc-adm-img-down-');
      // defaultAllow true in a plugin configuration file named by `path` (kube's legacy unversioned form).
      const legacy = join(dir, 'imagepolicy.yaml');
      writeFileSync(legacy, stringify({ imagePolicy: { kubeConfigFile: down, retryBackoff: 1, defaultAllow: true } }));
      const openCfg = join(dir, 'admission-open.yaml');
      writeFileSync(openCfg, stringify({ apiVersion: 'apiserver.config.svc.io/v1', kind: 'AdmissionConfiguration', plugins: [{ name: 'ImagePolicyWebhook', path: 'imagepolicy.yaml' }] }));
      servers.open = await backend.start({ admission: { ...enable, configFile: openCfg } });
      const closedCfg = admissionConfig(tempDir('svc-adm-img-closed-'), { ImagePolicyWebhook: { imagePolicy: { kubeConfigFile: down, retryBackoff: 1, defaultAllow: false } } });
      servers.closed = await backend.start({ admission: { ...enable, configFile: closedCfg } });
      for (const t of Object.values(servers)) await given(t!, [['/api/v1/namespaces', { metadata: { name: NS } }]]);
    });
    after(async () => {
      for (const t of Object.values(servers)) await t?.stop();
      await hook?.close();
    });

    it('defaultAllow true: the pod is admitted and annotated failed-open', async () => {
      const r = await servers.open!.req('POST', PODS, pod('p'));
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.metadata.annotations[FAILED_OPEN], 'true');
      const stored = await servers.open!.req('GET', `${PODS}/p`);
      assert.equal(stored.body.metadata.annotations[FAILED_OPEN], 'true');
    });

    it('defaultAllow false: the pod is refused with the error', async () => {
      const r = await servers.closed!.req('POST', PODS, pod('p'));
      assert.equal(r.status, 403, r.text);
      assert.equal(r.body.reason, 'Forbidden');
      assert.match(r.body.message, /^pods "p" is forbidden: https:\/\/localhost:\d+: connect ECONNREFUSED/);
      assert.equal((await servers.closed!.req('GET', `${PODS}/p`)).status, 404);
    });
  });
}


describe('ImagePolicyWebhook configuration errors stop the start (exit 1)', () => {
  const dir = tempDir('svc-adm-img-bad-');
  const http = join(dir, 'http.yaml');
  writeFileSync(http, stringify({ apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'c', cluster: { server: 'http://localhost:1/' } }], contexts: [{ name: 'x', context: { cluster: 'c' } }], 'current-context': 'x' }));
  const rows: [string, unknown, RegExp][] = [
    ['no configuration', undefined, /Error: couldn't init admission plugin "ImagePolicyWebhook": no config specified\n/],
    ['allowTTL out of range', { imagePolicy: { kubeConfigFile: '/x', allowTTL: 3600 } }, /Error: couldn't init admission plugin "ImagePolicyWebhook": imagePolicy\.allowTTL: valid value is between 1s and 30m0s, got 1h0m0s\n/],
    ['a plain-HTTP backend', { imagePolicy: { kubeConfigFile: http } }, /Error: couldn't init admission plugin "ImagePolicyWebhook": imagePolicy\.kubeConfigFile: .*http\.yaml: the image policy backend http:\/\/localhost:1\/ must use https\n/],
  ];
  for (const [what, config, message] of rows) {
    it(what, async () => {
      const flags = config === undefined ? [] : [`--admission-control-config-file=${admissionConfig(tempDir('svc-adm-img-bad-'), { ImagePolicyWebhook: config })}`];
      const p = runSvc(['apiserver', '--enable-admission-plugins=ImagePolicyWebhook', ...flags, `--data-dir=${tempDir('svc-adm-img-bad-')}`, '--secure-port=0']);
      assert.equal(await p.exit, 1, p.out());
      assert.match(p.out(), message);
    });
  }
});
