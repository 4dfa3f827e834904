// The HTTP/1.1 webhook transport against a raw TLS server that answers with
// scripted bytes: framing (length, chunked, until close, interim 1xx),
// keep-alive and its refusal, the body cap, malformed answers, the deadline,
// and the one retry after a server closed an idle connection.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import { ensurePki } from '../server/pki.js';
import { tempDir } from '../testing/tempdir.js';
import { Deadline } from './deadline.js';
import { H1Connections } from './h1.js';
import { BodyTooLargeError, type Exchange } from './pool.js';

/** What the server does with request n (1-based) on a connection: the bytes to write, then maybe close. */
type Script = (n: number) => { bytes: string | string[]; close?: boolean; closeBefore?: boolean };

let ca = '';
let serving = { cert: '', key: '' };
let script: Script = () => ({ bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}' });
let connections = 0;
const requests: string[] = [];
let server: tls.Server;
let port = 0;

before(async () => {
  const pki = await ensurePki({ dataDir: tempDir('svc-test-h1-'), extraHosts: [] });
  ca = pki.ca.cert;
  serving = pki.serving;
  server = tls.createServer({ cert: serving.cert, key: serving.key, ALPNProtocols: ['http/1.1'] }, (socket) => {
    connections++;
    let n = 0;
    let buf = '';
    socket.on('error', () => undefined);
    socket.on('data', (d: Buffer) => {
      buf += d.toString('latin1');
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const len = Number(/content-length: (\d+)/i.exec(buf.slice(0, end))?.[1] ?? 0);
        if (buf.length < end + 4 + len) return;
        requests.push(buf.slice(0, end + 4 + len));
        buf = buf.slice(end + 4 + len);
        const s = script(++n);
        if (s.closeBefore) return void socket.destroy();
        const parts = Array.isArray(s.bytes) ? s.bytes : [s.bytes];
        // written in separate packets when several parts are given
        parts.forEach((p, i) => setTimeout(() => socket.write(p, 'latin1'), i * 5));
        if (s.close) setTimeout(() => socket.end(), parts.length * 5 + 5);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
after(() => new Promise<void>((r) => server.close(() => r())));

const pool = (idleTimeoutMs = 60_000) => new H1Connections({ host: '127.0.0.1', port, servername: 'localhost', context: tls.createSecureContext({ ca }), handshakeTimeoutMs: 5000, idleTimeoutMs });
const exchange = (over: Partial<Exchange> = {}): Exchange => ({
  path: '/hook?timeout=10s', authority: `127.0.0.1:${port}`, headers: { 'Content-Type': 'application/json', Accept: 'application/json, */*' },
  body: Buffer.from('{"kind":"AdmissionReview"}'), maxResponseBytes: 1024, signal: new Deadline(5000, () => new Error('deadline')), ...over,
});

describe('H1Connections', () => {
  const framing: [string, string | string[], number, string][] = [
    ['Content-Length', 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"a":"bcd"}', 200, '{"a":"bcd"}'],
    ['Content-Length over several packets', ['HTTP/1.1 201 Created\r\nContent-Len', 'gth: 4\r\n\r\n{"', 'x}'], 201, '{"x}'],
    ['chunked', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{"a"\r\n3;ext=1\r\n:1}\r\n0\r\n\r\n', 200, '{"a":1}'],
    ['chunked with trailers, in pieces', ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r', '\n{}\r\n0\r\nX-T: 1\r\n', '\r\n'], 200, '{}'],
    ['an interim 100 Continue first', 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok', 200, 'ok'],
    ['204 without a body', 'HTTP/1.1 204 No Content\r\n\r\n', 204, ''],
    ['an error status', 'HTTP/1.1 500 Internal Server Error\r\nContent-Length: 4\r\n\r\noops', 500, 'oops'],
    ['header names in any case, blanks around them, other headers between', 'HTTP/1.1 200 OK\r\nDate: x\r\n \tcontent-LENGTH : 3\r\nX-Content-Length: 99\r\nTRANSFER-ENCODING-X: chunked\r\n\r\nabc', 200, 'abc'],
    ['chunked named in mixed case among other codings', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip , Chunked\r\n\r\n2\r\nok\r\n 0 \r\n\r\n', 200, 'ok'],
    ['a status line without a reason', 'HTTP/1.1 202\r\nContent-Length: 1\r\n\r\n1', 202, '1'],
  ];
  for (const [name, bytes, status, body] of framing) {
    it(`reads ${name}, and reuses the connection`, async () => {
      script = () => ({ bytes });
      const p = pool();
      const before = connections;
      for (let i = 0; i < 2; i++) {
        const a = await p.send(exchange());
        assert.equal(a.status, status);
        assert.equal(a.body.toString(), body);
        assert.equal(a.protocol, 'http/1.1');
      }
      assert.equal(connections - before, 1, 'one connection for both calls');
      p.close();
    });
  }

  it('writes the request as Go does: POST, Host, the headers, Content-Length, the body', async () => {
    script = () => ({ bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n' });
    const p = pool();
    requests.length = 0;
    await p.send(exchange());
    assert.equal(requests[0], `POST /hook?timeout=10s HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, */*\r\nContent-Length: 26\r\n\r\n{"kind":"AdmissionReview"}`);
    p.close();
  });

  it('reads until close without a length, and does not reuse that connection', async () => {
    script = () => ({ bytes: 'HTTP/1.1 200 OK\r\n\r\n{"done":true}', close: true });
    const p = pool();
    const before = connections;
    assert.equal((await p.send(exchange())).body.toString(), '{"done":true}');
    assert.equal((await p.send(exchange())).body.toString(), '{"done":true}');
    assert.equal(connections - before, 2);
    p.close();
  });

  it('honours Connection: close', async () => {
    script = () => ({ bytes: 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}', close: true });
    const p = pool();
    const before = connections;
    await p.send(exchange());
    await p.send(exchange());
    assert.equal(connections - before, 2);
    assert.equal(p.idleCount, 0);
    p.close();
  });

  it('refuses a body over the cap, by length or as chunks arrive', async () => {
    for (const bytes of ['HTTP/1.1 200 OK\r\nContent-Length: 2000\r\n\r\n', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7d0\r\n' + 'x'.repeat(2000) + '\r\n0\r\n\r\n']) {
      script = () => ({ bytes });
      const p = pool();
      await assert.rejects(p.send(exchange()), (e: unknown) => e instanceof BodyTooLargeError && e.message === 'response body larger than 1024 bytes');
      assert.equal(p.idleCount, 0);
      p.close();
    }
  });

  it('fails on a malformed answer, and on a connection closed mid-answer', async () => {
    script = () => ({ bytes: 'HTTX/1.1 200 OK\r\n\r\n' });
    let p = pool();
    await assert.rejects(p.send(exchange()), /^Error: malformed HTTP response "HTTX\/1.1 200 OK"$/);
    p.close();
    for (const [line, want] of [['HTTP/1.2 200 OK', 'HTTP/1.2 200 OK'], ['HTTP/1.1 2x0 OK', 'HTTP/1.1 2x0 OK'], ['HTTP/1.1 20', 'HTTP/1.1 20'], ['HTTP/1.1  200', 'HTTP/1.1  200']]) {
      script = () => ({ bytes: `${line}\r\n\r\n` });
      p = pool();
      await assert.rejects(p.send(exchange()), { message: `malformed HTTP response ${JSON.stringify(want)}` });
      p.close();
    }
    script = () => ({ bytes: 'HTTP/1.1 200 OK\r\nno colon here\r\n\r\n' });
    p = pool();
    await assert.rejects(p.send(exchange()), { message: 'malformed MIME header line: no colon here' });
    p.close();
    script = () => ({ bytes: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nz1\r\n' });
    p = pool();
    await assert.rejects(p.send(exchange()), { message: 'invalid byte in chunk length' });
    p.close();
    script = () => ({ bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{}', close: true });
    p = pool();
    await assert.rejects(p.send(exchange()), /unexpected EOF/);
    p.close();
  });

  it('sends once more on a new connection when the server closed the reused one without answering', async () => {
    script = (n) => (n === 1 ? { bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}' } : { bytes: '', closeBefore: true });
    const p = pool();
    const before = connections;
    await p.send(exchange());
    // the second request on connection 1 is dropped unanswered; connection 2's first request is answered
    const a = await p.send(exchange());
    assert.equal(a.body.toString(), '{}');
    assert.equal(connections - before, 2);
    p.close();
  });

  it('does not send again when a new connection is closed without an answer', async () => {
    script = () => ({ bytes: '', closeBefore: true });
    const p = pool();
    const before = connections;
    await assert.rejects(p.send(exchange()), /EOF/);
    assert.equal(connections - before, 1);
    p.close();
  });

  it('gives up at the deadline and drops the connection', async () => {
    script = () => ({ bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n{' }); // never completes
    const p = pool();
    const d = new Deadline(100, () => new Error('context deadline exceeded'));
    await assert.rejects(p.send(exchange({ signal: d })), /^Error: context deadline exceeded$/);
    assert.equal(p.idleCount, 0);
    p.close();
  });

  it('does not reuse a connection idle past the timeout, and closes idle ones from one timer', async () => {
    script = () => ({ bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}' });
    const p = pool(50);
    const before = connections;
    await p.send(exchange());
    await new Promise((r) => setTimeout(r, 80));
    await p.send(exchange());
    assert.equal(connections - before, 2, 'the expired connection was not taken');
    assert.equal(p.idleCount, 1);
    await new Promise((r) => setTimeout(r, 1100)); // the sweep runs at most once a second
    assert.equal(p.idleCount, 0);
    p.close();
  });
});
