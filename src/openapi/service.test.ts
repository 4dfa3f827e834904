// The HTTP side of /openapi/v2 and /openapi/v3: negotiation, ETags, the v3 hash
// (immutable answers, redirects for a stale hash), unknown group-versions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestContext } from '../server/context.js';
import { servedResources } from '../server/served.js';
import { OpenAPIService, PROTOBUF_V2 } from './service.js';

interface Answer {
  handled: boolean;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const service = new OpenAPIService(servedResources());

function call(target: string, headers: Record<string, string> = {}, method = 'GET'): Answer {
  const answer: Answer = { handled: false, status: 0, headers: {}, body: Buffer.alloc(0) };
  const res = {
    statusCode: 200,
    headersSent: false,
    writableEnded: false,
    setHeader: (k: string, v: string | number) => void (answer.headers[k.toLowerCase()] = String(v)),
    getHeader: (k: string) => answer.headers[k.toLowerCase()],
    end: (chunk?: string | Uint8Array) => {
      answer.body = chunk === undefined ? Buffer.alloc(0) : Buffer.from(chunk);
      res.writableEnded = true;
    },
  };
  const url = new URL(target, 'https://127.0.0.1');
  const ctx = { req: { method, url: target, headers }, res, url } as unknown as RequestContext;
  answer.handled = service.handle(ctx, url.pathname);
  answer.status = res.statusCode;
  return answer;
}

const PROTO_ASKED = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

describe('GET /openapi/v2', () => {
  const cases: [accept: string | undefined, status: number, contentType: string | undefined][] = [
    [undefined, 200, 'application/json'],
    ['application/json', 200, 'application/json'],
    ['*/*', 200, 'application/json'],
    [PROTO_ASKED, 200, PROTOBUF_V2],
    [PROTOBUF_V2, 200, PROTOBUF_V2],
    [`${PROTO_ASKED};q=0.5, application/json`, 200, 'application/json'],
    [`application/json;q=0.5, ${PROTO_ASKED}`, 200, PROTOBUF_V2],
    ['text/html', 406, 'text/plain; charset=utf-8'],
  ];
  for (const [accept, status, contentType] of cases) {
    it(`Accept: ${accept ?? '(none)'} → ${status} ${contentType}`, () => {
      const a = call('/openapi/v2?timeout=32s', accept === undefined ? {} : { accept });
      assert.equal(a.status, status);
      assert.equal(a.headers['content-type'], contentType);
      if (status === 200) assert.ok(a.body.length > 100_000);
    });
  }

  it('the protobuf Content-Type has no "@" (Go\'s mime parser rejects it)', () => {
    assert.ok(!call('/openapi/v2', { accept: PROTO_ASKED }).headers['content-type']!.includes('@'));
  });

  it('the JSON answer is the Swagger 2.0 document; the protobuf one starts with swagger = "2.0"', () => {
    assert.equal(JSON.parse(call('/openapi/v2').body.toString()).swagger, '2.0');
    assert.deepEqual([...call('/openapi/v2', { accept: PROTO_ASKED }).body.subarray(0, 5)], [0x0a, 0x03, 0x32, 0x2e, 0x30]);
  });

  it('ETag per representation; If-None-Match with it → 304 without a body', () => {
    const json = call('/openapi/v2');
    const proto = call('/openapi/v2', { accept: PROTO_ASKED });
    assert.match(json.headers.etag!, /^"[0-9A-F]{128}"$/);
    assert.notEqual(json.headers.etag, proto.headers.etag);
    const again = call('/openapi/v2', { 'if-none-match': json.headers.etag! });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    assert.equal(call('/openapi/v2', { 'if-none-match': `W/${proto.headers.etag}`, accept: PROTO_ASKED }).status, 304);
    assert.equal(call('/openapi/v2', { 'if-none-match': '"stale"' }).status, 200);
  });

  it('HEAD answers the headers only; other methods are not OpenAPI requests', () => {
    const head = call('/openapi/v2', {}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.ok(Number(head.headers['content-length']) > 100_000);
    assert.equal(call('/openapi/v2', {}, 'POST').handled, false);
  });
});

describe('GET /openapi/v3', () => {
  const index = call('/openapi/v3');
  const paths = JSON.parse(index.body.toString()).paths as Record<string, { serverRelativeURL: string }>;
  const appsURL = paths['apis/apps/v1']!.serverRelativeURL;
  const hash = new URL(appsURL, 'https://x').searchParams.get('hash')!;

  it('the index: JSON with an ETag', () => {
    assert.equal(index.status, 200);
    assert.equal(index.headers['content-type'], 'application/json');
    assert.equal(call('/openapi/v3', { 'if-none-match': index.headers.etag! }).status, 304);
  });

  it('with the current hash: the document, immutable for a year', () => {
    const a = call(appsURL, { accept: 'application/json' });
    assert.equal(a.status, 200);
    assert.equal(a.headers['cache-control'], 'public, immutable');
    const expires = Date.parse(a.headers.expires!);
    assert.ok(expires > Date.now() + 360 * 24 * 3600 * 1000, a.headers.expires);
    assert.equal(a.headers.etag, `"${hash}"`);
    assert.equal(a.headers.vary, 'Accept');
    assert.equal(JSON.parse(a.body.toString()).openapi, '3.0.0');
  });

  it('without a hash: the same document, revalidated each time', () => {
    const a = call('/openapi/v3/apis/apps/v1');
    assert.equal(a.status, 200);
    assert.equal(a.headers['cache-control'], 'no-cache, private');
    assert.deepEqual(a.body, call(appsURL).body);
    assert.equal(call('/openapi/v3/apis/apps/v1', { 'if-none-match': a.headers.etag! }).status, 304);
  });

  it('with a stale hash: 301 to the current URL', () => {
    const a = call('/openapi/v3/apis/apps/v1?hash=0123');
    assert.equal(a.status, 301);
    assert.equal(a.headers.location, appsURL);
  });

  it('unknown group-versions: 404; unacceptable types: 406', () => {
    for (const p of ['/openapi/v3/apis/nope/v1', '/openapi/v3/apis/apps/v9', '/openapi/v3/apis/apps', '/openapi/v3/']) {
      const a = call(p);
      assert.equal(a.status, 404, p);
      assert.equal(a.body.toString(), '404 page not found\n');
    }
    assert.equal(call('/openapi/v3/apis/apps/v1', { accept: 'text/html' }).status, 406);
  });

  it('publishes only what is served (--runtime-config)', () => {
    const without = new OpenAPIService(servedResources().filter((r) => r.group !== 'batch'));
    assert.ok(!without.v3Docs().byPath.has('apis/batch/v1'));
    assert.ok(!without.v2JsonBytes().body.toString().includes('/apis/batch/v1/'));
    assert.ok(paths['apis/batch/v1']);
  });

  it('paths that are not OpenAPI documents are left to the router', () => {
    assert.equal(call('/openapi/v4').handled, false);
    assert.equal(call('/openapiv2').handled, false);
  });
});
