// The admission callback client against real HTTPS callback servers: the
// request as kube sends it, TLS verification (caBundle, system roots, the
// service DNS name), credentials chosen by host, service resolution through
// Service and Endpoints, the deadline, the body cap, HTTP/1.1 and connection
// reuse, and the bound per webhook.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { issueClientCertificate } from '../server/pki.js';
import { startCallbackServer, type CallbackAnswer, type CallbackRequest, type CallbackServer } from '../testing/webhookserver.js';
import type { ApiObject } from '../registry/object.js';
import { newNotFound } from '../api/meta/status.js';
import { AdmissionCallbackClient, CallbackConfigError, type AdmissionCallbackClientOptions, type CallbackCall } from './callback.js';
import { OutboundError } from './client.js';
import { parseCredentialsFile } from './connfile.js';
import { endpointsResolver, type ServiceResolver } from './serviceresolver.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const never = new Promise<CallbackAnswer>(() => undefined);
const noServices: ServiceResolver = (_ns, name) => Promise.reject(newNotFound({ group: '', resource: 'service' }, name));

/** A registry holding one Service hook/web (port 443, named https) whose Endpoints point at 127.0.0.1:<port>. */
function registryFor(port: number) {
  const objects = new Map<string, ApiObject>([
    ['services/web/hook', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'hook', namespace: 'web' }, spec: { type: 'ClusterIP', ports: [{ name: 'https', port: 443, targetPort: 'https' }] } }],
    ['endpoints/web/hook', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'hook', namespace: 'web' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port }] }] } as ApiObject],
    ['services/web/other', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'other', namespace: 'web' }, spec: { ports: [{ port: 443 }] } }],
    ['endpoints/web/other', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'other', namespace: 'web' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port }] }] } as ApiObject],
  ]);
  return {
    store: (_g: string, resource: string) => ({
      getShared: async (ns: string, name: string) => {
        const o = objects.get(`${resource}/${ns}/${name}`);
        if (!o) throw newNotFound({ group: '', resource }, name);
        return o;
      },
    }),
  };
}

