// A request context on a fake connection, for filter tests that run a chain
// without a server: the response records its status, headers and body, and
// out() tells what was answered.
import type { RequestContext, Response } from '../server/context.js';

export type FakeContext = RequestContext & { out(): { status: number; headers: Record<string, unknown>; body: string } };

export function fakeContext(method: string, url: string, headers: Record<string, string> = {}, remoteAddress = '::ffff:10.0.0.9'): FakeContext {
  const hdrs: Record<string, unknown> = {};
  let body = '';
  let sent = false;
  let ended = false;
  const res = {
    statusCode: 200,
    get headersSent() { return sent; },
    get writableEnded() { return ended; },
    setHeader: (n: string, v: unknown) => (hdrs[n.toLowerCase()] = v),
    getHeader: (n: string) => hdrs[n.toLowerCase()],
    writeHead(code: number) { this.statusCode = code; sent = true; },
    write: (c: unknown) => ((sent = true), (body += String(c)), true),
    end: (c?: unknown) => { if (c) body += String(c); sent = ended = true; },
    once: () => undefined,
    off: () => undefined,
  };
  const req = { method, url, headers, socket: { remoteAddress }, once: () => undefined, async *[Symbol.asyncIterator]() {} };
  const ctx = { req, res: res as unknown as Response, url: new URL(url, 'https://x'), user: { name: 'tester', groups: ['system:authenticated'] } } as unknown as RequestContext;
  return Object.assign(ctx, { out: () => ({ status: res.statusCode, headers: hdrs, body }) });
}
