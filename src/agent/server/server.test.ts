import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import https from 'node:https';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../testing/tempdir.js';
import { freePort } from '../../testing/ports.js';
import { issueClientCertificate, newCertificateAuthority, parseCertificateBundle, type PemKeyPair } from '../../server/pki.js';
import type { ApiObject } from '../../registry/object.js';
import type { Target } from '../../controllers/client.js';
import { startAgentServer, type AgentServerOptions, type RunningAgentServer } from './server.js';
import { servingTls, type ServingTls } from './tls.js';
import { LogUnavailable, type AgentHost } from './host.js';
import { nodeAttributes } from './authz.js';

// ---- fixtures ----

const dir = tempDir('svc-agent-server-');
const logFile = join(dir, '0.log');
const prevFile = join(dir, 'prev.log');
writeFileSync(logFile, '2026-01-01T00:00:01Z stdout F one\n2026-01-01T00:00:02.5Z stderr F two\n2026-01-01T00:00:03Z stdout F three\n');
writeFileSync(prevFile, '2026-01-01T00:00:00Z stdout F before the restart\n');

const pod = (ns: string, name: string, containers: string[]): ApiObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { namespace: ns, name }, spec: { containers: containers.map((c) => ({ name: c, image: 'busybox' })) } });
const pods = [pod('default', 'web', ['app', 'waiting', 'gone', 'broken']), pod('kube', 'dns', ['dns'])];
let followRunning = true;
const host: AgentHost = {
  pods: () => pods,
  logPath: async (_ns, _pod, container, previous) => {
    if (container === 'waiting') throw new LogUnavailable('container "waiting" in pod "web" is waiting to start: ContainerCreating');
    if (container === 'broken') throw new Error('failed to get container status "abc": rpc error: code = NotFound');
    if (container === 'gone') return { path: join(dir, 'missing.log'), running: async () => false };
    if (previous) return { path: prevFile, running: async () => false };
    return { path: logFile, running: async () => followRunning };
  },
};

interface Reviews {
  tokens: Record<string, { username: string; groups?: string[] }>;
  allow: (spec: Record<string, any>) => boolean | 'error';
  calls: { resource: string; spec: Record<string, any> }[];
}
function fakeApi(r: Reviews) {
  return {
    create: async (t: Target, _ns: string, obj: ApiObject): Promise<ApiObject> => {
      const spec = obj.spec as Record<string, any>;
      r.calls.push({ resource: t.resource, spec });
      if (t.resource === 'tokenreviews') {
        const u = r.tokens[spec.token];
        return { ...obj, status: u ? { authenticated: true, user: u } : { authenticated: false } };
      }
      const allowed = r.allow(spec);
      if (allowed === 'error') throw new Error('connection refused');
      return { ...obj, status: { allowed } };
    },
  };
}

let ca: PemKeyPair;
let otherCa: PemKeyPair;
let alice: PemKeyPair;
let mallory: PemKeyPair;
let tls: ServingTls;
const servers: RunningAgentServer[] = [];

before(async () => {
  ca = await newCertificateAuthority();
  otherCa = await newCertificateAuthority();
  alice = await issueClientCertificate(ca, 'alice', ['devs']);
  mallory = await issueClientCertificate(otherCa, 'mallory', []);
  tls = await servingTls({ certDir: join(dir, 'pki'), hostname: 'localhost' });
});
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function start(o: Partial<AgentServerOptions> = {}): Promise<RunningAgentServer> {
  const s = await startAgentServer({
    host, nodeName: 'node-1', address: '127.0.0.1', port: 0, tls,
    authentication: { anonymous: true, clientCAs: parseCertificateBundle(ca.cert) },
    authorization: { mode: 'AlwaysAllow' },
    logCheckIntervalMs: 20,
    ...o,
  });
  servers.push(s);
  return s;
}

