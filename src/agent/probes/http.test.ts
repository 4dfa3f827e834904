// The httpGet probe against real local servers (node:http and node:https).
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { newCertificateAuthority } from '../../server/pki.js';
import { buildHttpRequest, canonicalHeaderName, httpProbe, HTTP_MAX_BODY, PROBE_USER_AGENT } from './http.js';
import type { ProbeHandler } from './spec.js';
import { closedPort as freePort } from './testing.js';
import { ProbeError, type ProbeOutcome } from './types.js';

type HttpGet = Extract<ProbeHandler, { kind: 'httpGet' }>;
const get = (over: Partial<HttpGet>): HttpGet => ({ kind: 'httpGet', scheme: 'HTTP', host: '', port: 0, path: '/', headers: [], ...over });

let seen: { url: string; headers: IncomingHttpHeaders; raw: string[] }[] = [];

function routes(port: () => number) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    seen.push({ url: req.url ?? '', headers: req.headers, raw: req.rawHeaders });
    const path = (req.url ?? '').split('?')[0];
    switch (path) {
      case '/ok': res.end('ok'); return;
      case '/created': res.writeHead(201).end('made'); return;
      case '/fail': res.writeHead(500).end('secret body'); return;
      case '/missing': res.writeHead(404).end(); return;
      case '/same': res.writeHead(302, { location: '/ok' }).end(); return;
      case '/same-abs': res.writeHead(301, { location: `http://127.0.0.1:${port()}/ok` }).end(); return;
      case '/other': res.writeHead(302, { location: `http://localhost:${port()}/ok` }).end('moved elsewhere'); return;
      case '/other-gzip': res.writeHead(302, { location: `http://localhost:${port()}/ok`, 'content-encoding': 'gzip' }).end(gzipSync('zipped move')); return;
      case '/loop': res.writeHead(302, { location: '/loop' }).end(); return;
      case '/304': res.writeHead(304).end(); return;
      case '/big': res.end(Buffer.alloc(HTTP_MAX_BODY * 10, 'a')); return;
      case '/hang': return; // never answers
      case '/trickle': res.writeHead(200); res.write('partial'); return; // never ends the body
      default: res.writeHead(404).end();
    }
  };
}

let server: Server;
let port = 0;
let httpsServer: Server;
let httpsPort = 0;
let closedPort = 0;

before(async () => {
  server = createServer(routes(() => port));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  const ca = await newCertificateAuthority();
  httpsServer = createHttpsServer({ cert: ca.cert, key: ca.key }, routes(() => httpsPort)) as unknown as Server;
  await new Promise<void>((r) => httpsServer.listen(0, '127.0.0.1', r));
  httpsPort = (httpsServer.address() as AddressInfo).port;
  closedPort = await freePort();
});

after(() => {
  server.closeAllConnections();
  server.close();
  (httpsServer as unknown as { closeAllConnections(): void }).closeAllConnections();
  httpsServer.close();
});

const probe = (h: Partial<HttpGet>, timeoutSeconds = 2, container: Record<string, unknown> = { name: 'c' }): Promise<ProbeOutcome> =>
  httpProbe(buildHttpRequest(get({ port, ...h }), container, '127.0.0.1'), timeoutSeconds);

