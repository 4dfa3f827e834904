// --service-node-port-range reaches Service validation as well as allocation:
// with a range other than the default, ports inside it are accepted (given or
// allocated) and the error for a port outside it names the configured range.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './harness.js';

describe('--service-node-port-range in validation', () => {
  let t: TestServer;
  before(async () => (t = await startTestServer({ serviceNodePortRange: '20000-20100' })));
  after(async () => t?.stop());

  const service = (name: string, nodePort?: number) => ({
    apiVersion: 'v1', kind: 'Service', metadata: { name },
    spec: { type: 'NodePort', selector: { app: name }, ports: [{ port: 80, ...(nodePort === undefined ? {} : { nodePort }) }] },
  });

  it('accepts a requested port inside the configured range', async () => {
    const r = await t.req('POST', '/api/v1/namespaces/default/services', service('given', 20050));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.spec.ports[0].nodePort, 20050);
  });

  it('allocates from the configured range and the result validates', async () => {
    const r = await t.req('POST', '/api/v1/namespaces/default/services', service('allocated'));
    assert.equal(r.status, 201, r.text);
    const np = r.body.spec.ports[0].nodePort as number;
    assert.ok(np >= 20000 && np <= 20100, String(np));
    const updated = await t.req('PUT', '/api/v1/namespaces/default/services/allocated', { ...r.body, metadata: { ...r.body.metadata, labels: { x: 'y' } } });
    assert.equal(updated.status, 200, updated.text);
  });

  it('rejects a port of the default range, naming the configured one', async () => {
    const r = await t.req('POST', '/api/v1/namespaces/default/services', service('outside', 30080));
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.message, 'Service "outside" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is not in the valid range. The range of valid ports is 20000-20100');
  });
});