interface Got { status: number; text: string; headers: http.IncomingHttpHeaders }
function get(port: number, path: string, o: { cert?: PemKeyPair; token?: string; method?: string; onData?: (s: string) => void } = {}): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = https.request({
      host: '127.0.0.1', port, path, method: o.method ?? 'GET', servername: 'localhost', ca: tls.cert, agent: false,
      ...(o.cert ? { cert: o.cert.cert, key: o.cert.key } : {}),
      headers: o.token ? { authorization: `Bearer ${o.token}` } : {},
    }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => { text += d.toString(); o.onData?.(text); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

// ---- attributes ----

test('nodeAttributes: kube\'s mapping of paths and methods', () => {
  const rows: [string, string, string, string][] = [
    ['GET', '/pods', 'get', 'proxy'],
    ['GET', '/containerLogs/ns/p/c', 'get', 'proxy'],
    ['GET', '/stats/summary', 'get', 'stats'],
    ['GET', '/stats', 'get', 'stats'],
    ['GET', '/statsx', 'get', 'proxy'],
    ['GET', '/metrics/cadvisor', 'get', 'metrics'],
    ['GET', '/logs/syslog', 'get', 'log'],
    ['GET', '/spec/', 'get', 'spec'],
    ['POST', '/exec/ns/p/c', 'create', 'proxy'],
    ['PUT', '/x', 'update', 'proxy'],
    ['PATCH', '/x', 'patch', 'proxy'],
    ['DELETE', '/x', 'delete', 'proxy'],
  ];
  for (const [method, path, verb, subresource] of rows) {
    assert.deepEqual(nodeAttributes(method, path, 'n1'), { verb, resource: 'nodes', subresource, name: 'n1' }, `${method} ${path}`);
  }
});

// ---- authentication and authorization ----

test('authentication and authorization table (real TLS, client certificates, a fake API for the reviews)', async () => {
  const reviews: Reviews = {
    tokens: { 'good-token': { username: 'bob', groups: ['ops'] }, 'kube-token': { username: 'system:kube-apiserver' } },
    allow: (spec) => (spec.user === 'system:kube-apiserver' ? 'error' : spec.user === 'alice' || spec.user === 'bob'),
    calls: [],
  };
  const api = fakeApi(reviews);
  const webhook = await start({
    authentication: { anonymous: true, clientCAs: parseCertificateBundle(ca.cert), tokenWebhook: { api, cacheTtlMs: 60_000 } },
    authorization: { mode: 'Webhook', api, authorizedTtlMs: 60_000, unauthorizedTtlMs: 60_000 },
  });
  const closed = await start({ authentication: { anonymous: false, clientCAs: parseCertificateBundle(ca.cert) } });
  const rows: { name: string; port: number; path?: string; cert?: PemKeyPair; token?: string; status: number; text?: string; sar?: Record<string, unknown> }[] = [
    { name: 'no credentials, anonymous off', port: closed.port, status: 401, text: 'Unauthorized' },
    { name: 'client certificate, AlwaysAllow', port: closed.port, cert: alice, status: 200 },
    { name: 'a certificate of another CA is refused, not anonymous', port: webhook.port, cert: mallory, status: 401, text: 'Unauthorized' },
    { name: 'client certificate, webhook allows', port: webhook.port, cert: alice, status: 200,
      sar: { user: 'alice', groups: ['devs', 'system:authenticated'], resourceAttributes: { namespace: '', verb: 'get', group: '', version: 'v1', resource: 'nodes', subresource: 'proxy', name: 'node-1' } } },
    { name: 'bearer token through TokenReview, webhook allows', port: webhook.port, token: 'good-token', status: 200,
      sar: { user: 'bob', groups: ['ops', 'system:authenticated'] } },
    { name: 'a token the API refuses', port: webhook.port, token: 'bad-token', status: 401, text: 'Unauthorized' },
    { name: 'anonymous, webhook denies', port: webhook.port, status: 403, text: 'Forbidden (user=system:anonymous, verb=get, resource=nodes, subresource=proxy)',
      sar: { user: 'system:anonymous', groups: ['system:unauthenticated'] } },
    { name: 'stats path asks for nodes/stats', port: webhook.port, path: '/stats/summary', status: 403, text: 'Forbidden (user=system:anonymous, verb=get, resource=nodes, subresource=stats)' },
    { name: 'the webhook failing', port: webhook.port, token: 'kube-token', status: 500, text: 'Authorization error (user=system:kube-apiserver, verb=get, resource=nodes, subresource=proxy)' },
  ];
  for (const r of rows) {
    reviews.calls.length = 0;
    const got = await get(r.port, r.path ?? '/pods', { ...(r.cert ? { cert: r.cert } : {}), ...(r.token ? { token: r.token } : {}) });
    assert.equal(got.status, r.status, `${r.name}: ${got.text}`);
    if (r.text !== undefined) assert.equal(got.text, r.text, r.name);
    if (r.sar) {
      const sar = reviews.calls.find((c) => c.resource === 'subjectaccessreviews');
      assert.ok(sar, `${r.name}: a SubjectAccessReview`);
      for (const [k, v] of Object.entries(r.sar)) assert.deepEqual(sar.spec[k], v, `${r.name}: ${k}`);
    }
  }
  const anon = await start({ authentication: { anonymous: true } });
  const got = await get(anon.port, '/pods');
  assert.equal(got.status, 200);
  assert.deepEqual(JSON.parse(got.text), { kind: 'PodList', apiVersion: 'v1', metadata: {}, items: pods });
});

test('review answers are cached for their TTLs', async () => {
  let now = 1_000_000;
  const reviews: Reviews = { tokens: { t: { username: 'bob' } }, allow: (spec) => spec.user === 'bob', calls: [] };
  const api = fakeApi(reviews);
  const s = await start({
    authentication: { anonymous: true, tokenWebhook: { api, cacheTtlMs: 120_000 }, now: () => now },
    authorization: { mode: 'Webhook', api, authorizedTtlMs: 300_000, unauthorizedTtlMs: 30_000, now: () => now },
  });
  const count = (resource: string) => reviews.calls.filter((c) => c.resource === resource).length;
  for (let i = 0; i < 3; i++) assert.equal((await get(s.port, '/pods', { token: 't' })).status, 200);
  for (let i = 0; i < 3; i++) assert.equal((await get(s.port, '/pods')).status, 403);
  assert.equal(count('tokenreviews'), 1);
  assert.equal(count('subjectaccessreviews'), 2);
  now += 31_000; // the deny answer expired, the allow answer and the token not
  await get(s.port, '/pods', { token: 't' });
  await get(s.port, '/pods');
  assert.equal(count('tokenreviews'), 1);
  assert.equal(count('subjectaccessreviews'), 3);
  now += 300_000; // everything expired
  await get(s.port, '/pods', { token: 't' });
  assert.equal(count('tokenreviews'), 2);
  assert.equal(count('subjectaccessreviews'), 4);
});

// ---- routes ----

test('routes table: /containerLogs, /healthz, later routes', async () => {
  const s = await start();
  const rows: { path: string; status: number; text: string }[] = [
    { path: '/containerLogs/default/web/app', status: 200, text: 'one\ntwo\nthree\n' },
    { path: '/containerLogs/default/web/app?tailLines=1&timestamps=true', status: 200, text: '2026-01-01T00:00:03Z three\n' },
    { path: '/containerLogs/default/web/app?tail=2', status: 200, text: 'two\nthree\n' },
    { path: '/containerLogs/default/web/app?tail=all&tailLines=1', status: 200, text: 'one\ntwo\nthree\n' },
    { path: '/containerLogs/default/web/app?sinceTime=2026-01-01T00:00:02Z', status: 200, text: 'two\nthree\n' },
    { path: '/containerLogs/default/web/app?limitBytes=5', status: 200, text: 'one\nt' },
    { path: '/containerLogs/default/web/app?previous=true', status: 200, text: 'before the restart\n' },
    { path: '/containerLogs/default/web/waiting', status: 400, text: 'container "waiting" in pod "web" is waiting to start: ContainerCreating' },
    { path: '/containerLogs/default/web/broken', status: 400, text: 'failed to get container status "abc": rpc error: code = NotFound' },
    { path: '/containerLogs/default/web/gone', status: 200, text: `failed to open log file "${join(dir, 'missing.log')}": open ${join(dir, 'missing.log')}: no such file or directory` },
    { path: '/containerLogs/default/nope/app', status: 404, text: 'pod "nope" does not exist' },
    { path: '/containerLogs/kube/dns/app', status: 404, text: 'container "app" not found in pod "dns"' },
    { path: '/containerLogs/default/web/app?tailLines=x', status: 400, text: '{"message": "Unable to decode query."}' },
    { path: '/containerLogs/default/web/app?sinceTime=yesterday', status: 400, text: '{"message": "Unable to decode query."}' },
    { path: '/containerLogs/default/web/app?tailLines=-1', status: 422, text: '{"message": "Invalid request."}' },
    { path: '/containerLogs/default/web/app?limitBytes=0', status: 422, text: '{"message": "Invalid request."}' },
    { path: '/containerLogs/default/web/app?sinceSeconds=0', status: 422, text: '{"message": "Invalid request."}' },
    { path: '/containerLogs/default/web/app?sinceSeconds=5&sinceTime=2026-01-01T00:00:02Z', status: 422, text: '{"message": "Invalid request."}' },
    { path: '/containerLogs/default/web', status: 404, text: '404 page not found\n' },
    { path: '/healthz', status: 200, text: 'ok' },
    { path: '/exec/default/web/app', status: 404, text: '404 page not found\n' },
    { path: '/portForward/default/web', status: 404, text: '404 page not found\n' },
    { path: '/stats/summary', status: 404, text: '404 page not found\n' },
  ];
  for (const r of rows) {
    const got = await get(s.port, r.path, { cert: alice });
    assert.equal(got.status, r.status, r.path);
    assert.equal(got.text, r.text, r.path);
  }
});

test('a later route plugs in by prefix, behind authentication and authorization', async () => {
  const s = await start({ authentication: { anonymous: false, clientCAs: parseCertificateBundle(ca.cert) }, extraRoutes: { '/exec': (_req, res, url) => void res.end(`exec ${url.pathname}`) } });
  assert.deepEqual([(await get(s.port, '/exec/default/web/app', { cert: alice, method: 'POST' })).text, (await get(s.port, '/exec/default/web/app', { method: 'POST' })).status], ['exec /exec/default/web/app', 401]);
  assert.equal((await get(s.port, '/execx', { cert: alice })).status, 404);
  assert.equal((await get(s.port, '/attach/default/web/app', { cert: alice })).status, 404);
});

test('the health server answers /healthz over plain HTTP; a failing sync loop is a 500 with kube\'s check list', async () => {
  let unhealthy: string | undefined;
  const s = await start({ host: { ...host, unhealthy: () => unhealthy }, healthz: { address: '127.0.0.1', port: await freePort() } });
  const plain = (path: string) => new Promise<{ status: number; text: string }>((resolve, reject) => {
    http.get({ host: '127.0.0.1', port: s.healthzPort, path, agent: false }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    }).on('error', reject);
  });
  assert.deepEqual(await plain('/healthz'), { status: 200, text: 'ok' });
  const off = await start({ healthz: { address: '127.0.0.1', port: 0 } });
  assert.equal(off.healthzPort, undefined);
  assert.deepEqual(await plain('/pods'), { status: 404, text: '404 page not found\n' });
  unhealthy = 'pleg was last seen active 4m ago';
  assert.deepEqual(await plain('/healthz'), { status: 500, text: '[+]ping ok\n[+]log ok\n[-]syncloop failed: reason withheld\nhealthz check failed\n' });
});

test('follow streams lines as the file grows and ends when the container stops', async () => {
  const s = await start();
  followRunning = true;
  let appended = false;
  const got = await get(s.port, '/containerLogs/default/web/app?follow=true&tailLines=1', {
    cert: alice,
    onData: (text) => {
      if (text === 'three\n' && !appended) {
        appended = true;
        appendFileSync(logFile, '2026-01-01T00:00:04Z stdout F four\n');
      } else if (text.endsWith('four\n')) {
        followRunning = false;
      }
    },
  });
  assert.equal(got.status, 200);
  assert.equal(got.headers['transfer-encoding'], 'chunked');
  assert.equal(got.text, 'three\nfour\n');
});

test('a follow ends when the client goes away', async () => {
  const s = await start();
  followRunning = true;
  await new Promise<void>((resolve, reject) => {
    const req = https.get({ host: '127.0.0.1', port: s.port, path: '/containerLogs/default/web/app?follow=true', servername: 'localhost', ca: tls.cert, cert: alice.cert, key: alice.key, agent: false }, (res) => {
      res.once('data', () => {
        assert.equal(s.openLogStreams(), 1);
        req.destroy();
        resolve();
      });
    });
    req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
  });
  for (let i = 0; i < 200 && s.openLogStreams() > 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(s.openLogStreams(), 0);
  followRunning = false;
});

test('self-signed serving pair: generated once in --cert-dir, then loaded', async () => {
  const certDir = join(tempDir('svc-agent-tls-'), 'pki');
  const first = await servingTls({ certDir, hostname: 'node-7' });
  assert.equal(first.generated, true);
  const chain = parseCertificateBundle(first.cert);
  assert.equal(chain.length, 2);
  assert.match(chain[0]!.subject, /CN=node-7@\d+/);
  assert.match(chain[1]!.subject, /CN=node-7-ca@\d+/);
  assert.equal(chain[0]!.checkHost('node-7'), 'node-7');
  assert.ok(chain[0]!.verify(chain[1]!.publicKey));
  const again = await servingTls({ certDir, hostname: 'node-7' });
  assert.equal(again.generated, false);
  assert.equal(again.cert, first.cert);
  const given = await servingTls({ certDir: '/nonexistent', hostname: 'x', tlsCertFile: first.certFile, tlsPrivateKeyFile: first.keyFile });
  assert.equal(given.key, first.key);
});
