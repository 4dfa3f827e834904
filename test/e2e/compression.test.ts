// Response compression (APIResponseCompression, on by default): bodies over
// 128 KiB are gzip-encoded when the client accepts gzip; small bodies and
// clients that do not accept it get identity; the gate turns it off.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FeatureGates } from '../../src/features/gates.js';
import { startTestServer, type TestServer } from './harness.js';

async function fill(t: TestServer): Promise<void> {
  const data = { v: 'x'.repeat(1024) };
  for (let i = 0; i < 150; i++) {
    const r = await t.req('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: `cm-${i}` }, data });
    assert.equal(r.status, 201);
  }
}

describe('response compression', () => {
  let t: TestServer;
  let off: TestServer;
  before(async () => {
    t = await startTestServer();
    off = await startTestServer({ featureGates: FeatureGates.parse('APIResponseCompression=false') });
    await Promise.all([fill(t), fill(off)]);
  });
  after(async () => {
    await t?.stop();
    await off?.stop();
  });

  // [case, path, Accept-Encoding, server, gzip-encoded?]
  const cases: [string, string, string | undefined, (x: TestServer) => TestServer, boolean][] = [
    ['a large page, gzip accepted', '/api/v1/namespaces/default/configmaps?limit=500', 'gzip', (x) => x, true],
    ['a large unpaged list (streamed), gzip accepted', '/api/v1/namespaces/default/configmaps', 'gzip', (x) => x, true],
    ['a large page, gzip among others with q', '/api/v1/namespaces/default/configmaps?limit=500', 'deflate;q=0.5, gzip;q=0.8', (x) => x, true],
    ['a large page, identity only', '/api/v1/namespaces/default/configmaps?limit=500', 'identity', (x) => x, false],
    ['a large page, gzip refused with q=0', '/api/v1/namespaces/default/configmaps?limit=500', 'gzip;q=0', (x) => x, false],
    ['a large page, no Accept-Encoding', '/api/v1/namespaces/default/configmaps?limit=500', undefined, (x) => x, false],
    ['a small object, gzip accepted', '/api/v1/namespaces/default/configmaps/cm-1', 'gzip', (x) => x, false],
    ['a large page with the gate off', '/api/v1/namespaces/default/configmaps?limit=500', 'gzip', () => off, false],
  ];
  for (const [name, path, encoding, server, compressed] of cases) {
    it(name, async () => {
      const r = await server(t).req('GET', path, undefined, { headers: encoding ? { 'Accept-Encoding': encoding } : {} });
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-encoding'], compressed ? 'gzip' : undefined);
      if (compressed) assert.equal(r.headers.vary, 'Accept-Encoding');
      if (path.endsWith('configmaps') || path.includes('limit')) assert.equal(r.body.items.length, 150);
      else assert.equal(r.body.metadata.name, 'cm-1');
    });
  }
});
