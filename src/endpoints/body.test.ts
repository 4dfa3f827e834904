// Reading request bodies over a real HTTP connection: whole, in chunks, empty,
// past the limit (declared or streamed), and cut short by the client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './body.js';
import { StatusError } from '../api/meta/index.js';

const LIMIT = 1000;

describe('readBody', () => {
  let server: Server;
  let port: number;
  /** What each request's read ended with, as the handler saw it (since the list was last emptied). */
  let outcomes: Promise<string>[] = [];

  before(async () => {
    server = createServer((req, res) => {
      const outcome = readBody(req, LIMIT).then(
        (b) => {
          res.end(`read ${b.length} ${b.subarray(0, 3).toString('latin1')}`);
          return `read ${b.length}`;
        },
        (err: Error) => {
          const code = err instanceof StatusError ? (err.status.code ?? 500) : 500;
          if (!res.destroyed) res.writeHead(code).end(err.message);
          return `error ${code} ${err.message}`;
        },
      );
      outcomes.push(outcome);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  /** Sends `chunks` (chunked unless `length` is given) and answers the status and body. */
  function send(chunks: Buffer[], length?: number): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request({ port, method: 'POST', path: '/', agent: false, headers: length === undefined ? {} : { 'content-length': String(length) } }, (res) => {
        const got: Buffer[] = [];
        res.on('data', (c: Buffer) => got.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(got).toString() }));
      });
      req.on('error', reject);
      let i = 0;
      const next = () => {
        if (i === chunks.length) return void req.end();
        req.write(chunks[i++]!, () => setImmediate(next));
      };
      next();
    });
  }

  const rows: [string, Buffer[], number | undefined, { status: number; body: string }][] = [
    ['a body with its length', [Buffer.from('abcdef')], 6, { status: 200, body: 'read 6 abc' }],
    ['a chunked body in several chunks, joined in order', [Buffer.from('ab'), Buffer.from('cd'), Buffer.from('ef')], undefined, { status: 200, body: 'read 6 abc' }],
    ['an empty body', [], 0, { status: 200, body: 'read 0 ' }],
    ['exactly the limit', [Buffer.alloc(600, 0x61), Buffer.alloc(400, 0x62)], undefined, { status: 200, body: 'read 1000 aaa' }],
    ['a declared length past the limit: 413 before reading', [Buffer.alloc(1001)], 1001, { status: 413, body: `Request entity too large: limit is ${LIMIT}` }],
    ['a chunked body past the limit: 413 once the limit is passed', [Buffer.alloc(600), Buffer.alloc(600), Buffer.alloc(600)], undefined, { status: 413, body: `Request entity too large: limit is ${LIMIT}` }],
  ];
  for (const [what, chunks, length, want] of rows) {
    it(what, async () => {
      assert.deepEqual(await send(chunks, length), want);
    });
  }

  it('a client that goes away mid-body ends the read with an error (no hang)', async () => {
    outcomes = [];
    const req = request({ port, method: 'POST', path: '/', agent: false, headers: { 'content-length': '500' } });
    req.on('error', () => undefined);
    req.write(Buffer.alloc(100));
    while (outcomes.length === 0) await new Promise((r) => setTimeout(r, 5));
    req.destroy();
    assert.match(await outcomes[0]!, /^error 500 /);
  });
});