describe('admission callback client', () => {
  let h1: CallbackServer;
  let h2: CallbackServer;
  let answer: (r: CallbackRequest) => CallbackAnswer | Promise<CallbackAnswer> = () => ({ body: '{"ok":true}' });
  const clients: AdmissionCallbackClient[] = [];
  const client = (o: Partial<AdmissionCallbackClientOptions> = {}) => {
    const c = new AdmissionCallbackClient({ resolveService: noServices, ...o });
    clients.push(c);
    return c;
  };
  const call = (c: AdmissionCallbackClient, config: CallbackCall['config'], extra: Partial<CallbackCall> = {}) =>
    c.call({ config, body: '{"kind":"AdmissionReview"}', timeoutMs: 10_000, key: 'cfg/hook', ...extra });
  const rejectsWith = async (p: Promise<unknown>, kind: string, message: string | RegExp) => {
    await assert.rejects(p, (err: unknown) => {
      assert.ok(err instanceof OutboundError, String(err));
      assert.equal(err.kind, kind);
      if (typeof message === 'string') assert.equal(err.message, message);
      else assert.match(err.message, message);
      return true;
    });
  };

  before(async () => {
    h1 = await startCallbackServer({ hosts: ['hook.web.svc'], handle: (r) => answer(r) });
    h2 = await startCallbackServer({ http2: true, handle: (r) => answer(r) });
  });
  after(async () => {
    for (const c of clients) c.close();
    await h1.close();
    await h2.close();
  });

  it('POSTs the review to the url with kube\'s headers and ?timeout, verified against the caBundle', async () => {
    answer = () => ({ status: 200, body: '{"ok":true}' });
    h1.seen.length = 0;
    const r = await call(client(), { url: `https://localhost:${h1.port}/validate`, caBundle: h1.caBundle });
    assert.equal(r.status, 200);
    assert.equal(r.body.toString(), '{"ok":true}');
    assert.equal(r.contentType, 'application/json');
    const seen = h1.seen[0]!;
    assert.equal(seen.url, '/validate?timeout=10s');
    assert.equal(seen.body, '{"kind":"AdmissionReview"}');
    assert.equal(seen.headers['content-type'], 'application/json');
    assert.equal(seen.headers.accept, 'application/json, */*');
    assert.equal(seen.headers['user-agent'], 'svc-apiserver-admission');
    assert.equal(seen.headers.authorization, undefined);
    assert.equal(seen.servername, 'localhost');
  });

  it('returns non-2xx answers as results; the path defaults to / and the timeout rounds up to seconds', async () => {
    answer = () => ({ status: 500, body: 'boom', contentType: 'text/plain' });
    h1.seen.length = 0;
    const r = await call(client(), { url: `https://localhost:${h1.port}`, caBundle: h1.caBundle }, { timeoutMs: 2500 });
    assert.deepEqual([r.status, r.body.toString(), r.contentType], [500, 'boom', 'text/plain']);
    assert.equal(h1.seen[0]!.url, '/?timeout=3s');
  });

  it('fails TLS verification with Go\'s words: a caBundle of another CA, no caBundle (system roots), a name not in the certificate', async () => {
    const c = client({ resolveService: endpointsResolver(registryFor(h1.port)) });
    const url = `https://localhost:${h1.port}/x`;
    const unknown = `Post "${url}?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority`;
    await rejectsWith(call(c, { url, caBundle: h2.caBundle }), 'network', unknown);
    await rejectsWith(call(c, { url }), 'network', unknown);
    await rejectsWith(call(c, { service: { namespace: 'web', name: 'other' }, caBundle: h1.caBundle }), 'network',
      /^Post "https:\/\/other\.web\.svc:443\/\?timeout=10s": tls: failed to verify certificate: x509: certificate is valid for .*hook\.web\.svc.*, not other\.web\.svc$/);
  });

  it('calls a service at the address its Endpoints give, verifying and sending <name>.<namespace>.svc', async () => {
    answer = () => ({ body: '{"svc":true}' });
    h1.seen.length = 0;
    const c = client({ resolveService: endpointsResolver(registryFor(h1.port)) });
    const r = await call(c, { service: { namespace: 'web', name: 'hook', path: '/mutate' }, caBundle: h1.caBundle });
    assert.equal(r.body.toString(), '{"svc":true}');
    assert.equal(h1.seen[0]!.servername, 'hook.web.svc');
    assert.equal(h1.seen[0]!.headers.host, 'hook.web.svc:443');
    assert.equal(h1.seen[0]!.url, '/mutate?timeout=10s');
  });

  it('fails a service nothing serves with the resolver\'s message after the URL', async () => {
    const c = client({ resolveService: endpointsResolver(registryFor(h1.port)) });
    await rejectsWith(call(c, { service: { namespace: 'web', name: 'gone', port: 8443 }, caBundle: h1.caBundle }), 'network',
      'Post "https://gone.web.svc:8443/?timeout=10s": service "gone" not found');
    await rejectsWith(call(c, { service: { namespace: 'web', name: 'hook', port: 8443 }, caBundle: h1.caBundle }), 'network',
      'Post "https://hook.web.svc:8443/?timeout=10s": no service port 8443 found for service "hook"');
  });

  it('presents the credentials the file gives the host: client certificate, bearer token, basic', async () => {
    const cert = await issueClientCertificate(h1.pki.ca, 'apiserver-admission');
    const file = parseCredentialsFile(stringify({
      apiVersion: 'v1', kind: 'Config',
      users: [
        { name: `localhost:${h1.port}`, user: { 'client-certificate-data': b64(cert.cert), 'client-key-data': b64(cert.key) } },
        { name: '*.web.svc', user: { token: 'svc-token' } },
        { name: '*', user: { username: 'admission', password: 'secret' } },
      ],
    }), { path: 'creds.yaml', baseDir: '/' });
    const c = client({ credentials: file, resolveService: endpointsResolver(registryFor(h1.port)) });
    const rows: { name: string; config: CallbackCall['config']; cn?: string; auth?: string }[] = [
      { name: 'host:port → client certificate', config: { url: `https://localhost:${h1.port}/`, caBundle: h1.caBundle }, cn: 'apiserver-admission' },
      { name: 'service on 443 → *.web.svc without the port → token', config: { service: { namespace: 'web', name: 'hook' }, caBundle: h1.caBundle }, auth: 'Bearer svc-token' },
      { name: 'other host → * → basic', config: { url: `https://127.0.0.1:${h1.port}/`, caBundle: h1.caBundle }, auth: `Basic ${b64('admission:secret')}` },
    ];
    answer = () => ({ body: '{}' });
    for (const row of rows) {
      h1.seen.length = 0;
      await call(c, row.config);
      assert.equal(h1.seen[0]!.clientCN, row.cn, row.name);
      assert.equal(h1.seen[0]!.headers.authorization, row.auth, row.name);
    }
  });

  it('times out end to end with Go\'s context deadline exceeded', async () => {
    answer = () => never;
    await rejectsWith(call(client(), { url: `https://localhost:${h1.port}/hang`, caBundle: h1.caBundle }, { timeoutMs: 200 }), 'timeout',
      `Post "https://localhost:${h1.port}/hang?timeout=1s": context deadline exceeded`);
  });

  it('caps the response body', async () => {
    const c = client({ maxResponseBytes: 1024 });
    answer = () => ({ body: 'x'.repeat(1024) });
    assert.equal((await call(c, { url: `https://localhost:${h1.port}/`, caBundle: h1.caBundle })).body.length, 1024);
    answer = () => ({ body: 'x'.repeat(64 * 1024) });
    await rejectsWith(call(c, { url: `https://localhost:${h1.port}/`, caBundle: h1.caBundle }), 'too-large',
      `Post "https://localhost:${h1.port}/?timeout=10s": response body larger than 1024 bytes`);
    await rejectsWith(call(client({ maxResponseBytes: 1024 }), { url: `https://localhost:${h2.port}/`, caBundle: h2.caBundle }), 'too-large', /response body larger than 1024 bytes$/);
  });

  it('speaks HTTP/1.1 even to a server offering h2, as kube pins webhook clients: one connection for sequential calls, one per concurrent call', async () => {
    answer = () => ({ body: '{}' });
    h2.seen.length = 0;
    const before = h2.connections();
    const c = client();
    const config = { url: `https://localhost:${h2.port}/h2`, caBundle: h2.caBundle };
    for (let i = 0; i < 3; i++) assert.equal((await call(c, config)).protocol, 'http/1.1');
    assert.equal(h2.connections() - before, 1);
    await Promise.all(Array.from({ length: 8 }, () => call(c, config)));
    assert.equal(h2.seen.length, 11);
    assert.ok(h2.seen.every((r) => r.httpVersion === '1.1'));
    assert.equal(h2.connections() - before, 8, 'the idle connection and seven new ones');
    assert.deepEqual(c.stats(), { entries: 1, idle: 8 });
  });

  it('opens a new connection when the server closes one after answering (Connection: close)', async () => {
    answer = () => ({ body: '{}', closeConnection: true });
    h1.seen.length = 0;
    const before = h1.connections();
    const c = client();
    const config = { url: `https://localhost:${h1.port}/close`, caBundle: h1.caBundle };
    for (let i = 0; i < 3; i++) assert.equal((await call(c, config)).status, 200);
    assert.equal(h1.connections() - before, 3);
    assert.deepEqual(c.stats(), { entries: 1, idle: 0 });
  });

  it('keeps HTTP/1.1 connections alive', async () => {
    answer = () => ({ body: '{}' });
    h1.seen.length = 0;
    const before = h1.connections();
    const c = client();
    for (let i = 0; i < 4; i++) assert.equal((await call(c, { url: `https://localhost:${h1.port}/h1`, caBundle: h1.caBundle })).protocol, 'http/1.1');
    assert.ok(h1.seen.every((r) => r.httpVersion === '1.1'));
    assert.equal(h1.connections() - before, 1);
  });

  it('bounds calls per webhook: a hung webhook holds only its own slots, a queued call times out unsent', async () => {
    const c = client({ maxInFlightPerWebhook: 2 });
    answer = (r) => (r.url.startsWith('/hang') ? never : { body: '{"fast":true}' });
    h2.seen.length = 0;
    const hang = { url: `https://localhost:${h2.port}/hang`, caBundle: h2.caBundle };
    // the queued (third) call's deadline comes first: were it the same, a slot freed by a timed-out call could
    // send it in the moment before its own timer fires
    // (each outcome kept at once: the third fails while the test still waits on others)
    const hung = [1500, 1500, 500].map((timeoutMs) => call(c, hang, { key: 'cfg/slow', timeoutMs }).then(() => undefined, (err: unknown) => err));
    while (h2.seen.filter((r) => r.url.startsWith('/hang')).length < 2) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(c.load('cfg/slow'), { running: 2, waiting: 1 });
    const fast = await call(c, { url: `https://localhost:${h2.port}/fast`, caBundle: h2.caBundle }, { key: 'cfg/fast' });
    assert.equal(fast.body.toString(), '{"fast":true}');
    for (const p of hung) await rejectsWith(p.then((err) => Promise.reject(err ?? new Error('the call did not time out'))), 'timeout', /context deadline exceeded$/);
    assert.equal(h2.seen.filter((r) => r.url.startsWith('/hang')).length, 2);
    assert.deepEqual(c.load('cfg/slow'), { running: 0, waiting: 0 });
  });

  it('fails unusable configurations and unreachable servers as network errors', async () => {
    const c = client();
    await assert.rejects(call(c, { url: `https://localhost:${h1.port}/`, caBundle: b64('not a certificate') }),
      (err: unknown) => err instanceof CallbackConfigError && err.kind === 'network' && err.message === 'unable to load root certificates: unable to parse bytes as PEM block');
    await assert.rejects(call(c, {}), (err: unknown) => err instanceof CallbackConfigError && err.message === 'webhook configuration must have either service or URL');
    const closed = await startCallbackServer({});
    const port = closed.port;
    await closed.close();
    await rejectsWith(call(c, { url: `https://127.0.0.1:${port}/`, caBundle: h1.caBundle }), 'network',
      `Post "https://127.0.0.1:${port}/?timeout=10s": dial tcp 127.0.0.1:${port}: connect: connection refused`);
  });
});
