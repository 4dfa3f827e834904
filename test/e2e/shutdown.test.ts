// A server's shutdown with long-running requests open: watches end cleanly
// when it begins (HTTP/1.1 and HTTP/2; clients resume elsewhere from their
// last resourceVersion) instead of holding the drain of in-flight requests
// open; a watch whose client left before its handler listened for the close
// ends too.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import http2 from 'node:http2';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { startTestServer } from './harness.js';
import { DEFAULT_WATCH_SETTINGS, serveWatch } from '../../src/endpoints/watch.js';
import type { RequestContext } from '../../src/server/context.js';
import { within } from '../../src/async/within.js';

describe('shutdown with watches open', () => {
  it('ends HTTP/1.1 and HTTP/2 watches cleanly after their events, and finishes', async () => {
    const t = await startTestServer();
    const cfg = parse(readFileSync(t.kubeconfig, 'utf8'));
    const tls = {
      ca: Buffer.from(cfg.clusters[0].cluster['certificate-authority-data'], 'base64'),
      cert: Buffer.from(cfg.users[0].user['client-certificate-data'], 'base64'),
      key: Buffer.from(cfg.users[0].user['client-key-data'], 'base64'),
    };
    const path = '/api/v1/namespaces/default/configmaps?watch=true';
    // HTTP/1.1
    const h1 = { lines: '', ended: false, error: undefined as Error | undefined };
    let r1: ReturnType<typeof https.request> | undefined;
    const h1Started = new Promise<void>((resolve, reject) => {
      const r = (r1 = https.request(`${t.url}${path}`, { ...tls, agent: false }, (res) => {
        assert.equal(res.statusCode, 200);
        res.setEncoding('utf8');
        res.on('data', (d: string) => (h1.lines += d));
        res.on('end', () => (h1.ended = true));
        res.on('error', (e) => (h1.error = e));
        resolve();
      }));
      r.on('error', reject);
      r.end();
    });
    // HTTP/2
    const session = http2.connect(t.url, tls);
    session.on('error', () => undefined);
    const h2 = { lines: '', ended: false, error: undefined as Error | undefined };
    const st = session.request({ ':path': path });
    st.setEncoding('utf8');
    st.on('data', (d: string) => (h2.lines += d));
    st.on('end', () => (h2.ended = true));
    st.on('error', (e) => (h2.error = e));
    try {
      await h1Started;
      assert.equal((await t.req('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'seen' } })).status, 201);
      const deadline = Date.now() + 10_000;
      while ((!h1.lines.includes('"seen"') || !h2.lines.includes('"seen"')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.match(h1.lines, /^\{"type":"ADDED","object":\{.*"name":"seen"/);
      assert.match(h2.lines, /^\{"type":"ADDED","object":\{.*"name":"seen"/);

      assert.ok(await within(t.server.shutdown(), 20_000), 'the shutdown did not finish in 20 s');
      const end = Date.now() + 10_000;
      while ((!h1.ended || !h2.ended) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual([h1.ended, h1.error], [true, undefined], 'the HTTP/1.1 watch ended cleanly');
      assert.deepEqual([h2.ended, h2.error], [true, undefined], 'the HTTP/2 watch ended cleanly');
      assert.equal(h1.lines.trim().split('\n').length, 1, 'no event after the shutdown began');
    } finally {
      r1?.destroy();
      session.destroy();
      await t.stop();
    }
  });

  it('a watch whose client left before the handler listened for the close ends at once', async () => {
    const t = await startTestServer();
    try {
      const store = t.server.controllerContext.registry.store('', 'configmaps');
      const req = Object.assign(new EventEmitter(), { method: 'GET', url: '/api/v1/namespaces/default/configmaps?watch=true', headers: {}, socket: undefined, [Symbol.asyncIterator]: async function* () {} });
      const writes: unknown[] = [];
      // what Node leaves of a response whose connection closed: destroyed, its close event already emitted
      const res = Object.assign(new EventEmitter(), {
        destroyed: true, statusCode: 200, headersSent: false, writableEnded: false, writableLength: 0,
        setHeader: () => undefined, getHeader: () => undefined,
        write: (c: unknown) => (writes.push(c), false),
        end() { this.writableEnded = true; this.headersSent = true; },
      });
      const ctx = { req, res, url: new URL(`https://x${req.url}`) } as unknown as RequestContext;
      const watch = serveWatch(ctx, { store, namespace: 'default', apiVersion: 'v1', kind: 'ConfigMap', predicate: undefined, settings: DEFAULT_WATCH_SETTINGS });
      assert.ok(await within(watch, 10_000), 'the watch did not finish in 10 s');
      assert.equal(res.writableEnded, true);
      assert.deepEqual(writes, []);
    } finally {
      await t.stop();
    }
  });
});