describe('httpGet probe: results', () => {
  const rows: { name: string; h: () => Partial<HttpGet>; want: () => ProbeOutcome }[] = [
    { name: '200 is success with the body', h: () => ({ path: '/ok' }), want: () => ({ result: 'Success', output: 'ok' }) },
    { name: '201 is success', h: () => ({ path: '/created' }), want: () => ({ result: 'Success', output: 'made' }) },
    { name: '500 fails with kube\'s text, not the body', h: () => ({ path: '/fail' }), want: () => ({ result: 'Failure', output: 'HTTP probe failed with statuscode: 500' }) },
    { name: '404 fails', h: () => ({ path: '/missing' }), want: () => ({ result: 'Failure', output: 'HTTP probe failed with statuscode: 404' }) },
    { name: 'a relative redirect to the same host is followed', h: () => ({ path: '/same' }), want: () => ({ result: 'Success', output: 'ok' }) },
    { name: 'an absolute redirect to the same host is followed', h: () => ({ path: '/same-abs' }), want: () => ({ result: 'Success', output: 'ok' }) },
    { name: 'a redirect to another host is not followed: success with a warning', h: () => ({ path: '/other' }),
      want: () => ({ result: 'Warning', output: 'Probe terminated redirects, Response body: moved elsewhere' }) },
    { name: 'a gzip body Go asked for is decoded', h: () => ({ path: '/other-gzip' }),
      want: () => ({ result: 'Warning', output: 'Probe terminated redirects, Response body: zipped move' }) },
    { name: '304 (not a redirect to follow) is a warning', h: () => ({ path: '/304' }), want: () => ({ result: 'Warning', output: 'Probe terminated redirects, Response body: ' }) },
    { name: 'a redirect loop stops after 10 requests', h: () => ({ path: '/loop' }),
      want: () => ({ result: 'Failure', output: `Get "http://127.0.0.1:${port}/loop": stopped after 10 redirects` }) },
    { name: 'a refused connection fails with Go\'s dial error', h: () => ({ port: closedPort, path: '/healthz' }),
      want: () => ({ result: 'Failure', output: `Get "http://127.0.0.1:${closedPort}/healthz": dial tcp 127.0.0.1:${closedPort}: connect: connection refused` }) },
    { name: 'HTTPS without certificate verification', h: () => ({ scheme: 'HTTPS', port: httpsPort, path: '/ok' }), want: () => ({ result: 'Success', output: 'ok' }) },
    { name: 'HTTPS failure code', h: () => ({ scheme: 'HTTPS', port: httpsPort, path: '/fail' }), want: () => ({ result: 'Failure', output: 'HTTP probe failed with statuscode: 500' }) },
  ];
  for (const row of rows) it(row.name, async () => assert.deepEqual(await probe(row.h()), row.want()));

  it('a redirect loop made 10 requests', async () => {
    seen = [];
    await probe({ path: '/loop' });
    assert.equal(seen.length, 10);
  });
  it('reads at most 10 KiB of the body', async () => {
    const out = await probe({ path: '/big' });
    assert.equal(out.result, 'Success');
    assert.equal(out.output.length, HTTP_MAX_BODY);
  });
  it('a server that does not answer in time fails with Go\'s client timeout', async () => {
    assert.deepEqual(await probe({ path: '/hang' }, 1), {
      result: 'Failure', output: `Get "http://127.0.0.1:${port}/hang": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
    });
  });
  it('a body that does not end in time is an error (kube throws the result away)', async () => {
    await assert.rejects(probe({ path: '/trickle' }, 1),
      (e: unknown) => e instanceof ProbeError && e.message === 'context deadline exceeded (Client.Timeout or context cancellation while reading body)');
  });
  it('a named container port', async () => {
    assert.deepEqual(await probe({ port: 'web', path: '/ok' }, 2, { name: 'c', ports: [{ name: 'web', containerPort: port }] }), { result: 'Success', output: 'ok' });
  });
});

describe('httpGet probe: the request', () => {
  const last = (): (typeof seen)[number] => seen[seen.length - 1]!;
  it('sends kube\'s default headers and the host:port as Host', async () => {
    seen = [];
    await probe({ path: '/ok?x=1&y=2' });
    const r = last();
    assert.equal(r.url, '/ok?x=1&y=2');
    assert.equal(r.headers['user-agent'], PROBE_USER_AGENT);
    assert.equal(PROBE_USER_AGENT, 'kube-probe/1.27');
    assert.equal(r.headers.accept, '*/*');
    assert.equal(r.headers.host, `127.0.0.1:${port}`);
    assert.equal(r.headers.connection, 'close');
    assert.equal(r.headers['accept-encoding'], 'gzip');
  });
  it('probe headers: Host overrides, repeats are kept, names are Go-canonical, User-Agent and Accept replace the defaults', async () => {
    seen = [];
    await probe({
      path: '/ok',
      headers: [
        { name: 'host', value: 'app.example' }, { name: 'x-custom', value: 'a' }, { name: 'X-Custom', value: 'b' },
        { name: 'user-agent', value: 'mine' }, { name: 'Accept', value: 'application/json' },
      ],
    });
    const r = last();
    assert.equal(r.headers.host, 'app.example');
    assert.equal(r.headers['x-custom'], 'a, b');
    assert.equal(r.headers['user-agent'], 'mine');
    assert.equal(r.headers.accept, 'application/json');
    assert.ok(r.raw.includes('X-Custom'), `raw header names: ${r.raw.join(' ')}`);
  });
  it('an empty Accept header removes Accept', async () => {
    seen = [];
    await probe({ path: '/ok', headers: [{ name: 'Accept', value: '' }] });
    assert.equal(last().headers.accept, undefined);
  });
  it('the host defaults to the pod IP; an empty path requests /', () => {
    const r = buildHttpRequest(get({ port: 8080, path: '' }), { name: 'c' }, '10.244.0.7');
    assert.equal(r.display, 'http://10.244.0.7:8080');
    assert.equal(r.target, '/');
    assert.equal(r.hostHeader, '10.244.0.7:8080');
    const v6 = buildHttpRequest(get({ port: 80, path: 'healthz', scheme: 'https' }), { name: 'c' }, 'fd00::7');
    assert.equal(v6.display, 'https://[fd00::7]:80/healthz');
    assert.equal(v6.scheme, 'https');
  });
  it('canonical header names', () => {
    assert.equal(canonicalHeaderName('x-forwarded-for'), 'X-Forwarded-For');
    assert.equal(canonicalHeaderName('USER-AGENT'), 'User-Agent');
    assert.equal(canonicalHeaderName('bad name'), 'bad name');
  });
});
