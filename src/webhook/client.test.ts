// The outbound client on its own: credentials it presents, kube's retry
// policy (which answers are retried, how often), the body cap and the deadline.
// A plain-HTTP server keeps this quick; the token webhook tests run it over mutual TLS.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { OutboundClient, OutboundError, shouldRetry, withBackoff } from './client.js';

describe('outbound client', () => {
  let server: http.Server;
  let base: string;
  let handler: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_q, s) => s.end('{}');
  const clients: OutboundClient[] = [];
  const client = (extra: Record<string, string> = {}, o: ConstructorParameters<typeof OutboundClient>[1] = {}) => {
    const c = new OutboundClient({ server: new URL(`${base}/hook`), ...extra }, { backoff: { initialMs: 5, factor: 1.5, jitter: 0.2, steps: 5 }, ...o });
    clients.push(c);
    return c;
  };
  before(async () => {
    server = http.createServer((q, s) => handler(q, s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const c of clients) c.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('POSTs JSON to the server URL with the bearer token or basic credentials of the file', async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    let path = '';
    handler = (q, s) => {
      seen.push(q.headers);
      path = q.url ?? '';
      s.end('{"ok":true}');
    };
    assert.deepEqual(await client({ token: 'tok' }).json({ method: 'POST', body: { a: 1 } }), { ok: true });
    assert.equal(path, '/hook');
    assert.equal(seen[0]!.authorization, 'Bearer tok');
    assert.equal(seen[0]!['content-type'], 'application/json');
    await client({ username: 'u', password: 'p' } as Record<string, string>).call();
    assert.equal(seen[1]!.authorization, `Basic ${Buffer.from('u:p').toString('base64')}`);
  });

  it('retries 500, 504, 429 and Retry-After answers up to five attempts; not other answers', async () => {
    for (const [status, headers, attempts] of [[500, {}, 5], [504, {}, 5], [429, {}, 5], [503, { 'retry-after': '0' }, 5], [503, {}, 1], [400, {}, 1], [404, {}, 1]] as const) {
      let n = 0;
      handler = (_q, s) => {
        n++;
        s.writeHead(status, headers).end('{}');
      };
      await assert.rejects(client().call(), (e: unknown) => e instanceof OutboundError && e.status === status);
      assert.equal(n, attempts, `${status} ${JSON.stringify(headers)}`);
    }
  });

  it('caps the response body and keeps to its deadline', async () => {
    handler = (_q, s) => s.end('x'.repeat(2048));
    await assert.rejects(client({}, { maxResponseBytes: 1024 }).call(), (e: unknown) => e instanceof OutboundError && e.kind === 'too-large');
    handler = () => undefined; // never answers
    await assert.rejects(client({}, { timeoutMs: 100 }).call(), (e: unknown) => e instanceof OutboundError && e.kind === 'timeout');
  });

  it('backs off exponentially and gives up before the deadline', async () => {
    const times: number[] = [];
    const failing = () => {
      times.push(Date.now());
      return Promise.reject(new OutboundError('x', 'status', 500));
    };
    await assert.rejects(withBackoff({ initialMs: 20, factor: 2, jitter: 0, steps: 4 }, Date.now() + 10_000, shouldRetry, failing));
    assert.equal(times.length, 4);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    assert.ok(gaps[0]! >= 18 && gaps[1]! >= 38 && gaps[2]! >= 78, `gaps ${gaps}`);
    times.length = 0;
    await assert.rejects(withBackoff({ initialMs: 200, factor: 2, jitter: 0, steps: 5 }, Date.now() + 100, shouldRetry, failing));
    assert.equal(times.length, 1, 'the first wait would pass the deadline');
  });
});
